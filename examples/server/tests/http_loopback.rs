//! The server over loopback HTTP, with each store: statuses, and exactly the core's headers for the
//! same decisions. Then the real binary: its CLI, and two app servers sharing one bucket in Redis.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use bucketlab::limiter::{BucketConfig, ResponseHead, TokenBucket};
use bucketlab_server::{app, KeyPattern, Limiter, ManualClock, Store};
use support::RedisServer;

/// The rate-limit headers the server may send; a response must carry exactly the core's subset.
const RATE_LIMIT_HEADERS: [&str; 6] = [
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "ratelimit-policy",
    "ratelimit",
];

/// Serves the app on a free loopback port; returns its base URL.
async fn serve(store: Store, config: BucketConfig, clock: ManualClock) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = app(Limiter::new(config, store, clock));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

async fn get(url: &str, key: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(format!("{url}/hello"));
    if let Some(key) = key {
        request = request.header("X-Api-Key", key);
    }
    request.send().await.unwrap()
}

/// Asserts the response's status and rate-limit headers are exactly `expected`'s.
fn assert_head(response: &reqwest::Response, expected: &ResponseHead, context: &str) {
    assert_eq!(response.status().as_u16(), expected.status, "{context}");
    for name in RATE_LIMIT_HEADERS {
        let got = response.headers().get(name).map(|v| v.to_str().unwrap());
        assert_eq!(got, expected.header(name), "{context}: header {name}");
    }
}

/// The worked example (B = 10, r = 5) through HTTP, checked against the core step by step.
async fn worked_example(store: Store) {
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let clock = ManualClock::at(1_000.0);
    let url = serve(store, config, clock.clone()).await;
    let mut reference = TokenBucket::new(config);
    let mut expect =
        |now: f64| ResponseHead::for_decision(&config, &reference.try_acquire(1.0, now).unwrap());

    for i in 0..10 {
        let response = get(&url, Some("alice")).await;
        assert_head(&response, &expect(1_000.0), &format!("request {i}"));
        assert_eq!(
            response.text().await.unwrap(),
            "Hello from bucketlab-server.\n"
        );
    }
    let denied = get(&url, Some("alice")).await;
    assert_head(&denied, &expect(1_000.0), "11th request");
    assert_eq!(denied.headers()["retry-after"], "1", "0.2 s rounded up");
    assert_eq!(denied.headers()["ratelimit-policy"], "\"default\";q=10;w=2");
    assert_eq!(denied.headers()["ratelimit"], "\"default\";r=0;t=1");
    assert_eq!(
        denied.headers()["cache-control"],
        "no-store",
        "a 429 is not cached"
    );
    assert_eq!(
        denied.text().await.unwrap(),
        "429 Too Many Requests: try again in 0.2 s\n"
    );

    // Another key has its own bucket.
    assert_head(
        &get(&url, Some("bob")).await,
        &ResponseHead::for_decision(
            &config,
            &TokenBucket::new(config).try_acquire(1.0, 1_000.0).unwrap(),
        ),
        "bob",
    );

    clock.set(1_000.2);
    let retried = get(&url, Some("alice")).await;
    assert_head(&retried, &expect(1_000.2), "exactly retry_after later");
    assert_eq!(retried.status(), 200);
    assert_eq!(
        retried.headers().get("cache-control"),
        None,
        "a 200 is the API's"
    );

    let anonymous = get(&url, None).await;
    assert_eq!(anonymous.status(), 401);
    // RFC 9110 §15.5.2: a 401 must carry a challenge.
    assert_eq!(
        anonymous.headers()["www-authenticate"],
        "ApiKey header=\"X-Api-Key\""
    );
    assert!(anonymous
        .text()
        .await
        .unwrap()
        .contains("X-Api-Key header; it is missing"));
    let long = "k".repeat(129);
    let refused = get(&url, Some(&long)).await;
    assert_eq!(refused.status(), 401);
    assert!(refused.headers().contains_key("www-authenticate"));
    assert!(refused.text().await.unwrap().contains("got 129 bytes"));
}

#[tokio::test]
async fn memory_store_answers_with_the_cores_statuses_and_headers() {
    worked_example(Store::memory()).await;
}

