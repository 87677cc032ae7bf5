//! # bucketlab-server
//!
//! A small HTTP API that rate-limits every request per API key with bucketlab's token bucket: the
//! same core the lesson runs in the browser, here as axum middleware. The buckets live either in
//! this process ([`Store::memory`], right for one server) or in Redis ([`Store::redis`], or a Redis
//! Cluster with [`Store::redis_cluster`]: shared by every app server, refilled and debited
//! atomically by `redis/token_bucket.lua`).
//!
//! A denied request gets `429 Too Many Requests` with exactly the headers the lesson's response
//! panel shows, computed by `bucketlab::limiter::http`.
//!
//! The limiter sits in front of the router, so every request with an API key costs a token,
//! whatever its route and method: a 404 for an unknown path or a 405 for a wrong method is
//! answered after the token is spent (probing the API spends the client's budget too).
//!
//! ```no_run
//! use bucketlab::limiter::BucketConfig;
//! use bucketlab_server::{app, serve, Limiter, Limits, Store, SystemClock};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let limiter = Limiter::new(BucketConfig::new(10.0, 5.0)?, Store::memory(), SystemClock);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
//! // Not axum::serve alone: it gives a client forever to send its headers (see `serve`).
//! serve(listener, app(limiter), Limits::default(), std::future::pending()).await?;
//! # Ok(()) }
//! ```

/// Where time comes from: the system clock, or a manual one for tests.
pub mod clock;
/// How an API key becomes a Redis key, with the hash tag a Redis Cluster needs.
pub mod key_pattern;
/// The axum middleware: API key in, decision, response headers out.
pub mod middleware;
/// The Lua script's Rust side: arguments in, a core `Decision` out.
pub mod redis_bucket;
/// Serving over TCP: a time limit on a request's headers, a cap on connections per address.
pub mod serve;
/// Buckets per API key, in memory or in Redis.
pub mod store;

use std::sync::Arc;

use axum::{routing::get, Router};
use bucketlab::limiter::BucketConfig;

pub use clock::{Clock, ManualClock, SystemClock};
pub use key_pattern::{KeyPattern, KeyPatternError, DEFAULT_KEY_PATTERN};
pub use middleware::{rate_limit, OnStoreError, API_KEY_HEADER};
pub use redis_bucket::{RedisBucket, RedisBucketError};
pub use serve::{serve, Limits};
pub use store::{RedisConnection, SetupError, Store, StoreError};

/// Everything the middleware needs: one bucket configuration for every key, the store holding the
/// buckets, the clock that says what time a request arrived, and what to do when the store fails.
pub struct Limiter {
    config: BucketConfig,
    store: Store,
    clock: Box<dyn Clock>,
    on_store_error: OnStoreError,
    store_errors: middleware::ErrorLog,
}

impl Limiter {
    /// A limiter giving every API key a bucket configured by `config`. It fails closed.
    pub fn new(config: BucketConfig, store: Store, clock: impl Clock) -> Self {
        Limiter {
            config,
            store,
            clock: Box::new(clock),
            on_store_error: OnStoreError::Closed,
            store_errors: middleware::ErrorLog::default(),
        }
    }

    /// The same limiter, answering a failed store with `on_store_error`.
    pub fn on_store_error(self, on_store_error: OnStoreError) -> Self {
        Limiter {
            on_store_error,
            ..self
        }
    }
}

/// The example API without any limit: `GET /hello`.
pub fn routes() -> Router {
    Router::new().route("/hello", get(hello))
}

/// The example API behind the rate-limit middleware.
pub fn app(limiter: Limiter) -> Router {
    let limiter = Arc::new(limiter);
    routes().layer(axum::middleware::from_fn_with_state(limiter, rate_limit))
}

async fn hello() -> &'static str {
    "Hello from bucketlab-server.\n"
}
