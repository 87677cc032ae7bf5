//! Property tests of the lab's limiters over random traces (proptest): the equivalences and bounds
//! the lesson states.

use bucketlab::limiter::lab::{
    FixedWindow, Gcra, LeakyMeter, LeakyQueue, Limiter, Quota, SlidingLog, Traffic, Verdict,
};
use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
use proptest::prelude::*;

fn quota() -> impl Strategy<Value = Quota> {
    (1u32..30, 0.05f64..20.0).prop_map(|(limit, window)| Quota::new(limit, window).unwrap())
}

/// Gaps in units of the emission interval `T`: continuous ones, exact multiples of `T / 2` (which
/// land exactly on the boundaries) and, now and then, a step back in time.
fn gaps() -> impl Strategy<Value = Vec<(f64, f64)>> {
    let gap = prop_oneof![
        3 => 0.0f64..3.0,
        2 => (0u32..6).prop_map(|half| f64::from(half) / 2.0),
        1 => -1.0f64..0.0,
    ];
    prop::collection::vec((gap, 0.0f64..=1.0), 1..120)
}

fn bucket(quota: Quota) -> TokenBucket {
    TokenBucket::new(BucketConfig::new(f64::from(quota.limit()), quota.rate()).unwrap())
}

/// Sorted arrival times in `[0, span)`, where `span` is a few windows.
fn sorted_times(max: usize) -> impl Strategy<Value = (Quota, Vec<f64>)> {
    quota().prop_flat_map(move |quota| {
        let span = quota.window() * 4.0;
        prop::collection::vec(0.0..span, 1..max).prop_map(move |mut times| {
            times.sort_by(f64::total_cmp);
            (quota, times)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// GCRA with `T = 1/r` and burst `B` is the token bucket in other units: same admissions, same
    /// waits, for any costs up to `B` and time going backwards now and then.
    #[test]
    fn gcra_admits_exactly_like_the_token_bucket(quota in quota(), steps in gaps()) {
        let mut tb = bucket(quota);
        let mut gcra = Gcra::new(quota);
        let mut now = 0.0;
        for (i, (gap, share)) in steps.into_iter().enumerate() {
            now += gap * quota.interval();
            let cost = (share * f64::from(quota.limit()) * 4.0).round() / 4.0;
            let expected = tb.try_acquire(cost, now).unwrap();
            let got = gcra.try_acquire(cost, now);
            prop_assert_eq!(expected.is_admitted(), got.passes(), "request {} cost {} at {}", i, cost, now);
            if let (Outcome::Denied { retry_after: a }, Verdict::Denied { retry_after: b }) = (expected.outcome, got) {
                prop_assert!((a - b).abs() <= 1e-9 * a.max(1.0), "retry_after {} vs {}", a, b);
            }
        }
    }

    /// The leaky bucket as a meter is the token bucket upside down: level = B − tokens.
    #[test]
    fn the_leaky_meter_admits_exactly_like_the_token_bucket(quota in quota(), steps in gaps()) {
        let mut tb = bucket(quota);
        let mut meter = LeakyMeter::new(quota);
        let mut now = 0.0;
        for (i, (gap, share)) in steps.into_iter().enumerate() {
            now += gap * quota.interval();
            let cost = (share * f64::from(quota.limit()) * 4.0).round() / 4.0;
            let expected = tb.try_acquire(cost, now).unwrap();
            let got = meter.try_pour(cost, now);
            prop_assert_eq!(expected.is_admitted(), got.passes(), "request {} cost {} at {}", i, cost, now);
            let level = f64::from(quota.limit()) - expected.tokens;
            prop_assert!((meter.load(now) - level).abs() < 1e-9 * f64::from(quota.limit()),
                "level {} vs B − tokens {}", meter.load(now), level);
        }
    }

    /// Whatever arrives, no span `[t, t + w)` ever holds more than `limit` admitted requests.
    #[test]
    fn the_sliding_log_never_admits_more_than_the_limit_in_any_window((quota, times) in sorted_times(300)) {
        let mut log = SlidingLog::new(quota);
        let admitted: Vec<f64> = times.into_iter().filter(|&t| log.decide(t).passes()).collect();
        for (i, &start) in admitted.iter().enumerate() {
            let inside = admitted[i..].iter().take_while(|&&t| t < start + quota.window()).count();
            prop_assert!(inside <= quota.limit() as usize,
                "{} admitted in [{}, {} + w)", inside, start, start);
        }
    }

    /// The fixed window's bound is 2 × limit per `w`, never more: and the window-edge attack
    /// reaches it within one span shorter than `w`.
    #[test]
    fn the_fixed_window_admits_twice_the_limit_across_a_boundary_and_no_more(
        (quota, times) in sorted_times(300),
    ) {
        let mut fixed = FixedWindow::new(quota);
        let admitted: Vec<f64> = times.into_iter().filter(|&t| fixed.decide(t).passes()).collect();
        for (i, &start) in admitted.iter().enumerate() {
            let inside = admitted[i..].iter().take_while(|&&t| t < start + quota.window()).count();
            prop_assert!(inside <= 2 * quota.limit() as usize);
        }

        let attack = Traffic::WindowEdge.arrivals(quota, quota.window() * 2.0, 0).unwrap();
        let mut fixed = FixedWindow::new(quota);
        let admitted: Vec<f64> = attack.into_iter().filter(|&t| fixed.decide(t).passes()).collect();
        prop_assert_eq!(admitted.len(), 2 * quota.limit() as usize);
        let span = admitted[admitted.len() - 1] - admitted[0];
        prop_assert!(span < quota.window(), "2 × {} admitted within {} s, w = {}", quota.limit(), span, quota.window());
    }

    /// The leaky queue's output is smooth: consecutive requests leave at least `T` apart, and at
    /// most `B` ever wait.
    #[test]
    fn the_leaky_queue_passes_requests_on_at_a_constant_rate((quota, times) in sorted_times(300)) {
        let mut queue = LeakyQueue::new(quota);
        let mut outs = Vec::new();
        for t in times {
            if let Some(delay) = queue.decide(t).delay() {
                outs.push(t + delay);
            }
            prop_assert!(queue.load(t) <= f64::from(quota.limit()));
        }
        for pair in outs.windows(2) {
            prop_assert!(pair[1] - pair[0] >= quota.interval() * (1.0 - 1e-9),
                "left {} and {}, T = {}", pair[0], pair[1], quota.interval());
        }
    }
}

#[test]
fn cost_zero_passes_in_gcra_and_the_meter_as_in_the_bucket_while_a_later_nows_slack_is_owed() {
    // B = 1 at r = 1000/s. At now = 10¹⁰ the time slack (4·ε·10¹⁰ s, 0.009 tokens) lets in a
    // request 0.005 tokens short, owed; then the clock reads 1, whose slack covers none of that.
    let quota = Quota::new(1, 0.001).unwrap();
    let (mut tb, mut gcra, mut meter) = (bucket(quota), Gcra::new(quota), LeakyMeter::new(quota));
    for now in [1e10, 1e10 + 0.000_995] {
        assert!(tb.try_acquire(1.0, now).unwrap().is_admitted());
        assert!(gcra.try_acquire(1.0, now).passes());
        assert!(meter.try_pour(1.0, now).passes());
    }
    assert!(tb.try_acquire(0.0, 1.0).unwrap().is_admitted());
    assert!(gcra.try_acquire(0.0, 1.0).passes());
    assert!(meter.try_pour(0.0, 1.0).passes());
}

#[test]
fn the_window_edge_attack_gets_twenty_through_the_fixed_window_in_under_a_second() {
    let quota = Quota::new(10, 1.0).unwrap();
    let attack = Traffic::WindowEdge.arrivals(quota, 2.0, 0).unwrap();
    let mut fixed = FixedWindow::new(quota);
    let mut log = SlidingLog::new(quota);
    let fixed_in: Vec<f64> = attack
        .iter()
        .copied()
        .filter(|&t| fixed.decide(t).passes())
        .collect();
    let log_in = attack.iter().filter(|&&t| log.decide(t).passes()).count();
    assert_eq!(
        fixed_in.len(),
        20,
        "fixed window: 10 before t = 1 and 10 after"
    );
    assert!(fixed_in[19] - fixed_in[0] < 0.2, "{fixed_in:?}");
    assert_eq!(log_in, 10, "the sliding log holds the line at the limit");
}
