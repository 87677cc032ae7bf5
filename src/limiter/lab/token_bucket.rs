//! The token-bucket lane: the lesson's own [`TokenBucket`], `B = limit`, `r = limit / window`,
//! starting full, with cost-1 requests.

use super::{Limiter, Quota, Verdict};
use crate::limiter::{BucketConfig, Outcome, TokenBucket};

/// The core's token bucket behind the lab's [`Limiter`] interface.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBucketLane {
    bucket: TokenBucket,
}

impl TokenBucketLane {
    /// A full bucket of `limit` tokens refilled at `limit / window` per second.
    pub fn new(quota: Quota) -> Self {
        // A quota always makes a valid bucket (limit ≥ 1, rate finite and > 0).
        let config = BucketConfig::new(f64::from(quota.limit()), quota.rate())
            .expect("a valid quota is a valid bucket");
        TokenBucketLane {
            bucket: TokenBucket::new(config),
        }
    }
}

impl Limiter for TokenBucketLane {
    fn decide(&mut self, now: f64) -> Verdict {
        match self.bucket.try_acquire(1.0, now).map(|d| d.outcome) {
            Ok(Outcome::Admitted) => Verdict::Admitted,
            Ok(Outcome::Denied { retry_after }) => Verdict::Denied { retry_after },
            // Neither happens with cost 1 ≤ B, r > 0 and a finite time; refuse rather than panic.
            Ok(Outcome::Never(_)) | Err(_) => Verdict::Denied {
                retry_after: f64::INFINITY,
            },
        }
    }

    fn load(&self, now: f64) -> f64 {
        let capacity = self.bucket.config().capacity();
        capacity - self.bucket.tokens_at(now).unwrap_or(capacity)
    }
}
