//! The token bucket against SEMANTICS.md: the worked example step by step, the "never" cases,
//! backwards time, zero cost and config validation.

use bucketlab::limiter::{BucketConfig, Field, Never, Outcome, TokenBucket};

fn bucket(capacity: f64, refill_rate: f64) -> TokenBucket {
    TokenBucket::started_at(BucketConfig::new(capacity, refill_rate).unwrap(), 0.0).unwrap()
}

#[test]
fn worked_example_b10_r5_step_by_step() {
    let mut b = bucket(10.0, 5.0);
    for i in 0..10 {
        let d = b.try_acquire(1.0, 0.0).unwrap();
        assert!(d.is_admitted(), "request {i} at t=0 should pass: {d:?}");
        assert_eq!(d.tokens, 9.0 - i as f64);
    }
    let eleventh = b.try_acquire(1.0, 0.0).unwrap();
    assert_eq!(eleventh.outcome, Outcome::Denied { retry_after: 0.2 });
    assert_eq!(eleventh.tokens, 0.0);

    let at_02 = b.try_acquire(1.0, 0.2).unwrap();
    assert!(at_02.is_admitted(), "retry at t=0.2: {at_02:?}");
    assert_eq!(at_02.tokens, 0.0);

    let at_03 = b.try_acquire(1.0, 0.3).unwrap();
    match at_03.outcome {
        Outcome::Denied { retry_after } => {
            assert!((retry_after - 0.1).abs() < 1e-12, "{retry_after}")
        }
        other => panic!("t=0.3 should be denied, got {other:?}"),
    }
    assert!(
        (at_03.tokens - 0.5).abs() < 1e-12,
        "0.5 token at t=0.3, got {}",
        at_03.tokens
    );

    assert_eq!(
        b.tokens_at(10.0).unwrap(),
        10.0,
        "full again at t=10, not 49 (0.5 + 9.7 · 5)"
    );
}

#[test]
fn starts_full_unless_told_otherwise() {
    let config = BucketConfig::new(4.0, 1.0).unwrap();
    assert_eq!(TokenBucket::new(config).tokens_at(123.0).unwrap(), 4.0);
    let partial = TokenBucket::new(config.with_initial_tokens(1.5).unwrap());
    assert_eq!(partial.tokens_at(0.0).unwrap(), 1.5);
}

#[test]
fn clock_starts_at_first_use() {
    let mut b = TokenBucket::new(
        BucketConfig::new(4.0, 1.0)
            .unwrap()
            .with_initial_tokens(0.0)
            .unwrap(),
    );
    let first = b.try_acquire(1.0, 100.0).unwrap();
    assert_eq!(first.outcome, Outcome::Denied { retry_after: 1.0 });
    assert!(b.try_acquire(1.0, 101.0).unwrap().is_admitted());
}

#[test]
fn cost_above_capacity_is_never_admitted() {
    let mut b = bucket(10.0, 5.0);
    let d = b.try_acquire(11.0, 0.0).unwrap();
    assert_eq!(d.outcome, Outcome::Never(Never::CostExceedsCapacity));
    assert_eq!(d.retry_after(), None);
    assert_eq!(d.tokens, 10.0, "a refused request takes nothing");
    assert_eq!(
        b.try_acquire(11.0, 1e6).unwrap().outcome,
        Outcome::Never(Never::CostExceedsCapacity)
    );
}

#[test]
fn zero_rate_and_too_few_tokens_is_never_admitted() {
    let mut b = bucket(3.0, 0.0);
    for _ in 0..3 {
        assert!(b.try_acquire(1.0, 0.0).unwrap().is_admitted());
    }
    let d = b.try_acquire(1.0, 5.0).unwrap();
    assert_eq!(d.outcome, Outcome::Never(Never::NoRefill));
    assert_eq!(
        b.tokens_at(1e9).unwrap(),
        0.0,
        "nothing ever refills at r = 0"
    );
}

#[test]
fn zero_rate_still_admits_what_it_holds() {
    let mut b = bucket(3.0, 0.0);
    assert!(b.try_acquire(2.5, 0.0).unwrap().is_admitted());
    assert_eq!(
        b.try_acquire(1.0, 0.0).unwrap().outcome,
        Outcome::Never(Never::NoRefill)
    );
    assert!(b.try_acquire(0.5, 0.0).unwrap().is_admitted());
}

