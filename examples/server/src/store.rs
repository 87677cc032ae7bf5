//! Where the buckets live: one per API key, in this process, in one Redis or in a Redis Cluster.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

use bucketlab::limiter::{BucketConfig, Decision, InvalidValue, TokenBucket};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::AsyncConnectionConfig;

use crate::key_pattern::{KeyPattern, KeyPatternError};
use crate::redis_bucket::{RedisBucket, RedisBucketError};

/// The memory store forgets full buckets once it holds this many keys.
const PRUNE_ABOVE: usize = 10_000;

/// The most keys the memory store holds (about 300 MB with 128-byte keys): past it, a new key's
/// request is a [`StoreError::Full`].
pub const MAX_KEYS: usize = 1_000_000;

/// The longest a cluster store waits for a decision, retries and redirections included, and for
/// a connection. A rate limiter sits in front of every request: past this it answers with an
/// error (the middleware's 503, or an admission with `--on-store-error open`), never a hang.
pub const CLUSTER_TIMEOUT: Duration = Duration::from_millis(500);

/// The buckets of every API key.
pub enum Store {
    /// In this process: exact and fast, but each app server then has its own buckets, so N
    /// servers behind a load balancer let about N × B through. Once it holds 10,000 keys it
    /// forgets the buckets that are full again, in batches; it holds at most [`MAX_KEYS`].
    Memory(Mutex<MemoryBuckets>),
    /// In Redis, shared by every app server; the script refills and debits in one atomic step.
    Redis {
        /// One Redis server, or a Redis Cluster.
        connection: RedisConnection,
        /// The loaded script.
        bucket: RedisBucket,
        /// Each API key's Redis key.
        keys: KeyPattern,
    },
}

/// A connection to one Redis server or to a Redis Cluster. Clones share it.
#[derive(Clone)]
pub enum RedisConnection {
    /// One multiplexed connection serves all requests. redis's connection manager replaces it
    /// once it breaks (Redis restarted): the request that met the broken one fails (its script
    /// may have run, so it is not sent again), the ones after it are decided again.
    Single(ConnectionManager),
    /// The cluster client: a connection per master, following MOVED and ASK redirections and
    /// the slot map's changes after a failover, and connecting again to a node that went away.
    Cluster(ClusterConnection),
}

impl Store {
    /// Buckets in this process's memory, at most [`MAX_KEYS`] of them.
    pub fn memory() -> Self {
        Store::Memory(Mutex::new(MemoryBuckets::new(PRUNE_ABOVE, MAX_KEYS)))
    }

    /// Buckets in the Redis server at `url` (`redis://host:port` or `redis+unix:///path`), under
    /// the keys `keys` makes.
    pub async fn redis(url: &str, keys: KeyPattern) -> Result<Self, SetupError> {
        let client = redis::Client::open(url)?;
        // At startup, a few quick tries: a Redis that is not there stops the server soon.
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_with_config(client, config).await?;
        Ok(Store::Redis {
            connection: RedisConnection::Single(connection),
            bucket: RedisBucket::default(),
            keys,
        })
    }

    /// Buckets in the Redis Cluster that any of `nodes` (`redis://host:port`) belongs to. The
    /// pattern must make the API key the hash tag, and the cluster must answer
    /// `cluster_state:ok`; each is checked here, so a bad setting stops the server at startup.
    pub async fn redis_cluster(nodes: &[&str], keys: KeyPattern) -> Result<Self, SetupError> {
        Self::redis_cluster_within(nodes, keys, CLUSTER_TIMEOUT).await
    }

