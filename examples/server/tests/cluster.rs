//! The token bucket on a real Redis Cluster (3 masters + 3 replicas of Debian's redis-server,
//! started and stopped by each test): it decides like the core on every master, stays atomic under
//! 50 clients, survives a master's death (failing closed with 503, or open when told to) and a slot
//! moving under live buckets. A cluster that is down or not ok, and a key pattern without a hash
//! tag, stop the server at startup with a message.
//!
//! `cargo test -p bucketlab-server cluster` runs them. They take turns: one cluster at a time, so
//! the failover timings are not skewed by another test's cluster on the same two cores.

mod support;

use std::future::Future;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bucketlab::limiter::BucketConfig;
use bucketlab_server::store::CLUSTER_TIMEOUT;
use bucketlab_server::{app, KeyPattern, Limiter, OnStoreError, Store, SystemClock};
use support::cluster::{query, Master, RedisCluster, NODE_TIMEOUT_MS};
use support::trace::replay_seeded_traces;

/// Runs `test` on its own two-thread runtime once no other cluster test is running.
fn one_at_a_time<F: Future>(test: F) -> F::Output {
    static TURN: Mutex<()> = Mutex::new(());
    // A test that panicked released the lock by poisoning it; its cluster is gone all the same.
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(test)
}

/// The bucket of the load tests: a burst of 20, then 10 per second.
fn config() -> BucketConfig {
    BucketConfig::new(20.0, 10.0).unwrap()
}

/// The failover tests' bucket: a burst of 20, then 2 per second, so it takes 10 s to fill up,
/// far longer than the outage. A bucket that filled up during the outage would be full whatever
/// the dead master forgot, and hide the debits lost with it.
fn failover_config() -> BucketConfig {
    BucketConfig::new(20.0, 2.0).unwrap()
}

/// A store on `cluster` with the default pattern (`bucketlab:{*}`).
async fn store(cluster: &RedisCluster, timeout: Duration) -> Store {
    let urls = cluster.urls();
    let nodes: Vec<&str> = urls.iter().map(String::as_str).collect();
    Store::redis_cluster_within(&nodes, KeyPattern::default(), timeout)
        .await
        .expect("a store on the test cluster")
}

/// The store's timeout in the tests that check decisions and redirections rather than how fast a
/// failing store gives up: generous, as a busy machine can stall a process past the server's
/// 500 ms ([`CLUSTER_TIMEOUT`]) without anything being wrong. The failover tests keep the server's.
const PATIENT: Duration = Duration::from_secs(5);

/// API keys `client-{i}` for `i` in `range`, each with the slot of its bucket's Redis key.
fn named_slots(cluster: &RedisCluster, range: std::ops::Range<usize>) -> Vec<(String, u16)> {
    let names: Vec<String> = range.map(|i| format!("client-{i}")).collect();
    let redis_keys: Vec<String> = names.iter().map(|k| KeyPattern::default().key(k)).collect();
    let slots = cluster.slots_of(&redis_keys);
    names.into_iter().zip(slots).collect()
}

/// `per_master` API keys whose buckets live on each master, in the masters' order.
fn keys_by_master(
    cluster: &RedisCluster,
    masters: &[Master],
    per_master: usize,
) -> Vec<Vec<String>> {
    let named = named_slots(cluster, 0..100 * per_master);
    masters
        .iter()
        .map(|master| {
            let keys: Vec<String> = named
                .iter()
                .filter(|(_, slot)| master.serves(*slot))
                .map(|(key, _)| key.clone())
                .take(per_master)
                .collect();
            assert_eq!(keys.len(), per_master, "keys on master {}", master.port);
            keys
        })
        .collect()
}

/// `count` API keys whose buckets all hash to `slot`.
fn keys_in_slot(cluster: &RedisCluster, slot: u16, count: usize) -> Vec<String> {
    let mut found = Vec::new();
    for chunk in 0..40 {
        let named = named_slots(cluster, chunk * 50_000..(chunk + 1) * 50_000);
        found.extend(
            named
                .into_iter()
                .filter(|&(_, s)| s == slot)
                .map(|(key, _)| key),
        );
        if found.len() >= count {
            found.truncate(count);
            return found;
        }
    }
    panic!("fewer than {count} keys in slot {slot} among 2,000,000 names");
}

