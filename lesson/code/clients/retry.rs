//! {{comments.retry_intro}}
//! {{comments.retry_intro_2}}
//! {{comments.retry_intro_3}}

use std::time::{Duration, SystemTime};

/// {{comments.backoff_doc}}
pub struct Backoff {
    /// {{comments.backoff_base}}
    pub base: f64,
    /// {{comments.backoff_factor}}
    pub factor: f64,
    /// {{comments.backoff_cap}}
    pub cap: f64,
    /// {{comments.max_attempts}}
    pub max_attempts: u32,
}

/// {{comments.answer_doc}}
pub enum Answer<T> {
    /// {{comments.answer_done}}
    Done(T),
    /// {{comments.answer_too_many}}
    /// {{comments.answer_too_many_2}}
    TooMany { retry_after: f64 },
}

/// {{comments.gave_up_doc}}
#[derive(Debug, PartialEq)]
pub struct GaveUp {
    /// {{comments.gave_up_retry_after}}
    pub retry_after: f64,
}

impl Backoff {
    /// {{comments.wait_doc}}
    /// {{comments.wait_doc_2}}
    pub fn wait(&self, k: u32, retry_after: f64, rng: &mut fastrand::Rng) -> f64 {
        let ceiling = (self.base * self.factor.powi(k as i32)).min(self.cap);
        retry_after + rng.f64() * ceiling
    }
}

/// {{comments.retry_after_doc}}
/// {{comments.retry_after_doc_2}}
pub fn retry_after_seconds(value: Option<&str>, now: SystemTime) -> f64 {
    let text = value.unwrap_or_default().trim();
    // {{comments.delay_seconds}}
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().unwrap_or(f64::INFINITY);
    }
    match httpdate::parse_http_date(text) {
        Ok(date) => date
            .duration_since(now)
            .map_or(0.0, |wait| wait.as_secs_f64()),
        Err(_) => 1.0,
    }
}

/// {{comments.with_retries_doc}}
/// {{comments.with_retries_doc_2}}
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
                let wait = backoff.wait(k, retry_after, rng);
                // {{comments.longest_sleep}}
                sleep(Duration::try_from_secs_f64(wait).unwrap_or(Duration::MAX));
                k += 1;
            }
        }
    }
}
