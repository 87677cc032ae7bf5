//! The pure core: limiters, the lesson clock and HTTP header maths. Nothing here touches the DOM,
//! wasm-bindgen or a real clock, so all of it is tested natively.

/// The token bucket: config, lazy refill, decisions.
pub mod bucket;
/// Lesson time with pause, speed and step.
pub mod clock;
/// The one error type: a refused value, its field and the rule.
pub mod error;
/// Recent decisions and the token-level line for the timeline.
pub mod history;
/// Status line and rate-limit headers for a decision.
pub mod http;
/// The algorithm lab: six limiters on one decision type, traffic patterns, one-call simulation.
pub mod lab;
/// Number text: Rust's literal syntax, integers and fixed decimals without `core::fmt`.
pub mod number;
/// The lesson's YAML rate-limit policy: tiers, storage, client key, refusal.
#[cfg(feature = "config")]
pub mod policy;
/// The diagram's behaviour: bucket, clock, history and traffic under a reader's actions.
pub mod session;
/// Automatic traffic: steady or seeded Poisson arrivals.
pub mod traffic;

pub use bucket::{BucketConfig, Decision, Never, Outcome, TokenBucket};
pub use clock::SimClock;
pub use error::{Field, Given, InvalidValue, Rule};
pub use history::{Event, History, Kind};
pub use http::{retry_after_seconds, ResponseHead};
pub use number::{parse_number, rust_decimal, rust_number, DecimalText, NumberText};
pub use session::{Action, Entry, Log, Session, Shot, Tally, FLIGHT_SECONDS, MAX_BURST, SPAN};
pub use traffic::{Arrivals, Pattern};