#[test]
fn cluster_decides_like_the_core_on_every_master() {
    one_at_a_time(async {
        let cluster = RedisCluster::start();
        let masters = cluster.masters();
        let keys = keys_by_master(&cluster, &masters, 20);
        let store = store(&cluster, PATIENT).await;
        // Seed s lives on master s % 3: every master runs a third of the traces.
        let seen = replay_seeded_traces(0..60, async |seed, config, cost, now| {
            let key = &keys[seed as usize % 3][seed as usize / 3];
            store.try_acquire(key, &config, cost, now).await.unwrap()
        })
        .await;
        println!("cluster agreement: {}, over 3 masters", seen.summary());
        seen.assert_covers_every_case();
    });
}

/// How a request was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// Admitted by the bucket (HTTP 200 with rate-limit headers).
    Admitted,
    /// Refused by the bucket (HTTP 429).
    Denied,
    /// The store failed and the limiter failed closed (HTTP 503), or the store returned an error.
    Failed,
    /// The store failed and the limiter failed open: served without a decision (HTTP 200 without
    /// rate-limit headers).
    Unchecked,
}

/// One request: which key, its answer, and when it was sent and answered (seconds from the start).
#[derive(Debug, Clone, Copy)]
struct Record {
    key: usize,
    answer: Answer,
    sent: f64,
    done: f64,
}

/// Where the clients send their requests.
#[derive(Clone)]
enum Target {
    /// The app over loopback HTTP (`GET /hello` with `X-Api-Key`).
    Http(String),
    /// A store of the client's own (its own cluster connection, as another app server would
    /// have), asked directly with `now` = seconds since the start.
    Store(Arc<Store>),
}

/// Clients in a loop until `stop`: client `i` asks for key `i % keys.len()`, one request at a time.
struct Traffic {
    start: Instant,
    stop: Arc<AtomicBool>,
    clients: Vec<tokio::task::JoinHandle<Vec<Record>>>,
    /// When the latest answer without the bucket's decision (failed or unchecked) came, in
    /// seconds from the start (`-inf`: none yet).
    trouble: Arc<Mutex<f64>>,
}

