//! The rate-limit middleware: one bucket per API key; a denied request never reaches the handler
//! and gets `429 Too Many Requests`. Every response carries the headers the lesson's response panel
//! shows, built by the core (`bucketlab::limiter::ResponseHead`), never recomputed here.
//!
//! The key is checked for its syntax only, so any invented key gets a full bucket: in production,
//! authenticate it first and limit only the keys you issued (or key on who a valid token proves).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bucketlab::limiter::{Never, Outcome, ResponseHead};

use crate::Limiter;

/// The request header that names the client.
pub const API_KEY_HEADER: &str = "x-api-key";

/// Longest API key accepted, so a client can't make the store hold huge keys.
const MAX_KEY_LENGTH: usize = 128;

/// Every request costs one token.
const COST: f64 = 1.0;

/// What the middleware does with a request when the store gives no decision (Redis down, a
/// failover in progress, a timeout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnStoreError {
    /// Refuse it with `503 Service Unavailable`: no request passes unchecked, but none passes at
    /// all while the store is away.
    #[default]
    Closed,
    /// Let it through unlimited: the API stays up, and every request during the outage is
    /// admitted, beyond the bucket's limit.
    Open,
}

impl std::str::FromStr for OnStoreError {
    type Err = String;

    /// `closed` or `open`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "closed" => Ok(OnStoreError::Closed),
            "open" => Ok(OnStoreError::Open),
            _ => Err(format!(
                "--on-store-error must be `closed` (503) or `open` (admit), got {text:?}"
            )),
        }
    }
}

/// Admits or refuses a request by its API key's bucket.
pub async fn rate_limit(
    State(limiter): State<Arc<Limiter>>,
    request: Request,
    next: Next,
) -> Response {
    // The header's value is shared, not copied; the request itself can't be held across the
    // store's `.await` (its body is not `Sync`).
    let header = match api_key(&request) {
        Ok(header) => header.clone(),
        // A 401 must name the way to authenticate (RFC 9110 §15.5.2).
        Err(message) => {
            let challenge = [(WWW_AUTHENTICATE, "ApiKey header=\"X-Api-Key\"")];
            return (StatusCode::UNAUTHORIZED, challenge, message).into_response();
        }
    };
    // Checked to be visible ASCII: the same text, never the default.
    let key = header.to_str().unwrap_or_default();
    let now = limiter.clock.now();
    let decision = match limiter
        .store
        .try_acquire(key, &limiter.config, COST, now)
        .await
    {
        Ok(decision) => decision,
        Err(error) => {
            limiter.store_errors.log(&error);
            return match limiter.on_store_error {
                // Fail closed: without its store the limiter can't tell, and says so, with a
                // second's wait (clients that honour Retry-After don't come straight back to a
                // store that is down; the memory store full is freed at most a second later).
                OnStoreError::Closed => {
                    let message =
                        "503 Service Unavailable: the rate limiter's store is unavailable\n";
                    (
                        StatusCode::SERVICE_UNAVAILABLE,
                        [(RETRY_AFTER, "1")],
                        message,
                    )
                        .into_response()
                }
                // Fail open: served without a decision, so without rate-limit headers.
                OnStoreError::Open => next.run(request).await,
            };
        }
    };

    let head = ResponseHead::for_decision(&limiter.config, &decision);
    let mut response = match decision.outcome {
        Outcome::Admitted => next.run(request).await,
        Outcome::Denied { retry_after } => {
            // Milliseconds, rounded up: never tell a client to come back early.
            let wait = (retry_after * 1000.0).ceil() / 1000.0;
            let body = format!("429 Too Many Requests: try again in {wait} s\n");
            (StatusCode::TOO_MANY_REQUESTS, body).into_response()
        }
        Outcome::Never(why) => {
            let body = match why {
                Never::CostExceedsCapacity => "the request costs more than the bucket holds",
                Never::NoRefill => "the bucket does not refill",
            };
            let body = format!("429 Too Many Requests: this request can never pass: {body}\n");
            (StatusCode::TOO_MANY_REQUESTS, body).into_response()
        }
    };
    let headers = response.headers_mut();
    for (name, value) in head.headers {
        // The core's names and values are plain ASCII; a failure here is a bug in the core.
        let name =
            HeaderName::from_bytes(name.as_bytes()).expect("the core's header names are valid");
        let value = HeaderValue::from_str(&value).expect("the core's header values are ASCII");
        headers.insert(name, value);
    }
    if !decision.is_admitted() {
        // A refusal is for this moment only: no cache may replay it.
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The request's API key header, checked to hold 1 to [`MAX_KEY_LENGTH`] visible ASCII
/// characters, or the message explaining what is wrong with it.
fn api_key(request: &Request) -> Result<&HeaderValue, String> {
    let rule =
        || format!("send 1 to {MAX_KEY_LENGTH} visible ASCII characters in the X-Api-Key header");
    let Some(value) = request.headers().get(API_KEY_HEADER) else {
        return Err(format!("401 Unauthorized: {}; it is missing\n", rule()));
    };
    let bytes = value.as_bytes();
    if (1..=MAX_KEY_LENGTH).contains(&bytes.len()) && bytes.iter().all(u8::is_ascii_graphic) {
        Ok(value)
    } else {
        Err(format!(
            "401 Unauthorized: {}; got {} bytes ({:?})\n",
            rule(),
            bytes.len(),
            String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
        ))
    }
}

/// Writes store failures to stderr, at most one line a second: an outage fails every request, and
/// a line each would bury everything else.
#[derive(Debug, Default)]
pub(crate) struct ErrorLog(Mutex<Unwritten>);

#[derive(Debug, Default)]
struct Unwritten {
    /// When the last line was written (`None` before the first).
    since: Option<Instant>,
    /// Failures since then, not written.
    count: u64,
}

impl ErrorLog {
    const EVERY: Duration = Duration::from_secs(1);

    fn log(&self, error: &dyn std::fmt::Display) {
        let mut unwritten = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if unwritten.since.is_some_and(|at| at.elapsed() < Self::EVERY) {
            unwritten.count += 1;
            return;
        }
        let more = std::mem::take(&mut unwritten.count);
        unwritten.since = Some(Instant::now());
        let more = match more {
            0 => String::new(),
            n => format!(" (and {n} more failures since the last message)"),
        };
        eprintln!("bucketlab-server: rate limiter store failed: {error}{more}");
    }
}

#[cfg(test)]
mod tests {
    use super::OnStoreError;

    #[test]
    fn on_store_error_names_its_flag_when_refused() {
        assert_eq!("open".parse(), Ok(OnStoreError::Open));
        assert_eq!("closed".parse(), Ok(OnStoreError::Closed));
        assert_eq!(
            "maybe".parse::<OnStoreError>(),
            Err("--on-store-error must be `closed` (503) or `open` (admit), got \"maybe\"".into())
        );
    }
}
