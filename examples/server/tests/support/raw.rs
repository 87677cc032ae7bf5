//! Plain TCP requests, where a test needs the connection itself (held open, refused, closed).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest a test waits for the server to answer or close.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// `GET /hello` with an API key over `stream`: the response's status line, or `None` when the
/// server closed the connection without one.
pub async fn try_hello(stream: &mut TcpStream) -> Option<String> {
    let request = b"GET /hello HTTP/1.1\r\nHost: x\r\nX-Api-Key: k\r\nConnection: close\r\n\r\n";
    stream.write_all(request).await.ok()?;
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response))
        .await
        .expect("an answer or a close in time")
        .ok()?;
    let text = String::from_utf8_lossy(&response);
    text.lines().next().map(str::to_owned)
}
