//! The pure core: limiters, the lesson clock and HTTP header maths. Nothing here touches the DOM,
//! wasm-bindgen or a real clock, so all of it is tested natively.

/// The token bucket: config, lazy refill, decisions.
pub mod bucket;
/// Lesson time with pause, speed and step.
pub mod clock;
/// Whole numbers as decimal or hexadecimal text, without the formatting machinery.
pub mod digits;
/// The one error type: a refused value, its field and the rule.
pub mod error;
/// Recent decisions and the token-level line for the timeline.
pub mod history;
/// Status line and rate-limit headers for a decision.
pub mod http;
/// The algorithm lab: six limiters on one decision type, traffic patterns, one-call simulation.
pub mod lab;
/// The diagram's behaviour: bucket, clock, history and traffic under a reader's actions.
pub mod session;
/// Automatic traffic: steady or seeded Poisson arrivals.
pub mod traffic;

pub use bucket::{BucketConfig, Decision, Never, Outcome, TokenBucket};
pub use clock::SimClock;
pub use error::{
    parse_number, rust_decimal, rust_number, DecimalText, Field, Given, InvalidValue, NumberText,
    Rule,
};
pub use history::{Event, History, Kind};
pub use http::{retry_after_seconds, ResponseHead};
pub use session::{Action, Entry, Log, Session, Shot, Tally, FLIGHT_SECONDS, MAX_BURST, SPAN};
pub use traffic::{Arrivals, Pattern};
