//! A client's retry loop: after a 429, wait what `Retry-After` says, plus a random share of an
//! exponential backoff with a ceiling ("full jitter"), so clients refused together don't all come
//! back together. Give up after `max_attempts`.

use std::time::{Duration, SystemTime};

/// How long to back off and when to stop.
pub struct Backoff {
    /// The first backoff, in seconds.
    pub base: f64,
    /// How much the backoff grows after each refusal in a row.
    pub factor: f64,
    /// The longest backoff, in seconds.
    pub cap: f64,
    /// Attempts per request, the first one included.
    pub max_attempts: u32,
}

/// What the server answered.
pub enum Answer<T> {
    /// 2xx: the result.
    Done(T),
    /// 429, with the wait `Retry-After` asks for, in seconds: its whole seconds, or the time until
    /// its HTTP date (at least 0); 1 when it is absent or unreadable.
    TooMany { retry_after: f64 },
}

/// The request was refused `max_attempts` times in a row.
#[derive(Debug, PartialEq)]
pub struct GaveUp {
    /// The last `Retry-After`, in seconds.
    pub retry_after: f64,
}

impl Backoff {
    /// The wait after the `k`-th refusal in a row (k = 0 for the first): never less than the
    /// server asked, plus a uniform draw from `[0, min(cap, base · factor^k))`.
    pub fn wait(&self, k: u32, retry_after: f64, rng: &mut fastrand::Rng) -> f64 {
        let ceiling = (self.base * self.factor.powi(k as i32)).min(self.cap);
        retry_after + rng.f64() * ceiling
    }
}

/// The seconds a `Retry-After` value asks for: a whole number of seconds, or an HTTP date (the
/// time from `now` until then, never below 0). Absent or unreadable: 1 s.
pub fn retry_after_seconds(value: Option<&str>, now: SystemTime) -> f64 {
    let text = value.unwrap_or_default().trim();
    if let Ok(seconds) = text.parse::<u32>() {
        return f64::from(seconds);
    }
    match httpdate::parse_http_date(text) {
        Ok(date) => date
            .duration_since(now)
            .map_or(0.0, |wait| wait.as_secs_f64()),
        Err(_) => 1.0,
    }
}

/// Calls `send` until it succeeds or `max_attempts` are spent, sleeping with `sleep` in between
/// (`std::thread::sleep` in a program; a fake clock in a test).
pub fn with_retries<T>(
    backoff: &Backoff,
    rng: &mut fastrand::Rng,
    mut send: impl FnMut() -> Answer<T>,
    mut sleep: impl FnMut(Duration),
) -> Result<T, GaveUp> {
    let mut k = 0;
    loop {
        match send() {
            Answer::Done(value) => return Ok(value),
            Answer::TooMany { retry_after } if k + 1 >= backoff.max_attempts => {
                return Err(GaveUp { retry_after })
            }
            Answer::TooMany { retry_after } => {
                sleep(Duration::from_secs_f64(backoff.wait(k, retry_after, rng)));
                k += 1;
            }
        }
    }
}
