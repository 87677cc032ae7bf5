//! Leaky bucket as a queue: requests wait in a queue of `B = limit` places and leave it at a
//! constant rate, one every `T = w / limit` seconds. The output never bursts; the price is delay.
//! A request that finds the server free goes through at once; one that finds all `B` places taken
//! is dropped (429). So a burst gets `1 + B` through: one served, `B` waiting (as nginx's
//! `limit_req burst=B` without `nodelay`).

use super::{wait_until, Limiter, Quota, Verdict};
use std::collections::VecDeque;

/// One key's queue.
#[derive(Debug, Clone, PartialEq)]
pub struct LeakyQueue {
    quota: Quota,
    /// When each waiting request leaves the queue, in order; all later than the latest arrival.
    waiting: VecDeque<f64>,
    /// The server's current busy stretch: it began at `.0` and `.1` requests have been scheduled
    /// since, the last one leaving at `.0 + .1 · T`. Multiplying instead of adding `T` each time
    /// keeps the leave times free of accumulated rounding.
    busy_since: Option<(f64, u32)>,
    latest: f64,
}

impl LeakyQueue {
    /// An empty queue with the server idle.
    pub fn new(quota: Quota) -> Self {
        LeakyQueue {
            quota,
            waiting: VecDeque::new(),
            busy_since: None,
            latest: f64::NEG_INFINITY,
        }
    }
}

impl Limiter for LeakyQueue {
    fn decide(&mut self, now: f64) -> Verdict {
        let now = now.max(self.latest);
        self.latest = now;
        while self.waiting.front().is_some_and(|&out| out <= now) {
            self.waiting.pop_front();
        }
        if self.waiting.len() >= self.quota.limit() as usize {
            let first_out = self.waiting.front().copied().unwrap_or(now);
            return Verdict::Denied {
                retry_after: wait_until(now, first_out),
            };
        }
        let interval = self.quota.interval();
        let next = self
            .busy_since
            .map(|(start, count)| (start, count + 1))
            .filter(|&(start, count)| start + f64::from(count) * interval > now)
            .unwrap_or((now, 0));
        self.busy_since = Some(next);
        let out = next.0 + f64::from(next.1) * interval;
        if out > now {
            self.waiting.push_back(out);
            Verdict::Delayed { delay: out - now }
        } else {
            Verdict::Admitted
        }
    }

    fn load(&self, now: f64) -> f64 {
        let now = now.max(self.latest);
        self.waiting.iter().filter(|&&out| out > now).count() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_spread_out_at_the_leak_rate_and_the_excess_dropped() {
        let mut queue = LeakyQueue::new(Quota::new(4, 1.0).unwrap());
        let verdicts: Vec<Verdict> = (0..6).map(|_| queue.decide(0.0)).collect();
        assert_eq!(
            verdicts[0],
            Verdict::Admitted,
            "the idle server takes the first at once"
        );
        for (i, v) in verdicts[1..5].iter().enumerate() {
            assert_eq!(
                *v,
                Verdict::Delayed {
                    delay: 0.25 * (i + 1) as f64
                },
                "request {}",
                i + 1
            );
        }
        assert_eq!(
            verdicts[5],
            Verdict::Denied { retry_after: 0.25 },
            "four places, all taken"
        );
        assert_eq!(queue.load(0.0), 4.0);
        assert_eq!(queue.load(0.6), 2.0, "two have left by t = 0.6");
        // One place frees at 0.25: a request then leaves after the last queued one, at 1.25.
        assert_eq!(queue.decide(0.25), Verdict::Delayed { delay: 1.0 });
    }

    #[test]
    fn steady_traffic_below_the_rate_is_never_delayed() {
        let mut queue = LeakyQueue::new(Quota::new(4, 1.0).unwrap());
        for i in 0..20 {
            assert_eq!(
                queue.decide(f64::from(i) * 0.5),
                Verdict::Admitted,
                "request {i}"
            );
        }
    }
}
