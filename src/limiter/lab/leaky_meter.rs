//! Leaky bucket as a meter: a bucket of capacity `B` leaks at `r` units per second; a request of
//! cost `c` pours in `c` units if they fit (`level + c ≤ B`), else it is refused. The water level is
//! `B − tokens` of a token bucket, so the two admit and refuse exactly alike.

use super::{time_slack, Limiter, Quota, Verdict};

/// Relative slack on the level, as in the token bucket: a fraction of `B` lost to rounding.
const LEVEL_SLACK: f64 = 1e-12;

/// One key's meter.
#[derive(Debug, Clone, PartialEq)]
pub struct LeakyMeter {
    capacity: f64,
    leak_rate: f64,
    level: f64,
    /// Time of the last leak; `None` before the first request.
    last: Option<f64>,
}

impl LeakyMeter {
    /// An empty bucket of `limit` units leaking `limit / window` per second.
    pub fn new(quota: Quota) -> Self {
        LeakyMeter {
            capacity: f64::from(quota.limit()),
            leak_rate: quota.rate(),
            level: 0.0,
            last: None,
        }
    }

    fn drained(&self, now: f64) -> f64 {
        let elapsed = self.last.map_or(0.0, |last| (now - last).max(0.0));
        (self.level - elapsed * self.leak_rate).max(0.0)
    }

    /// Pours `cost` units (finite, ≥ 0) at `now`. Time before the last request counts as that
    /// time, so the meter never leaks twice for the same interval.
    pub fn try_pour(&mut self, cost: f64, now: f64) -> Verdict {
        let level = self.drained(now);
        let last = self.last.map_or(now, |last| last.max(now));
        self.level = level;
        self.last = Some(last);
        let slack = self.capacity * LEVEL_SLACK + self.leak_rate * time_slack(now);
        if cost - self.capacity > self.capacity * LEVEL_SLACK {
            return Verdict::Denied {
                retry_after: f64::INFINITY,
            };
        }
        // Cost 0 always passes, as in the token bucket (see `TokenBucket::try_acquire`).
        if cost == 0.0 || level + cost <= self.capacity + slack {
            // Let in by the slack, the meter stays over `B` by that hair until it leaks away, as
            // the token bucket owes its shortfall: the slack never adds up over requests.
            self.level = level + cost;
            return Verdict::Admitted;
        }
        // Time before `last` drains nothing, so a request from the past also waits for the gap.
        let lag = last - now;
        Verdict::Denied {
            retry_after: lag + (level + cost - self.capacity) / self.leak_rate,
        }
    }
}

impl Limiter for LeakyMeter {
    fn decide(&mut self, now: f64) -> Verdict {
        self.try_pour(1.0, now)
    }

    fn load(&self, now: f64) -> f64 {
        self.drained(now).min(self.capacity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_to_capacity_then_refuses_until_it_has_leaked_enough() {
        let mut meter = LeakyMeter::new(Quota::new(10, 2.0).unwrap()); // leaks 5 per second
        for _ in 0..10 {
            assert!(meter.decide(0.0).passes());
        }
        assert_eq!(meter.decide(0.0), Verdict::Denied { retry_after: 0.2 });
        assert!(
            meter.decide(0.2).passes(),
            "exactly the reported wait later"
        );
        assert_eq!(meter.load(0.2), 10.0);
        assert_eq!(meter.load(1.2), 5.0);
        assert_eq!(
            meter.try_pour(11.0, 5.0),
            Verdict::Denied {
                retry_after: f64::INFINITY
            }
        );
    }
}
