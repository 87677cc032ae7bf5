//! The other side of the 429: clients that retry. Each client wants a few successful requests
//! from a server guarded by the core's [`TokenBucket`](crate::limiter::TokenBucket); after every
//! refusal it waits as its [`Policy`] says, up to a limit of attempts. [`simulate`] runs N of them
//! at once, seeded and with explicit time, and measures what the server went through.
//!
//! ```
//! use bucketlab::limiter::clients::{simulate, Header, Policy, Scenario, Settings};
//!
//! let herd = Settings {
//!     clients: 100, successes: 1, spread: 0.0, capacity: 10.0, rate: 10.0, shared: true,
//!     policy: Policy::RetryAfter { header: Header::WholeSeconds, jitter: None },
//!     max_attempts: 50, seed: 1,
//! };
//! let run = simulate(&Scenario::new(herd)?);
//! // Told the same `Retry-After: 1`, the refused clients all come back at the same instant, once
//! // a second, where the tokens of one second wait for them: 90 retries, then 80, then 70…
//! assert_eq!(run.metrics.peak_retries, 90);
//! assert_eq!(run.metrics.attempts_per_success, 5.5);
//! assert!(run.retries.iter().zip(&run.times).all(|(&retry, &t)| !retry || t.fract() == 0.0));
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

/// The retry policies and their settings.
mod policy;
/// The client–server run and its metrics.
mod simulate;

pub use policy::{Backoff, Header, Policy, MAX_FACTOR, MAX_WAIT, POLICY_NAMES};
pub use simulate::{
    client_rng, simulate, Metrics, Run, Scenario, Settings, ADMITTED, GAVE_UP, MAX_ATTEMPTS,
    MAX_BUCKET, MAX_CLIENTS, MAX_SPREAD, MAX_SUCCESSES, PEAK_SPAN, RETRIED,
};

/// Fields of the clients' settings, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientField {
    /// Number of clients.
    Clients,
    /// Successful requests each client wants.
    Successes,
    /// Attempts allowed per request.
    MaxAttempts,
    /// Seconds over which the clients start.
    Spread,
    /// The bucket's capacity.
    Capacity,
    /// The bucket's refill rate.
    Rate,
    /// A fixed wait.
    Wait,
    /// The first backoff wait.
    Base,
    /// The backoff's growth factor.
    Factor,
    /// The longest backoff wait.
    Cap,
}

impl ClientField {
    /// The name in messages, as the JavaScript options spell it.
    pub fn name(self) -> &'static str {
        match self {
            ClientField::Clients => "clients",
            ClientField::Successes => "successes",
            ClientField::MaxAttempts => "maxAttempts",
            ClientField::Spread => "spread",
            ClientField::Capacity => "capacity",
            ClientField::Rate => "rate",
            ClientField::Wait => "policy.wait",
            ClientField::Base => "policy.base",
            ClientField::Factor => "policy.factor",
            ClientField::Cap => "policy.cap",
        }
    }
}
