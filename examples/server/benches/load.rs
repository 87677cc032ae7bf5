//! Load test of the server example:
//! `cargo bench --profile bench-server -p bucketlab-server --bench load` (run by `make bench`;
//! the profile is the release one with unwinding, see Cargo.toml) prints one Markdown table.
//!
//! A bounded load generator drives `GET /hello` over loopback HTTP/1.1 with 1,000 API keys: a
//! fixed number of keep-alive connections (hyper's client), each sending its next request as soon
//! as the last one is answered, until a fixed number of requests is done. Four set-ups of the same
//! axum app, each served in this process on a free loopback port:
//!
//! - the rate-limit middleware with the in-memory store;
//! - the same with one `redis-server` (loopback TCP, like the cluster's nodes);
//! - the same with a Redis Cluster of 3 masters + 3 replicas (started here, stopped at the end);
//! - the app's routes limited by `tower_governor` instead, with the same quota (burst B, one token
//!   every 1/r s) and the same key (the `X-Api-Key` header), headers on.
//!
//! The set-ups take turns for several rounds, so a machine that slows down mid-run slows all of
//! them alike; requests/s is the median over the rounds, latencies are percentiles over every
//! request of every round. On a machine shared with other work, wall-clock figures move a lot from
//! round to round; the CPU time the app's threads spend per request (its own runtime, apart from
//! the load generator's; Redis's CPU is not in it) moves much less. Every request has a deadline:
//! a server that stops answering fails the bench instead of hanging it.

#[path = "../tests/support/mod.rs"]
mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use bucketlab::limiter::BucketConfig;
use bucketlab_server::{app, routes, KeyPattern, Limiter, Store, SystemClock, API_KEY_HEADER};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use support::cluster::RedisCluster;
use support::RedisServer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

const KEYS: usize = 1_000;
const CONNECTIONS: usize = 32;
/// 20 per key: the burst of 10, then the refill decides.
const REQUESTS_PER_ROUND: usize = 20_000;
const WARM_UP_REQUESTS: usize = 2_000;
const ROUNDS: usize = 7;
/// The quota: the server example's defaults, B = 10, r = 5 per second.
const CAPACITY: u32 = 10;
const RATE: u32 = 5;
const REQUEST_DEADLINE: Duration = Duration::from_secs(5);

/// `tower_governor`'s key: the same header the middleware reads.
#[derive(Clone)]
struct ApiKey;

impl KeyExtractor for ApiKey {
    type Key = String;

    fn extract<T>(&self, request: &axum::http::Request<T>) -> Result<String, GovernorError> {
        request
            .headers()
            .get(API_KEY_HEADER)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
            .ok_or(GovernorError::UnableToExtractKey)
    }
}

fn governed_app() -> Router {
    let config = GovernorConfigBuilder::default()
        .key_extractor(ApiKey)
        .period(Duration::from_secs(1) / RATE)
        .burst_size(CAPACITY)
        .use_headers()
        .finish()
        .expect("a valid governor quota");
    routes().layer(GovernorLayer::new(config))
}

fn limited_app(store: Store) -> Router {
    let config = BucketConfig::new(f64::from(CAPACITY), f64::from(RATE)).expect("a valid bucket");
    app(Limiter::new(config, store, SystemClock))
}

/// Serves `app` on a free loopback port in this process.
async fn serve(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("the bound address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    address
}

/// The app's threads are named this (the load generator's `bench-load`), so their CPU time can
/// be told apart.
const APP_THREADS: &str = "bench-app";

/// CPU time the app's threads have used so far (user + system), in seconds, from
/// `/proc/self/task/*/stat` (ticks of 1/100 s on Linux).
fn app_cpu_seconds() -> f64 {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task (Linux)");
    let mut ticks = 0.0;
    for task in tasks.flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if name.trim_end() != APP_THREADS {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        // The name (field 2) is in parentheses; after it, utime and stime are fields 14 and 15
        // of the line, the 12th and 13th after the `)`.
        let Some((_, after)) = stat.rsplit_once(')') else {
            continue;
        };
        ticks += after
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|f| f.parse::<f64>().ok())
            .sum::<f64>();
    }
    ticks / 100.0
}

/// What one round of one set-up measured.
struct Round {
    seconds: f64,
    cpu_seconds: f64,
    /// Microseconds per request, request sent to response body read.
    latencies: Vec<u32>,
    admitted: usize,
}