impl Traffic {
    fn start(targets: Vec<Target>, keys: &[String]) -> Traffic {
        let start = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let trouble = Arc::new(Mutex::new(f64::NEG_INFINITY));
        let clients = targets
            .into_iter()
            .enumerate()
            .map(|(i, target)| {
                let (key, name, stop, trouble) = (
                    i % keys.len(),
                    keys[i % keys.len()].clone(),
                    stop.clone(),
                    trouble.clone(),
                );
                tokio::spawn(async move {
                    let http = reqwest::Client::new();
                    let mut records = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let sent = start.elapsed().as_secs_f64();
                        let answer = ask(&target, &http, &name, sent).await;
                        let done = start.elapsed().as_secs_f64();
                        if matches!(answer, Answer::Failed | Answer::Unchecked) {
                            let mut latest = trouble.lock().unwrap();
                            *latest = latest.max(done);
                        }
                        records.push(Record {
                            key,
                            answer,
                            sent,
                            done,
                        });
                    }
                    records
                })
            })
            .collect();
        Traffic {
            start,
            stop,
            clients,
            trouble,
        }
    }

    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Waits until `quiet` has passed without an answer lacking the bucket's decision (at most
    /// `patience`, then panics); returns that moment, in seconds from the start.
    async fn settled(&self, quiet: f64, patience: Duration) -> f64 {
        let give_up = Instant::now() + patience;
        loop {
            let now = self.now();
            if now - *self.trouble.lock().unwrap() >= quiet {
                return now;
            }
            assert!(
                Instant::now() < give_up,
                "still failing {patience:?} after the failover"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Stops the clients; returns every request and the run's length in seconds.
    async fn finish(self) -> (Vec<Record>, f64) {
        self.stop.store(true, Ordering::Relaxed);
        let mut records = Vec::new();
        for client in self.clients {
            records.extend(client.await.expect("a client task"));
        }
        (records, self.start.elapsed().as_secs_f64())
    }
}

async fn ask(target: &Target, http: &reqwest::Client, key: &str, now: f64) -> Answer {
    match target {
        Target::Http(url) => {
            let response = http
                .get(format!("{url}/hello"))
                .header("X-Api-Key", key)
                .send()
                .await
                .expect("the app answers over loopback");
            match response.status().as_u16() {
                200 if response.headers().contains_key("ratelimit") => Answer::Admitted,
                200 => Answer::Unchecked,
                429 => Answer::Denied,
                503 => Answer::Failed,
                other => panic!("unexpected status {other}"),
            }
        }
        Target::Store(store) => match store.try_acquire(key, &config(), 1.0, now).await {
            Ok(decision) if decision.is_admitted() => Answer::Admitted,
            Ok(_) => Answer::Denied,
            Err(error) => {
                eprintln!("store error at {now:.3} s for {key}: {error}");
                Answer::Failed
            }
        },
    }
}

/// Per key: how many requests got each answer.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    requests: u64,
    admitted: u64,
    denied: u64,
    failed: u64,
    unchecked: u64,
}

fn counts(records: &[Record], keys: usize) -> Vec<Counts> {
    let mut counts = vec![Counts::default(); keys];
    for r in records {
        let c = &mut counts[r.key];
        c.requests += 1;
        match r.answer {
            Answer::Admitted => c.admitted += 1,
            Answer::Denied => c.denied += 1,
            Answer::Failed => c.failed += 1,
            Answer::Unchecked => c.unchecked += 1,
        }
    }
    counts
}

/// The most a correct bucket may admit over `seconds`: the initial burst plus the refill.
fn bound(config: &BucketConfig, seconds: f64) -> f64 {
    config.capacity() + config.refill_rate() * seconds
}

/// Store targets, each with its own connection to the cluster.
async fn store_targets(cluster: &RedisCluster, clients: usize) -> Vec<Target> {
    let mut targets = Vec::new();
    for _ in 0..clients {
        targets.push(Target::Store(Arc::new(store(cluster, PATIENT).await)));
    }
    targets
}

#[test]
fn cluster_is_atomic_under_fifty_clients_on_ten_keys() {
    one_at_a_time(async {
        let cluster = RedisCluster::start();
        let masters = cluster.masters();
        // 10 keys over the three masters (4 + 3 + 3).
        let by_master = keys_by_master(&cluster, &masters, 4);
        let keys: Vec<String> = by_master.concat().into_iter().take(10).collect();
        let traffic = Traffic::start(store_targets(&cluster, 50).await, &keys);
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (records, seconds) = traffic.finish().await;
        let counts = counts(&records, keys.len());
        let bound = bound(&config(), seconds);
        let total: u64 = counts.iter().map(|c| c.requests).sum();
        let admitted: Vec<u64> = counts.iter().map(|c| c.admitted).collect();
        println!(
            "cluster atomic: 50 clients, 10 keys on 3 masters, {total} requests in {seconds:.2} s, \
             admitted per key {admitted:?}, bound B + r·T = {bound:.1}"
        );
        assert!(
            total > 1000,
            "the clients really hammered: {total} requests"
        );
        for (key, c) in keys.iter().zip(&counts) {
            assert_eq!(c.failed, 0, "{key}: no store errors");
            assert!(
                c.admitted as f64 <= bound,
                "{key}: admitted {} > B + r·T = {bound}",
                c.admitted
            );
            // Not refusing everything either (1 s of slack for a busy machine's last calls).
            assert!(
                c.admitted as f64 >= bound - config().refill_rate(),
                "{key}: admitted only {}",
                c.admitted
            );
        }
    });
}

/// Seconds without a failed (or unchecked) answer after which the clients are taken to have found
/// the new master: how long that takes after the replica took over depends on the machine's load
/// (the store's slot refresh and reconnection), so the run waits for it rather than a fixed time.
const SETTLED: f64 = 1.0;

/// Seconds the traffic runs once settled: they must be clean.
const AFTER_FAILOVER: f64 = 1.5;

/// Runs HTTP traffic on 12 keys (4 per master, 2 clients each) through the app with
/// `on_store_error`, kills the first master after 1 s, waits for its replica to take over and for
/// the answers to settle ([`SETTLED`]), and runs [`AFTER_FAILOVER`] seconds more.
async fn failover_under_load(on_store_error: OnStoreError) -> Failover {
    let mut cluster = RedisCluster::start();
    let masters = cluster.masters();
    let by_master = keys_by_master(&cluster, &masters, 4);
    let keys = by_master.concat();
    let limiter = Limiter::new(
        failover_config(),
        store(&cluster, CLUSTER_TIMEOUT).await,
        SystemClock,
    )
    .on_store_error(on_store_error);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move { axum::serve(listener, app(limiter)).await });

    let traffic = Traffic::start(vec![Target::Http(url); 2 * keys.len()], &keys);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let victim = masters[0].clone();
    let killed = traffic.now();
    cluster.kill(victim.port);
    tokio::task::block_in_place(|| cluster.wait_for_failover(victim.replica_port));
    let promoted = traffic.now();
    let settled = traffic.settled(SETTLED, Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_secs_f64(AFTER_FAILOVER)).await;
    let (records, seconds) = traffic.finish().await;
    server.abort();
    let counts = counts(&records, keys.len());
    Failover {
        affected: by_master[0].len(),
        keys,
        records,
        counts,
        bound: bound(&failover_config(), seconds),
        killed,
        promoted,
        settled,
    }
}

