//! Serving the app over TCP with the limits a public server needs before any request reaches the
//! rate limiter, which only runs once a request's headers have arrived:
//!
//! - a client has [`Limits::header_timeout`] to send a request's headers (hyper's own timer, from
//!   the moment the connection waits for a request): a connection that sends them a byte at a
//!   time, or sends nothing, is closed, as is a keep-alive connection left idle that long;
//! - one IP address keeps at most [`Limits::per_address`] connections open at once; any more are
//!   closed as they are accepted. So no single client can hold every file descriptor the process
//!   has ("slowloris"), and the others are still served. (Many addresses at once are a flood for
//!   the network's edge, as the lesson's defense section says.) Behind a load balancer or proxy,
//!   every client shares its address: the cap must then be above its pool of connections
//!   (`bucketlab-server --connections-per-address`).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// What a connection may take before its requests are read.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The longest a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// The most connections one IP address may have open at once.
    pub per_address: usize,
}

impl Default for Limits {
    /// 10 s for the headers, 64 connections per address (a browser opens 6 per host).
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            per_address: 64,
        }
    }
}

/// The connections open per address; a [`Slot`] is one of them, given back when dropped.
#[derive(Default, Clone)]
struct Open(Arc<Mutex<HashMap<IpAddr, usize>>>);

struct Slot {
    open: Open,
    address: IpAddr,
}

impl Open {
    /// A slot for `address`, or `None` when it already has `most` connections open.
    fn take(&self, address: IpAddr, most: usize) -> Option<Slot> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(address).or_insert(0);
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Slot {
            open: self.clone(),
            address,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.open.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// Serves `app` (HTTP/1.1) on `listener` within `limits` until `shutdown` resolves, then lets the
/// requests in progress finish (at most `limits.header_timeout` more).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let open = Open::default();
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors (or a connection reset before it was accepted): wait a
                // little for some to close rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = open.take(peer.ip(), limits.per_address) else {
            continue; // dropped: closed at once
        };
        let connection =
            builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.header_timeout, graceful.shutdown()).await;
    Ok(())
}
