//! A throwaway `redis-server` per test: on a Unix socket in its own temporary folder (no TCP port,
//! so nothing to collide with), no persistence, stopped and removed on drop, even if the test fails.

#![allow(dead_code)] // Each test binary uses a different part of this module.

/// A throwaway Redis Cluster (3 masters, 3 replicas) on loopback ports.
pub mod cluster;
/// Seeded traces replayed through the core and a Redis bucket, compared to the bit.
pub mod trace;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A running `redis-server`, stopped when dropped.
pub struct RedisServer {
    child: Child,
    folder: PathBuf,
    /// `redis+unix:///…/redis.sock`
    pub url: String,
}

impl RedisServer {
    /// Starts a fresh server and waits until it answers `PING`.
    pub fn start() -> RedisServer {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let folder = std::env::temp_dir().join(format!(
            "bucketlab-redis-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&folder).expect("a temporary folder for redis-server");
        let socket = folder.join("redis.sock");
        let child = Command::new("redis-server")
            .args(["--port", "0", "--unixsocket"])
            .arg(&socket)
            .args([
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .arg("--dir")
            .arg(&folder)
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "can't start redis-server ({error}); install it with \
                     `apt-get install redis-server` (scripts/setup.sh --test does)"
                )
            });
        let server = RedisServer {
            child,
            url: format!("redis+unix://{}", socket.display()),
            folder,
        };
        let client = redis::Client::open(server.url.as_str()).expect("a valid socket URL");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pong = client
                .get_connection()
                .and_then(|mut connection| redis::cmd("PING").query::<String>(&mut connection));
            match pong {
                Ok(_) => return server,
                Err(error) if Instant::now() > deadline => {
                    panic!("redis-server did not answer within 10 s: {error}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    /// A new client of this server.
    pub fn client(&self) -> redis::Client {
        redis::Client::open(self.url.as_str()).expect("a valid socket URL")
    }

    /// A new multiplexed connection (one TCP-like stream of its own).
    pub async fn connection(&self) -> redis::aio::MultiplexedConnection {
        self.client()
            .get_multiplexed_async_connection()
            .await
            .expect("a connection to the test redis-server")
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}
