//! HTTP signalling of a decision: status line, `Retry-After`, the `X-RateLimit-*` trio and the
//! IETF draft's `RateLimit-Policy` / `RateLimit` fields.
//!
//! `X-RateLimit-Reset` is given in **seconds from now** until the bucket is full again (GitHub sends
//! a UTC epoch instead; a lesson has no wall clock worth quoting).

use super::bucket::{settled, BucketConfig, Decision, Outcome};
use super::number::{push_uint, push_whole};

/// The policy name used in the draft's structured fields.
const POLICY: &str = "default";

/// The whole-seconds `Retry-After` value for a wait of `seconds`: rounded **up** (never tell a
/// client to come back early) and at least 1, as a denial always means "not now". Saturates at
/// `u64::MAX` (about 585 billion years); the response head itself writes every digit (see
/// [`ResponseHead::for_decision`]).
pub fn retry_after_seconds(seconds: f64) -> u64 {
    up(seconds).max(1.0) as u64
}

/// The `Retry-After` header's value for a denial with a wait of `retry_after` seconds: whole
/// seconds, rounded up and at least 1, with every digit; `None` when the wait does not fit a
/// double (see [`push_up`]): the header is then left out. The response head and the widget's
/// status line both write this.
pub fn retry_after_text(retry_after: f64) -> Option<String> {
    let mut text = String::new();
    push_up(&mut text, retry_after.max(1.0)).then_some(text)
}

/// `ceil(seconds)`, 0 for anything not above 0: a whole number kept as a double, so that a wait
/// beyond `u64` keeps its value (see [`push_whole`]).
fn up(seconds: f64) -> f64 {
    if seconds > 0.0 {
        seconds.ceil()
    } else {
        0.0
    }
}

/// Appends `seconds` rounded up as whole digits and returns `true`, or appends nothing and
/// returns `false` when the wait does not fit a double (infinite: a rate such as 10⁻³²⁰ is too
/// slow to say when): such a field is left out, as with `r = 0`, rather than capped.
fn push_up(out: &mut String, seconds: f64) -> bool {
    let whole = up(seconds);
    let finite = whole.is_finite();
    if finite {
        push_whole(out, whole);
    }
    finite
}

/// Whole seconds until `missing` tokens have dripped in at `rate` (0 if none are missing), counted
/// from the last refill when `now` is `lag` seconds behind it: no token accrues before then.
fn wait_for(missing: f64, rate: f64, lag: f64) -> f64 {
    if missing > 0.0 {
        lag + missing / rate
    } else {
        0.0
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
        let tokens = settled(decision.tokens, capacity);
        let mut headers = Vec::with_capacity(6);

        // Counts are written with all their digits (`push_whole`): `⌊B⌋` for `B = 1e300` is the
        // 301-digit integer, and a wait of 5·10¹⁹ s is `50000000000000000000`, never capped at
        // `u64::MAX`, which would tell a client to come back before it may.
        if let Outcome::Denied { retry_after } = decision.outcome {
            if let Some(text) = retry_after_text(retry_after) {
                headers.push(("Retry-After", text));
            }
        }
        let mut limit = String::new();
        push_whole(&mut limit, capacity.floor());
        let mut remaining = String::new();
        push_whole(&mut remaining, tokens.floor().max(0.0));

        // `"default";q=B` and `"default";r=tokens`, then the window and the next token's wait.
        let mut policy = String::from("\"");
        policy.push_str(POLICY);
        policy.push_str("\";q=");
        policy.push_str(&limit);
        let mut current = String::from("\"");
        current.push_str(POLICY);
        current.push_str("\";r=");
        current.push_str(&remaining);
        headers.push(("X-RateLimit-Limit", limit));
        headers.push(("X-RateLimit-Remaining", remaining));
        if rate > 0.0 {
            let mut reset = String::new();
            if push_up(&mut reset, wait_for(capacity - tokens, rate, decision.lag)) {
                headers.push(("X-RateLimit-Reset", reset));
            }
            let missing = if tokens >= capacity {
                0.0
            } else {
                1.0 - tokens.fract()
            };
            let at = policy.len();
            policy.push_str(";w=");
            if !push_up(&mut policy, capacity / rate) {
                policy.truncate(at);
            }
            let at = current.len();
            current.push_str(";t=");
            if !push_up(&mut current, wait_for(missing, rate, decision.lag)) {
                current.truncate(at);
            }
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