    /// [`Store::redis_cluster`] with `timeout` in place of [`CLUSTER_TIMEOUT`] for each decision
    /// and connection.
    pub async fn redis_cluster_within(
        nodes: &[&str],
        keys: KeyPattern,
        timeout: Duration,
    ) -> Result<Self, SetupError> {
        let keys = keys.for_cluster()?;
        let state = cluster_state(nodes).await?;
        if state != "ok" {
            return Err(SetupError::ClusterNotReady(state));
        }
        let client = ClusterClient::builder(nodes.iter().copied())
            .connection_timeout(timeout)
            .response_timeout(timeout)
            // Retry soon (a replica is promoted within a few seconds), but within the timeout.
            .retries(8)
            .min_retry_wait(10)
            .max_retry_wait(100)
            .build()?;
        Ok(Store::Redis {
            connection: RedisConnection::Cluster(client.get_async_connection().await?),
            bucket: RedisBucket::default(),
            keys,
        })
    }

    /// Asks `key`'s bucket for `cost` tokens at `now`; a key seen for the first time gets a full
    /// bucket configured by `config`.
    pub async fn try_acquire(
        &self,
        key: &str,
        config: &BucketConfig,
        cost: f64,
        now: f64,
    ) -> Result<Decision, StoreError> {
        match self {
            Store::Memory(buckets) => {
                // A poisoned lock only means another request panicked mid-way; the map is intact.
                let mut buckets = buckets
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                buckets.try_acquire(key, config, cost, now)
            }
            Store::Redis {
                connection,
                bucket,
                keys,
            } => {
                let key = keys.key(key);
                let decision = match connection.clone() {
                    RedisConnection::Single(mut connection) => {
                        bucket
                            .try_acquire(&mut connection, &key, config, cost, now)
                            .await
                    }
                    RedisConnection::Cluster(mut connection) => {
                        bucket
                            .try_acquire(&mut connection, &key, config, cost, now)
                            .await
                    }
                };
                Ok(decision?)
            }
        }
    }
}

/// The memory store's buckets, and when to forget the full ones.
///
/// A full bucket is the same as a new one, so it can go (as Redis expires its keys). Looking for
/// them means scanning every bucket, so that happens once the store holds 10,000 keys and then
/// only after as many new keys have arrived as the last scan kept: every scan is paid for by
/// that many new keys, and a client inventing keys can't make each request scan. Past `max_keys`,
/// a new key is refused ([`StoreError::Full`], the middleware's 503, or an admission with
/// `--on-store-error open`) while the keys already held keep their buckets; a full store also
/// scans for a new key once a second at most, so it frees the buckets that refilled since as soon
/// as a new client comes (waiting for as many new keys as it holds, a million, kept new and
/// returning clients out for hours after a flood of invented keys).
#[derive(Debug)]
pub struct MemoryBuckets {
    buckets: HashMap<String, TokenBucket>,
    /// No scan below this many keys.
    prune_above: usize,
    /// The most keys held.
    max_keys: usize,
    /// Keys the last scan kept (0 before the first).
    kept: usize,
    /// New keys since the last scan, held or refused.
    arrivals: usize,
    /// Scans so far.
    prunes: u64,
    /// When the last scan was (server seconds).
    scanned_at: f64,
}

impl MemoryBuckets {
    fn new(prune_above: usize, max_keys: usize) -> Self {
        MemoryBuckets {
            buckets: HashMap::new(),
            prune_above,
            max_keys,
            kept: 0,
            arrivals: 0,
            prunes: 0,
            scanned_at: f64::NEG_INFINITY,
        }
    }

    fn try_acquire(
        &mut self,
        key: &str,
        config: &BucketConfig,
        cost: f64,
        now: f64,
    ) -> Result<Decision, StoreError> {
        if let Some(bucket) = self.buckets.get_mut(key) {
            return Ok(bucket.try_acquire(cost, now)?);
        }
        self.arrivals += 1;
        let full = self.buckets.len() >= self.max_keys;
        if self.buckets.len() >= self.prune_above
            && (self.arrivals > self.kept || (full && now - self.scanned_at >= 1.0))
        {
            let full = config.capacity();
            self.buckets
                .retain(|_, bucket| bucket.tokens_at(now).map_or(true, |t| t < full));
            self.kept = self.buckets.len();
            self.arrivals = 0;
            self.prunes += 1;
            self.scanned_at = now;
        }
        if self.buckets.len() >= self.max_keys {
            return Err(StoreError::Full(self.max_keys));
        }
        // A new key: the only time its name is copied.
        let mut bucket = TokenBucket::new(*config);
        let decision = bucket.try_acquire(cost, now)?;
        self.buckets.insert(key.to_owned(), bucket);
        Ok(decision)
    }
}