#[test]
fn cost_zero_is_always_admitted() {
    let mut b = bucket(1.0, 0.0);
    assert!(b.try_acquire(1.0, 0.0).unwrap().is_admitted());
    let d = b.try_acquire(0.0, 0.0).unwrap();
    assert!(d.is_admitted(), "{d:?}");
    assert_eq!(d.tokens, 0.0);
    assert!(b.try_acquire(-0.0, 0.0).unwrap().is_admitted());
}

/// Even while the count owes what the time slack let in at a far later `now` (4·ε·1e10 s is
/// worth thousands of tokens at r = 10⁹/s) and the clock then reads far earlier, whose slack
/// covers almost nothing of that debt.
#[test]
fn cost_zero_is_admitted_while_the_count_owes_a_later_nows_slack() {
    let mut b = bucket(1.0, 1e9);
    while b.try_acquire(1.0, 1e10).unwrap().is_admitted() {}
    assert!(b.try_acquire(1.0, 1.0).unwrap().tokens <= 0.0);
    let d = b.try_acquire(0.0, 1.0).unwrap();
    assert!(d.is_admitted(), "{d:?}");
}

#[test]
fn time_going_backwards_adds_nothing_and_does_not_move_last_back() {
    let mut b = bucket(10.0, 1.0);
    for _ in 0..10 {
        b.try_acquire(1.0, 5.0).unwrap();
    }
    // Backwards: no credit.
    let back = b.try_acquire(1.0, 2.0).unwrap();
    assert_eq!(back.tokens, 0.0);
    // The token accrues from t = 5 on, so from t = 2 the wait is 3 s of lag + 1 s of refill.
    assert_eq!(back.outcome, Outcome::Denied { retry_after: 4.0 });
    // Forward again from 5, not from 2: at t = 6 exactly one token, not four.
    assert_eq!(b.tokens_at(6.0).unwrap(), 1.0);
    assert!(b.try_acquire(1.0, 6.0).unwrap().is_admitted());
    assert!(!b.try_acquire(1.0, 6.0).unwrap().is_admitted());
}

#[test]
fn denied_request_changes_nothing() {
    let mut b = bucket(2.0, 1.0);
    b.try_acquire(1.5, 0.0).unwrap();
    let before = b.clone();
    let d = b.try_acquire(1.0, 0.0).unwrap();
    assert!(!d.is_admitted());
    assert_eq!(b, before);
}

#[test]
fn rounding_does_not_turn_an_exact_fit_into_a_denial() {
    // 0.3 - 0.1 - 0.1 is 0.09999999999999998 in f64.
    let mut b = bucket(0.3, 0.0);
    for i in 0..3 {
        assert!(
            b.try_acquire(0.1, 0.0).unwrap().is_admitted(),
            "cost 0.1 number {i}"
        );
    }
    assert_eq!(b.tokens_at(0.0).unwrap(), 0.0);
}

#[test]
fn retry_exactly_at_retry_after_passes_at_awkward_rates_and_times() {
    for &(rate, start) in &[
        (3.0, 0.1),
        (7.0, 1234.567),
        (0.3, 86_400.0 * 30.0),
        (1000.0, 0.000_1),
    ] {
        let mut b = bucket(1.0, rate);
        b.try_acquire(1.0, start).unwrap();
        let Some(wait) = b.try_acquire(1.0, start).unwrap().retry_after() else {
            panic!()
        };
        assert!(wait > 0.0);
        let d = b.try_acquire(1.0, start + wait).unwrap();
        assert!(
            d.is_admitted(),
            "rate {rate}, start {start}, wait {wait}: {d:?}"
        );
    }
}

#[test]
fn the_time_slack_is_owed_back_so_it_never_adds_up() {
    // At Unix times the time slack (4 ulp of `now`, ~1.5 µs) is worth 1,500 tokens at
    // r = 10⁹/s: a whole request. Forgiven at each request, it let every one of these 3,000
    // requests in; owed back, the run admits what the refill earned (1.5 ms × 10⁹ / 1,500 =
    // 1,000), plus the full bucket, plus at most one slack's worth.
    let (capacity, rate, start) = (1500.0, 1e9, 1_700_000_000.0);
    let mut b = TokenBucket::started_at(BucketConfig::new(capacity, rate).unwrap(), start).unwrap();
    let mut admitted = 0;
    for i in 0..3000 {
        let d = b.try_acquire(capacity, start + i as f64 * 0.5e-6).unwrap();
        assert!(d.tokens >= 0.0 && d.available >= 0.0, "request {i}: {d:?}");
        admitted += usize::from(d.is_admitted());
    }
    assert!(
        (1000..=1002).contains(&admitted),
        "admitted {admitted} of 3000"
    );

    // Twenty requests at one instant: the full bucket's one, and at most the slack's
    // 1.5 µs × 2·10⁶ = 3 more, once.
    let mut b = TokenBucket::started_at(BucketConfig::new(1.0, 2e6).unwrap(), start).unwrap();
    let at_once = (0..20)
        .filter(|_| b.try_acquire(1.0, start + 0.5).unwrap().is_admitted())
        .count();
    assert!(at_once <= 4, "{at_once} of 20 admitted at one instant");
}

