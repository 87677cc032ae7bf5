//! Seeded client runs equal to `tests/fixtures/clients-runs.txt`, which `tests/node/clients.test.mjs`
//! also checks against the wasm build: the same seed gives the same attempts (times and next times,
//! jittered ones included), bit for bit, natively and in WebAssembly.
//! `BLESS=1 cargo test --test clients_runs` rewrites the file (review the diff before committing).

use bucketlab::limiter::clients::{simulate, Backoff, Header, Policy, Scenario, Settings};
use std::fmt::Write;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/clients-runs.txt"
);

/// The runs of the fixture, 12 clients × 2 successes against a bucket of 4 refilled at 4/s. The
/// same list is in `tests/node/clients.test.mjs`.
fn cases() -> Vec<(&'static str, Settings)> {
    let backoff = Backoff::new(0.5, 2.0, 8.0).unwrap();
    let base = Settings {
        clients: 12,
        successes: 2,
        spread: 0.0,
        capacity: 4.0,
        rate: 4.0,
        shared: true,
        policy: Policy::Hammer,
        max_attempts: 6,
        seed: 3,
    };
    let with = |policy, spread, shared| Settings {
        policy,
        spread,
        shared,
        ..base
    };
    vec![
        (
            "herd",
            with(
                Policy::RetryAfter {
                    header: Header::WholeSeconds,
                    jitter: None,
                },
                0.0,
                true,
            ),
        ),
        (
            "exact-wait",
            with(
                Policy::RetryAfter {
                    header: Header::Exact,
                    jitter: None,
                },
                0.0,
                true,
            ),
        ),
        (
            "retry-after-jitter",
            with(
                Policy::RetryAfter {
                    header: Header::WholeSeconds,
                    jitter: Some(backoff),
                },
                0.0,
                true,
            ),
        ),
        ("full-jitter", with(Policy::FullJitter(backoff), 1.5, true)),
        (
            "decorrelated-own-buckets",
            with(Policy::Decorrelated(backoff), 0.5, false),
        ),
        ("exponential", with(Policy::Exponential(backoff), 0.0, true)),
    ]
}

fn render() -> String {
    let mut out = String::new();
    for (name, settings) in cases() {
        let run = simulate(&Scenario::new(settings).unwrap());
        // Rust prints the shortest text that reads back to the same f64; so does JavaScript.
        let text = |values: &[f64]| -> Vec<String> { values.iter().map(f64::to_string).collect() };
        writeln!(out, "{name} times: {}", text(&run.times).join(" ")).unwrap();
        writeln!(out, "{name} next: {}", text(&run.next).join(" ")).unwrap();
        let outcomes: Vec<String> = run.outcomes.iter().map(u8::to_string).collect();
        writeln!(out, "{name} outcomes: {}", outcomes.join(" ")).unwrap();
    }
    out
}

#[test]
fn every_run_matches_the_shared_fixture() {
    let runs = render();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(FIXTURE, &runs).unwrap();
    }
    let fixture = std::fs::read_to_string(FIXTURE)
        .expect("tests/fixtures/clients-runs.txt (BLESS=1 cargo test --test clients_runs)");
    assert_eq!(runs, fixture, "native runs differ from the fixture");
    assert_eq!(render(), runs, "the same seed gives the same runs");
}