/// `cluster_state` (`ok`, `fail`) as the first of `nodes` that answers reports it, asked over a
/// plain connection: the cluster client refuses to start on a cluster that is not ok, without
/// saying why.
async fn cluster_state(nodes: &[&str]) -> Result<String, redis::RedisError> {
    let config = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(CLUSTER_TIMEOUT))
        .set_response_timeout(Some(CLUSTER_TIMEOUT));
    let mut last_error = None;
    for node in nodes {
        let info = async {
            let client = redis::Client::open(*node)?;
            let mut connection = client
                .get_multiplexed_async_connection_with_config(&config)
                .await?;
            redis::cmd("CLUSTER")
                .arg("INFO")
                .query_async::<String>(&mut connection)
                .await
        };
        match info.await {
            Ok(info) => {
                let state = info
                    .lines()
                    .find_map(|line| line.strip_prefix("cluster_state:"))
                    .unwrap_or("missing");
                return Ok(state.trim().to_owned());
            }
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.unwrap_or_else(|| {
        redis::RedisError::from((redis::ErrorKind::InvalidClientConfig, "no node given"))
    }))
}

/// Why the store gave no decision.
#[derive(Debug)]
pub enum StoreError {
    /// The cost or the time was refused.
    Invalid(InvalidValue),
    /// The Redis store failed.
    Redis(RedisBucketError),
    /// The memory store holds its most keys (this many): a new key gets no bucket until a scan
    /// forgets buckets that are full again.
    Full(usize),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Invalid(error) => error.fmt(f),
            StoreError::Redis(error) => error.fmt(f),
            StoreError::Full(max) => write!(
                f,
                "the memory store holds its maximum of {max} keys: a new key gets no bucket \
                 until buckets that are full again are forgotten"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<InvalidValue> for StoreError {
    fn from(error: InvalidValue) -> Self {
        StoreError::Invalid(error)
    }
}

impl From<RedisBucketError> for StoreError {
    fn from(error: RedisBucketError) -> Self {
        StoreError::Redis(error)
    }
}

/// Why a Redis store could not be set up.
#[derive(Debug)]
pub enum SetupError {
    /// The key pattern can't be used with this store.
    KeyPattern(KeyPatternError),
    /// Redis could not be reached, or refused the first commands.
    Redis(redis::RedisError),
    /// The cluster answered, but not `cluster_state:ok` (its slots are not all served).
    ClusterNotReady(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::KeyPattern(error) => error.fmt(f),
            SetupError::Redis(error) => write!(f, "redis: {error}"),
            SetupError::ClusterNotReady(state) => write!(
                f,
                "the Redis Cluster is not ready: cluster_state is {state:?}, not \"ok\" \
                 (create it with `redis-cli --cluster create`, or wait for its failover)"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<KeyPatternError> for SetupError {
    fn from(error: KeyPatternError) -> Self {
        SetupError::KeyPattern(error)
    }
}

impl From<redis::RedisError> for SetupError {
    fn from(error: redis::RedisError) -> Self {
        SetupError::Redis(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> BucketConfig {
        BucketConfig::new(10.0, 1.0).unwrap()
    }

    /// Asks for one token for each of `keys` at `now`.
    fn ask(buckets: &mut MemoryBuckets, keys: impl IntoIterator<Item = String>, now: f64) {
        for key in keys {
            buckets.try_acquire(&key, &config(), 1.0, now).unwrap();
        }
    }

    #[test]
    fn the_memory_store_scans_for_full_buckets_only_after_as_many_new_keys_as_it_kept() {
        let mut buckets = MemoryBuckets::new(100, usize::MAX);
        ask(&mut buckets, (0..100).map(|i| format!("k{i}")), 0.0);
        assert_eq!(buckets.prunes, 0, "below 100 keys: no scan");
        // The 101st key scans: none is full (each has 9 tokens), so all 100 are kept.
        ask(&mut buckets, ["k100".to_owned()], 0.5);
        assert_eq!((buckets.prunes, buckets.buckets.len()), (1, 101));
        // The next 100 new keys don't scan; the one after them does.
        ask(&mut buckets, (101..201).map(|i| format!("k{i}")), 0.5);
        assert_eq!(buckets.prunes, 1, "100 new keys after a scan that kept 100");
        ask(&mut buckets, ["k201".to_owned()], 0.5);
        assert_eq!(buckets.prunes, 2);
        // A client inventing keys: a scan each time the map doubles, not one per request.
        ask(&mut buckets, (202..100_000).map(|i| format!("k{i}")), 0.5);
        assert!(
            buckets.prunes <= 12,
            "{} scans for 100,000 keys",
            buckets.prunes
        );
    }

    #[test]
    fn a_scan_forgets_the_buckets_that_are_full_again_and_keeps_the_others() {
        let mut buckets = MemoryBuckets::new(100, usize::MAX);
        ask(&mut buckets, (0..100).map(|i| format!("k{i}")), 0.0);
        // k0 is emptied down to 0 at 0.5 s (9 + 0.5 − 9.5); 1 s later every other bucket is full.
        buckets.try_acquire("k0", &config(), 9.5, 0.5).unwrap();
        ask(&mut buckets, ["new".to_owned()], 1.5);
        assert_eq!(buckets.prunes, 1);
        assert_eq!(
            buckets.buckets.len(),
            2,
            "only k0 (not full) and the new key are kept"
        );
        let k0 = buckets.try_acquire("k0", &config(), 1.0, 1.5).unwrap();
        assert_eq!(
            (k0.tokens_before, k0.available),
            (0.0, 1.0),
            "k0 kept its state"
        );
    }

    #[test]
    fn a_full_memory_store_refuses_new_keys_and_serves_the_ones_it_holds() {
        let mut buckets = MemoryBuckets::new(4, 8);
        let refused = |buckets: &mut MemoryBuckets, key: &str, now: f64| {
            let result = buckets.try_acquire(key, &config(), 1.0, now);
            assert!(
                matches!(result, Err(StoreError::Full(8))),
                "{key}: {result:?}"
            );
        };
        // k4 scans (4 keys held), then k5 to k7 fill the store.
        ask(&mut buckets, (0..8).map(|i| format!("k{i}")), 0.0);
        assert_eq!((buckets.prunes, buckets.kept), (1, 4));
        for i in 8..13 {
            refused(&mut buckets, &format!("k{i}"), 0.0);
        }
        assert!(
            buckets.try_acquire("k0", &config(), 1.0, 0.0).is_ok(),
            "a key held is served"
        );
        // k9 scanned (nothing full), keeping 8: refused keys count as new keys too, so the next
        // scan is 9 new keys later, not at every refusal.
        assert_eq!(
            (buckets.prunes, buckets.kept, buckets.buckets.len()),
            (2, 8, 8)
        );
        // Full, it scans for a new key once a second at most: not again at 0.9 s (a flood of
        // invented keys can't make each request scan)…
        refused(&mut buckets, "y0", 0.9);
        assert_eq!(buckets.prunes, 2);
        // …but at 2 s, when every bucket is full again, the first new key scans, frees them
        // all and gets a bucket (it waited for 9 new keys, and a million in a full-size store).
        assert!(buckets.try_acquire("x0", &config(), 1.0, 2.0).is_ok());
        assert_eq!((buckets.prunes, buckets.buckets.len()), (3, 1));
        let message = StoreError::Full(8).to_string();
        assert!(message.contains("maximum of 8 keys"), "{message}");
    }
}