#[test]
fn config_errors_name_field_value_and_rule() {
    let cases: [(f64, f64, Field, &str); 5] = [
        (
            0.0,
            1.0,
            Field::Capacity,
            "capacity must be a finite number greater than 0, got 0",
        ),
        (
            f64::NAN,
            1.0,
            Field::Capacity,
            "capacity must be a finite number greater than 0, got NaN",
        ),
        (
            f64::INFINITY,
            1.0,
            Field::Capacity,
            "capacity must be a finite number greater than 0, got Infinity",
        ),
        (
            10.0,
            -1.0,
            Field::RefillRate,
            "refill_rate must be a finite number of at least 0, got -1",
        ),
        (
            10.0,
            f64::INFINITY,
            Field::RefillRate,
            "refill_rate must be a finite number of at least 0, got Infinity",
        ),
    ];
    for (capacity, rate, field, message) in cases {
        let err = BucketConfig::new(capacity, rate).unwrap_err();
        assert_eq!(err.field, field);
        assert_eq!(err.to_string(), message);
    }
    let config = BucketConfig::new(10.0, 1.0).unwrap();
    let err = config.with_initial_tokens(10.5).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tokens must be a finite number from 0 to 10, got 10.5"
    );
    assert!(config.with_initial_tokens(-0.0).is_ok());
}

#[test]
fn bad_arguments_are_refused_without_changing_state() {
    let mut b = bucket(10.0, 1.0);
    let before = b.clone();
    assert_eq!(b.try_acquire(-1.0, 0.0).unwrap_err().field, Field::Cost);
    assert_eq!(b.try_acquire(f64::NAN, 0.0).unwrap_err().field, Field::Cost);
    assert_eq!(b.try_acquire(1.0, f64::NAN).unwrap_err().field, Field::Now);
    assert_eq!(
        b.try_acquire(1.0, f64::INFINITY).unwrap_err().field,
        Field::Now
    );
    assert_eq!(
        b.tokens_at(f64::NEG_INFINITY).unwrap_err().field,
        Field::Now
    );
    assert_eq!(b, before);
}

#[test]
fn huge_gaps_saturate_at_capacity() {
    let mut b = bucket(5.0, 1e300);
    b.try_acquire(5.0, -1e308).unwrap();
    assert_eq!(b.tokens_at(1e308).unwrap(), 5.0);
}

#[test]
fn reconfigure_keeps_accrued_tokens_and_spills_what_no_longer_fits() {
    let mut b = bucket(10.0, 1.0);
    b.try_acquire(8.0, 0.0).unwrap(); // 2 left
    b.reconfigure(BucketConfig::new(20.0, 4.0).unwrap(), 1.0)
        .unwrap();
    assert_eq!(
        b.tokens_at(1.0).unwrap(),
        3.0,
        "1 s at the old rate before the switch"
    );
    assert_eq!(b.tokens_at(2.0).unwrap(), 7.0, "then the new rate");
    b.reconfigure(BucketConfig::new(5.0, 4.0).unwrap(), 2.0)
        .unwrap();
    assert_eq!(
        b.tokens_at(2.0).unwrap(),
        5.0,
        "a smaller bucket holds at most its capacity"
    );
    assert_eq!(b.config().capacity(), 5.0);
}

/// A refill rate of -0 is 0 (the rule allows it) and is kept as +0, so that no report or header
/// built from the config writes "-0".
#[test]
fn a_refill_rate_of_minus_zero_is_kept_as_zero() {
    let config = BucketConfig::new(3.0, -0.0).unwrap();
    assert_eq!(config.refill_rate().to_bits(), 0.0f64.to_bits());
    assert_eq!(format!("{}", config.refill_rate()), "0");
}
