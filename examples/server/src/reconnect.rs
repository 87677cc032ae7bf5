//! One Redis server's connection, replaced when it breaks. A `MultiplexedConnection` dies with its
//! socket (Redis restarted, the TCP connection dropped) and never comes back by itself: without
//! this, every later request would fail until the app server restarts.
//!
//! redis's own `ConnectionManager` does the same, but its feature (`connection-manager`) needs two
//! crates (arc-swap, backon) that Cargo.lock does not hold; this is the part of it the server needs.

use std::sync::RwLock;

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, RedisError, RedisResult};

/// A multiplexed connection to one Redis server that [`SingleConnection::repair`] replaces once
/// an error says it is broken. The request that meets the broken connection still fails (its
/// script may or may not have run, so it is not sent again); the requests after it use the new one.
pub struct SingleConnection {
    client: Client,
    config: AsyncConnectionConfig,
    current: RwLock<Current>,
    /// Held while one request connects again, so the others don't all try at once.
    reconnecting: tokio::sync::Mutex<()>,
}

/// The connection in use, and how many times it has been replaced.
#[derive(Clone)]
struct Current {
    generation: u64,
    connection: MultiplexedConnection,
}

impl SingleConnection {
    /// Connects to `client`'s server with `config`'s timeouts (also used to connect again).
    pub async fn connect(client: Client, config: AsyncConnectionConfig) -> RedisResult<Self> {
        let connection = client
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        Ok(SingleConnection {
            client,
            config,
            current: RwLock::new(Current {
                generation: 0,
                connection,
            }),
            reconnecting: tokio::sync::Mutex::new(()),
        })
    }

    /// The connection to use now (a cheap clone of a shared handle) and its generation, to give
    /// back to [`SingleConnection::repair`] if it fails.
    pub fn current(&self) -> (u64, MultiplexedConnection) {
        // A poisoned lock only means a panic elsewhere; the value is a whole connection handle.
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        (current.generation, current.connection.clone())
    }

    /// After `error` from the connection of `generation`: if the error means the connection is
    /// gone (`is_unrecoverable_error`: dropped, reset, broken pipe), connects again and puts the
    /// new connection in its place. Does nothing if another request already replaced it or is
    /// doing so; if Redis is still away, the next failure tries again.
    pub async fn repair(&self, generation: u64, error: &RedisError) {
        if !error.is_unrecoverable_error() {
            return;
        }
        let Ok(_only_one) = self.reconnecting.try_lock() else {
            return;
        };
        if self.current().0 != generation {
            return;
        }
        let Ok(connection) = self
            .client
            .get_multiplexed_async_connection_with_config(&self.config)
            .await
        else {
            return;
        };
        let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
        *current = Current {
            generation: generation + 1,
            connection,
        };
    }
}
