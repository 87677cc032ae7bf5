//! The algorithm lab: the limiters the lesson compares, all answering with one
//! [`Verdict`](crate::limiter::lab::Verdict), fed by the same
//! [`Traffic`](crate::limiter::lab::Traffic) and run side by side by
//! [`simulate`](crate::limiter::lab::simulate()).
//!
//! Every limiter is configured by one [`Quota`](crate::limiter::lab::Quota), "`limit` requests per
//! `window` seconds", so the lanes are comparable: the windows count to `limit` per `window`; the
//! buckets hold `B = limit` and refill or leak at `r = limit / window`; GCRA has
//! `T = window / limit` and a burst of `limit`.
//!
//! ```
//! use bucketlab::limiter::lab::{Algorithm, Quota, Verdict};
//!
//! let quota = Quota::new(3, 1.0)?; // 3 per second
//! let mut fixed = Algorithm::FixedWindow.build(quota);
//! for _ in 0..3 {
//!     assert_eq!(fixed.decide(0.9), Verdict::Admitted);
//! }
//! assert!(matches!(fixed.decide(0.9), Verdict::Denied { .. }));
//! // A new window starts at t = 1: three more pass 0.1 s later, six in 0.1 s.
//! assert_eq!(fixed.decide(1.0), Verdict::Admitted);
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

/// Fixed window counter.
mod fixed_window;
/// GCRA: the theoretical arrival time.
mod gcra;
/// Leaky bucket as a meter.
mod leaky_meter;
/// Leaky bucket as a queue.
mod leaky_queue;
/// Pasted timestamps: parsing and its errors.
mod pasted;
/// Running a trace through several limiters at once.
mod simulate;
/// Sliding window counter (weighted approximation).
mod sliding_counter;
/// Sliding window log.
mod sliding_log;
/// The token-bucket lane, over the core's [`crate::limiter::TokenBucket`].
mod token_bucket;
/// Arrival patterns, deterministic from a seed.
mod traffic;

pub use fixed_window::FixedWindow;
pub use gcra::Gcra;
pub use leaky_meter::LeakyMeter;
pub use leaky_queue::LeakyQueue;
pub use pasted::{
    check_timestamps, parse_timestamps, parse_timestamps_before, PasteError, Position, Problem,
    MAX_PASTED,
};
pub use simulate::{peak_within, simulate, Lane, Simulation, ADMITTED, DELAYED, DENIED};
pub use sliding_counter::SlidingCounter;
pub use sliding_log::SlidingLog;
pub use token_bucket::TokenBucketLane;
pub use traffic::{check_duration, LabError, Traffic, MAX_ARRIVALS, MAX_DURATION, MAX_RATE};

use super::{Field, InvalidValue, Rule};

/// Fields of the lab's settings, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabField {
    /// Requests allowed per window.
    Limit,
    /// Window length in seconds.
    Window,
    /// Length of a simulation in seconds.
    Duration,
    /// Number of state samples per lane.
    Samples,
    /// Requests per second of steady or Poisson traffic.
    Rate,
    /// Requests sent at once in each burst.
    Size,
    /// Seconds between bursts.
    Every,
    /// Ramp: requests per second at the start.
    From,
    /// Ramp: requests per second at the end.
    To,
}

impl LabField {
    /// The name in Rust code and messages.
    pub fn name(self) -> &'static str {
        match self {
            LabField::Limit => "limit",
            LabField::Window => "window",
            LabField::Duration => "duration",
            LabField::Samples => "samples",
            LabField::Rate => "traffic.rate",
            LabField::Size => "traffic.size",
            LabField::Every => "traffic.every",
            LabField::From => "traffic.from",
            LabField::To => "traffic.to",
        }
    }

    /// The name as JavaScript callers of `simulate` spell it (the same words here).
    pub fn js_name(self) -> &'static str {
        self.name()
    }
}

/// The most requests per window the lab accepts.
pub const MAX_LIMIT: u32 = 10_000;
/// The longest window, in seconds (one day).
pub const MAX_WINDOW: f64 = 86_400.0;
/// The shortest window, in seconds: a shorter one would make `limit / window` overflow (a window
/// of 5e-324 s gives an infinite rate) long before it made sense.
pub const MIN_WINDOW: f64 = 0.001;
/// The rule a window follows.
pub const WINDOW_RULE: Rule = Rule::Between(MIN_WINDOW, MAX_WINDOW);

/// "`limit` requests per `window` seconds": the one setting all the lab's limiters share.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quota {
    limit: u32,
    window: f64,
}

impl Quota {
    /// `limit` (whole, 1..=10 000) requests per `window` seconds (finite, in `(0, 86 400]`).
    pub fn new(limit: u32, window: f64) -> Result<Self, InvalidValue> {
        InvalidValue::check(
            Field::Lab(LabField::Limit),
            f64::from(limit),
            Rule::Whole(1, MAX_LIMIT),
        )?;
        let window = InvalidValue::check(Field::Lab(LabField::Window), window, WINDOW_RULE)?;
        Ok(Quota { limit, window })
    }

    /// Requests allowed per window (the buckets' capacity `B`).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The window `w`, in seconds.
    pub fn window(&self) -> f64 {
        self.window
    }

