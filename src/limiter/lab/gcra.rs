//! GCRA, the generic cell rate algorithm: one number per key, the theoretical arrival time `tat`.
//! With emission interval `T = 1/r` and burst `B`, a request of cost `c` at `now` passes iff
//! `max(tat, now) + c·T − now ≤ B·T`, and then `tat = max(tat, now) + c·T`. It is the token bucket
//! written in time instead of tokens.

use super::{time_slack, Limiter, Quota, Verdict};

/// Relative slack on `B·T`, the token bucket's `1e-12·B` expressed in seconds.
const BURST_SLACK: f64 = 1e-12;

/// One key's GCRA state.
#[derive(Debug, Clone, PartialEq)]
pub struct Gcra {
    interval: f64,
    burst: f64,
    /// Theoretical arrival time; `None` before the first request (a full burst is available).
    tat: Option<f64>,
    latest: f64,
}

impl Gcra {
    /// `T = window / limit`, `B = limit`.
    pub fn new(quota: Quota) -> Self {
        Gcra {
            interval: quota.interval(),
            burst: f64::from(quota.limit()),
            tat: None,
            latest: f64::NEG_INFINITY,
        }
    }

    /// The theoretical arrival time, once the state has been used.
    pub fn tat(&self) -> Option<f64> {
        self.tat
    }

    /// Asks for `cost` (finite, ≥ 0) at `now`. A time before the latest request counts as the
    /// latest, like the token bucket's clock that never runs backwards.
    pub fn try_acquire(&mut self, cost: f64, now: f64) -> Verdict {
        let at = now.max(self.latest);
        self.latest = at;
        let tolerance = self.burst * self.interval;
        let slack = tolerance * BURST_SLACK + time_slack(now);
        if (cost - self.burst) * self.interval > slack {
            return Verdict::Denied {
                retry_after: f64::INFINITY,
            };
        }
        let start = self.tat.map_or(at, |tat| tat.max(at));
        let new_tat = start + cost * self.interval;
        // Cost 0 always passes, as in the token bucket (see `TokenBucket::try_acquire`).
        if cost == 0.0 || new_tat - at <= tolerance + slack {
            self.tat = Some(new_tat);
            Verdict::Admitted
        } else {
            Verdict::Denied {
                retry_after: (at - now) + (new_tat - at - tolerance),
            }
        }
    }
}

impl Limiter for Gcra {
    fn decide(&mut self, now: f64) -> Verdict {
        self.try_acquire(1.0, now)
    }

    /// `(tat − now) / T`: how many requests' worth of the burst is in use.
    fn load(&self, now: f64) -> f64 {
        let now = now.max(self.latest);
        self.tat
            .map_or(0.0, |tat| ((tat - now) / self.interval).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example_in_time_units() {
        let mut gcra = Gcra::new(Quota::new(10, 2.0).unwrap()); // T = 0.2 s, B = 10
        for _ in 0..10 {
            assert!(gcra.decide(0.0).passes());
        }
        let tat = gcra.tat().unwrap();
        assert!((tat - 2.0).abs() < 1e-12, "tat {tat}");
        let Verdict::Denied { retry_after } = gcra.decide(0.0) else {
            panic!("the 11th must wait")
        };
        assert!(
            (retry_after - 0.2).abs() < 1e-12,
            "retry_after {retry_after}"
        );
        assert!(gcra.decide(0.2).passes());
        assert_eq!(gcra.load(10.0), 0.0);
    }
}
