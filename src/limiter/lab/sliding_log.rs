//! Sliding window log: the times of the requests admitted in the last `w` seconds. A request
//! passes iff fewer than `limit` of them are younger than `w`. Exact, at O(limit) memory per key.

use super::{wait_until, Limiter, Quota, Verdict};
use std::collections::VecDeque;

/// One key's log of admitted requests.
#[derive(Debug, Clone, PartialEq)]
pub struct SlidingLog {
    quota: Quota,
    /// Admission times, oldest first; at most `limit` of them.
    admitted: VecDeque<f64>,
    latest: f64,
}

impl SlidingLog {
    /// An empty log.
    pub fn new(quota: Quota) -> Self {
        SlidingLog {
            quota,
            admitted: VecDeque::new(),
            latest: f64::NEG_INFINITY,
        }
    }

    /// Whether an entry admitted `at` still counts at `now`: windows are half-open, `[t, t + w)`.
    fn counts(&self, at: f64, now: f64) -> bool {
        at + self.quota.window() > now
    }
}

impl Limiter for SlidingLog {
    fn decide(&mut self, now: f64) -> Verdict {
        let now = now.max(self.latest);
        self.latest = now;
        while let Some(&oldest) = self.admitted.front() {
            if self.counts(oldest, now) {
                break;
            }
            self.admitted.pop_front();
        }
        match self.admitted.front() {
            Some(&oldest) if self.admitted.len() >= self.quota.limit() as usize => {
                Verdict::Denied {
                    retry_after: wait_until(now, oldest + self.quota.window()),
                }
            }
            _ => {
                self.admitted.push_back(now);
                Verdict::Admitted
            }
        }
    }

    fn load(&self, now: f64) -> f64 {
        let now = now.max(self.latest);
        self.admitted
            .iter()
            .filter(|&&at| self.counts(at, now))
            .count() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_again_exactly_when_the_oldest_entry_leaves_the_window() {
        let mut log = SlidingLog::new(Quota::new(2, 1.0).unwrap());
        assert!(log.decide(0.2).passes());
        assert!(log.decide(0.7).passes());
        let Verdict::Denied { retry_after } = log.decide(1.1) else {
            panic!("two in the window already")
        };
        assert!(
            (retry_after - 0.1).abs() < 1e-12,
            "retry_after {retry_after}"
        );
        assert!(
            1.1 + retry_after >= 0.2 + 1.0,
            "a retry after exactly that wait is not early"
        );
        assert_eq!(log.load(1.1), 2.0);
        assert!(
            log.decide(1.2).passes(),
            "0.2 has left the window [0.2, 1.2)"
        );
        assert!(!log.decide(1.5).passes());
        assert_eq!(log.load(1.7), 1.0, "0.7 has left; 1.2 remains");
    }
}
