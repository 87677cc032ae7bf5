//! Where the buckets live: one per API key, in this process or in Redis.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use bucketlab::limiter::{BucketConfig, Decision, InvalidValue, TokenBucket};
use redis::aio::MultiplexedConnection;

use crate::redis_bucket::{RedisBucket, RedisBucketError};

/// Prefix of the Redis keys, so the buckets share a database with other data safely.
const KEY_PREFIX: &str = "bucketlab:";

/// The memory store forgets full buckets once it holds this many keys.
const PRUNE_ABOVE: usize = 10_000;

/// The buckets of every API key.
pub enum Store {
    /// In this process: exact and fast, but each app server then has its own buckets, so N
    /// servers behind a load balancer let about N × B through. Once it holds 10,000 keys it
    /// forgets the buckets that are full again.
    Memory(Mutex<HashMap<String, TokenBucket>>),
    /// In Redis, shared by every app server; the script refills and debits in one atomic step.
    Redis {
        /// One multiplexed connection serves all requests (clones share it).
        connection: MultiplexedConnection,
        /// The loaded script.
        bucket: RedisBucket,
    },
}

impl Store {
    /// Buckets in this process's memory.
    pub fn memory() -> Self {
        Store::Memory(Mutex::new(HashMap::new()))
    }

    /// Buckets in the Redis server at `url` (`redis://host:port` or `redis+unix:///path`).
    pub async fn redis(url: &str) -> Result<Self, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let connection = client.get_multiplexed_async_connection().await?;
        Ok(Store::Redis {
            connection,
            bucket: RedisBucket::default(),
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
                let bucket = buckets
                    .entry(key.to_owned())
                    .or_insert_with(|| TokenBucket::new(*config));
                Ok(bucket.try_acquire(cost, now)?)
            }
            Store::Redis { connection, bucket } => {
                let mut connection = connection.clone();
                let key = format!("{KEY_PREFIX}{key}");
                Ok(bucket
                    .try_acquire(&mut connection, &key, config, cost, now)
                    .await?)
            }
        }
    }
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
