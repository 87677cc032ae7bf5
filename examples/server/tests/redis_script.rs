//! `redis/token_bucket.lua` on a real `redis-server`: it decides exactly like the Rust core, it is
//! atomic under 50 concurrent clients, keys are isolated and idle keys expire; the naive
//! read-then-write version over-admits under the same load.

#[path = "../../../redis/naive.rs"]
mod naive;
mod support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
use bucketlab_server::redis_bucket::SCRIPT;
use bucketlab_server::RedisBucket;
use redis::AsyncCommands;
use support::trace::{assert_same, replay_seeded_traces};
use support::RedisServer;

#[tokio::test]
async fn decides_like_the_core_on_seeded_traces() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    let seen = replay_seeded_traces(0..60, async |seed, config, cost, now| {
        let key = format!("trace:{seed}");
        script
            .try_acquire(&mut connection, &key, &config, cost, now)
            .await
            .unwrap()
    })
    .await;
    println!("agreement: {}", seen.summary());
    seen.assert_covers_every_case();
}

/// What a hammering run measured.
struct Load {
    requests: u64,
    admitted: u64,
    seconds: f64,
}

impl Load {
    /// The most a correct limiter may admit: the initial burst plus the refill over the run.
    fn bound(&self, config: &BucketConfig) -> f64 {
        config.capacity() + config.refill_rate() * self.seconds
    }
}

const CLIENTS: usize = 50;
const RUN: Duration = Duration::from_secs(2);