#[tokio::test]
async fn redis_store_answers_with_the_cores_statuses_and_headers() {
    let redis = RedisServer::start();
    worked_example(
        Store::redis(&redis.url, KeyPattern::default())
            .await
            .unwrap(),
    )
    .await;
}

/// The limiter sits in front of the router: a path it doesn't serve (404) and a method it doesn't
/// take (405) cost a token like any request, so probing the API spends the client's budget.
#[tokio::test]
async fn every_route_and_method_is_counted() {
    let config = BucketConfig::new(2.0, 0.001).unwrap();
    let url = serve(Store::memory(), config, ManualClock::at(0.0)).await;
    let client = reqwest::Client::new();
    let unknown = client
        .get(format!("{url}/nope"))
        .header("X-Api-Key", "alice")
        .send()
        .await
        .unwrap();
    let wrong_method = client
        .post(format!("{url}/hello"))
        .header("X-Api-Key", "alice")
        .send()
        .await
        .unwrap();
    assert_eq!(
        [unknown.status(), wrong_method.status()],
        [404, 405],
        "the router's answers, after the limiter"
    );
    let hello = get(&url, Some("alice")).await;
    assert_eq!(
        hello.status(),
        429,
        "B = 2, both spent on the 404 and the 405"
    );
    assert_eq!(hello.headers()["x-ratelimit-remaining"], "0");
}

#[tokio::test]
async fn a_server_whose_clock_is_behind_the_one_that_drained_the_bucket_counts_the_lag() {
    // Two app servers share a Redis bucket; the first one's clock is 3 s ahead. Nothing drips in
    // before its time, so the second one's Retry-After, Reset and `t` all wait for it.
    let redis = RedisServer::start();
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let store = || async {
        Store::redis(&redis.url, KeyPattern::default())
            .await
            .unwrap()
    };
    let ahead = serve(store().await, config, ManualClock::at(1_003.0)).await;
    let behind = serve(store().await, config, ManualClock::at(1_000.0)).await;
    for _ in 0..10 {
        assert_eq!(get(&ahead, Some("skew")).await.status(), 200);
    }
    let denied = get(&behind, Some("skew")).await;
    let mut reference = TokenBucket::started_at(config, 1_003.0).unwrap();
    reference.try_acquire(10.0, 1_003.0).unwrap();
    let expected =
        ResponseHead::for_decision(&config, &reference.try_acquire(1.0, 1_000.0).unwrap());
    assert_head(&denied, &expected, "3 s behind");
    let waits = ["retry-after", "x-ratelimit-reset", "ratelimit"]
        .map(|name| denied.headers()[name].clone());
    assert_eq!(
        waits,
        ["4", "5", "\"default\";r=0;t=4"],
        "3.2 s to the next token, 5 s to full"
    );
}

#[tokio::test]
async fn a_store_that_fails_gives_503_not_a_guess() {
    let redis = RedisServer::start();
    let store = Store::redis(&redis.url, KeyPattern::default())
        .await
        .unwrap();
    drop(redis);
    let url = serve(
        store,
        BucketConfig::new(10.0, 5.0).unwrap(),
        ManualClock::at(0.0),
    )
    .await;
    let response = get(&url, Some("alice")).await;
    assert_eq!(response.status(), 503);
    assert_eq!(
        response.headers()["retry-after"],
        "1",
        "clients that honour it don't come straight back"
    );
    assert!(response
        .text()
        .await
        .unwrap()
        .contains("store is unavailable"));
}

