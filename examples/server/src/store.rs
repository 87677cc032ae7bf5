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

/// The longest a cluster store waits for a decision, retries and redirections included, and for
/// a connection. A rate limiter sits in front of every request: past this it answers with an
/// error (the middleware's 503, or an admission with `--on-store-error open`), never a hang.
pub const CLUSTER_TIMEOUT: Duration = Duration::from_millis(500);

/// The buckets of every API key.
pub enum Store {
    /// In this process: exact and fast, but each app server then has its own buckets, so N
    /// servers behind a load balancer let about N × B through. Once it holds 10,000 keys it
    /// forgets the buckets that are full again.
    Memory(Mutex<HashMap<String, TokenBucket>>),
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
    /// Buckets in this process's memory.
    pub fn memory() -> Self {
        Store::Memory(Mutex::new(HashMap::new()))
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
                if buckets.len() >= PRUNE_ABOVE && !buckets.contains_key(key) {
                    // A full bucket is the same as a new one: forget those, as Redis expires them.
                    let full = config.capacity();
                    buckets.retain(|_, bucket| bucket.tokens_at(now).map_or(true, |t| t < full));
                }
                if let Some(bucket) = buckets.get_mut(key) {
                    return Ok(bucket.try_acquire(cost, now)?);
                }
                // A new key: the only time its name is copied.
                let mut bucket = TokenBucket::new(*config);
                let decision = bucket.try_acquire(cost, now)?;
                buckets.insert(key.to_owned(), bucket);
                Ok(decision)
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
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Invalid(error) => error.fmt(f),
            StoreError::Redis(error) => error.fmt(f),
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

    fn len(store: &Store) -> usize {
        match store {
            Store::Memory(buckets) => buckets.lock().unwrap().len(),
            Store::Redis { .. } => unreachable!("a memory store"),
        }
    }

    #[tokio::test]
    async fn the_memory_store_forgets_buckets_that_are_full_again() {
        let store = Store::memory();
        let config = BucketConfig::new(10.0, 1.0).unwrap();
        for i in 0..PRUNE_ABOVE {
            store
                .try_acquire(&format!("k{i}"), &config, 1.0, 0.0)
                .await
                .unwrap();
        }
        // 0.5 s later none is full yet: nothing is forgotten.
        store.try_acquire("new", &config, 1.0, 0.5).await.unwrap();
        assert_eq!(len(&store), PRUNE_ABOVE + 1);
        // k0 is emptied down to 0.5; 1 s later every other bucket is full again and goes.
        for _ in 0..9 {
            store.try_acquire("k0", &config, 1.0, 0.5).await.unwrap();
        }
        store.try_acquire("newer", &config, 1.0, 1.5).await.unwrap();
        assert_eq!(
            len(&store),
            2,
            "only k0 (not full) and the new key are kept"
        );
        let k0 = store.try_acquire("k0", &config, 1.0, 1.5).await.unwrap();
        assert_eq!(
            (k0.tokens_before, k0.available),
            (0.5, 1.5),
            "k0 kept its state"
        );
    }
}
