//! The token bucket: validated config, lazy refill, admit-or-deny with an exact wait.

use super::error::{Field, InvalidValue, Rule};

/// Relative slack for floating-point rounding in token sums, as a fraction of the capacity.
///
/// `0.3 − 0.1 − 0.1` is `0.09999999999999998`, not `0.1`; without this a bucket of 0.3 would refuse
/// its third request of cost 0.1.
pub(crate) const TOKEN_SLACK: f64 = 1e-12;

/// Time slack: a request at most one nanosecond early (or a few units in the last place of `now`,
/// whichever is larger) is on time. It makes a retry at exactly `now + retry_after` pass, although
/// that sum is rounded in `f64`.
#[inline]
pub(crate) fn time_slack(now: f64) -> f64 {
    let ulps = now.abs() * (4.0 * f64::EPSILON);
    if ulps > 1e-9 {
        ulps
    } else {
        1e-9
    }
}

/// The tokens a caller sees: a count still paying back a slack's debt (a hair below 0) is 0.
#[inline]
fn owed_as_none(tokens: f64) -> f64 {
    if tokens > 0.0 {
        tokens
    } else {
        0.0
    }
}

/// A token count as a person reads it: within the rounding slack of a whole number (10⁻¹²·B, as
/// the bucket decides with it) it is that whole number. `2.003 − 1.003` s at 1 token/s refills
/// `1.0000000000000002`, so a request of cost 1 then leaves `2.22e-16`: that is 0, and
/// `0.9999999999999996` is 1. The response's headers and the widget's lines count with it; the
/// bucket itself keeps the exact sum.
pub fn settled(tokens: f64, capacity: f64) -> f64 {
    let nearest = tokens.round();
    if (tokens - nearest).abs() <= capacity * TOKEN_SLACK {
        nearest
    } else {
        tokens
    }
}

/// A token bucket's parameters, checked when built so a bad value can't exist later.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BucketConfig {
    capacity: f64,
    refill_rate: f64,
    initial_tokens: f64,
}

impl BucketConfig {
    /// A bucket of `capacity` tokens (`B`, finite, > 0) refilled at `refill_rate` tokens per second
    /// (`r`, finite, ≥ 0). It starts full.
    pub fn new(capacity: f64, refill_rate: f64) -> Result<Self, InvalidValue> {
        let capacity = InvalidValue::check(Field::Capacity, capacity, Rule::Positive)?;
        let refill_rate = InvalidValue::check(Field::RefillRate, refill_rate, Rule::NonNegative)?;
        Ok(BucketConfig {
            capacity,
            // -0 is allowed as 0; stored as +0 so that it never shows up as "r = -0".
            refill_rate: refill_rate + 0.0,
            initial_tokens: capacity,
        })
    }

    /// The same bucket starting with `tokens` (finite, `0..=capacity`) instead of full.
    pub fn with_initial_tokens(self, tokens: f64) -> Result<Self, InvalidValue> {
        let initial_tokens = InvalidValue::check(Field::Tokens, tokens, Rule::UpTo(self.capacity))?;
        // -0 is allowed as 0; store +0 so it never shows up as "-0".
        Ok(BucketConfig {
            initial_tokens: initial_tokens + 0.0,
            ..self
        })
    }

    /// `B`: the most tokens the bucket holds, the largest burst.
    pub fn capacity(&self) -> f64 {
        self.capacity
    }

    /// `r`: tokens added per second, the sustained rate.
    pub fn refill_rate(&self) -> f64 {
        self.refill_rate
    }

    /// Tokens in the bucket when it is first used.
    pub fn initial_tokens(&self) -> f64 {
        self.initial_tokens
    }
}

/// Why a request can never be admitted, however long the caller waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Never {
    /// The cost is larger than the capacity: the bucket can never hold that many tokens.
    CostExceedsCapacity,
    /// The refill rate is 0 and the bucket holds fewer tokens than the cost.
    NoRefill,
}