/// 50 clients, each on its own connection, ask for one token of the same key in a loop for
/// [`RUN`]; `now` is seconds since the start, read by each client just before its call.
async fn hammer<F, Fut>(server: &RedisServer, acquire: F) -> Load
where
    F: Fn(redis::aio::MultiplexedConnection, f64) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = (redis::aio::MultiplexedConnection, bool)> + Send,
{
    let requests = Arc::new(AtomicU64::new(0));
    let admitted = Arc::new(AtomicU64::new(0));
    let mut connections = Vec::new();
    for _ in 0..CLIENTS {
        connections.push(server.connection().await);
    }
    let start = Instant::now();
    let tasks: Vec<_> = connections
        .into_iter()
        .map(|mut connection| {
            let (requests, admitted, acquire) =
                (requests.clone(), admitted.clone(), acquire.clone());
            tokio::spawn(async move {
                while start.elapsed() < RUN {
                    let now = start.elapsed().as_secs_f64();
                    let (back, allowed) = acquire(connection, now).await;
                    connection = back;
                    requests.fetch_add(1, Ordering::Relaxed);
                    admitted.fetch_add(u64::from(allowed), Ordering::Relaxed);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    Load {
        requests: requests.load(Ordering::Relaxed),
        admitted: admitted.load(Ordering::Relaxed),
        // Every `now` passed lies in 0..seconds, so the refill credited is at most r · seconds.
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn hammer_config() -> BucketConfig {
    BucketConfig::new(20.0, 10.0).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_script_is_atomic_under_fifty_concurrent_clients() {
    let server = RedisServer::start();
    let config = hammer_config();
    let script = RedisBucket::default();
    let load = hammer(&server, move |mut connection, now| {
        let script = script.clone();
        async move {
            let decision = script
                .try_acquire(&mut connection, "hot", &config, 1.0, now)
                .await
                .unwrap();
            (connection, decision.is_admitted())
        }
    })
    .await;
    let bound = load.bound(&config);
    println!(
        "atomic script: {} clients, {} requests in {:.2} s, {} admitted, bound B + r·T = {bound:.1}",
        CLIENTS, load.requests, load.seconds, load.admitted
    );
    assert!(
        load.requests > 500,
        "the clients really hammered: {} requests",
        load.requests
    );
    assert!(
        load.admitted as f64 <= bound,
        "admitted {} > B + r·T = {bound}",
        load.admitted
    );
    // Not refusing everything either: the burst passes and the refill keeps flowing (1 s of slack
    // for a last call that a busy machine delays).
    assert!(
        load.admitted as f64 >= bound - config.refill_rate(),
        "admitted only {}",
        load.admitted
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_naive_read_then_write_version_over_admits() {
    let server = RedisServer::start();
    let config = hammer_config();
    let load = hammer(&server, move |mut connection, now| async move {
        let decision = naive::naive_try_acquire(&mut connection, "hot", &config, 1.0, now)
            .await
            .unwrap();
        (connection, decision.is_admitted())
    })
    .await;
    let bound = load.bound(&config);
    println!(
        "naive read-then-write: {} clients, {} requests in {:.2} s, {} admitted, bound B + r·T = {bound:.1}, \
         over-admitted {:.1}×",
        CLIENTS, load.requests, load.seconds, load.admitted, load.admitted as f64 / bound
    );
    assert!(
        load.admitted as f64 > 2.0 * bound,
        "expected lost updates: admitted {} vs bound {bound}",
        load.admitted
    );
}

/// At Unix times the rounding slack is worth a whole request at r = 10⁹/s: the script, like the
/// core, keeps what a request let in by it was short, so 3,000 requests 0.5 µs apart get what
/// the refill earned (1,000), the full bucket and at most one slack's worth, decided exactly as
/// the core decides them.
#[tokio::test]
async fn the_rounding_slack_is_owed_back_at_unix_times_and_high_rates() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    let config = BucketConfig::new(1500.0, 1e9).unwrap();
    let start = 1_700_000_000.0;
    let mut core = TokenBucket::started_at(config, start).unwrap();
    let mut admitted = 0;
    for i in 0..3000 {
        let now = start + i as f64 * 0.5e-6;
        let got = script
            .try_acquire(&mut connection, "bytes", &config, 1500.0, now)
            .await
            .unwrap();
        let want = core.try_acquire(1500.0, now).unwrap();
        assert_eq!(
            got.is_admitted(),
            want.is_admitted(),
            "request {i} at {now}: {got:?} vs {want:?}"
        );
        assert!(got.tokens >= 0.0, "request {i}: {got:?}");
        admitted += u32::from(got.is_admitted());
    }
    assert!(
        (1000..=1002).contains(&admitted),
        "admitted {admitted} of 3000"
    );
}

/// Cost 0 always passes, as in the core: also while the count owes what the slack of a far later
/// `now` let in, and the clock then reads far earlier (whose slack covers little of that debt).
#[tokio::test]
async fn cost_zero_passes_while_the_count_owes_a_later_nows_slack() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    let config = BucketConfig::new(1.0, 1e9).unwrap();
    let mut core = TokenBucket::new(config);
    for (cost, now) in std::iter::repeat_n((1.0, 1e10), 9000).chain([(1.0, 1.0), (0.0, 1.0)]) {
        let got = script
            .try_acquire(&mut connection, "zero", &config, cost, now)
            .await
            .unwrap();
        let want = core.try_acquire(cost, now).unwrap();
        assert_eq!(
            got.is_admitted(),
            want.is_admitted(),
            "cost {cost} at {now}: {got:?} vs {want:?}"
        );
    }
    let last = script
        .try_acquire(&mut connection, "zero", &config, 0.0, 1.0)
        .await
        .unwrap();
    assert!(last.is_admitted(), "{last:?}");
}

#[tokio::test]
async fn a_lowered_capacity_spills_what_no_longer_fits() {
    // An operator lowers B from 100 to 10: a key that stored 99 tokens holds 10 from then on, as
    // the core's reconfigure caps them, rather than a burst of 99 under the new limit.
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    let (wide, narrow) = (
        BucketConfig::new(100.0, 1.0).unwrap(),
        BucketConfig::new(10.0, 1.0).unwrap(),
    );
    let first = script
        .try_acquire(&mut connection, "shrunk", &wide, 1.0, 5.0)
        .await
        .unwrap();
    assert_eq!(first.tokens, 99.0);
    let mut admitted = 0;
    loop {
        let decision = script
            .try_acquire(&mut connection, "shrunk", &narrow, 1.0, 5.0)
            .await
            .unwrap();
        if !decision.is_admitted() {
            break;
        }
        admitted += 1;
        assert!(decision.tokens < 10.0, "{decision:?}");
    }
    let mut core = TokenBucket::started_at(wide, 5.0).unwrap();
    assert!(core.try_acquire(1.0, 5.0).unwrap().is_admitted());
    core.reconfigure(narrow, 5.0).unwrap();
    let mut core_admitted = 0;
    while core.try_acquire(1.0, 5.0).unwrap().is_admitted() {
        core_admitted += 1;
    }
    assert_eq!((admitted, core_admitted), (10, 10));
}

#[tokio::test]
async fn keys_are_isolated() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    let config = BucketConfig::new(3.0, 1.0).unwrap();
    for _ in 0..3 {
        assert!(script
            .try_acquire(&mut connection, "alice", &config, 1.0, 5.0)
            .await
            .unwrap()
            .is_admitted());
    }
    let alice = script
        .try_acquire(&mut connection, "alice", &config, 1.0, 5.0)
        .await
        .unwrap();
    assert_eq!(alice.outcome, Outcome::Denied { retry_after: 1.0 });
    let bob = script
        .try_acquire(&mut connection, "bob", &config, 1.0, 5.0)
        .await
        .unwrap();
    assert!(bob.is_admitted(), "bob has his own full bucket: {bob:?}");
    assert_eq!(bob.tokens, 2.0);
    let tokens: Vec<Option<String>> = connection
        .hmget("alice", &["tokens", "last"])
        .await
        .unwrap();
    assert_eq!(
        tokens[0].as_deref(),
        Some("0"),
        "bob's request left alice's bucket alone"
    );
}

#[tokio::test]
async fn idle_keys_expire_once_they_would_be_full_again() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = RedisBucket::default();
    // Full again 0.2 s after being emptied; the script keeps it 1 s longer for clock skew.
    let config = BucketConfig::new(2.0, 10.0).unwrap();
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    let mut core = TokenBucket::new(config);
    for _ in 0..2 {
        let t = now();
        assert_same(
            &core.try_acquire(1.0, t).unwrap(),
            &script
                .try_acquire(&mut connection, "idle", &config, 1.0, t)
                .await
                .unwrap(),
            "emptying",
        );
    }
    let ttl: i64 = connection.pttl("idle").await.unwrap();
    assert!(
        (1000..=1200).contains(&ttl),
        "expires 0.2 s + 1 s margin after the last use, got {ttl} ms"
    );

    let deadline = Instant::now() + Duration::from_secs(5);
    while connection.exists::<_, bool>("idle").await.unwrap() {
        assert!(Instant::now() < deadline, "the idle key never expired");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        start.elapsed() >= Duration::from_millis(1100),
        "not before the bucket was full: {:?}",
        start.elapsed()
    );
    // Gone is the same as full: the next decision still agrees with the core's bucket.
    let t = now();
    let after = script
        .try_acquire(&mut connection, "idle", &config, 1.0, t)
        .await
        .unwrap();
    assert_eq!((after.is_admitted(), after.tokens), (true, 1.0));
    assert_eq!(core.try_acquire(1.0, t).unwrap().tokens, after.tokens);

    // A full bucket only lingers for the margin; one that never refills is kept.
    script
        .try_acquire(&mut connection, "full", &config, 0.0, now())
        .await
        .unwrap();
    let ttl: i64 = connection.pttl("full").await.unwrap();
    assert!((900..=1000).contains(&ttl), "full: {ttl} ms");
    let no_refill = BucketConfig::new(2.0, 0.0).unwrap();
    script
        .try_acquire(&mut connection, "kept", &no_refill, 1.0, now())
        .await
        .unwrap();
    assert_eq!(
        connection.pttl::<_, i64>("kept").await.unwrap(),
        -1,
        "no refill: no expiry"
    );
}

#[tokio::test]
async fn a_wait_longer_than_a_double_counts_is_infinite_as_in_the_core() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = redis::Script::new(SCRIPT);
    // At 1e-320 tokens a second the token the second request lacks takes 1e320 s: infinite as a
    // double. The core says so (a refusal whose wait is infinite, no Retry-After): so does the
    // script, and it keeps the key, which would be full only after that wait.
    type Reply = (i64, String, String, String, String, String, String, String);
    let mut calls = Vec::new();
    for cost in ["2", "1"] {
        let reply: Reply = script
            .key("slow")
            .arg(&["2", "1e-320", cost, "100"])
            .invoke_async(&mut connection)
            .await
            .unwrap();
        calls.push(reply);
    }
    let (emptied, refused) = (&calls[0], &calls[1]);
    assert_eq!((emptied.0, emptied.1.as_str()), (1, "0"), "{emptied:?}");
    assert_eq!(
        (refused.0, refused.2.as_str(), refused.3.as_str()),
        (0, "inf", ""),
        "{refused:?}"
    );
    assert_eq!(connection.pttl::<_, i64>("slow").await.unwrap(), -1);
    // The Rust side reads it as the core decides it.
    let config = BucketConfig::new(2.0, 1e-320).unwrap();
    let mut core = TokenBucket::new(config);
    assert!(core.try_acquire(2.0, 100.0).unwrap().is_admitted());
    let expected = core.try_acquire(1.0, 101.0).unwrap();
    assert_eq!(
        expected.outcome,
        Outcome::Denied {
            retry_after: f64::INFINITY
        }
    );
    let decision = RedisBucket::default()
        .try_acquire(&mut connection, "slow", &config, 1.0, 101.0)
        .await
        .unwrap();
    assert_eq!(decision.outcome, expected.outcome);
}

/// The error the script answers a call with `keys` and `args`, as text (the call must fail).
async fn refusal(
    script: &redis::Script,
    connection: &mut redis::aio::MultiplexedConnection,
    keys: &[&str],
    args: &[&str],
) -> String {
    let mut call = script.prepare_invoke();
    for key in keys {
        call.key(*key);
    }
    for arg in args {
        call.arg(*arg);
    }
    let answer = call.invoke_async::<redis::Value>(connection).await;
    answer.unwrap_err().to_string()
}

#[tokio::test]
async fn a_missing_key_and_extra_keys_or_arguments_are_refused_by_name() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = redis::Script::new(SCRIPT);
    for (keys, args, message) in [
        // Without the check, HMGET fails with Redis's own message naming no field.
        (
            vec![],
            vec!["10", "5", "1", "1"],
            "key must be the client's bucket (KEYS[1]), it is missing",
        ),
        (
            vec!["x", "y"],
            vec!["10", "5", "1", "1"],
            "expected 1 key (the client's bucket), got 2: \"x\" \"y\"",
        ),
        (
            vec!["x"],
            vec!["10", "5", "1", "1", "extra"],
            "expected 4 arguments (capacity, refill_rate, cost, now), got 5; beyond now: \"extra\"",
        ),
        (
            vec!["x"],
            vec!["10", "5", "1", "1", "extra", "more"],
            "expected 4 arguments (capacity, refill_rate, cost, now), got 6; \
             beyond now: \"extra\" \"more\"",
        ),
    ] {
        let error = refusal(&script, &mut connection, &keys, &args).await;
        assert!(
            error.contains(message),
            "keys {keys:?}, args {args:?}: {error}"
        );
    }
    for key in ["x", "y"] {
        assert!(
            !connection.exists::<_, bool>(key).await.unwrap(),
            "a refused call writes nothing, yet {key} exists"
        );
    }
}

#[tokio::test]
async fn bad_arguments_are_refused_with_the_field_named() {
    let server = RedisServer::start();
    let mut connection = server.connection().await;
    let script = redis::Script::new(SCRIPT);
    for (args, message) in [
        (
            vec!["-1", "5", "1", "0"],
            "capacity must be a finite number greater than 0, got \"-1\"",
        ),
        (
            vec!["10", "-5", "1", "0"],
            "refill_rate must be a finite number of at least 0, got \"-5\"",
        ),
        (
            vec!["10", "5", "ten", "0"],
            "cost must be a finite number of at least 0, got \"ten\"",
        ),
        (
            vec!["10", "5", "1", "inf"],
            "now must be a decimal number of seconds (digits with an optional '-', decimal point and exponent), got \"inf\"",
        ),
        (
            vec!["10", "5", "1", "nan"],
            "now must be a decimal number of seconds (digits with an optional '-', decimal point and exponent), got \"nan\"",
        ),
        // tonumber alone reads these as 16, 5 and 2.
        (
            vec!["0x10", "5", "1", "0"],
            "capacity must be a finite number greater than 0, got \"0x10\"",
        ),
        (
            vec!["10", " 5", "1", "0"],
            "refill_rate must be a finite number of at least 0, got \" 5\"",
        ),
        (
            vec!["10", "5", "0x2", "0"],
            "cost must be a finite number of at least 0, got \"0x2\"",
        ),
        (
            vec!["10", "5", "1e", "0"],
            "cost must be a finite number of at least 0, got \"1e\"",
        ),
        // tonumber alone reads this as 16.
        (
            vec!["10", "5", "1", "0x10"],
            "now must be a decimal number of seconds (digits with an optional '-', decimal point and exponent), got \"0x10\"",
        ),
        (
            vec!["10", "5", "1", "1.5e"],
            "now must be a decimal number of seconds (digits with an optional '-', decimal point and exponent), got \"1.5e\"",
        ),
        // Milliseconds written with an exponent are milliseconds too.
        (
            vec!["10", "5", "1", "1.7e12"],
            "now must be Unix time in seconds, at most 1e11, got \"1.7e12\": that looks like milliseconds",
        ),
        // So far from 0 that the slack of 4 ulp of now would be a day.
        (
            vec!["10", "5", "1", "-100000000000000000000"],
            "now must be Unix time in seconds, at least -1e11, got \"-100000000000000000000\"",
        ),
        (
            vec!["10", "5", "1", "-100000000001"],
            "now must be Unix time in seconds, at least -1e11, got \"-100000000001\"",
        ),
        // Epoch milliseconds would make a 5/s bucket refill at 5,000/s.
        (
            vec!["10", "5", "1", "1700000000000"],
            "now must be Unix time in seconds, at most 1e11, got \"1700000000000\": \
             that looks like milliseconds",
        ),
        (
            vec!["10", "5", "1"],
            "now must be a decimal number of seconds (digits with an optional '-', decimal point and exponent), it is missing",
        ),
    ] {
        let error = refusal(&script, &mut connection, &["bad"], &args).await;
        assert!(error.contains(message), "{args:?}: {error}");
    }
    assert!(
        !connection.exists::<_, bool>("bad").await.unwrap(),
        "a refused call writes nothing"
    );
    // Both ends of the range of `now` are times.
    for (key, now) in [("earliest", "-100000000000"), ("latest", "100000000000")] {
        let reply: Vec<String> = script
            .key(key)
            .arg(&["10", "5", "1", now])
            .invoke_async(&mut connection)
            .await
            .unwrap();
        assert_eq!(reply[0], "1", "now = {now}: {reply:?}");
    }
    // A time as Go's fmt.Sprint and Java's String.valueOf write a double: the same decision as
    // its plain decimal text.
    for (key, now) in [
        ("go", "1.7966221628049476e+09"),
        ("java", "1.796622165613E9"),
    ] {
        let plain = format!("{}", now.parse::<f64>().unwrap());
        for (key, now) in [
            (key.to_owned(), now),
            (format!("{key}-plain"), plain.as_str()),
        ] {
            let reply: Vec<String> = script
                .key(key.as_str())
                .arg(&["10", "5", "3", now])
                .invoke_async(&mut connection)
                .await
                .unwrap();
            assert_eq!(
                (reply[0].as_str(), reply[1].as_str()),
                ("1", "7"),
                "{now}: {reply:?}"
            );
        }
    }
    // Decimal text with an exponent, as other languages write a double, is a number.
    let reply: Vec<String> = script
        .key("exponents")
        .arg(&["1e1", "2.5E-1", ".5", "0"])
        .invoke_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(
        (reply[0].as_str(), reply[1].as_str()),
        ("1", "9.5"),
        "{reply:?}"
    );
    // State that this script did not write is refused, not read as a full bucket.
    let _: () = connection.hset("corrupt", "tokens", "lots").await.unwrap();
    let error = script
        .key("corrupt")
        .arg(&["10", "5", "1", "0"])
        .invoke_async::<redis::Value>(&mut connection)
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("corrupt holds tokens = \"lots\", not a number"),
        "{error}"
    );
    // The Rust side refuses before sending, with the core's message.
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let error = RedisBucket::default()
        .try_acquire(&mut connection, "bad", &config, f64::NAN, 0.0)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "cost must be a finite number of at least 0, got NaN"
    );
}
