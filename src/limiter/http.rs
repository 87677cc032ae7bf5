//! HTTP signalling of a decision: status line, `Retry-After`, the `X-RateLimit-*` trio and the
//! IETF draft's `RateLimit-Policy` / `RateLimit` fields.
//!
//! `X-RateLimit-Reset` is given in **seconds from now** until the bucket is full again (GitHub sends
//! a UTC epoch instead; a lesson has no wall clock worth quoting).

use super::bucket::{BucketConfig, Decision, Outcome};

/// The policy name used in the draft's structured fields.
const POLICY: &str = "default";

/// The whole-seconds `Retry-After` value for a wait of `seconds`: rounded **up** (never tell a
/// client to come back early) and at least 1, as a denial always means "not now".
pub fn retry_after_seconds(seconds: f64) -> u64 {
    whole_seconds_up(seconds).max(1)
}

/// `ceil(seconds)` as an integer, 0 for anything not above 0.
fn whole_seconds_up(seconds: f64) -> u64 {
    if seconds > 0.0 {
        // `as` saturates for values beyond u64 (and infinity), which is the honest answer there.
        seconds.ceil() as u64
    } else {
        0
    }
}

/// A response head for one decision: what a server using this bucket would send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    /// `200` or `429`.
    pub status: u16,
    /// Header fields in the order they are sent.
    pub headers: Vec<(&'static str, String)>,
}

impl ResponseHead {
    /// Builds the head for `decision`, taken from a bucket configured by `config`.
    pub fn for_decision(config: &BucketConfig, decision: &Decision) -> Self {
        let capacity = config.capacity();
        let rate = config.refill_rate();
        let tokens = decision.tokens;
        let mut headers = Vec::with_capacity(6);

        if let Outcome::Denied { retry_after } = decision.outcome {
            headers.push(("Retry-After", retry_after_seconds(retry_after).to_string()));
        }
        let limit = capacity.floor() as u64;
        let remaining = tokens.floor() as u64;
        headers.push(("X-RateLimit-Limit", limit.to_string()));
        headers.push(("X-RateLimit-Remaining", remaining.to_string()));
        if rate > 0.0 {
            let reset = whole_seconds_up((capacity - tokens) / rate);
            headers.push(("X-RateLimit-Reset", reset.to_string()));
        }

        let mut policy = format!("\"{POLICY}\";q={limit}");
        let mut current = format!("\"{POLICY}\";r={remaining}");
        if rate > 0.0 {
            policy += &format!(";w={}", whole_seconds_up(capacity / rate));
            let next_token = if tokens >= capacity {
                0
            } else {
                whole_seconds_up((1.0 - tokens.fract()) / rate)
            };
            current += &format!(";t={next_token}");
        }
        headers.push(("RateLimit-Policy", policy));
        headers.push(("RateLimit", current));

        ResponseHead {
            status: if decision.is_allowed() { 200 } else { 429 },
            headers,
        }
    }

    /// `HTTP/1.1 200 OK` or `HTTP/1.1 429 Too Many Requests`.
    pub fn status_line(&self) -> String {
        let reason = if self.status == 200 {
            "OK"
        } else {
            "Too Many Requests"
        };
        format!("HTTP/1.1 {} {reason}", self.status)
    }

    /// The value of header `name`, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The head as it appears on the wire (without the blank line that ends it).
    pub fn to_text(&self) -> String {
        let mut text = self.status_line();
        for (name, value) in &self.headers {
            text.push('\n');
            text.push_str(name);
            text.push_str(": ");
            text.push_str(value);
        }
        text
    }
}