    /// The sustained rate `r = limit / window`, requests per second.
    pub fn rate(&self) -> f64 {
        f64::from(self.limit) / self.window
    }

    /// The emission interval `T = window / limit`, seconds per request.
    pub fn interval(&self) -> f64 {
        self.window / f64::from(self.limit)
    }
}

/// What a limiter did with one request: the decision type every lab limiter shares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// Passed on at once.
    Admitted,
    /// Accepted, but passed on `delay` seconds later (only the leaky-bucket queue does this).
    Delayed {
        /// Seconds between arrival and passing on.
        delay: f64,
    },
    /// Refused (HTTP 429); the same request would pass `retry_after` seconds later if nothing
    /// else arrived in between.
    Denied {
        /// Seconds to wait.
        retry_after: f64,
    },
}

impl Verdict {
    /// Whether the request gets through, now or later.
    pub fn passes(&self) -> bool {
        !matches!(self, Verdict::Denied { .. })
    }

    /// Seconds between arrival and passing on: 0 when admitted at once, `None` when refused.
    pub fn delay(&self) -> Option<f64> {
        match *self {
            Verdict::Admitted => Some(0.0),
            Verdict::Delayed { delay } => Some(delay),
            Verdict::Denied { .. } => None,
        }
    }
}

/// A limiter of the lab: one key's state. Requests cost 1; time is an argument and may repeat, but
/// the lab feeds it in order (a time before the latest one counts as the latest one).
pub trait Limiter {
    /// Decides one request arriving at `now` (seconds, finite).
    fn decide(&mut self, now: f64) -> Verdict;

    /// Capacity in use at `now`, in requests, from 0 to `limit`: the count in the window, the
    /// water in the bucket, the queue length, or `B` minus the tokens. Does not change the state.
    fn load(&self, now: f64) -> f64;
}

/// The limiters of the lab, by the names the JavaScript API uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Counts per window aligned to multiples of `w`.
    FixedWindow,
    /// Keeps the times of admitted requests of the last `w` seconds.
    SlidingLog,
    /// Weights the previous window's count: `prev · (1 − elapsed/w) + cur`.
    SlidingCounter,
    /// A queue of `B` places emptied at a constant rate: delays or drops.
    LeakyQueue,
    /// A bucket of water that leaks at `r`; a request adds one unit if it fits.
    LeakyMeter,
    /// The generic cell rate algorithm: a theoretical arrival time.
    Gcra,
    /// The token bucket of the lesson.
    TokenBucket,
}

impl Algorithm {
    /// All of them, in the order the lesson shows them.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::FixedWindow,
        Algorithm::SlidingLog,
        Algorithm::SlidingCounter,
        Algorithm::LeakyQueue,
        Algorithm::LeakyMeter,
        Algorithm::Gcra,
        Algorithm::TokenBucket,
    ];

    /// The JavaScript name (`"fixedWindow"`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::FixedWindow => "fixedWindow",
            Algorithm::SlidingLog => "slidingLog",
            Algorithm::SlidingCounter => "slidingCounter",
            Algorithm::LeakyQueue => "leakyQueue",
            Algorithm::LeakyMeter => "leakyMeter",
            Algorithm::Gcra => "gcra",
            Algorithm::TokenBucket => "tokenBucket",
        }
    }

    /// The algorithm called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// A fresh limiter for one key, configured by `quota`.
    pub fn build(self, quota: Quota) -> Box<dyn Limiter> {
        match self {
            Algorithm::FixedWindow => Box::new(fixed_window::FixedWindow::new(quota)),
            Algorithm::SlidingLog => Box::new(sliding_log::SlidingLog::new(quota)),
            Algorithm::SlidingCounter => Box::new(sliding_counter::SlidingCounter::new(quota)),
            Algorithm::LeakyQueue => Box::new(leaky_queue::LeakyQueue::new(quota)),
            Algorithm::LeakyMeter => Box::new(leaky_meter::LeakyMeter::new(quota)),
            Algorithm::Gcra => Box::new(gcra::Gcra::new(quota)),
            Algorithm::TokenBucket => Box::new(token_bucket::TokenBucketLane::new(quota)),
        }
    }
}

/// Slack for comparing times: one nanosecond, or a few units in the last place of `now`. The same
/// tolerance as the token bucket's, so the equivalent algorithms agree at exact boundaries.
pub(crate) fn time_slack(now: f64) -> f64 {
    1e-9_f64.max(now.abs() * 4.0 * f64::EPSILON)
}

/// The smallest wait `d ≥ 0`, near `at − now`, such that a retry at `now + d` (rounded in `f64`) is
/// at or after `at`: a client that waits exactly the reported time is never early.
pub(crate) fn wait_until(now: f64, at: f64) -> f64 {
    first_wait(now, at - now, |then| then >= at)
}

/// Nudges `guess` up by a few units in the last place until `ready(now + wait)` holds.
pub(crate) fn first_wait(now: f64, guess: f64, ready: impl Fn(f64) -> bool) -> f64 {
    let mut wait = guess.max(0.0);
    let mut step = f64::EPSILON * now.abs().max(wait).max(f64::MIN_POSITIVE);
    for _ in 0..16 {
        if ready(now + wait) {
            break;
        }
        wait += step;
        step *= 2.0;
    }
    wait
}
