//! A throwaway Redis Cluster: 3 masters and 3 replicas of Debian's `redis-server` on free loopback
//! ports, each in its own folder under one temporary folder, no persistence. Made with
//! `redis-cli --cluster create`, then waited on until every node says `cluster_state:ok`, knows
//! the same three masters and each replica is in sync. Every wait has a deadline and fails with
//! what it saw and the tail of the nodes' logs. Dropping it kills every node by its PID and
//! removes the folder, also when the test panics.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{redis_server, temporary_folder};

/// How long a node may stay silent before the others mark it failed and its replica takes over.
/// Redis's default is 15 s; 1 s keeps a failover short, and is still far above the pauses a busy
/// 2-core machine gives a healthy node.
pub const NODE_TIMEOUT_MS: u64 = 1000;

/// The longest any step of setting the cluster up may take.
const SETUP_DEADLINE: Duration = Duration::from_secs(30);

/// One `redis-server` of the cluster.
pub struct Node {
    /// The client port on 127.0.0.1.
    pub port: u16,
    /// `None` once killed.
    child: Option<Child>,
}

/// A master as the cluster describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Master {
    pub id: String,
    pub port: u16,
    /// Inclusive slot ranges.
    pub slots: Vec<(u16, u16)>,
    /// The port of its replica.
    pub replica_port: u16,
}

impl Master {
    /// Whether `slot` is one of this master's.
    pub fn serves(&self, slot: u16) -> bool {
        self.slots.iter().any(|&(a, b)| (a..=b).contains(&slot))
    }
}

/// A running cluster, stopped when dropped.
pub struct RedisCluster {
    pub nodes: Vec<Node>,
    folder: PathBuf,
}

impl RedisCluster {
    /// Starts six nodes, makes them 3 masters + 3 replicas, and waits until the cluster is ok.
    pub fn start() -> RedisCluster {
        let cluster = RedisCluster::nodes_only(6);
        let addresses: Vec<String> = cluster
            .nodes
            .iter()
            .map(|node| format!("127.0.0.1:{}", node.port))
            .collect();
        let mut create = Command::new("redis-cli");
        create
            .arg("--cluster")
            .arg("create")
            .args(&addresses)
            .args(["--cluster-replicas", "1", "--cluster-yes"]);
        let output = cluster.run(create, SETUP_DEADLINE);
        if !output.status.success() {
            panic!(
                "redis-cli --cluster create failed: {}{}",
                String::from_utf8_lossy(&output.stdout),
                cluster.logs()
            );
        }
        cluster.wait_until_ready();
        cluster
    }

    /// `count` cluster-enabled nodes that know nothing of each other yet (`cluster_state:fail`).
    pub fn nodes_only(count: usize) -> RedisCluster {
        let folder = temporary_folder("cluster");
        let mut cluster = RedisCluster {
            nodes: Vec::new(),
            folder,
        };
        // Hold every chosen port until all are chosen, so no two nodes get the same one.
        let listeners: Vec<(TcpListener, TcpListener)> =
            (0..count).map(|_| (free_port(), free_port())).collect();
        let ports: Vec<(u16, u16)> = listeners
            .iter()
            .map(|(a, b)| (port_of(a), port_of(b)))
            .collect();
        drop(listeners);
        for (port, bus_port) in ports {
            let dir = cluster.folder.join(port.to_string());
            std::fs::create_dir_all(&dir).expect("a folder for a node");
            let args = [
                "--bind",
                "127.0.0.1",
                "--port",
                &port.to_string(),
                "--cluster-enabled",
                "yes",
                "--cluster-port",
                &bus_port.to_string(),
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                &NODE_TIMEOUT_MS.to_string(),
                // A replica may take over however long its link was down.
                "--cluster-replica-validity-factor",
                "0",
                // Replicas sync at once instead of waiting 5 s for more replicas to join.
                "--repl-diskless-sync-delay",
                "0",
                "--logfile",
                "redis.log",
            ]
            .map(String::from);
            let child = redis_server(&args, &dir);
            cluster.nodes.push(Node {
                port,
                child: Some(child),
            });
        }
        for node in &cluster.nodes {
            cluster.wait(&format!("node {} answers PING", node.port), || {
                query(node.port, &["PING"]).map(|pong| pong == "PONG")
            });
        }
        cluster
    }

