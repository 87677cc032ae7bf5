//! Thirty simulated days at several rates: the bucket's `f64` token count is checked after every
//! request against exact integer arithmetic, so drift (rounding errors that add up) or overflow
//! would show. Times are multiples of 1/1024 s, which `f64` holds exactly at any time in the run,
//! so the only rounding is the bucket's own.

use bucketlab::limiter::{BucketConfig, TokenBucket};

const DAYS: u64 = 30;
/// Time unit of the trace: 1/1024 s.
const TICKS_PER_SECOND: u64 = 1024;

/// One configuration: capacity `B` (whole) and refill rate `r = p / q` tokens per second.
struct Case {
    capacity: u64,
    p: u64,
    q: u64,
    /// Largest gap between bursts, in seconds.
    max_gap: u64,
}

/// The exact bucket: tokens counted in units of `1 / (1024·q)` token, so a refill over `n` ticks
/// adds exactly `n·p` units.
struct Exact {
    units: u128,
    capacity: u128,
    per_token: u128,
    per_tick: u128,
}

impl Exact {
    fn tokens(&self) -> f64 {
        self.units as f64 / self.per_token as f64
    }
}

/// Runs 30 days of bursts through a bucket and the exact reference; returns the largest gap seen
/// between them, in tokens, and the number of requests.
fn run(case: &Case, seed: u64) -> (f64, u64) {
    let rate = case.p as f64 / case.q as f64;
    let b = case.capacity as f64;
    let mut bucket = TokenBucket::started_at(BucketConfig::new(b, rate).unwrap(), 0.0).unwrap();
    let per_token = u128::from(TICKS_PER_SECOND * case.q);
    let mut exact = Exact {
        units: u128::from(case.capacity) * per_token,
        capacity: u128::from(case.capacity) * per_token,
        per_token,
        per_tick: u128::from(case.p),
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let end = DAYS * 86_400 * TICKS_PER_SECOND;
    let (mut tick, mut worst, mut requests) = (0u64, 0.0f64, 0u64);
    while tick < end {
        // Now and then an idle hour or a whole day, else a gap of up to `max_gap` seconds.
        let gap = match rng.u32(0..1000) {
            0 => 86_400 * TICKS_PER_SECOND,
            1..=9 => 3_600 * TICKS_PER_SECOND,
            _ => rng.u64(0..=case.max_gap * TICKS_PER_SECOND),
        };
        let gap = gap.min(end - tick);
        tick += gap;
        exact.units = (exact.units + u128::from(gap) * exact.per_tick).min(exact.capacity);
        let now = tick as f64 / TICKS_PER_SECOND as f64;
        assert_eq!(now * TICKS_PER_SECOND as f64, tick as f64, "time is exact");
        for _ in 0..rng.u32(1..=6) {
            let cost = rng.u64(0..=case.capacity);
            let units = u128::from(cost) * exact.per_token;
            let decision = bucket.try_acquire(cost as f64, now).unwrap();
            let admitted = exact.units >= units;
            assert_eq!(
                decision.is_admitted(),
                admitted,
                "day {:.3}: cost {cost}, exact {} tokens, bucket {}",
                now / 86_400.0,
                exact.tokens(),
                decision.available
            );
            if admitted {
                exact.units -= units;
            }
            requests += 1;
            assert!(
                decision.tokens <= b,
                "tokens {} above B = {b}",
                decision.tokens
            );
            assert!(decision.tokens >= 0.0 && decision.tokens.is_finite());
            if let Some(wait) = decision.retry_after() {
                assert!(wait.is_finite() && wait >= 0.0, "retry_after {wait}");
            }
            worst = worst.max((decision.tokens - exact.tokens()).abs());
        }
        let held = decision_free_tokens(&bucket, now);
        assert!(
            (held - exact.tokens()).abs() <= 1e-9 * b,
            "at {now} s: bucket {held}, exact {}",
            exact.tokens()
        );
    }
    assert_eq!(
        bucket.tokens_at(DAYS as f64 * 86_400.0).unwrap(),
        bucket.tokens_at(end as f64 / 1024.0).unwrap()
    );
    (worst, requests)
}

fn decision_free_tokens(bucket: &TokenBucket, now: f64) -> f64 {
    bucket.tokens_at(now).unwrap()
}

#[test]
fn thirty_days_at_several_rates_match_exact_arithmetic() {
    let cases = [
        Case {
            capacity: 10,
            p: 5,
            q: 1,
            max_gap: 4,
        }, // the lesson's B = 10, r = 5
        Case {
            capacity: 100,
            p: 1,
            q: 10,
            max_gap: 2_000,
        }, // r = 0.1: one token per 10 s
        Case {
            capacity: 3,
            p: 1,
            q: 3,
            max_gap: 20,
        }, // r = 1/3, not exact in f64
        Case {
            capacity: 60,
            p: 73,
            q: 10,
            max_gap: 16,
        }, // r = 7.3
        Case {
            capacity: 1_000,
            p: 1_000,
            q: 1,
            max_gap: 2,
        }, // r = 1000
        Case {
            capacity: 50_000,
            p: 12_345,
            q: 7,
            max_gap: 60,
        }, // r = 12345/7
    ];
    let (mut total, mut worst_share) = (0, 0.0f64);
    for (i, case) in cases.iter().enumerate() {
        let (worst, requests) = run(case, 7 + i as u64);
        let b = case.capacity as f64;
        println!(
            "30 days: B = {}, r = {}/{}: {} requests, largest |f64 − exact| = {:.3e} tokens = {:.3e}·B",
            case.capacity, case.p, case.q, requests, worst, worst / b
        );
        assert!(worst <= 1e-9 * b, "drift {worst} > 1e-9·B for B = {b}");
        total += requests;
        worst_share = worst_share.max(worst / b);
    }
    println!(
        "30-day runs: {} configurations, {total} requests, largest drift {worst_share:.1e}·B (allowed 1e-9·B), never above B",
        cases.len()
    );
}