/// The outcome of one request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Admitted: its cost was taken from the bucket.
    Admitted,
    /// Denied for now; the same request will pass `retry_after` seconds later.
    Denied {
        /// Seconds until the bucket holds the cost: `(cost − tokens) / refill_rate` (plus, if time
        /// went backwards, the gap back up to the last refill).
        retry_after: f64,
    },
    /// Denied, and it would be denied at any later time.
    Never(Never),
}

/// What a request got, and the bucket's token count right after it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// Admitted, denied or never admissible.
    pub outcome: Outcome,
    /// Tokens after the refill and, if admitted, the debit.
    pub tokens: f64,
    /// Tokens after the refill, before any debit: what the request was measured against.
    pub available: f64,
    /// Seconds of refill credited by this request (`Δt`; 0 if time went backwards).
    pub elapsed: f64,
    /// Tokens the bucket held before this request's refill.
    pub tokens_before: f64,
    /// Seconds from `now` back up to the last refill if time went backwards (else 0): no token
    /// accrues before then, so every wait the response states includes it.
    pub lag: f64,
}

impl Decision {
    /// Whether the request was admitted.
    #[inline]
    pub fn is_admitted(&self) -> bool {
        self.outcome == Outcome::Admitted
    }

    /// Seconds to wait: `Some(0.0)` when admitted, `None` when the request can never pass.
    pub fn retry_after(&self) -> Option<f64> {
        match self.outcome {
            Outcome::Admitted => Some(0.0),
            Outcome::Denied { retry_after } => Some(retry_after),
            Outcome::Never(_) => None,
        }
    }
}

/// A token bucket. Time is always an argument (`now`, in seconds on any fixed origin); the bucket
/// never reads a clock, so it runs the same in tests, in the browser and in replays.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBucket {
    config: BucketConfig,
    tokens: f64,
    /// Time of the last refill; `None` until first used, when the clock starts.
    last: Option<f64>,
}

impl TokenBucket {
    /// A bucket holding `config.initial_tokens()`; its clock starts at the first call.
    pub fn new(config: BucketConfig) -> Self {
        TokenBucket {
            config,
            tokens: config.initial_tokens(),
            last: None,
        }
    }

    /// A bucket holding `config.initial_tokens()` at time `now`, refilling from then on.
    pub fn started_at(config: BucketConfig, now: f64) -> Result<Self, InvalidValue> {
        let now = InvalidValue::check(Field::Now, now, Rule::Finite)?;
        Ok(TokenBucket {
            last: Some(now),
            ..TokenBucket::new(config)
        })
    }

    /// The bucket's parameters.
    pub fn config(&self) -> &BucketConfig {
        &self.config
    }

    /// The time of the last refill: the latest time the bucket decided at or was set at (`None`
    /// until first used).
    #[inline]
    pub(crate) fn last_refill(&self) -> Option<f64> {
        self.last
    }

    /// Tokens the bucket would hold at `now`, without changing it.
    pub fn tokens_at(&self, now: f64) -> Result<f64, InvalidValue> {
        let now = InvalidValue::check(Field::Now, now, Rule::Finite)?;
        Ok(owed_as_none(self.refilled(now).0))
    }

