//! `bucketlab-server`: serves `GET /hello`, rate-limited per `X-Api-Key` with a token bucket.
//!
//! ```sh
//! cargo run -p bucketlab-server -- --capacity 10 --refill-rate 5
//! cargo run -p bucketlab-server -- --store redis://127.0.0.1:6379
//! cargo run -p bucketlab-server -- --cluster --store redis://127.0.0.1:7000,redis://127.0.0.1:7001
//! curl -i -H 'X-Api-Key: alice' http://127.0.0.1:3000/hello
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;

use bucketlab::limiter::{rust_number, BucketConfig, Field, InvalidValue, Rule};
use bucketlab_server::{
    app, KeyPattern, Limiter, OnStoreError, Store, SystemClock, DEFAULT_KEY_PATTERN,
};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

/// The largest whole number the rate-limit headers can carry exactly: RFC 8941 structured-field
/// integers (`RateLimit-Policy: "default";q=B;w=…`) have at most 15 digits.
const MAX_HEADER_INTEGER: f64 = 999_999_999_999_999.0;

/// Serves GET /hello, rate-limited per X-Api-Key with a token bucket (bucketlab's core).
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Address to listen on (port 0 picks a free one; the address is printed).
    #[arg(long, default_value = "127.0.0.1:3000")]
    listen: SocketAddr,
    /// Bucket capacity B: the largest burst (1 to 999999999999999: each request costs 1 token, and
    /// the headers carry B as a 15-digit integer at most).
    #[arg(long, value_name = "B", default_value = "10", value_parser = capacity, allow_negative_numbers = true)]
    capacity: f64,
    /// Refill rate r in tokens per second: the sustained rate (0, or enough that B / r seconds
    /// fits in 15 digits).
    #[arg(long, value_name = "R", default_value = "5", value_parser = refill_rate, allow_negative_numbers = true)]
    refill_rate: f64,
    /// `memory` (buckets in this process) or a Redis URL such as redis://127.0.0.1:6379 (buckets
    /// shared by every server using that Redis); a bare host:port means redis://host:port.
    #[arg(long, default_value = "memory")]
    store: String,
    /// `--store` lists nodes of a Redis Cluster, separated by commas (any one is enough to find
    /// the others).
    #[arg(long)]
    cluster: bool,
    /// Each API key's Redis key: one `*`, the API key's place. With --cluster the `*` must be
    /// inside a hash tag (`{…}`), so that each client's keys hash to one slot.
    #[arg(long, default_value = DEFAULT_KEY_PATTERN)]
    key_pattern: String,
    /// What a request gets when the store fails: `closed` (503) or `open` (admitted unlimited).
    #[arg(long, default_value = "closed")]
    on_store_error: OnStoreError,
}

/// `--capacity`'s value, checked by the core's rule; refused with clap's exit code 2.
fn capacity(text: &str) -> Result<f64, String> {
    InvalidValue::parse(
        Field::Capacity,
        text,
        Rule::Between(1.0, MAX_HEADER_INTEGER),
    )
    .map_err(|e| {
        let message = e.message_with("--capacity", rust_number);
        format!(
            "{message} (each request costs 1 token, and the rate-limit headers send B as an \
                 integer of at most 15 digits)"
        )
    })
}

/// Refuses a refill rate so slow that the headers' waits (`w = ceil(B / r)` seconds, and
/// `Retry-After`, `X-RateLimit-Reset` and `t` below it) would not fit in 15 digits.
fn check_refill_rate(capacity: f64, refill_rate: f64) -> Result<(), String> {
    let fits = |r: f64| r == 0.0 || (capacity / r).ceil() <= MAX_HEADER_INTEGER;
    if fits(refill_rate) {
        return Ok(());
    }
    // The slowest rate that fits, written so that it is accepted when typed back.
    let mut slowest = capacity / MAX_HEADER_INTEGER;
    while !fits(slowest) {
        slowest = slowest.next_up();
    }
    Err(format!(
        "--refill-rate must be 0 or at least {} with --capacity {}, got {} (the time to refill \
         B, ceil(B / r) seconds, goes into the rate-limit headers as an integer of at most 15 \
         digits)",
        rust_number(slowest),
        rust_number(capacity),
        rust_number(refill_rate)
    ))
}

/// `--refill-rate`'s value, checked by the core's rule; refused with clap's exit code 2.
fn refill_rate(text: &str) -> Result<f64, String> {
    InvalidValue::parse(Field::RefillRate, text, Rule::NonNegative)
        .map_err(|e| e.message_with("--refill-rate", rust_number))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    if let Err(message) = check_refill_rate(args.capacity, args.refill_rate) {
        // A bad flag value, so clap's error and exit code 2, like every other.
        Args::command()
            .error(ErrorKind::ValueValidation, message)
            .exit();
    }
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bucketlab-server: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    let config = BucketConfig::new(args.capacity, args.refill_rate).map_err(|e| e.to_string())?;
    let keys = KeyPattern::parse(&args.key_pattern).map_err(|e| e.to_string())?;
    let store = match (args.store.as_str(), args.cluster) {
        ("memory", false) => Store::memory(),
        ("memory", true) => {
            return Err(
                "--cluster needs the nodes of a Redis Cluster in --store, got \"memory\"".into(),
            )
        }
        (url, false) => Store::redis(&redis_url(url), keys).await.map_err(|e| {
            format!("store must be `memory` or a reachable Redis URL, got {url:?}: {e}")
        })?,
        (nodes, true) => {
            // Refused before any connection: a pattern without the tag is a setting error.
            let keys = keys.for_cluster().map_err(|e| e.to_string())?;
            let nodes: Vec<String> = nodes.split(',').map(|n| redis_url(n.trim())).collect();
            let nodes: Vec<&str> = nodes.iter().map(String::as_str).collect();
            Store::redis_cluster(&nodes, keys).await.map_err(|e| {
                format!("store must list reachable nodes of a Redis Cluster, got {nodes:?}: {e}")
            })?
        }
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("can't listen on {}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // The first line of output is the address, so scripts and tests can find a port-0 server.
    println!("listening on http://{address}");
    let limiter = Limiter::new(config, store, SystemClock).on_store_error(args.on_store_error);
    axum::serve(listener, app(limiter))
        .with_graceful_shutdown(async {
            // If the signal handler can't be installed, the server simply runs until killed.
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}

/// `text` as a Redis URL: a URL (`redis://…`, `rediss://…`, `redis+unix://…`) as it is, a bare
/// `host:port` (as `redis-cli` and `redis-cli --cluster create` take them) with `redis://` before it.
fn redis_url(text: &str) -> String {
    if text.contains("://") {
        text.to_owned()
    } else {
        format!("redis://{text}")
    }
}