/// What a failover run saw. Keys `0..affected` lived on the killed master.
struct Failover {
    keys: Vec<String>,
    affected: usize,
    records: Vec<Record>,
    counts: Vec<Counts>,
    /// B + r·T over the whole run.
    bound: f64,
    /// Seconds from the start to the kill, to the moment every node was ok again, and to the
    /// moment the answers had been decisions again for [`SETTLED`].
    killed: f64,
    promoted: f64,
    settled: f64,
}

impl Failover {
    /// The answers `answer` on the killed master's keys (`true`) or the others': how many, and
    /// the first and last of them in ms after the kill.
    fn window(&self, answer: Answer, affected: bool) -> String {
        let done: Vec<f64> = self
            .records
            .iter()
            .filter(|r| r.answer == answer && (r.key < self.affected) == affected)
            .map(|r| (r.done - self.killed) * 1000.0)
            .collect();
        match done.iter().copied().reduce(f64::min) {
            None => "none".into(),
            Some(first) => {
                let last = done.iter().copied().fold(first, f64::max);
                format!(
                    "{} from +{first:.0} to +{last:.0} ms ({:.0} ms)",
                    done.len(),
                    last - first
                )
            }
        }
    }

    /// The printed figures: the failover, the windows of `answer`, the slowest answer, admitted
    /// per key against the bound.
    fn figures(&self, mode: &str, answer: Answer) -> String {
        let slowest = self
            .records
            .iter()
            .filter(|r| r.done >= self.killed)
            .map(|r| (r.done - r.sent) * 1000.0)
            .fold(0.0, f64::max);
        let admitted = |affected: bool| -> Vec<u64> {
            (0..self.keys.len())
                .filter(|&k| (k < self.affected) == affected)
                .map(|k| self.counts[k].admitted + self.counts[k].unchecked)
                .collect()
        };
        format!(
            "cluster failover, {mode}: node timeout {NODE_TIMEOUT_MS} ms, cluster ok again {:.0} ms \
             after the kill, answers settled at +{:.0} ms; {answer:?} on the killed master's keys: {}, on the other masters' \
             keys: {}; slowest answer {slowest:.0} ms; admitted per key on the killed master {:?}, \
             on the others {:?}, bound B + r·T = {:.1}",
            (self.promoted - self.killed) * 1000.0,
            (self.settled - SETTLED - self.killed) * 1000.0,
            self.window(answer, true),
            self.window(answer, false),
            admitted(true),
            admitted(false),
            self.bound,
        )
    }

