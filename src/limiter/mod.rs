//! The pure core: the token bucket, the lesson clock, the diagram's [`Session`](crate::limiter::Session), HTTP header maths,
//! the algorithm lab and the YAML policy. Nothing here touches the DOM, wasm-bindgen or a real
//! clock, so all of it is tested natively.
//!
//! The modules are private; what callers use is re-exported here (the lab and the policy, each an
//! API of its own, and number text stay modules).

/// The token bucket: config, lazy refill, decisions.
mod bucket;
/// Retrying clients against a token bucket: policies, the herd, jitter (one-call simulation).
pub mod clients;
/// Lesson time with pause, speed and step.
mod clock;
/// The one error type: a refused value, its field and the rule.
mod error;
/// A flood through switchable layers (edge, per-IP bucket, global bucket) to a limited origin.
pub mod flood;
/// Which groups of the diagram's controls a host shows (`controls`).
mod groups;
/// Recent decisions and the token-level line for the timeline.
mod history;
/// Status line and rate-limit headers for a decision.
mod http;
/// The algorithm lab: seven limiters on one decision type, traffic patterns, one-call simulation.
pub mod lab;
/// Number text: Rust's literal syntax, integers and fixed decimals without `core::fmt`.
pub mod number;
/// The lesson's YAML rate-limit policy: tiers, storage, client key, refusal.
#[cfg(feature = "config")]
pub mod policy;
/// A recorded scenario as link text: written, read back, checked and played.
mod scenario;
/// The diagram's behaviour: bucket, clock, history and traffic under a reader's actions.
mod session;
/// Automatic traffic: steady or seeded Poisson arrivals.
pub(crate) mod traffic;

/// The replay's burst–rate curve credits the same early arrivals as the bucket.
#[cfg(feature = "replay")]
pub(crate) use bucket::time_slack;
pub use bucket::{settled, BucketConfig, Decision, Never, Outcome, TokenBucket};
pub use clock::SimClock;
pub use error::{groups_thousands, reorders_text, Field, Given, InvalidValue, Rule};
pub use groups::{parse_groups, CONTROL_GROUPS, GROUP_NAMES};
pub use history::{Event, History, Kind};
pub use http::{retry_after_seconds, retry_after_text, ResponseHead};
pub use number::{parse_number, rust_decimal, rust_number, DecimalText, NumberText};
pub use scenario::{
    Scenario, ScenarioError, ScenarioFault, MAX_SCENARIO_ACTIONS, MAX_SCENARIO_CHARS,
    MAX_SCENARIO_SECONDS, SCENARIO_VERSION,
};
pub use session::{
    Action, Entry, Log, Motion, Session, Shot, Tally, FLIGHT_SECONDS, MAX_BURST, MAX_STEP_SECONDS,
    SPAN,
};
pub use traffic::{Arrivals, Pattern, MAX_TRAFFIC_RATE};
