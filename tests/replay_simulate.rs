//! The command's per-key outcomes against the lab's `simulate` on the same events: every
//! algorithm the command offers decides each key's requests exactly as the lab does.

mod replay_support;

use bucketlab::limiter::lab::{simulate, Algorithm, Quota};
use replay_support::{bucketlab, json};
use std::collections::BTreeMap;

const CAPACITY: u32 = 5;
const RATE: f64 = 2.0; // a window of 2.5 s: B / (B / r) is exactly r again

/// A CSV log of four clients with different habits (steady, bursty, sparse, at window edges),
/// times in milliseconds from an epoch-sized start, in file order; and each key's times.
fn log() -> (String, BTreeMap<String, Vec<f64>>) {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut events = Vec::new();
    let start = 1_700_000_000_000u64; // ms
    for i in 0..400u64 {
        events.push((start + i * 300 + rng.u64(0..50), "steady"));
    }
    for burst in 0..12u64 {
        for _ in 0..rng.u64(3..12) {
            events.push((start + burst * 10_000 + rng.u64(0..400), "bursty"));
        }
    }
    for _ in 0..40 {
        events.push((start + rng.u64(0..120_000), "sparse"));
    }
    for edge in 1..40u64 {
        // Around each boundary of the 2.5 s windows: just before and at it.
        events.push((start + edge * 2_500 - 1, "edges"));
        events.push((start + edge * 2_500, "edges"));
        events.push((start + edge * 2_500, "edges"));
    }
    events.sort();
    let mut text = String::from("time,client\n");
    let mut per_key: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (ms, key) in events {
        let time = format!("{}.{:03}", ms / 1000, ms % 1000);
        per_key
            .entry(key.to_owned())
            .or_default()
            .push(time.parse().unwrap());
        text.push_str(&format!("{time},{key}\n"));
    }
    (text, per_key)
}

#[test]
fn every_algorithm_limits_each_key_as_the_lab_simulates_it() {
    let (text, per_key) = log();
    let quota = Quota::new(CAPACITY, f64::from(CAPACITY) / RATE).unwrap();
    assert_eq!(quota.rate(), RATE);
    for (name, algorithm) in [
        ("token-bucket", Algorithm::TokenBucket),
        ("fixed-window", Algorithm::FixedWindow),
        ("sliding-log", Algorithm::SlidingLog),
        ("sliding-counter", Algorithm::SlidingCounter),
        ("gcra", Algorithm::Gcra),
    ] {
        let args = [
            "replay",
            "--json",
            "--algorithm",
            name,
            "--capacity",
            "5",
            "--refill-rate",
            "2",
            "-",
        ];
        let report = json(&bucketlab(&args, text.as_bytes()));
        let by_key = report["byKey"].as_array().unwrap();
        assert_eq!(by_key.len(), per_key.len(), "{name}");
        let mut total = 0;
        for entry in by_key {
            let key = entry["key"].as_str().unwrap();
            let arrivals = per_key[key].clone();
            let end = arrivals.last().unwrap() + 1.0;
            let lane = &simulate(&[algorithm], quota, arrivals, end, 2).lanes[0];
            assert_eq!(entry["requests"], lane.outcomes.len(), "{name} {key}");
            assert_eq!(entry["limited"], lane.denied, "{name} {key}");
            total += u64::from(lane.denied);
        }
        assert_eq!(report["limited"], total, "{name}");
        assert!(
            total > 0,
            "{name}: the log must make every limiter refuse something"
        );
    }
}
