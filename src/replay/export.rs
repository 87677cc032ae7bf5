//! A token-bucket policy `(B, r)` written for the places it may end up in: nginx's `limit_req`,
//! Envoy's `local_ratelimit`, the lesson's YAML policy and the arguments of the lesson's Redis
//! script. Each is the closest configuration of that model; where the models differ, the
//! comments say so (the lesson's page says it in words).

use crate::limiter::{rust_number, BucketConfig};
use serde::Serialize;

/// One export: which (`nginx`, `envoy`, `yaml`, `redis`) and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Export {
    /// Which configuration.
    pub id: &'static str,
    /// The configuration, ready to paste.
    pub text: String,
}

/// Envoy refuses a `fill_interval` under 50 ms.
const ENVOY_MIN_INTERVAL_MS: f64 = 50.0;

/// Every export of `config`, in the order the page shows them.
pub fn exports(config: BucketConfig) -> Vec<Export> {
    vec![
        Export {
            id: "nginx",
            text: nginx(config),
        },
        Export {
            id: "envoy",
            text: envoy(config),
        },
        Export {
            id: "yaml",
            text: yaml(config),
        },
        Export {
            id: "redis",
            text: redis(config),
        },
    ]
}

/// nginx's rate as it is written: whole requests per second, else whole requests per minute
/// (`r/m`), rounded to the nearest, at least 1.
pub fn nginx_rate(rate: f64) -> String {
    if rate >= 1.0 && rate.fract() == 0.0 {
        format!("{}r/s", rate as u64)
    } else {
        format!("{}r/m", ((rate * 60.0).round() as u64).max(1))
    }
}

/// `limit_req_zone` and `limit_req`: nginx admits one request at the rate and queues `burst`
/// beyond it, so `burst = B − 1` (rounded up to a whole request); `nodelay` serves the queued
/// ones at once, as a bucket does.
pub fn nginx(config: BucketConfig) -> String {
    let burst = (config.capacity() - 1.0).ceil().max(0.0) as u64;
    format!(
        "# B = {b}, r = {r}/s: nginx counts the burst beyond the first request, so burst = B - 1.\n\
         limit_req_zone $binary_remote_addr zone=per_client:10m rate={rate};\n\
         \n\
         server {{\n    location / {{\n        limit_req zone=per_client burst={burst} nodelay;\n        \
         limit_req_status 429;\n    }}\n}}\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
        rate = nginx_rate(config.refill_rate()),
    )
}

/// The Envoy token bucket closest to `(B, r)`: `max_tokens: B` (whole), and `r` as
/// `tokens_per_fill` every `fill_interval`: every second for a whole rate, else one token every
/// `1/r` seconds (at least 50 ms, Envoy's minimum).
pub fn envoy_fill(rate: f64) -> (u64, String) {
    if rate <= 0.0 {
        return (0, "3600s".to_owned());
    }
    if rate.fract() == 0.0 {
        return (rate as u64, "1s".to_owned());
    }
    let ms = (1000.0 / rate).round();
    if ms >= ENVOY_MIN_INTERVAL_MS {
        (1, format!("{}s", rust_number(ms / 1000.0)))
    } else {
        // Faster than one token per 50 ms: whole tokens every 50 ms.
        (
            (rate * ENVOY_MIN_INTERVAL_MS / 1000.0).round().max(1.0) as u64,
            "0.05s".to_owned(),
        )
    }
}

/// Envoy's `local_ratelimit` HTTP filter with a token bucket of `(B, r)`.
pub fn envoy(config: BucketConfig) -> String {
    let (tokens, interval) = envoy_fill(config.refill_rate());
    format!(
        "# One bucket per Envoy instance (per client needs descriptors); it refills in steps.\n\
         http_filters:\n\
         - name: envoy.filters.http.local_ratelimit\n  \
           typed_config:\n    \
             \"@type\": type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit\n    \
             stat_prefix: http_local_rate_limiter\n    \
             token_bucket:\n      \
               max_tokens: {max}\n      \
               tokens_per_fill: {tokens}\n      \
               fill_interval: {interval}\n    \
             filter_enabled:\n      \
               default_value: {{ numerator: 100, denominator: HUNDRED }}\n      \
               runtime_key: local_rate_limit_enabled\n    \
             filter_enforced:\n      \
               default_value: {{ numerator: 100, denominator: HUNDRED }}\n      \
               runtime_key: local_rate_limit_enforced\n",
        max = config.capacity().ceil() as u64,
    )
}

/// The lesson's YAML policy (src/limiter/policy.rs) with `(B, r)` as its default tier.
pub fn yaml(config: BucketConfig) -> String {
    format!(
        "tiers:\n  default:\n    capacity: {b}\n    refill_rate: {r}\n\
         storage: redis\nkey_by: ip\n\
         on_deny:\n  status: 429\n  retry_after: true\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
    )
}

/// The lesson's Redis script's arguments (redis/token_bucket.lua): the client's key, then
/// `B r cost now`, `now` in Unix seconds from the caller's clock.
pub fn redis(config: BucketConfig) -> String {
    format!(
        "# KEYS[1] = the client's bucket; ARGV = B r cost now (Unix seconds)\n\
         redis-cli --eval redis/token_bucket.lua \"bucketlab:{{203.0.113.9}}\" , {b} {r} 1 \"$(date +%s.%N)\"\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
    )
}