    /// Asks for `cost` tokens (finite, ≥ 0) at `now`. Admitted iff the refilled bucket holds at
    /// least `cost`; a denied request changes nothing but the (idempotent) refill.
    #[inline]
    pub fn try_acquire(&mut self, cost: f64, now: f64) -> Result<Decision, InvalidValue> {
        // The common case is checked inline; the error (with its message parts) is built only
        // when a value is bad.
        if !(cost >= 0.0 && cost.is_finite()) {
            return Err(InvalidValue::refused(Field::Cost, cost, Rule::NonNegative));
        }
        if !now.is_finite() {
            return Err(InvalidValue::refused(Field::Now, now, Rule::Finite));
        }
        let tokens_before = self.tokens;
        let (available, elapsed, last) = self.refilled(now);
        self.tokens = available;
        self.last = Some(last);

        let capacity = self.config.capacity;
        let rate = self.config.refill_rate;
        // Enough tokens without any slack is the common case, and it settles the request alone:
        // `available ≤ B`, so the cost fits the bucket, and the slack only ever adds. The rounding
        // slack and the never-checks are computed only for a request that is short.
        let token_slack = || capacity * TOKEN_SLACK;
        // Cost 0 always passes, even when the count still owes a slack's hair: one let in early
        // at a later `now` (a larger slack) can owe more than an earlier `now`'s slack covers.
        let admitted = available >= cost
            || cost == 0.0
            || (cost - capacity <= token_slack()
                && available + token_slack() + rate * time_slack(now) >= cost);
        // If `now` is behind the last refill, the missing tokens start accruing only from there.
        let lag = if last > now { last - now } else { 0.0 };
        let outcome = if admitted {
            // A request let in by the slack owes what it was short: the count goes that little
            // below 0 and the refill pays it back first, so the slack never adds up over
            // requests (in tokens it is `r` times a few ulps of `now`: at Unix times and
            // r = 10⁹/s, a whole request's worth each time).
            self.tokens = available - cost;
            Outcome::Admitted
        } else if cost - capacity > token_slack() {
            Outcome::Never(Never::CostExceedsCapacity)
        } else if rate == 0.0 {
            Outcome::Never(Never::NoRefill)
        } else {
            // The wait includes the lag: a retry at `now + retry_after` then passes.
            Outcome::Denied {
                retry_after: lag + (cost - available) / rate,
            }
        };
        Ok(Decision {
            outcome,
            tokens: owed_as_none(self.tokens),
            available: owed_as_none(available),
            elapsed,
            tokens_before: owed_as_none(tokens_before),
            lag,
        })
    }

    /// Switches to `config` at `now`: tokens accrued so far under the old rate are kept, capped at
    /// the new capacity (a smaller bucket spills what no longer fits).
    pub fn reconfigure(&mut self, config: BucketConfig, now: f64) -> Result<(), InvalidValue> {
        let now = InvalidValue::check(Field::Now, now, Rule::Finite)?;
        self.tokens = self.refilled(now).0.min(config.capacity);
        self.last = Some(self.last.map_or(now, |last| last.max(now)));
        self.config = config;
        Ok(())
    }

    /// Token count, credited seconds and the new time of the last refill at `now`:
    /// `min(B, tokens + max(0, now − last) · r)`, and `max(last, now)`.
    /// Plain comparisons rather than `f64::max`/`min`: every value is checked and finite (a sum
    /// may overflow to infinity, which compares correctly), so their NaN handling is dead weight
    /// on the decision's hot path.
    #[inline]
    fn refilled(&self, now: f64) -> (f64, f64, f64) {
        match self.last {
            // `now > last` makes `now − last` > 0: IEEE-754 subtraction of two different finite
            // numbers is never 0, so there is no zero-elapsed case to test here.
            Some(last) if now > last => {
                let elapsed = now - last;
                if self.config.refill_rate == 0.0 {
                    return (self.tokens, elapsed, now);
                }
                // `elapsed · r` may overflow to infinity; the capacity is then the smaller, as it
                // should.
                let tokens = self.tokens + elapsed * self.config.refill_rate;
                let capacity = self.config.capacity;
                let tokens = if tokens < capacity { tokens } else { capacity };
                (tokens, elapsed, now)
            }
            // Time going backwards adds nothing and never moves `last` back (at an equal time,
            // `now` is kept: its zero may have the other sign).
            Some(last) => (self.tokens, 0.0, if last > now { last } else { now }),
            // The first use starts the clock.
            None => (self.tokens, 0.0, now),
        }
    }
}