    /// Checks what both modes share: the outage shows as `answer` on the killed master's keys,
    /// only while the cluster was down (the other masters refuse too then: with Redis's default
    /// `cluster-require-full-coverage yes` no node serves while some slots have no master); every
    /// key is decided again after the failover; the bucket's own decisions stay within the bound.
    fn check(&self, answer: Answer) {
        let outage: Vec<&Record> = self.records.iter().filter(|r| r.answer == answer).collect();
        assert!(
            outage.iter().any(|r| r.key < self.affected),
            "killing a master made its keys answer {answer:?} for a while"
        );
        for r in &outage {
            assert!(
                r.done > self.killed && r.done < self.settled,
                "{}: {answer:?} at {:.3} s, outside the outage ({:.3} s to settled at {:.3} s)",
                self.keys[r.key],
                r.done,
                self.killed,
                self.settled
            );
        }
        for (k, c) in self.counts.iter().enumerate() {
            let key = &self.keys[k];
            assert!(
                self.records
                    .iter()
                    .any(|r| r.key == k && r.answer == Answer::Admitted && r.sent > self.promoted),
                "{key}: admitted by the bucket again after the failover"
            );
            // Asynchronous replication may lose the dead master's last debits.
            assert!(
                c.admitted as f64 <= self.bound + LOST_WRITES_PER_KEY,
                "{key}: the bucket admitted {} > B + r·T = {:.1} + {LOST_WRITES_PER_KEY}",
                c.admitted,
                self.bound
            );
        }
    }
}

/// Debits the dead master may have made but not yet passed to its replica when it died: on
/// loopback, at most what it ran in its last event-loop turn, one request per client of the key.
const LOST_WRITES_PER_KEY: f64 = 2.0;

#[test]
fn cluster_failover_under_load_fails_closed_with_503() {
    one_at_a_time(async {
        let run = failover_under_load(OnStoreError::Closed).await;
        println!("{}", run.figures("fail closed (503)", Answer::Failed));
        run.check(Answer::Failed);
        let unchecked: u64 = run.counts.iter().map(|c| c.unchecked).sum();
        assert_eq!(unchecked, 0, "fail closed admits nothing unchecked");
    });
}

#[test]
fn cluster_failover_under_load_fails_open_when_told() {
    one_at_a_time(async {
        let run = failover_under_load(OnStoreError::Open).await;
        let over: Vec<i64> = (0..run.affected)
            .map(|k| (run.counts[k].admitted + run.counts[k].unchecked) as i64 - run.bound as i64)
            .collect();
        println!(
            "{}; over the bound on the killed master's keys: {over:?}",
            run.figures("fail open", Answer::Unchecked)
        );
        run.check(Answer::Unchecked);
        let failed: u64 = run.counts.iter().map(|c| c.failed).sum();
        assert_eq!(failed, 0, "fail open never answers 503");
    });
}

/// The MOVED and ASK redirections the node on `port` has answered (`INFO errorstats`).
fn redirections(port: u16) -> (u64, u64) {
    let stats = query(port, &["INFO", "errorstats"]).unwrap_or_default();
    let count = |kind: &str| -> u64 {
        stats
            .lines()
            .find_map(|line| line.strip_prefix(&format!("errorstat_{kind}:count=")))
            .and_then(|rest| rest.split(',').next()?.trim().parse().ok())
            .unwrap_or(0)
    };
    (count("MOVED"), count("ASK"))
}