/// After Redis restarts (same socket or port, empty), the store connects again: within a few
/// requests alice is admitted and then limited again, not refused with 503 for ever.
#[tokio::test]
async fn a_redis_store_reconnects_after_redis_restarts() {
    for mut redis in [RedisServer::start(), RedisServer::start_tcp()] {
        let store = Store::redis(&redis.url, KeyPattern::default())
            .await
            .unwrap();
        let config = BucketConfig::new(2.0, 0.001).unwrap();
        let url = serve(store, config, ManualClock::at(0.0)).await;
        let statuses = |n| {
            let url = url.clone();
            async move {
                let mut statuses = Vec::new();
                for _ in 0..n {
                    statuses.push(get(&url, Some("alice")).await.status().as_u16());
                }
                statuses
            }
        };
        assert_eq!(statuses(3).await, [200, 200, 429], "{}: before", redis.url);

        redis.restart();
        // The request that finds the old connection broken may still get a 503; then the bucket
        // (empty Redis: full again) is there, and limits.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut seen = Vec::new();
        loop {
            let status = get(&url, Some("alice")).await.status().as_u16();
            seen.push(status);
            if status == 200 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{}: no recovery within 5 s after the restart: {seen:?}",
                redis.url
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(seen.len() <= 2, "{}: one 503 at most: {seen:?}", redis.url);
        assert_eq!(statuses(2).await, [200, 429], "{}: after", redis.url);
    }
}

/// The real binary, listening on a free port; stopped on drop.
struct ServerProcess(Child, String);

impl ServerProcess {
    fn start(args: &[&str]) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bucketlab-server"))
            .env_remove("BUCKETLAB_STORE")
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line: {line:?}"))
            .to_owned();
        ServerProcess(child, url)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn connections_per_address_caps_one_address_and_0_lifts_the_cap() {
    // Whether a third connection from this address is answered while two are held open.
    async fn third_answered(url: &str) -> bool {
        let address = url.strip_prefix("http://").unwrap();
        let mut held = Vec::new();
        for _ in 0..2 {
            held.push(tokio::net::TcpStream::connect(address).await.unwrap());
        }
        let mut third = tokio::net::TcpStream::connect(address).await.unwrap();
        support::raw::try_hello(&mut third).await.as_deref() == Some("HTTP/1.1 200 OK")
    }
    let capped = ServerProcess::start(&["--connections-per-address", "2"]);
    assert!(!third_answered(&capped.1).await, "over the cap of 2");
    let open = ServerProcess::start(&["--connections-per-address", "0"]);
    assert!(third_answered(&open.1).await, "0: no cap");
}

/// Requests alternate between the two servers (round-robin); returns how many got 200.
async fn round_robin(servers: &[ServerProcess], requests: usize) -> usize {
    let mut admitted = 0;
    for i in 0..requests {
        let response = get(&servers[i % servers.len()].1, Some("alice")).await;
        match response.status().as_u16() {
            200 => admitted += 1,
            429 => {
                let wait: u64 = response.headers()["retry-after"]
                    .to_str()
                    .unwrap()
                    .parse()
                    .unwrap();
                // r = 0.001/s: one token is 1000 s away, minus the little real time that passed.
                assert!((990..=1000).contains(&wait), "Retry-After {wait}");
            }
            other => panic!("status {other}"),
        }
    }
    admitted
}

#[tokio::test]
async fn two_servers_share_one_bucket_in_redis_but_not_in_memory() {
    let bucket = ["--capacity", "3", "--refill-rate", "0.001"];
    let local = [ServerProcess::start(&bucket), ServerProcess::start(&bucket)];
    assert_eq!(
        round_robin(&local, 10).await,
        6,
        "each server's own bucket: 2 × B"
    );

    let redis = RedisServer::start();
    let shared_args: Vec<&str> = bucket
        .iter()
        .copied()
        .chain(["--store", redis.url.as_str()])
        .collect();
    let shared = [
        ServerProcess::start(&shared_args),
        ServerProcess::start(&shared_args),
    ];
    assert_eq!(
        round_robin(&shared, 10).await,
        3,
        "one bucket in Redis: exactly B"
    );
}

#[tokio::test]
async fn the_store_may_be_a_bare_host_and_port() {
    let redis = RedisServer::start_tcp();
    let bare = redis.url.strip_prefix("redis://").unwrap();
    let server = ServerProcess::start(&["--capacity", "1", "--store", bare]);
    let statuses = [
        get(&server.1, Some("alice")).await.status(),
        get(&server.1, Some("alice")).await.status(),
    ];
    assert_eq!(
        statuses,
        [200, 429],
        "--store {bare}: one bucket of 1 in Redis"
    );
}

/// A bad flag value, or flags that don't go together, exit 2 (as clap's own errors do) naming
/// the flag, the value and what is allowed; a store that can't be reached exits 1.
#[test]
fn the_binary_refuses_bad_settings_naming_them() {
    for (args, code, message) in [
        (
            vec!["--capacity=-1"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got -1",
        ),
        (
            vec!["--capacity", "-1"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got -1",
        ),
        (
            vec!["--capacity", "abc"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got \"abc\"",
        ),
        (
            vec!["--capacity", "0"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got 0",
        ),
        (
            vec!["--refill-rate", "NaN"],
            2,
            "--refill-rate must be a finite number of at least 0, got \"NaN\"",
        ),
        (
            vec!["--refill-rate", "-5"],
            2,
            "--refill-rate must be a finite number of at least 0, got -5",
        ),
        // Settings it could never serve: every request costs 1 token, and the headers carry
        // integers of at most 15 digits.
        (
            vec!["--capacity", "0.5"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got 0.5 (each request \
             costs 1 token",
        ),
        (
            vec!["--capacity", "1e20"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got 100000000000000000000",
        ),
        (
            vec!["--capacity", "1.5"],
            2,
            "--capacity must be a whole number from 1 to 999999999999999, got 1.5 (each request \
             costs 1 token",
        ),
        (
            vec!["--capacity", "10", "--refill-rate", "1e-20"],
            2,
            "--refill-rate must be 0 or at least B / 999999999999999 (about 1e-14 with \
             --capacity 10), got 1e-20",
        ),
        (
            vec!["--refill-rate", "1e-15"],
            2,
            "--refill-rate must be 0 or at least B / 999999999999999 (about 1e-14 with \
             --capacity 10), got 1e-15",
        ),
        (
            vec!["--capacity", "3", "--refill-rate", "1e-15"],
            2,
            "(about 3e-15 with --capacity 3)",
        ),
        // The key pattern and the store's syntax, and the flags that go together.
        (
            vec!["--key-pattern", "nostar"],
            2,
            "invalid value 'nostar' for '--key-pattern <KEY_PATTERN>': --key-pattern must have \
             exactly one `*`, the API key's place (like \"bucketlab:{*}\"), got \"nostar\"",
        ),
        (
            vec!["--key-pattern", "a:*:*"],
            2,
            "--key-pattern must have exactly one `*`",
        ),
        (
            vec!["--store", "http://127.0.0.1:6379"],
            2,
            "--store must be `memory` or Redis URLs separated by commas (redis://host:port, \
             redis://user:password@host:port, redis+unix:///path, or a bare host:port; no \
             rediss://, as this build has no TLS), got \"http://127.0.0.1:6379\"",
        ),
        (
            vec!["--cluster", "--store", "127.0.0.1:7000,redis+unix://"],
            2,
            "got \"127.0.0.1:7000,redis+unix://\": \"redis+unix://\" is not one",
        ),
        (
            vec!["--store", "127.0.0.1:7000,127.0.0.1:7001"],
            2,
            "--store must be `memory` or one Redis URL without --cluster, got 2 nodes",
        ),
        (
            vec!["--cluster"],
            2,
            "--cluster needs the nodes of a Redis Cluster in --store, got \"memory\"",
        ),
        (
            vec!["--cluster", "--store", "127.0.0.1:7000", "--key-pattern", "bucketlab:*"],
            2,
            "--key-pattern must have the `*` inside a hash tag for a Redis Cluster",
        ),
        (
            vec!["--store", "redis+unix:///nonexistent/redis.sock"],
            1,
            "store must be `memory` or a reachable Redis URL",
        ),
        // TLS is not built in (no TLS library in the build): refused as a flag value, saying so.
        (
            vec!["--store", "rediss://127.0.0.1:6380"],
            2,
            "no rediss://, as this build has no TLS), got \"rediss://127.0.0.1:6380\" (rediss:// \
             is Redis over TLS, which this build does not have",
        ),
        // The address to listen on: an IP address and a port; host names are not resolved.
        (
            vec!["--listen", "localhost:3000"],
            2,
            "invalid value 'localhost:3000' for '--listen <IP:PORT>': --listen must be an IP \
             address and a port from 0 to 65535, like 127.0.0.1:8080 or [::1]:8080",
        ),
        (
            vec!["--listen", "127.0.0.1:99999"],
            2,
            "--listen must be an IP address and a port from 0 to 65535, like 127.0.0.1:8080 or \
             [::1]:8080 (0 picks a free port; host names are not resolved: for localhost use \
             127.0.0.1 or [::1]), got \"127.0.0.1:99999\"",
        ),
        (vec!["--listen", "[::1]"], 2, "got \"[::1]\""),
    ] {
        let listen = match args.contains(&"--listen") {
            true => vec![],
            false => vec!["--listen", "127.0.0.1:0"],
        };
        let output = Command::new(env!("CARGO_BIN_EXE_bucketlab-server"))
            .env_remove("BUCKETLAB_STORE")
            .args(listen)
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// `--store` can come from BUCKETLAB_STORE, out of the process list's sight: read (an unreachable
/// Redis is refused as the flag's would be, masked), never shown by `--help`, and the flag wins.
#[test]
fn the_store_can_come_from_the_environment_and_help_does_not_show_it() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bucketlab-server"))
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .env("BUCKETLAB_STORE", "redis://:s3cret@127.0.0.1:1")
            .output()
            .unwrap()
    };
    let output = run(&[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("got \"redis://:***@127.0.0.1:1\": "),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
    let help = run(&["--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.status.success() && text.contains("BUCKETLAB_STORE"),
        "{text}"
    );
    assert!(!text.contains("s3cret"), "{text}");
    // The flag given on the command line is used instead: a store that does not parse, named.
    let flag = run(&["--store", "redis://127.0.0.1:port"]);
    let stderr = String::from_utf8_lossy(&flag.stderr);
    assert_eq!(flag.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("got \"redis://127.0.0.1:port\""),
        "{stderr}"
    );
}

/// A Redis password never reaches stderr: every message that quotes `--store` masks it, for a
/// store that can't be reached (one Redis or a cluster), several nodes without `--cluster`, a
/// rediss:// URL and a URL that does not parse, in each form of user info.
#[test]
fn the_binary_never_prints_a_redis_password() {
    for (args, code, shown) in [
        (
            vec!["--store", "redis://:s3cret@127.0.0.1:1"],
            1,
            "got \"redis://:***@127.0.0.1:1\": ",
        ),
        (
            vec!["--store", "redis://alice:s3cret@127.0.0.1:1/0"],
            1,
            "got \"redis://alice:***@127.0.0.1:1/0\": ",
        ),
        (
            vec!["--store", ":s3cret@127.0.0.1:1"],
            1,
            "got \"redis://:***@127.0.0.1:1\": ",
        ),
        (
            vec!["--store", "redis+unix:///nonexistent/r.sock?db=1&pass=s3cret"],
            1,
            "got \"redis+unix:///nonexistent/r.sock?db=1&pass=***\": ",
        ),
        (
            vec![
                "--cluster",
                "--store",
                "redis://:s3cret@127.0.0.1:1,redis://bob:s3cret@127.0.0.1:2",
            ],
            1,
            "got [\"redis://:***@127.0.0.1:1\", \"redis://bob:***@127.0.0.1:2\"]: ",
        ),
        (
            vec![
                "--store",
                "redis://:s3cret@127.0.0.1:1,redis://:s3cret@127.0.0.1:2",
            ],
            2,
            "got 2 nodes [\"redis://:***@127.0.0.1:1\", \"redis://:***@127.0.0.1:2\"]",
        ),
        (
            vec!["--store", "rediss://:s3cret@127.0.0.1:6380"],
            2,
            "got \"rediss://:***@127.0.0.1:6380\"",
        ),
        (
            vec!["--store", "redis://:s3cret@127.0.0.1:port"],
            2,
            "got \"redis://:***@127.0.0.1:port\"",
        ),
        (
            vec!["--cluster", "--store", "127.0.0.1:1,redis://u:s3cret@127.0.0.1:x"],
            2,
            "got \"127.0.0.1:1,redis://u:***@127.0.0.1:x\": \"redis://u:***@127.0.0.1:x\" is not one",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_bucketlab-server"))
            .env_remove("BUCKETLAB_STORE")
            .args(["--listen", "127.0.0.1:0"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(shown), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("s3cret") && !stdout.contains("s3cret"),
            "{args:?}: {stderr}{stdout}"
        );
    }
}
