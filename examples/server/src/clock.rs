//! The time a request arrives, in seconds. The core never reads a clock; the server passes it one
//! reading per request.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// A source of `now`, in seconds.
pub trait Clock: Send + Sync + 'static {
    /// The current time in seconds on this clock's origin.
    fn now(&self) -> f64;
}

/// Unix time in seconds. With the Redis store every app server must use the same origin, since
/// the script compares times written by different servers.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            // A system clock set before 1970 reads as 0: time then stands still, it never errors.
            .map_or(0.0, |since| since.as_secs_f64())
    }
}

/// A clock that moves only when told to, for tests and replays. Clones share the same time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock {
    seconds_bits: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock reading `seconds`.
    pub fn at(seconds: f64) -> Self {
        let clock = ManualClock::default();
        clock.set(seconds);
        clock
    }

    /// Sets the time to `seconds`.
    pub fn set(&self, seconds: f64) {
        self.seconds_bits.store(seconds.to_bits(), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> f64 {
        f64::from_bits(self.seconds_bits.load(Ordering::SeqCst))
    }
}
