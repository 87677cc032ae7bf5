//! The lesson's counter-example: the *right* token-bucket rules (the core itself), run the *wrong*
//! way around a shared store. It reads the bucket (`HMGET`), decides in the app server, then writes
//! it back (`HSET`): three steps, not one. Two servers that read the same state both spend the same
//! token, and the last write wins, so under concurrency it admits far more than `B + r·T`.
//! `tests/redis_script.rs` measures that. Never limit this way: use `token_bucket.lua`.

use bucketlab::limiter::{BucketConfig, Decision, TokenBucket};
use redis::aio::MultiplexedConnection;
use redis::AsyncCommands;

/// Read, compute, write: not atomic.
pub async fn naive_try_acquire(
    connection: &mut MultiplexedConnection,
    key: &str,
    config: &BucketConfig,
    cost: f64,
    now: f64,
) -> Result<Decision, Box<dyn std::error::Error>> {
    // 1. Read. Other servers may read the same values right now.
    let (tokens, last): (Option<f64>, Option<f64>) =
        connection.hmget(key, &["tokens", "last"]).await?;
    // 2. Decide locally, with the core.
    let mut bucket = match (tokens, last) {
        (Some(tokens), Some(last)) => {
            TokenBucket::started_at(config.with_initial_tokens(tokens)?, last)?
        }
        _ => TokenBucket::new(*config),
    };
    let decision = bucket.try_acquire(cost, now)?;
    // 3. Write back, overwriting whatever the others wrote in between.
    let last = last.map_or(now, |last| last.max(now));
    let _: () = connection
        .hset_multiple(key, &[("tokens", decision.tokens), ("last", last)])
        .await?;
    Ok(decision)
}
