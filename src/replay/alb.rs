//! AWS Application Load Balancer access logs: space-separated fields, some quoted, starting
//! `type time elb client:port target:port …`, with `request_creation_time` as the 22nd field.
//!
//! The arrival time is `request_creation_time` (when the balancer received the request); entries
//! written before that field existed, or with `-` there, use `time` (when it answered).

use super::fields::{quoted, Fields};
use super::timestamp::rfc3339;
use super::unreadable::Unreadable;

/// The request types an ALB entry starts with.
const TYPES: [&str; 6] = ["http", "https", "h2", "grpcs", "ws", "wss"];

/// Position of `request_creation_time`, counting `type` as 1.
const REQUEST_CREATION_TIME: usize = 22;

/// The names of the fields from the 5th to `request_creation_time`, as AWS documents them.
const NAMES: [&str; REQUEST_CREATION_TIME - 4] = [
    "target:port",
    "request_processing_time",
    "target_processing_time",
    "response_processing_time",
    "elb_status_code",
    "target_status_code",
    "received_bytes",
    "sent_bytes",
    "request",
    "user_agent",
    "ssl_cipher",
    "ssl_protocol",
    "target_group_arn",
    "trace_id",
    "domain_name",
    "chosen_cert_arn",
    "matched_rule_priority",
    "request_creation_time",
];

/// What one entry says: the client's address and when it asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request<'a> {
    /// The client's IP address, without its port (nor the brackets of `[ipv6]:port`).
    pub client: &'a str,
    /// Epoch seconds.
    pub time: f64,
}

/// Reads one entry.
pub fn parse(line: &str) -> Result<Request<'_>, Unreadable> {
    let mut fields = Fields::new(line);
    let kind = fields.bare().unwrap_or("");
    if !TYPES.contains(&kind) {
        return Err(Unreadable::BadType {
            given: quoted(kind),
            allowed: &TYPES,
        });
    }
    let response_time = fields.bare().ok_or(Unreadable::NoAlbTime)?;
    fields.bare().ok_or(Unreadable::NoBalancer)?;
    let client = fields.bare().ok_or(Unreadable::NoClientPort)?;
    let client = address(client).ok_or_else(|| Unreadable::BadClient {
        client: quoted(client),
    })?;
    let mut creation = None;
    for part in NAMES {
        match fields.any() {
            Ok(field) => creation = Some(field),
            Err(_) if fields.is_done() => {
                creation = None;
                break;
            }
            Err(error) => return Err(Unreadable::Field { part, error }),
        }
    }
    let time = match creation {
        Some(text) if text != "-" => rfc3339("request_creation_time", text)?,
        _ => rfc3339("time", response_time)?,
    };
    Ok(Request { client, time })
}

/// `ip:port` or `[ipv6]:port` to the address alone.
fn address(client: &str) -> Option<&str> {
    let (ip, port) = client.rsplit_once(':')?;
    if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ip = ip
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or(ip);
    (!ip.is_empty()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_addresses_lose_their_port() {
        assert_eq!(address("192.168.131.39:2817"), Some("192.168.131.39"));
        assert_eq!(address("[2001:db8::7]:443"), Some("2001:db8::7"));
        assert_eq!(address("2001:db8::7:443"), Some("2001:db8::7"));
        assert_eq!(address("-"), None);
        assert_eq!(address(":80"), None);
    }
}