#[test]
fn cluster_resharding_a_live_slot_loses_no_request_and_no_token() {
    one_at_a_time(async {
        let cluster = RedisCluster::start();
        let masters = cluster.masters();
        let (from, to) = (&masters[1], &masters[2]);
        let slot = from.slots[0].0;
        // Six clients' buckets in the slot that moves, four elsewhere.
        let mut keys = keys_in_slot(&cluster, slot, 6);
        keys.extend(
            keys_by_master(&cluster, &masters, 2)
                .concat()
                .into_iter()
                .take(4),
        );
        let traffic = Traffic::start(store_targets(&cluster, 3 * keys.len()).await, &keys);
        tokio::time::sleep(Duration::from_millis(500)).await;
        let moving = traffic.now();
        let moved = tokio::task::block_in_place(|| cluster.reshard_one_slot(from, to));
        let moved_at = traffic.now();
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (records, seconds) = traffic.finish().await;
        let counts = counts(&records, keys.len());
        let bound = bound(&config(), seconds);

        assert_eq!(moved, slot);
        let now_serving = cluster.masters();
        assert!(
            now_serving.iter().any(|m| m.id == to.id && m.serves(slot)),
            "slot {slot} now lives on {}: {now_serving:?}",
            to.port
        );
        let in_slot = |port: u16| {
            query(port, &["CLUSTER", "COUNTKEYSINSLOT", &slot.to_string()]).unwrap_or_default()
        };
        assert_eq!(
            (in_slot(from.port), in_slot(to.port)),
            ("0".into(), "6".into())
        );
        let (moved, asked) = redirections(from.port);
        println!(
            "cluster resharding: slot {slot} with 6 live buckets moved from {} to {} in {:.0} ms \
             under {} requests/s; {} store errors; the clients followed {moved} MOVED and {asked} \
             ASK redirections; admitted per key {:?}, bound B + r·T = {bound:.1}",
            from.port,
            to.port,
            (moved_at - moving) * 1000.0,
            (records.len() as f64 / seconds).round(),
            counts.iter().map(|c| c.failed).sum::<u64>(),
            counts.iter().map(|c| c.admitted).collect::<Vec<_>>()
        );
        for (key, c) in keys.iter().zip(&counts) {
            assert_eq!(
                c.failed, 0,
                "{key}: MOVED and ASK are followed, never errors"
            );
            assert!(
                c.admitted as f64 <= bound,
                "{key}: admitted {} > B + r·T = {bound}",
                c.admitted
            );
        }
        assert!(moved > 0, "the clients were redirected after the move");
    });
}

/// Runs the real binary with `args` and returns its stderr once it has exited, failing the test
/// if it is still running after 20 s: a startup error must never be a hang.
fn startup_error(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bucketlab-server"))
        .env_remove("BUCKETLAB_STORE")
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("bucketlab-server {args:?} still running after 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success(), "{args:?} must fail");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn cluster_down_not_ok_or_untagged_is_refused_at_startup() {
    one_at_a_time(async { refused_at_startup() });
}

fn refused_at_startup() {
    // A key pattern without the API key in a hash tag: refused before connecting to anything.
    let stderr = startup_error(&[
        "--cluster",
        "--store",
        "redis://127.0.0.1:1",
        "--key-pattern",
        "bucketlab:*",
    ]);
    assert!(
        stderr.contains("key-pattern must have the `*` inside a hash tag for a Redis Cluster")
            && stderr.contains("got \"bucketlab:*\""),
        "{stderr}"
    );

    // Nothing listening: a clear error, quickly.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://{}", free.local_addr().unwrap());
    drop(free);
    let stderr = startup_error(&["--cluster", "--store", &url]);
    assert!(
        stderr.contains("store must list reachable nodes of a Redis Cluster")
            && stderr.contains(&url),
        "{stderr}"
    );

    // Cluster-enabled nodes that were never joined into a cluster: not ok.
    let nodes = RedisCluster::nodes_only(3);
    let urls = nodes.urls().join(",");
    let stderr = startup_error(&["--cluster", "--store", &urls]);
    assert!(
        stderr.contains("the Redis Cluster is not ready: cluster_state is \"fail\", not \"ok\""),
        "{stderr}"
    );
    // The same nodes as bare host:port, as the README writes them: read, reached, not ok.
    let bare = urls.replace("redis://", "");
    let stderr = startup_error(&["--cluster", "--store", &bare]);
    assert!(
        stderr.contains("the Redis Cluster is not ready: cluster_state is \"fail\", not \"ok\""),
        "{bare}: {stderr}"
    );
}