/// Sends `requests` requests over [`CONNECTIONS`] connections to `address`; request `i` carries
/// API key `i % KEYS`.
async fn round(address: SocketAddr, requests: usize, keys: Arc<Vec<String>>) -> Round {
    let next = Arc::new(AtomicUsize::new(0));
    let (start, cpu) = (Instant::now(), app_cpu_seconds());
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            let (next, keys) = (next.clone(), keys.clone());
            tokio::spawn(async move {
                let stream = tokio::net::TcpStream::connect(address)
                    .await
                    .expect("a connection to the app");
                stream.set_nodelay(true).expect("TCP_NODELAY");
                let (mut sender, connection) =
                    hyper::client::conn::http1::handshake(TokioIo::new(stream))
                        .await
                        .expect("an HTTP/1.1 handshake");
                tokio::spawn(connection);
                let (mut latencies, mut admitted) = (Vec::new(), 0);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests {
                        break;
                    }
                    let request = axum::http::Request::get("/hello")
                        .header(axum::http::header::HOST, "127.0.0.1")
                        .header(API_KEY_HEADER, keys[i % KEYS].as_str())
                        .body(Empty::<Bytes>::new())
                        .expect("a valid request");
                    let sent = Instant::now();
                    let status = tokio::time::timeout(REQUEST_DEADLINE, async {
                        sender.ready().await.expect("the connection stays open");
                        let response = sender.send_request(request).await.expect("a response");
                        let status = response.status();
                        response.into_body().collect().await.expect("the body");
                        status
                    })
                    .await
                    .unwrap_or_else(|_| panic!("no answer within {REQUEST_DEADLINE:?}"));
                    latencies.push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    match status.as_u16() {
                        200 => admitted += 1,
                        429 => {}
                        other => panic!("unexpected status {other}"),
                    }
                }
                (latencies, admitted)
            })
        })
        .collect();
    let mut all = Round {
        seconds: 0.0,
        cpu_seconds: 0.0,
        latencies: Vec::with_capacity(requests),
        admitted: 0,
    };
    for client in clients {
        let (latencies, admitted) = client.await.expect("a client task");
        all.latencies.extend(latencies);
        all.admitted += admitted;
    }
    all.seconds = start.elapsed().as_secs_f64();
    all.cpu_seconds = app_cpu_seconds() - cpu;
    all
}

/// Nearest-rank percentile of sorted microseconds, in ms.
fn percentile(sorted: &[u32], p: f64) -> f64 {
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

/// One set-up's figures over all rounds.
struct Figures {
    name: &'static str,
    requests_per_second: f64,
    p50: f64,
    p99: f64,
    p999: f64,
    admitted: f64,
    cpu_micros_per_request: f64,
}

fn figures(name: &'static str, rounds: &[Round]) -> Figures {
    let mut rates: Vec<f64> = rounds
        .iter()
        .map(|r| r.latencies.len() as f64 / r.seconds)
        .collect();
    rates.sort_by(f64::total_cmp);
    let mut latencies: Vec<u32> = rounds
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    latencies.sort_unstable();
    let admitted: usize = rounds.iter().map(|r| r.admitted).sum();
    let cpu: f64 = rounds.iter().map(|r| r.cpu_seconds).sum();
    Figures {
        name,
        requests_per_second: rates[rates.len() / 2],
        p50: percentile(&latencies, 0.5),
        p99: percentile(&latencies, 0.99),
        p999: percentile(&latencies, 0.999),
        admitted: admitted as f64 / latencies.len() as f64,
        cpu_micros_per_request: cpu * 1e6 / latencies.len() as f64,
    }
}

fn main() {
    let threads = |name: &str| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name(name)
            .enable_all()
            .build()
            .expect("a tokio runtime")
    };
    // Started first and stopped last (dropped after the runtimes).
    let redis = RedisServer::start_tcp();
    let cluster = RedisCluster::start();
    // The app and the load generator on runtimes of their own, so the app's CPU time is its own.
    let (app, load) = (threads(APP_THREADS), threads("bench-load"));
    let setups = app.block_on(serve_setups(&redis, &cluster));
    load.block_on(measure(setups));
}