    /// `redis://127.0.0.1:port` of every node still running: any of them leads to the others.
    pub fn urls(&self) -> Vec<String> {
        self.nodes
            .iter()
            .filter(|node| node.child.is_some())
            .map(|node| format!("redis://127.0.0.1:{}", node.port))
            .collect()
    }

    /// The masters serving slots, as the first running node sees them, in slot order.
    pub fn masters(&self) -> Vec<Master> {
        let port = self.running_port();
        let nodes = query(port, &["CLUSTER", "NODES"])
            .unwrap_or_else(|e| panic!("CLUSTER NODES on {port}: {e}"));
        let mut masters = parse_masters(&nodes);
        masters.sort_by_key(|m| m.slots.first().copied());
        masters
    }

    /// Kills the node on `port` with SIGKILL (by its PID, as a crash would), and waits for it.
    pub fn kill(&mut self, port: u16) {
        let node = self
            .nodes
            .iter_mut()
            .find(|node| node.port == port)
            .expect("a node of this cluster");
        if let Some(mut child) = node.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits until the node on `replica_port` is a master and every running node is ok again.
    pub fn wait_for_failover(&self, replica_port: u16) {
        self.wait(&format!("replica {replica_port} is promoted"), || {
            query(replica_port, &["ROLE"]).map(|role| role.starts_with("master"))
        });
        self.wait_until_ready();
    }

    /// Moves the first slot of the master `from` to the master `to` with
    /// `redis-cli --cluster reshard` (one slot, keys and all), and returns the slot moved.
    pub fn reshard_one_slot(&self, from: &Master, to: &Master) -> u16 {
        let slot = from.slots[0].0;
        let mut reshard = Command::new("redis-cli");
        reshard
            .args(["--cluster", "reshard", &format!("127.0.0.1:{}", from.port)])
            .args(["--cluster-from", &from.id, "--cluster-to", &to.id])
            .args(["--cluster-slots", "1", "--cluster-yes"]);
        let output = self.run(reshard, SETUP_DEADLINE);
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || !stdout.contains(&format!("Moving slot {slot} ")) {
            panic!("redis-cli --cluster reshard did not move slot {slot}: {stdout}");
        }
        self.wait_until_ready();
        slot
    }

    /// The slot of each key, as the cluster computes it (`CLUSTER KEYSLOT`, pipelined).
    pub fn slots_of(&self, keys: &[String]) -> Vec<u16> {
        let port = self.running_port();
        let client = redis::Client::open(format!("redis://127.0.0.1:{port}")).expect("a URL");
        let mut connection = client
            .get_connection_with_timeout(Duration::from_millis(500))
            .expect("a connection to a node");
        connection
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("a read timeout");
        let mut pipe = redis::pipe();
        for key in keys {
            pipe.cmd("CLUSTER").arg("KEYSLOT").arg(key);
        }
        pipe.query(&mut connection)
            .unwrap_or_else(|e| panic!("CLUSTER KEYSLOT on {port}: {e}"))
    }

    /// Waits until every running node says `cluster_state:ok` and describes the same three
    /// masters, each with its slots and its replica, which together account for every running
    /// node, and every replica's link to its master is up.
    fn wait_until_ready(&self) {
        let running: Vec<u16> = self
            .nodes
            .iter()
            .filter(|node| node.child.is_some())
            .map(|node| node.port)
            .collect();
        self.wait(
            "every node ok, agreeing on the masters and replicas, replicas in sync",
            || {
                let mut views = Vec::new();
                for &port in &running {
                    let info = query(port, &["CLUSTER", "INFO"])?;
                    let replication = query(port, &["INFO", "replication"])?;
                    if !info.contains("cluster_state:ok")
                        || (replication.contains("role:slave")
                            && !replication.contains("master_link_status:up"))
                    {
                        return Ok(false);
                    }
                    let mut view = parse_masters(&query(port, &["CLUSTER", "NODES"])?);
                    view.sort_by(|a, b| a.id.cmp(&b.id));
                    views.push(view);
                }
                let view = &views[0];
                let replicas = view.iter().filter(|m| m.replica_port != 0).count();
                Ok(views.iter().all(|v| v == view)
                    && view.len() == 3
                    && view.len() + replicas == running.len())
            },
        );
    }

    /// Polls `ready` every 50 ms until it says yes, or panics after [`SETUP_DEADLINE`] with the
    /// last error and the nodes' logs.
    fn wait(&self, what: &str, mut ready: impl FnMut() -> Result<bool, redis::RedisError>) {
        let deadline = Instant::now() + SETUP_DEADLINE;
        let mut last = String::from("not yet");
        loop {
            match ready() {
                Ok(true) => return,
                Ok(false) => {}
                Err(error) => last = error.to_string(),
            }
            if Instant::now() > deadline {
                panic!(
                    "the Redis Cluster never got there within {SETUP_DEADLINE:?}: {what} ({last}){}",
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `command` to completion, killing it after `deadline`.
    fn run(&self, mut command: Command, deadline: Duration) -> Output {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("can't run {command:?} ({e}); it comes with redis-server"));
        let end = Instant::now() + deadline;
        while child.try_wait().expect("the child's status").is_none() {
            if Instant::now() > end {
                let _ = child.kill();
                let output = child.wait_with_output().expect("the killed child's output");
                panic!(
                    "{command:?} did not finish within {deadline:?}: {}{}",
                    String::from_utf8_lossy(&output.stdout),
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().expect("the child's output")
    }

    fn running_port(&self) -> u16 {
        self.nodes
            .iter()
            .find(|node| node.child.is_some())
            .expect("a running node")
            .port
    }

    /// The last lines of every node's log, for a failure message.
    fn logs(&self) -> String {
        let mut text = String::new();
        for node in &self.nodes {
            let log =
                std::fs::read_to_string(self.folder.join(node.port.to_string()).join("redis.log"))
                    .unwrap_or_default();
            let lines: Vec<&str> = log.lines().collect();
            text += &format!("\n--- node {} (last lines of redis.log):", node.port);
            for line in &lines[lines.len().saturating_sub(6)..] {
                text += &format!("\n{line}");
            }
        }
        text
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(mut child) = node.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// One command on the node at `port`, its reply as text; every step has a timeout.
pub fn query(port: u16, args: &[&str]) -> Result<String, redis::RedisError> {
    let client = redis::Client::open(format!("redis://127.0.0.1:{port}"))?;
    let mut connection = client.get_connection_with_timeout(Duration::from_millis(500))?;
    connection.set_read_timeout(Some(Duration::from_secs(2)))?;
    connection.set_write_timeout(Some(Duration::from_secs(2)))?;
    let mut command = redis::cmd(args[0]);
    for arg in &args[1..] {
        command.arg(*arg);
    }
    let reply: redis::Value = command.query(&mut connection)?;
    Ok(text(&reply))
}

/// A reply as text: strings as they are, arrays one item a line (for ROLE).
fn text(value: &redis::Value) -> String {
    match value {
        redis::Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join("\n"),
        other => redis::from_redis_value_ref::<String>(other).unwrap_or_default(),
    }
}

/// The masters with slots in a `CLUSTER NODES` reply, each with its replica's port.
fn parse_masters(nodes: &str) -> Vec<Master> {
    let lines: Vec<Vec<&str>> = nodes
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    let port = |address: &str| -> u16 {
        let host_port = address.split('@').next().unwrap_or_default();
        host_port
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    };
    lines
        .iter()
        .filter(|f| f.len() > 8 && f[2].contains("master") && !f[2].contains("fail"))
        .map(|f| Master {
            id: f[0].to_owned(),
            port: port(f[1]),
            slots: f[8..]
                .iter()
                // `[slot->-id]` entries are slots being migrated: not owned yet.
                .filter(|s| !s.starts_with('['))
                .map(|s| match s.split_once('-') {
                    Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(0)),
                    None => (s.parse().unwrap_or(0), s.parse().unwrap_or(0)),
                })
                .collect(),
            replica_port: lines
                .iter()
                .find(|r| r.len() > 3 && r[2].contains("slave") && r[3] == f[0])
                .map_or(0, |r| port(r[1])),
        })
        .collect()
}

fn free_port() -> TcpListener {
    TcpListener::bind("127.0.0.1:0").expect("a free loopback port")
}

fn port_of(listener: &TcpListener) -> u16 {
    listener.local_addr().expect("a bound address").port()
}
