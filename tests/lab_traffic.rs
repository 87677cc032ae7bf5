//! Every traffic pattern is deterministic from its seed, and equal to the traces in
//! `tests/fixtures/lab-traces.txt`, which `tests/node/lab.test.mjs` also checks against the wasm
//! build: the same seed gives the same trace, bit for bit, natively and in WebAssembly.
//! `BLESS=1 cargo test --test lab_traffic` rewrites the file (review the diff before committing).

use bucketlab::limiter::lab::{parse_timestamps, Quota, Traffic};
use std::fmt::Write;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lab-traces.txt");

/// The patterns of the fixture: a name, the pattern, the quota (limit per 1 s), the duration and
/// the seed. The same list is in `tests/node/lab.test.mjs`.
fn cases() -> Vec<(&'static str, Traffic, u32, f64, u64)> {
    vec![
        ("steady", Traffic::steady(7.0).unwrap(), 10, 3.0, 1),
        ("burst", Traffic::burst(4.0, 0.75).unwrap(), 10, 3.0, 1),
        ("poisson", Traffic::poisson(12.5).unwrap(), 10, 5.0, 42),
        (
            "poisson-seed-43",
            Traffic::poisson(12.5).unwrap(),
            10,
            5.0,
            43,
        ),
        ("ramp", Traffic::ramp(2.0, 30.0).unwrap(), 10, 4.0, 1),
        ("window-edge", Traffic::WindowEdge, 10, 4.0, 1),
        (
            "pasted",
            Traffic::pasted(parse_timestamps("0.1\n0,5\n\n2.25\n2.25").unwrap()),
            10,
            3.0,
            1,
        ),
    ]
}

fn render() -> String {
    let mut out = String::new();
    for (name, traffic, limit, duration, seed) in cases() {
        let quota = Quota::new(limit, 1.0).unwrap();
        let first = traffic.arrivals(quota, duration, seed).unwrap();
        assert_eq!(
            first,
            traffic.arrivals(quota, duration, seed).unwrap(),
            "{name}: same seed, same trace"
        );
        // Rust prints the shortest text that reads back to the same f64; so does JavaScript.
        let times: Vec<String> = first.iter().map(f64::to_string).collect();
        writeln!(out, "{name}: {}", times.join(" ")).unwrap();
    }
    out
}

#[test]
fn every_pattern_matches_the_shared_fixture() {
    let traces = render();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(FIXTURE, &traces).unwrap();
    }
    let fixture = std::fs::read_to_string(FIXTURE)
        .expect("tests/fixtures/lab-traces.txt (BLESS=1 writes it)");
    for (got, want) in traces.lines().zip(fixture.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(traces.lines().count(), fixture.lines().count());
}

#[test]
fn another_seed_gives_another_poisson_trace() {
    let quota = Quota::new(10, 1.0).unwrap();
    let poisson = Traffic::poisson(12.5).unwrap();
    let a = poisson.arrivals(quota, 5.0, 42).unwrap();
    let b = poisson.arrivals(quota, 5.0, 43).unwrap();
    assert_ne!(a, b);
}

/// A ramp over a duration so short that its slope overflows used to produce arrivals at t = 0
/// without end (found by the robustness properties); it has none.
#[test]
fn a_ramp_over_a_tiny_duration_ends() {
    let quota = bucketlab::limiter::lab::Quota::new(3, 1.0).unwrap();
    let ramp = Traffic::ramp(0.0, 45.0).unwrap();
    assert_eq!(
        ramp.arrivals(quota, f64::MIN_POSITIVE, 1).unwrap(),
        Vec::<f64>::new()
    );
    assert_eq!(ramp.arrivals(quota, 5e-324, 1).unwrap(), Vec::<f64>::new());
}
