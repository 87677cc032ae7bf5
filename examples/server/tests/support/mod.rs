//! A throwaway `redis-server` per test: on a Unix socket in its own temporary folder (no TCP port,
//! so nothing to collide with; or on a free loopback port when asked), no persistence, stopped
//! and removed on drop, even if the test fails.

#![allow(dead_code)] // Each test binary uses a different part of this module.

/// A throwaway Redis Cluster (3 masters, 3 replicas) on loopback ports.
pub mod cluster;
/// Plain TCP requests, for tests of the connection itself.
pub mod raw;
/// Seeded traces replayed through the core and a Redis bucket, compared to the bit.
pub mod trace;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A running `redis-server`, stopped when dropped.
pub struct RedisServer {
    child: Child,
    folder: PathBuf,
    /// The listening arguments, kept for [`RedisServer::restart`].
    args: Vec<String>,
    /// `redis+unix:///…/redis.sock`, or `redis://127.0.0.1:port`
    pub url: String,
}

impl RedisServer {
    /// Starts a fresh server on a Unix socket and waits until it answers `PING`.
    pub fn start() -> RedisServer {
        RedisServer::launch(|folder| {
            let socket = folder.join("redis.sock");
            let args = vec![
                "--port".into(),
                "0".into(),
                "--unixsocket".into(),
                socket.display().to_string(),
                "--unixsocketperm".into(),
                "700".into(),
            ];
            (args, format!("redis+unix://{}", socket.display()))
        })
    }

    /// Starts a fresh server on a free loopback TCP port (as a cluster's nodes listen), and
    /// waits until it answers `PING`.
    pub fn start_tcp() -> RedisServer {
        RedisServer::launch(|_| {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|listener| listener.local_addr())
                .expect("a free loopback port")
                .port();
            let args = vec![
                "--bind".into(),
                "127.0.0.1".into(),
                "--port".into(),
                port.to_string(),
            ];
            (args, format!("redis://127.0.0.1:{port}"))
        })
    }

    /// Starts `redis-server` with the listening arguments and URL `listen` gives for its folder.
    fn launch(listen: impl FnOnce(&Path) -> (Vec<String>, String)) -> RedisServer {
        let folder = temporary_folder("redis");
        let (args, url) = listen(&folder);
        let child = redis_server(&args, &folder);
        let server = RedisServer {
            child,
            url,
            folder,
            args,
        };
        server.wait_for_ping();
        server
    }

    /// Stops the server and starts a new, empty one on the same socket or port (as a Redis
    /// restart does: every connection to the old one breaks), and waits until it answers `PING`.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = redis_server(&self.args, &self.folder);
        self.wait_for_ping();
    }

    /// Waits up to 10 s for the server to answer `PING`.
    fn wait_for_ping(&self) {
        let client = redis::Client::open(self.url.as_str()).expect("a valid URL");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pong = client
                .get_connection()
                .and_then(|mut connection| redis::cmd("PING").query::<String>(&mut connection));
            match pong {
                Ok(_) => return,
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

/// A new, empty folder `bucketlab-{what}-{pid}-{n}` in the temporary directory.
pub fn temporary_folder(what: &str) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let folder = std::env::temp_dir().join(format!(
        "bucketlab-{what}-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    folder
}

/// Starts `redis-server` with `args`, working in `folder`, with no persistence.
pub fn redis_server(args: &[String], folder: &Path) -> Child {
    Command::new("redis-server")
        .args(args)
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(folder)
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "can't start redis-server ({error}); install it with \
                 `apt-get install redis-server` (scripts/setup.sh --test does)"
            )
        })
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}
