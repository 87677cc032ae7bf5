//! Sliding window counter (Cloudflare's approximation): two counters, the previous fixed window's
//! and the current one's. The previous count is weighted by how much of it the sliding window
//! still covers: `estimate = prev · (1 − elapsed/w) + cur`. A request passes iff the estimate with
//! it stays within `limit`. O(1) memory; exact only if the previous window's requests were spread
//! evenly.

use super::{Limiter, Quota, Verdict};

/// Relative slack on the estimate, so a retry at exactly the reported time passes.
const ESTIMATE_SLACK: f64 = 1e-9;

/// One key's pair of counters.
#[derive(Debug, Clone, PartialEq)]
pub struct SlidingCounter {
    quota: Quota,
    /// `k` of the current window; `None` before the first request.
    window: Option<f64>,
    previous: u32,
    current: u32,
    latest: f64,
}

impl SlidingCounter {
    /// Both counters at zero.
    pub fn new(quota: Quota) -> Self {
        SlidingCounter {
            quota,
            window: None,
            previous: 0,
            current: 0,
            latest: f64::NEG_INFINITY,
        }
    }

    /// `(k, prev, cur)` at `now`: the counters as they are once the window has moved on.
    fn rolled(&self, now: f64) -> (f64, u32, u32) {
        let index = (now / self.quota.window()).floor();
        match self.window {
            Some(k) if k == index => (index, self.previous, self.current),
            Some(k) if k + 1.0 == index => (index, self.current, 0),
            _ => (index, 0, 0),
        }
    }

    /// `prev · (1 − elapsed/w) + cur` at `now`.
    fn estimate(&self, now: f64) -> f64 {
        let (index, previous, current) = self.rolled(now);
        let w = self.quota.window();
        let elapsed = now - index * w;
        f64::from(previous) * (1.0 - elapsed / w) + f64::from(current)
    }

    /// Seconds from `now` until one more request fits, if nothing else arrives.
    fn retry_after(&self, now: f64) -> f64 {
        let (index, previous, current) = self.rolled(now);
        let (w, limit) = (self.quota.window(), f64::from(self.quota.limit()));
        let elapsed = now - index * w;
        if f64::from(current) + 1.0 <= limit && previous > 0 {
            // Later in this window: prev · (1 − e/w) ≤ limit − cur − 1.
            let at = w * (1.0 - (limit - f64::from(current) - 1.0) / f64::from(previous));
            return (at - elapsed).max(0.0);
        }
        // In the next window `cur` becomes the previous count: cur · (1 − e/w) + 1 ≤ limit.
        let into_next = if current == 0 {
            0.0
        } else {
            (w * (1.0 - (limit - 1.0) / f64::from(current))).max(0.0)
        };
        (w - elapsed) + into_next
    }
}

impl Limiter for SlidingCounter {
    fn decide(&mut self, now: f64) -> Verdict {
        let now = now.max(self.latest);
        self.latest = now;
        let estimate = self.estimate(now);
        let (index, previous, current) = self.rolled(now);
        self.window = Some(index);
        self.previous = previous;
        self.current = current;
        let limit = f64::from(self.quota.limit());
        if estimate + 1.0 <= limit * (1.0 + ESTIMATE_SLACK) {
            self.current += 1;
            Verdict::Admitted
        } else {
            Verdict::Denied {
                retry_after: self.retry_after(now),
            }
        }
    }

    fn load(&self, now: f64) -> f64 {
        self.estimate(now.max(self.latest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_the_previous_window_by_the_part_still_covered() {
        let mut counter = SlidingCounter::new(Quota::new(10, 1.0).unwrap());
        for _ in 0..8 {
            assert!(counter.decide(0.5).passes());
        }
        // At 1.25: 8 · 0.75 = 6 still count; 4 more fit (6 + 4 = 10), the 5th does not.
        for i in 0..4 {
            assert!(counter.decide(1.25).passes(), "request {i}");
        }
        assert_eq!(counter.load(1.25), 10.0);
        let Verdict::Denied { retry_after } = counter.decide(1.25) else {
            panic!("the 11th must be denied")
        };
        // 8 · (1 − e) ≤ 10 − 4 − 1 = 5 at e = 0.375.
        assert!((retry_after - 0.125).abs() < 1e-12, "{retry_after}");
        assert!(counter.decide(1.25 + retry_after).passes());
    }

    #[test]
    fn retry_after_a_full_current_window_looks_into_the_next() {
        let mut counter = SlidingCounter::new(Quota::new(4, 1.0).unwrap());
        for _ in 0..4 {
            assert!(counter.decide(0.0).passes());
        }
        let Verdict::Denied { retry_after } = counter.decide(0.5) else {
            panic!("full window")
        };
        // Next window: 4 · (1 − e) + 1 ≤ 4 at e = 0.25, so t = 1.25.
        assert!((retry_after - 0.75).abs() < 1e-12, "{retry_after}");
        assert!(!counter.decide(1.2).passes());
        assert!(counter.decide(0.5 + retry_after).passes());
    }
}
