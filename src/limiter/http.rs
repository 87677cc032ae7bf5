//! HTTP signalling of a decision: status line, `Retry-After`, the `X-RateLimit-*` trio and the
//! IETF draft's `RateLimit-Policy` / `RateLimit` fields.
//!
//! `X-RateLimit-Reset` is given in **seconds from now** until the bucket is full again (GitHub sends
//! a UTC epoch instead; a lesson has no wall clock worth quoting).

use super::bucket::{BucketConfig, Decision, Outcome, TOKEN_SLACK};
use super::number::{push_uint, uint};

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

/// Whole seconds until `missing` tokens have dripped in at `rate` (0 if none are missing), counted
/// from the last refill when `now` is `lag` seconds behind it: no token accrues before then.
fn wait_for(missing: f64, rate: f64, lag: f64) -> u64 {
    if missing > 0.0 {
        whole_seconds_up(lag + missing / rate)
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
        // A whole token short by rounding only (`0.9999999999999996`) is the whole token: the
        // bucket's own slack admits against it, so the headers count it too.
        let nearest = decision.tokens.round();
        let tokens = if (decision.tokens - nearest).abs() <= capacity * TOKEN_SLACK {
            nearest
        } else {
            decision.tokens
        };
        let mut headers = Vec::with_capacity(6);

        if let Outcome::Denied { retry_after } = decision.outcome {
            headers.push(("Retry-After", uint(retry_after_seconds(retry_after))));
        }
        let limit = capacity.floor() as u64;
        let remaining = tokens.floor() as u64;
        headers.push(("X-RateLimit-Limit", uint(limit)));
        headers.push(("X-RateLimit-Remaining", uint(remaining)));
        if rate > 0.0 {
            let reset = wait_for(capacity - tokens, rate, decision.lag);
            headers.push(("X-RateLimit-Reset", uint(reset)));
        }

        // `"default";q=B` and `"default";r=tokens`, then the window and the next token's wait.
        let mut policy = String::from("\"");
        policy.push_str(POLICY);
        policy.push_str("\";q=");
        push_uint(&mut policy, limit);
        let mut current = String::from("\"");
        current.push_str(POLICY);
        current.push_str("\";r=");
        push_uint(&mut current, remaining);
        if rate > 0.0 {
            policy.push_str(";w=");
            push_uint(&mut policy, whole_seconds_up(capacity / rate));
            let missing = if tokens >= capacity {
                0.0
            } else {
                1.0 - tokens.fract()
            };
            let next_token = wait_for(missing, rate, decision.lag);
            current.push_str(";t=");
            push_uint(&mut current, next_token);
        }
        headers.push(("RateLimit-Policy", policy));
        headers.push(("RateLimit", current));

        ResponseHead {
            status: if decision.is_admitted() { 200 } else { 429 },
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
        let mut line = String::from("HTTP/1.1 ");
        push_uint(&mut line, self.status.into());
        line.push(' ');
        line.push_str(reason);
        line
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
