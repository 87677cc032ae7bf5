//! Fixed window counter: `limit` requests per window `[k·w, (k+1)·w)`, the count reset at each
//! boundary. One counter per key, and a blind spot: `limit` at the end of one window and `limit` at
//! the start of the next pass within moments of each other.

use super::{first_wait, Limiter, Quota, Verdict};

/// One key's fixed-window counter.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedWindow {
    quota: Quota,
    /// `k` of the window `count` belongs to; `None` before the first request.
    window: Option<f64>,
    count: u32,
    latest: f64,
}

impl FixedWindow {
    /// An empty counter.
    pub fn new(quota: Quota) -> Self {
        FixedWindow {
            quota,
            window: None,
            count: 0,
            latest: f64::NEG_INFINITY,
        }
    }

    fn index(&self, now: f64) -> f64 {
        (now / self.quota.window()).floor()
    }

    fn count_at(&self, now: f64) -> u32 {
        if self.window == Some(self.index(now)) {
            self.count
        } else {
            0
        }
    }
}

impl Limiter for FixedWindow {
    fn decide(&mut self, now: f64) -> Verdict {
        let now = now.max(self.latest);
        self.latest = now;
        let index = self.index(now);
        self.count = self.count_at(now);
        self.window = Some(index);
        if self.count < self.quota.limit() {
            self.count += 1;
            return Verdict::Admitted;
        }
        // The next window: the first time whose index is past this one.
        let next = (index + 1.0) * self.quota.window();
        Verdict::Denied {
            retry_after: first_wait(now, next - now, |then| self.index(then) > index),
        }
    }

    fn load(&self, now: f64) -> f64 {
        f64::from(self.count_at(now.max(self.latest)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_reset_at_each_boundary() {
        let mut fixed = FixedWindow::new(Quota::new(2, 10.0).unwrap());
        assert_eq!(fixed.decide(1.0), Verdict::Admitted);
        assert_eq!(fixed.decide(9.0), Verdict::Admitted);
        assert_eq!(fixed.decide(9.5), Verdict::Denied { retry_after: 0.5 });
        assert_eq!(fixed.load(9.9), 2.0);
        assert_eq!(fixed.load(10.0), 0.0, "a new window starts empty");
        assert_eq!(fixed.decide(10.0), Verdict::Admitted);
        assert_eq!(fixed.decide(10.0), Verdict::Admitted);
        assert!(!fixed.decide(19.99).passes());
    }

    #[test]
    fn a_retry_after_the_reported_wait_passes_even_when_rounding_bites() {
        // 0.3 / 0.1 is 2.9999999999999996 in f64: the boundary must still be found.
        let mut fixed = FixedWindow::new(Quota::new(1, 0.1).unwrap());
        assert!(fixed.decide(0.25).passes());
        let Verdict::Denied { retry_after } = fixed.decide(0.26) else {
            panic!("second request in the window must be denied")
        };
        assert!(
            fixed.decide(0.26 + retry_after).passes(),
            "retry_after {retry_after}"
        );
    }
}
