//! Property tests of the token bucket over random traces (proptest, 1,000+ cases each).

use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
use proptest::prelude::*;

/// One request: a gap since the previous one (possibly negative: time going backwards) and a cost.
fn trace() -> impl Strategy<Value = Vec<(f64, f64)>> {
    prop::collection::vec((-0.5f64..2.0, 0.0f64..4.0), 1..80)
}

fn config() -> impl Strategy<Value = (f64, f64, f64)> {
    (0.5f64..20.0, 0.0f64..10.0, 0.0f64..=1.0)
        .prop_map(|(capacity, rate, fill)| (capacity, rate, capacity * fill))
}

fn build((capacity, rate, tokens): (f64, f64, f64)) -> TokenBucket {
    let config = BucketConfig::new(capacity, rate)
        .unwrap()
        .with_initial_tokens(tokens)
        .unwrap();
    TokenBucket::started_at(config, 0.0).unwrap()
}

proptest! {
    // No regression files: a failure prints its minimal case, which becomes a named test.
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tokens_stay_between_zero_and_capacity(cfg in config(), steps in trace()) {
        let mut bucket = build(cfg);
        let mut now = 0.0;
        for (gap, cost) in steps {
            now += gap;
            let d = bucket.try_acquire(cost, now).unwrap();
            prop_assert!(d.tokens >= 0.0 && d.tokens <= cfg.0, "tokens {} outside [0, {}]", d.tokens, cfg.0);
        }
    }

    /// Over [0, t], admitted cost ≤ initial tokens + r·t (plus the documented 1 ns / 1e-12·B slack
    /// per admission). Time only moves forward here so `t` is the span covered.
    #[test]
    fn admitted_cost_is_bounded_by_initial_tokens_plus_refill(cfg in config(), steps in trace()) {
        let (capacity, rate, initial) = cfg;
        let mut bucket = build(cfg);
        let (mut now, mut admitted, mut admissions) = (0.0f64, 0.0, 0u32);
        for (gap, cost) in steps {
            now += gap.abs();
            if bucket.try_acquire(cost, now).unwrap().is_admitted() {
                admitted += cost;
                admissions += 1;
            }
        }
        let slack = f64::from(admissions) * (capacity * 1e-12 + rate * 1e-9) + 1e-9;
        prop_assert!(admitted <= initial + rate * now + slack,
            "admitted {admitted} > {initial} + {rate}·{now}");
    }

    #[test]
    fn a_denied_request_leaves_the_state_unchanged(cfg in config(), steps in trace()) {
        let mut bucket = build(cfg);
        let mut now = 0.0;
        for (gap, cost) in steps {
            now += gap;
            // Refill is idempotent: bring the bucket to `now` first, then compare.
            bucket.try_acquire(0.0, now).unwrap();
            let before = bucket.clone();
            let d = bucket.try_acquire(cost, now).unwrap();
            if !d.is_admitted() {
                prop_assert_eq!(&bucket, &before, "denied at {} changed the bucket", now);
            }
        }
    }

    #[test]
    fn a_retry_at_exactly_retry_after_is_admitted(cfg in config(), steps in trace(), cost in 0.0f64..25.0) {
        let mut bucket = build(cfg);
        let mut now = 0.0;
        for (gap, c) in steps {
            now += gap;
            bucket.try_acquire(c, now).unwrap();
        }
        let d = bucket.try_acquire(cost, now).unwrap();
        match d.outcome {
            Outcome::Denied { retry_after } => {
                prop_assert!(retry_after > 0.0);
                let retry = bucket.try_acquire(cost, now + retry_after).unwrap();
                prop_assert!(retry.is_admitted(), "retry after {} at {} denied: {:?}", retry_after, now, retry);
            }
            Outcome::Never(_) => prop_assert!(cost > cfg.0 || cfg.1 == 0.0),
            Outcome::Admitted => {}
        }
    }

    #[test]
    fn retry_after_is_exactly_the_missing_tokens_over_the_rate(cfg in config(), cost in 0.0f64..20.0, at in 0.0f64..3.0) {
        let mut bucket = build(cfg);
        let before = bucket.tokens_at(at).unwrap();
        if let Outcome::Denied { retry_after } = bucket.try_acquire(cost, at).unwrap().outcome {
            prop_assert_eq!(retry_after, (cost - before) / cfg.1);
        }
    }
}
