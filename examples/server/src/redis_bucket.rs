//! Runs `redis/token_bucket.lua` and turns its reply into the core's [`Decision`], so a Redis
//! bucket is a drop-in for an in-memory one and the tests can compare the two field by field.
//!
//! Numbers cross as text both ways: Rust writes the shortest decimal that reads back as the same
//! `f64`, Lua's `tonumber` reads it exactly, and the script answers with `%.17g`, which Rust also
//! reads back exactly. The script does the core's IEEE-754 operations in the core's order, so the
//! decisions agree to the bit.

use std::fmt;

use bucketlab::limiter::{BucketConfig, Decision, Field, InvalidValue, Never, Outcome, Rule};
use redis::aio::ConnectionLike;

/// The script's source, as the lesson shows it.
pub const SCRIPT: &str = include_str!("../../../redis/token_bucket.lua");

/// The token-bucket script, run by `EVALSHA`; a server that does not know it yet (`NOSCRIPT`, after
/// a restart or on a node new to the cluster) gets it by `SCRIPT LOAD`, then the `EVALSHA` again.
#[derive(Debug, Clone)]
pub struct RedisBucket {
    script: redis::Script,
}

impl Default for RedisBucket {
    fn default() -> Self {
        RedisBucket {
            script: redis::Script::new(SCRIPT),
        }
    }
}

impl RedisBucket {
    /// Asks the bucket stored under `key` for `cost` tokens at `now`, atomically. A missing key is
    /// a full bucket.
    pub async fn try_acquire<C: ConnectionLike>(
        &self,
        connection: &mut C,
        key: &str,
        config: &BucketConfig,
        cost: f64,
        now: f64,
    ) -> Result<Decision, RedisBucketError> {
        // Refuse bad values here, with the core's message, before they reach the network.
        let cost = InvalidValue::check(Field::Cost, cost, Rule::NonNegative)?;
        let now = InvalidValue::check(Field::Now, now, Rule::Finite)?;
        let reply: Reply = self
            .script
            .key(key)
            .arg(config.capacity().to_string())
            .arg(config.refill_rate().to_string())
            .arg(cost.to_string())
            .arg(now.to_string())
            .invoke_async(connection)
            .await?;
        decision_from(reply)
    }
}

/// The script's reply:
/// `{allowed, tokens, retry_after, never, available, elapsed, tokens_before, lag}`.
type Reply = (i64, String, String, String, String, String, String, String);

fn decision_from(reply: Reply) -> Result<Decision, RedisBucketError> {
    let (allowed, tokens, retry_after, never, available, elapsed, tokens_before, lag) = reply;
    let outcome = match (allowed, never.as_str()) {
        (1, "") => Outcome::Admitted,
        (0, "") => Outcome::Denied {
            retry_after: number("retry_after", &retry_after)?,
        },
        (0, "cost_exceeds_capacity") => Outcome::Never(Never::CostExceedsCapacity),
        (0, "no_refill") => Outcome::Never(Never::NoRefill),
        _ => {
            return Err(RedisBucketError::Reply(format!(
                "allowed = {allowed} with never = {never:?}"
            )))
        }
    };
    Ok(Decision {
        outcome,
        tokens: number("tokens", &tokens)?,
        available: number("available", &available)?,
        elapsed: number("elapsed", &elapsed)?,
        tokens_before: number("tokens_before", &tokens_before)?,
        lag: number("lag", &lag)?,
    })
}

fn number(name: &str, text: &str) -> Result<f64, RedisBucketError> {
    text.parse()
        .map_err(|_| RedisBucketError::Reply(format!("{name} is not a number: {text:?}")))
}

/// Why a Redis bucket gave no decision.
#[derive(Debug)]
pub enum RedisBucketError {
    /// The cost or the time was refused before anything was sent.
    Invalid(InvalidValue),
    /// Redis could not be reached, or refused the script (its message names the bad argument).
    Redis(redis::RedisError),
    /// The script answered something this code does not understand (a different script version).
    Reply(String),
}

impl fmt::Display for RedisBucketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedisBucketError::Invalid(error) => error.fmt(f),
            RedisBucketError::Redis(error) => write!(f, "redis: {error}"),
            RedisBucketError::Reply(what) => write!(f, "unexpected reply from the script: {what}"),
        }
    }
}

impl std::error::Error for RedisBucketError {}

impl From<InvalidValue> for RedisBucketError {
    fn from(error: InvalidValue) -> Self {
        RedisBucketError::Invalid(error)
    }
}

impl From<redis::RedisError> for RedisBucketError {
    fn from(error: redis::RedisError) -> Self {
        RedisBucketError::Redis(error)
    }
}