/// The four set-ups, each served on its own port by the current runtime.
async fn serve_setups(
    redis: &RedisServer,
    cluster: &RedisCluster,
) -> Vec<(&'static str, SocketAddr)> {
    let urls = cluster.urls();
    let nodes: Vec<&str> = urls.iter().map(String::as_str).collect();
    vec![
        ("in-memory store", serve(limited_app(Store::memory())).await),
        (
            "single Redis",
            serve(limited_app(
                Store::redis(&redis.url, KeyPattern::default())
                    .await
                    .expect("a store on the bench's redis-server"),
            ))
            .await,
        ),
        (
            "Redis Cluster, 3 masters + 3 replicas",
            serve(limited_app(
                Store::redis_cluster(&nodes, KeyPattern::default())
                    .await
                    .expect("a store on the bench's cluster"),
            ))
            .await,
        ),
        (
            "tower_governor 0.8 (same quota)",
            serve(governed_app()).await,
        ),
    ]
}

async fn measure(setups: Vec<(&'static str, SocketAddr)>) {
    // Every round of every set-up gets 1,000 keys of its own, so each starts from full buckets
    // whatever ran before it.
    let keys = |round: &str| -> Arc<Vec<String>> {
        Arc::new((0..KEYS).map(|i| format!("{round}-key-{i:04}")).collect())
    };

    let mut rounds: Vec<Vec<Round>> = setups.iter().map(|_| Vec::new()).collect();
    for (_, address) in &setups {
        round(*address, WARM_UP_REQUESTS, keys("warm-up")).await;
    }
    for n in 0..ROUNDS {
        // Every other round the other way round, so no set-up always follows the same one.
        let order: Vec<usize> = if n % 2 == 0 {
            (0..setups.len()).collect()
        } else {
            (0..setups.len()).rev().collect()
        };
        for i in order {
            let (name, address) = &setups[i];
            let r = round(*address, REQUESTS_PER_ROUND, keys(&format!("round-{n}"))).await;
            eprintln!(
                "load: round {}/{ROUNDS}, {name}: {:.0} requests/s",
                n + 1,
                r.latencies.len() as f64 / r.seconds
            );
            rounds[i].push(r);
        }
    }
    let all: Vec<Figures> = setups
        .iter()
        .zip(&rounds)
        .map(|((name, _), rounds)| figures(name, rounds))
        .collect();
    let governor = all.last().expect("tower_governor's figures");

    println!(
        "load test: GET /hello over loopback HTTP/1.1, {KEYS} API keys, {CONNECTIONS} connections, \
         {ROUNDS} rounds × {REQUESTS_PER_ROUND} requests per set-up (taking turns), B = {CAPACITY}, \
         r = {RATE}/s, {} CPUs",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!();
    let rows: Vec<[String; 10]> = all
        .iter()
        .map(|f| {
            [
                f.name.to_owned(),
                format!("{:.0}", f.requests_per_second),
                format!("{:.2}", f.p50),
                format!("{:.2}", f.p99),
                format!("{:.2}", f.p999),
                format!("{:.1} %", f.admitted * 100.0),
                format!("{:.1}", f.cpu_micros_per_request),
                format!(
                    "{:.2}×",
                    f.requests_per_second / governor.requests_per_second
                ),
                format!("{:.2}×", f.p99 / governor.p99),
                format!(
                    "{:.2}×",
                    f.cpu_micros_per_request / governor.cpu_micros_per_request
                ),
            ]
        })
        .collect();
    print_table(
        [
            "set-up",
            "requests/s",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "admitted",
            "app CPU µs/request",
            "req/s vs governor",
            "p99 vs governor",
            "CPU vs governor",
        ],
        &rows,
    );
    let memory = &all[0];
    println!();
    println!(
        "in-memory store vs tower_governor: {:.2}× the requests/s (goal ≥ 1.00×: {}), \
         {:.2}× the p99 latency (goal ≤ 1.00×: {}), {:.2}× the CPU time per request",
        memory.requests_per_second / governor.requests_per_second,
        mark(memory.requests_per_second >= governor.requests_per_second),
        memory.p99 / governor.p99,
        mark(memory.p99 <= governor.p99),
        memory.cpu_micros_per_request / governor.cpu_micros_per_request,
    );
    println!(
        "app CPU µs/request: user + system time of the app's threads (not the load generator's, not \
         Redis's) per request"
    );
}

fn mark(ok: bool) -> &'static str {
    if ok {
        "✓"
    } else {
        "✗"
    }
}

/// A Markdown table whose columns also line up as plain text.
fn print_table<const N: usize>(header: [&str; N], rows: &[[String; N]]) {
    let width: Vec<usize> = (0..N)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| {
        let cells: Vec<String> = cells
            .iter()
            .zip(&width)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        println!("| {} |", cells.join(" | "));
    };
    line(header.to_vec());
    println!(
        "|{}|",
        width
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("|")
    );
    for row in rows {
        line(row.iter().map(String::as_str).collect());
    }
}
