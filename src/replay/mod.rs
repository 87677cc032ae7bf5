//! Replaying real traffic: an access log, read as a stream line by line, through one limiter per
//! key, with each key's exact burst–rate curve and a recommended token-bucket policy.
//!
//! The pieces, in the order a line meets them: [`input`] (gzip, chunks) → [`lines`] (bounded
//! lines) → [`format`] (detection, the parsers of [`clf`], [`alb`], [`jsonl`], [`csv`], over
//! [`fields`] and [`timestamp`]) → [`pass`] (limiters and [`curve`]s per key) → [`report`];
//! then [`recommend`] chooses a policy and [`check`] confirms it in further passes. A setting that
//! does not fit the log is a [`setup`] error.
//!
//! ```
//! use bucketlab::limiter::BucketConfig;
//! use bucketlab::replay::{LineSplitter, Policy, Replay, Settings};
//!
//! let log = "203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 512\n\
//!            203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 512\n";
//! let settings = Settings {
//!     format: None, // detected: common
//!     key: None,    // the client address
//!     time_field: None,
//!     policy: Policy::new("token-bucket", 1.0, 0.5)?,
//!     target: None,
//! };
//! let mut replay = Replay::new(settings);
//! let mut lines = LineSplitter::new();
//! lines.feed(log.as_bytes(), |line| replay.line(line));
//! lines.finish(|line| replay.line(line));
//! let report = replay.finish()?.report;
//! assert_eq!((report.requests, report.keys, report.limited), (2, 1, 1));
//! # Ok::<(), bucketlab::replay::SetupError>(())
//! ```

/// AWS Application Load Balancer entries.
pub mod alb;
/// Passes that count what candidate capacities limit.
pub mod check;
/// The Common Log Format family (`common`, `combined`, with or without `$msec`).
pub mod clf;
/// CSV lines `time,key[,cost]`.
pub mod csv;
/// The exact burst–rate curve.
pub mod curve;
/// The chosen policy written for nginx, Envoy, the YAML policy and the Redis script.
pub mod export;
/// Space-separated, quoted and bracketed fields.
pub mod fields;
/// Formats, keys, detection and the line parser.
pub mod format;
/// Reading a stream (gzip or not) into lines.
pub mod input;
/// A whole replay fed chunk by chunk, with the passes it needs (a browser worker's way).
pub mod job;
/// JSON lines.
pub mod jsonl;
/// Lines of bounded length from chunks.
pub mod lines;
/// One pass over the log through the chosen limiter.
pub mod pass;
/// The smallest capacity meeting a target at one rate, by replay.
mod rate_search;
/// A reason as a code and the values its sentence names, shared by setup problems and unreadable
/// lines.
mod reason;
/// The recommended policy for a target.
pub mod recommend;
/// The figures a replay reports.
pub mod report;
/// A seeded, made-up access log.
pub mod sample;
/// Settings that do not fit, as codes and values each front end words.
pub mod setup;
/// Log timestamps as epoch seconds.
pub mod timestamp;
/// One key's timeline and scenario.
pub mod trace;
/// Why a line could not be read, as a code and values each front end words.
pub mod unreadable;

pub use check::PolicyCheck;
pub use format::{detect, Event, Format, KeySpec, Parsed, Parser};
pub use lines::{Line, LineSplitter, MAX_LINE};
pub use pass::{Finished, Policy, Replay, Settings, ALGORITHMS};
pub use recommend::{Candidate, Counts, Search, Target, HORIZON};
pub use report::{
    Backwards, Curves, EpochUnitCount, KeyCount, Malformed, NeverCounts, Recommendation, Report,
};
pub use setup::{Problem, Remedy, SetupError};
pub use timestamp::EpochUnit;
pub use unreadable::{JsonKind, Unreadable};
