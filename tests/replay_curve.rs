//! The burst–rate curve against its definition and against the core's own bucket (proptest).
//!
//! For a trace and a rate `r`, the curve's `B` must let the core's `TokenBucket`, starting full,
//! admit every request; and a slightly smaller bucket must limit at least one. The curve already
//! credits the core's time slack (a request up to `max(1 ns, 4 ulp(now))` early is on time, worth
//! `r` times that in tokens; README, "The core's rules"), so "slightly" is 1e-9 plus the core's
//! other tolerance only: the bucket forgives a shortfall of `1e-12·B` tokens (and a little for the
//! rounding of sums of up to 120 requests).

mod replay_support;

use bucketlab::limiter::{BucketConfig, TokenBucket};
use bucketlab::replay::curve::{burst_needed, rate_grid};
use bucketlab::replay::Format;
use proptest::prelude::*;
use replay_support::{bucket, run};

/// The definition: `max over i ≤ j of (c_i + … + c_j) − r·(t_j − t_i)`, in O(n²), on times that
/// never go back (a time before the latest counts as the latest, as in the core's bucket), less
/// what the core lets request `j` in early, `r·slack(t_j)`, but never less than `c_j`.
fn by_definition(trace: &[(f64, f64)], rate: f64) -> f64 {
    let mut latest = f64::NEG_INFINITY;
    let times: Vec<f64> = trace
        .iter()
        .map(|&(t, _)| {
            latest = latest.max(t);
            latest
        })
        .collect();
    let mut best: f64 = 0.0;
    for j in 0..trace.len() {
        let (time, cost) = trace[j];
        let mut sum = 0.0;
        for i in (0..=j).rev() {
            sum += trace[i].1;
            let early = rate * time_slack(time);
            best = best.max((sum - rate * (times[j] - times[i]) - early).max(cost));
        }
    }
    best
}

/// Requests the core's bucket of `capacity` at `rate`, starting full, refuses.
fn refused(trace: &[(f64, f64)], capacity: f64, rate: f64) -> usize {
    let mut bucket = TokenBucket::new(BucketConfig::new(capacity, rate).unwrap());
    trace
        .iter()
        .filter(|&&(t, c)| !bucket.try_acquire(c, t).unwrap().is_admitted())
        .count()
}

/// The core's time slack at `now`: one nanosecond or four units in the last place.
fn time_slack(now: f64) -> f64 {
    1e-9_f64.max(now.abs() * 4.0 * f64::EPSILON)
}

/// Traces starting at 0 or at an epoch-sized time, with gaps that are continuous, whole
/// multiples of 0.25 s (exact ties), zero (bursts) or now and then negative (time going back),
/// and costs of 1 or quarters up to 3.
fn traces() -> impl Strategy<Value = Vec<(f64, f64)>> {
    let gap = prop_oneof![
        4 => 0.0f64..2.0,
        2 => (0u32..8).prop_map(|q| f64::from(q) / 4.0),
        2 => Just(0.0),
        1 => -1.0f64..0.0,
    ];
    let cost = prop_oneof![3 => Just(1.0), 1 => (0u32..=12).prop_map(|q| f64::from(q) / 4.0)];
    (
        prop_oneof![Just(0.0), Just(1_700_000_000.0)],
        prop::collection::vec((gap, cost), 1..120),
    )
        .prop_map(|(start, steps)| {
            let mut now = start;
            steps
                .into_iter()
                .map(|(gap, cost)| {
                    now += gap;
                    (now, cost)
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_curve_is_the_definition(trace in traces(), rate in 0.001f64..500.0) {
        let b = burst_needed(&trace, rate);
        let expected = by_definition(&trace, rate);
        prop_assert!((b - expected).abs() <= 1e-9 * expected.max(1.0), "B {} vs {}", b, expected);
    }

    #[test]
    fn the_curve_admits_everything_and_no_less_does(trace in traces(), rate in 0.001f64..500.0) {
        let b = burst_needed(&trace, rate);
        prop_assume!(b > 0.0); // only free requests: any bucket admits them
        prop_assert_eq!(refused(&trace, b, rate), 0, "B = {} at r = {}", b, rate);
        let tolerance = 1e-12 * b + 1e-13 * b * trace.len() as f64;
        let smaller = b - 1e-9 - tolerance;
        if smaller > 0.0 {
            prop_assert!(refused(&trace, smaller, rate) > 0, "B − {} = {} at r = {}", 1e-9 + tolerance, smaller, rate);
        }
    }
}

#[test]
fn a_replay_keeps_each_keys_curve_on_the_grid() {
    // Two clients of a CSV log: the heaviest key's curve is its own trace's, at every rate.
    let mut rng = fastrand::Rng::with_seed(3);
    let mut log = String::from("time,key\n");
    let mut heavy = Vec::new();
    let mut now = 1_700_000_000.0;
    for i in 0..400 {
        now += rng.f64() * 0.5;
        let key = if i % 3 == 0 { "light" } else { "heavy" };
        let time = format!("{now:.3}");
        if key == "heavy" {
            heavy.push((time.parse::<f64>().unwrap(), 1.0));
        }
        log.push_str(&format!("{time},{key}\n"));
    }
    let finished = run(log.as_bytes(), bucket(10.0, 3.0)).unwrap();
    assert_eq!(finished.parser.unwrap().format(), Format::Csv);
    let curves = finished.curves;
    assert_eq!(curves.rates, rate_grid(Some(3.0)));
    let (key, own) = curves.heaviest.unwrap();
    assert_eq!(key, "heavy");
    for (&rate, &b) in curves.rates.iter().zip(&own) {
        assert_eq!(b, burst_needed(&heavy, rate), "r = {rate}");
    }
    // Two keys: the median is the lighter need, p95 and p99 the heavier.
    for (i, &heavy_need) in own.iter().enumerate() {
        assert!(curves.median[i] <= curves.p99[i]);
        assert_eq!(curves.p99[i], heavy_need.max(curves.median[i]));
        assert_eq!(curves.p95[i], curves.p99[i]);
    }
}
