//! What a client can hold before the limiter runs: a connection that never finishes its headers is
//! closed after the header timeout, and one address cannot keep more than its share of
//! connections open while another address is still served.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use bucketlab::limiter::BucketConfig;
use bucketlab_server::{app, serve, Limiter, Limits, Store, SystemClock};
use support::raw::{try_hello, PATIENCE};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

async fn start(limits: Limits) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let limiter = Limiter::new(
        BucketConfig::new(100.0, 100.0).unwrap(),
        Store::memory(),
        SystemClock,
    );
    tokio::spawn(serve(
        listener,
        app(limiter),
        limits,
        std::future::pending(),
    ));
    address
}

/// A connection to `server` from the loopback address `from` (127.0.0.1, 127.0.0.2…).
async fn connect(from: &str, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server).await.unwrap()
}

/// Whether the server closed `stream` (end of stream, or a reset) within `PATIENCE`; what it
/// sent before that is read and ignored.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buffer = [0u8; 1024];
    tokio::time::timeout(PATIENCE, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return true,
                Ok(_) => {}
            }
        }
    })
    .await
    .unwrap_or(false)
}

async fn hello(stream: &mut TcpStream) -> String {
    try_hello(stream).await.expect("a response")
}

#[tokio::test]
async fn headers_sent_too_slowly_or_never_close_the_connection() {
    let server = start(Limits {
        header_timeout: Duration::from_millis(300),
        per_address: 64,
    })
    .await;
    // Slowloris: the headers begun, never ended.
    let mut slow = connect("127.0.0.1", server).await;
    slow.write_all(b"GET /hello HTTP/1.1\r\nHost: x\r\nX-Api-Key: slow\r\n")
        .await
        .unwrap();
    // A connection that sends nothing at all.
    let mut silent = connect("127.0.0.1", server).await;
    assert!(closed_by_server(&mut slow).await, "unfinished headers");
    assert!(closed_by_server(&mut silent).await, "nothing sent");
    // A client that sends its request at once is answered.
    let mut quick = connect("127.0.0.1", server).await;
    assert_eq!(hello(&mut quick).await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn one_address_cannot_hold_more_than_its_share_of_connections() {
    let server = start(Limits {
        header_timeout: Duration::from_secs(60),
        per_address: 4,
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect("127.0.0.1", server).await);
    }
    // The fifth from the same address is closed as it is accepted…
    let mut fifth = connect("127.0.0.1", server).await;
    assert!(
        closed_by_server(&mut fifth).await,
        "over the address's share"
    );
    // …while another address is served.
    let mut other = connect("127.0.0.2", server).await;
    assert_eq!(hello(&mut other).await, "HTTP/1.1 200 OK");
    // Once one of its connections closes, the address gets a slot again.
    drop(held.pop());
    let answered = tokio::time::timeout(PATIENCE, async {
        loop {
            let mut stream = connect("127.0.0.1", server).await;
            if let Some(status) = try_hello(&mut stream).await {
                return status;
            }
        }
    })
    .await
    .expect("a slot once a connection closed");
    assert_eq!(answered, "HTTP/1.1 200 OK");
}
