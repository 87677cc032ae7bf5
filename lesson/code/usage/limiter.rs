use axum::{
    extract::{Request, State},
    http::{header, HeaderValue, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};
use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
use std::{collections::HashMap, sync::{Arc, Mutex}, time::Instant};

/// {{comments.rust_limiter}}
#[derive(Clone)]
struct Limiter {
    config: BucketConfig,
    start: Instant,
    buckets: Arc<Mutex<HashMap<String, TokenBucket>>>, // {{comments.one_bucket_per_key}}
}

async fn rate_limited(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    let key = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("anonymous")
        .to_owned();
    let now = limiter.start.elapsed().as_secs_f64();
    let decision = {
        let mut buckets = limiter.buckets.lock().unwrap();
        let bucket = buckets.entry(key).or_insert_with(|| TokenBucket::new(limiter.config));
        bucket.try_acquire(1.0, now).expect("cost and time are finite")
    };
    if decision.is_allowed() {
        return next.run(request).await;
    }
    // {{comments.deny_response}}
    let mut response = (StatusCode::TOO_MANY_REQUESTS, r#"{"error":"rate_limited"}"#).into_response();
    if let Outcome::Denied { retry_after } = decision.outcome {
        let seconds = retry_after.ceil().max(1.0) as u64;
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn limited(router: Router, capacity: f64, refill_rate: f64) -> Router {
    let config = BucketConfig::new(capacity, refill_rate).expect("the tier is valid");
    let limiter = Limiter { config, start: Instant::now(), buckets: Default::default() };
    router.layer(middleware::from_fn_with_state(limiter, rate_limited))
}

pub fn app() -> Router {
    let search = limited(Router::new().route("/api/search", get(search)), 30.0, 10.0);
    let login = limited(Router::new().route("/api/login", post(login)), 5.0, 0.1);
    search.merge(login)
}
