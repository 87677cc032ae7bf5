//! What a client does after a 429: the retry policies, each a rule for the next wait.

use super::ClientField;
use crate::limiter::{retry_after_seconds, Field, InvalidValue, Rule};

/// The longest wait any policy setting may ask for, in seconds (one hour).
pub const MAX_WAIT: f64 = 3_600.0;
/// The largest growth factor of exponential backoff.
pub const MAX_FACTOR: f64 = 10.0;

/// Exponential backoff: the `k`-th retry (k = 0 for the first) waits `min(cap, base · factor^k)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    base: f64,
    factor: f64,
    cap: f64,
}

impl Backoff {
    /// `base` (seconds, in `(0, 3600]`), `factor` (in `[1, 10]`) and `cap` (seconds, in
    /// `[base, 3600]`).
    pub fn new(base: f64, factor: f64, cap: f64) -> Result<Self, InvalidValue> {
        let base = InvalidValue::check(
            Field::Clients(ClientField::Base),
            base,
            Rule::PositiveUpTo(MAX_WAIT),
        )?;
        let factor = InvalidValue::check(
            Field::Clients(ClientField::Factor),
            factor,
            Rule::Between(1.0, MAX_FACTOR),
        )?;
        let cap = InvalidValue::check(
            Field::Clients(ClientField::Cap),
            cap,
            Rule::Between(base, MAX_WAIT),
        )?;
        Ok(Backoff { base, factor, cap })
    }

    /// The first wait, in seconds.
    pub fn base(&self) -> f64 {
        self.base
    }

    /// How much each wait grows over the previous one.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// The longest wait, in seconds.
    pub fn cap(&self) -> f64 {
        self.cap
    }

    /// The ceiling of the `k`-th retry's wait: `min(cap, base · factor^k)`. `libm::pow` gives the
    /// same last bit natively and in wasm.
    pub fn ceiling(&self, k: u32) -> f64 {
        (self.base * libm::pow(self.factor, f64::from(k))).min(self.cap)
    }
}

/// How a client reads the `Retry-After` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// As sent on the wire: whole seconds, rounded up, at least 1.
    WholeSeconds,
    /// The server's exact wait (what a `RateLimit-Reset` with decimals, or an in-process client,
    /// would know).
    Exact,
}

/// A client's rule for the wait before its next attempt after a refusal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// Tries again at once: no wait at all.
    Hammer,
    /// Always waits the same number of seconds.
    Fixed {
        /// Seconds between a refusal and the next attempt.
        wait: f64,
    },
    /// Waits what the server said in `Retry-After`; with `jitter`, plus a random share of a
    /// growing backoff on top, so clients told the same time don't all come back together.
    RetryAfter {
        /// Whole seconds from the header, or the exact wait.
        header: Header,
        /// The extra random wait: uniform in `[0, ceiling(k)]`.
        jitter: Option<Backoff>,
    },
    /// Waits `min(cap, base · factor^k)` after the `k`-th refusal in a row; ignores the header.
    Exponential(Backoff),
    /// "Full jitter": a uniformly random wait between 0 and the exponential ceiling.
    FullJitter(Backoff),
    /// "Decorrelated jitter": each wait is random between `base` and three times the previous
    /// wait, never above `cap`, so waits grow without every client growing in step.
    Decorrelated(Backoff),
}

/// The names the JavaScript API uses, in the lesson's order.
pub const POLICY_NAMES: [&str; 6] = [
    "hammer",
    "fixed",
    "retryAfter",
    "exponential",
    "fullJitter",
    "decorrelated",
];

impl Policy {
    /// A fixed wait of `wait` seconds (in `[0, 3600]`).
    pub fn fixed(wait: f64) -> Result<Self, InvalidValue> {
        let wait = InvalidValue::check(
            Field::Clients(ClientField::Wait),
            wait,
            Rule::UpTo(MAX_WAIT),
        )?;
        Ok(Policy::Fixed { wait })
    }

    /// The JavaScript name (`"fullJitter"`).
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Hammer => POLICY_NAMES[0],
            Policy::Fixed { .. } => POLICY_NAMES[1],
            Policy::RetryAfter { .. } => POLICY_NAMES[2],
            Policy::Exponential(_) => POLICY_NAMES[3],
            Policy::FullJitter(_) => POLICY_NAMES[4],
            Policy::Decorrelated(_) => POLICY_NAMES[5],
        }
    }

    /// The wait before the next attempt, in seconds, after the `k`-th refusal in a row (k = 0 for
    /// the first) that said `Retry-After: retry_after` (the exact seconds). `previous` is the
    /// wait before this attempt (`base` when there was none), used by decorrelated jitter; `rng`
    /// is the client's own generator (a policy without jitter never draws from it).
    pub fn wait(&self, k: u32, retry_after: f64, previous: f64, rng: &mut fastrand::Rng) -> f64 {
        match *self {
            Policy::Hammer => 0.0,
            Policy::Fixed { wait } => wait,
            Policy::RetryAfter { header, jitter } => {
                let told = match header {
                    Header::WholeSeconds => retry_after_seconds(retry_after) as f64,
                    Header::Exact => retry_after,
                };
                told + jitter.map_or(0.0, |b| rng.f64() * b.ceiling(k))
            }
            Policy::Exponential(b) => b.ceiling(k),
            Policy::FullJitter(b) => rng.f64() * b.ceiling(k),
            Policy::Decorrelated(b) => {
                let high = (previous.max(b.base) * 3.0).min(b.cap);
                b.base + rng.f64() * (high - b.base)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_grows_by_the_factor_up_to_the_cap() {
        let b = Backoff::new(0.1, 2.0, 1.0).unwrap();
        let waits: Vec<f64> = (0..6).map(|k| b.ceiling(k)).collect();
        assert_eq!(waits, [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]);
    }

    #[test]
    fn whole_second_header_rounds_up_to_at_least_one() {
        let policy = Policy::RetryAfter {
            header: Header::WholeSeconds,
            jitter: None,
        };
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(policy.wait(0, 0.1, 0.0, &mut rng), 1.0);
        assert_eq!(policy.wait(3, 1.2, 0.0, &mut rng), 2.0);
    }

    #[test]
    fn a_cap_below_the_base_is_refused_by_name() {
        let err = Backoff::new(2.0, 2.0, 1.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "policy.cap must be a finite number from 2 to 3600, got 1"
        );
    }
}
