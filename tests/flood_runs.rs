//! Seeded flood runs equal to `tests/fixtures/flood-runs.txt`, which the Node test
//! (`tests/node/flood.test.mjs`) checks against the wasm build and the lesson's e2e test
//! (`tests/e2e/defense.test.mjs`) against the numbers on screen: 1, 100 and 10 000 attacking IPs
//! under each combination of layers the section offers.
//! `BLESS=1 cargo test --test flood_runs` rewrites the file (review the diff before committing).

mod fixture_support;

use bucketlab::limiter::flood::{simulate, Flood, FloodSettings, Layers};
use std::fmt::Write;

/// The layer combinations, named as the fixture (and the tests reading it) name them.
const LAYERS: [(&str, Layers); 5] = [
    ("none", layers(false, false, false)),
    ("ip", layers(false, true, false)),
    ("ip+global", layers(false, true, true)),
    ("edge+ip", layers(true, true, false)),
    ("edge+ip+global", layers(true, true, true)),
];

const fn layers(edge: bool, per_ip: bool, global: bool) -> Layers {
    Layers {
        edge,
        per_ip,
        global,
    }
}

fn render() -> String {
    let mut out = String::new();
    for attackers in [1, 100, 10_000] {
        for (name, layers) in LAYERS {
            let settings = FloodSettings {
                attackers,
                layers,
                ..FloodSettings::default()
            };
            let run = simulate(&Flood::new(settings).unwrap());
            let s = run.summary;
            // Rust prints the shortest text that reads back to the same f64; so does JavaScript.
            writeln!(
                out,
                "{attackers} {name}: originPeak={} originMean={} secondsOverCapacity={} \
                 attackersLimited={} ipLimited={} globalLimited={} globalAdmitted={} edgeDropped={} \
                 overloaded={} served={} usersLimited={} usersFailed={} userLimitedShare={} \
                 userFailedShare={} userServedShare={} maxIpPassed={}",
                s.origin_peak,
                s.origin_mean,
                s.seconds_over_capacity,
                s.attackers_limited,
                s.ip_limited,
                s.global_limited,
                s.global_admitted,
                s.edge_dropped,
                s.overloaded,
                s.served,
                s.users_limited,
                s.users_failed,
                s.user_limited_share,
                s.user_failed_share,
                s.user_served_share,
                s.max_ip_passed,
            )
            .unwrap();
            let origin: Vec<String> = run.bins.iter().map(|b| b.origin.to_string()).collect();
            writeln!(out, "{attackers} {name} origin: {}", origin.join(" ")).unwrap();
        }
    }
    out
}

#[test]
fn every_run_matches_the_shared_fixture() {
    fixture_support::assert_matches_fixture("flood-runs.txt", &render());
}
