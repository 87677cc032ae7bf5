//! Seeded traces replayed through the core and through a Redis bucket, decision by decision,
//! compared to the bit: the single-server and the cluster agreement tests share them.

use bucketlab::limiter::{BucketConfig, Decision, Outcome, TokenBucket};

/// Same decision, to the bit: outcome (with `retry_after`), tokens, available, elapsed, tokens
/// before, lag.
pub fn assert_same(core: &Decision, redis: &Decision, context: &str) {
    let bits = |d: &Decision| {
        let retry = match d.outcome {
            Outcome::Denied { retry_after } => Some(retry_after.to_bits()),
            _ => None,
        };
        (
            retry,
            d.tokens.to_bits(),
            d.available.to_bits(),
            d.elapsed.to_bits(),
            d.tokens_before.to_bits(),
            d.lag.to_bits(),
        )
    };
    assert_eq!(
        core.outcome, redis.outcome,
        "{context}\ncore:  {core:?}\nredis: {redis:?}"
    );
    assert_eq!(
        bits(core),
        bits(redis),
        "{context}\ncore:  {core:?}\nredis: {redis:?}"
    );
}

/// A random trace step: mostly forward in time, sometimes at the same instant, sometimes backwards,
/// sometimes the denied request again exactly `retry_after` later; costs mostly 1 (a third of a
/// small bucket), sometimes 0, fractional or more than B. `denied` is the last step's `(retry_after, cost)` if it was denied.
fn next_step(
    rng: &mut fastrand::Rng,
    config: &BucketConfig,
    now: f64,
    denied: Option<(f64, f64)>,
) -> (f64, f64) {
    if let (0..=2, Some((retry_after, cost))) = (rng.u8(0..10), denied) {
        return (now + retry_after, cost);
    }
    let now = match rng.u8(0..10) {
        0 | 1 => now,
        2 => now - rng.f64() * 2.0,
        _ => now + rng.f64() * rng.f64() * 3.0 / config.refill_rate().max(0.5),
    };
    let cost = match rng.u8(0..20) {
        0 => 0.0,
        1 => config.capacity() + 1.0 + rng.f64(),
        2..=4 => rng.f64() * config.capacity(),
        // 1, or a third of a small bucket (B = 0.3 takes 0.1: the classic rounding trap).
        _ => config.capacity().min(3.0) / 3.0,
    };
    (now, cost)
}

/// What a replay covered.
#[derive(Debug, Default)]
pub struct Agreement {
    pub decisions: u32,
    pub allowed: u32,
    pub denials: u32,
    pub never: u32,
    pub exact_retries: u32,
}

impl Agreement {
    /// The figures line the test prints (and scripts/test.sh collects).
    pub fn summary(&self) -> String {
        format!(
            "{} decisions bit-identical to the core ({} allowed, {} denied, {} never; \
             {} retries exactly retry_after later)",
            self.decisions, self.allowed, self.denials, self.never, self.exact_retries
        )
    }

    /// Every kind of decision came up often enough for the comparison to mean something.
    pub fn assert_covers_every_case(&self) {
        let share = self.decisions / 9;
        assert!(
            self.allowed > share
                && self.denials > share
                && self.never > share / 20
                && self.exact_retries > share / 20,
            "the traces cover every case: {self:?}"
        );
    }
}

/// Replays seeds `seeds` (150 steps each, B and r drawn per seed, small and Unix-sized times)
/// through the core and through `decide(seed, config, cost, now)`, which asks seed's own bucket
/// elsewhere; every decision must be the core's, to the bit.
pub async fn replay_seeded_traces(
    seeds: std::ops::Range<u64>,
    mut decide: impl AsyncFnMut(u64, BucketConfig, f64, f64) -> Decision,
) -> Agreement {
    let mut seen = Agreement::default();
    for seed in seeds {
        let mut rng = fastrand::Rng::with_seed(seed);
        let capacity = match seed % 3 {
            0 => f64::from(rng.u32(1..=20)),
            1 => rng.f64() * 50.0 + 0.1,
            _ => 0.3,
        };
        let refill_rate = if seed % 7 == 6 {
            0.0
        } else {
            rng.f64() * 40.0 + 0.05
        };
        let config = BucketConfig::new(capacity, refill_rate).unwrap();
        // Small times and Unix-like times (where one ulp of `now` is about 2⁻²¹ s).
        let mut now = if seed % 2 == 0 {
            rng.f64() * 10.0
        } else {
            1.8e9 + rng.f64() * 1e6
        };
        let mut core = TokenBucket::new(config);
        let mut last_denied = None;

        for step in 0..150 {
            let (at, cost) = next_step(&mut rng, &config, now, last_denied);
            let exact_retry = last_denied
                .is_some_and(|(retry, denied_cost)| at == now + retry && cost == denied_cost);
            now = at;
            let expected = core.try_acquire(cost, now).unwrap();
            let got = decide(seed, config, cost, now).await;
            let context = format!("seed {seed}, step {step}: B = {capacity}, r = {refill_rate}, cost = {cost}, now = {now}");
            assert_same(&expected, &got, &context);
            if exact_retry {
                seen.exact_retries += 1;
                assert!(
                    got.is_admitted(),
                    "a retry exactly retry_after later passes; {context}"
                );
            }
            last_denied = match got.outcome {
                Outcome::Admitted => {
                    seen.allowed += 1;
                    None
                }
                Outcome::Denied { retry_after } => {
                    seen.denials += 1;
                    Some((retry_after, cost))
                }
                Outcome::Never(_) => {
                    seen.never += 1;
                    None
                }
            };
            seen.decisions += 1;
        }
    }
    seen
}
