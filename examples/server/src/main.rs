//! `bucketlab-server`: serves `GET /hello`, rate-limited per `X-Api-Key` with a token bucket.
//! Every request is counted, whatever its route and method (a 404 or 405 costs a token too).
//!
//! ```sh
//! cargo run -p bucketlab-server -- --capacity 10 --refill-rate 5
//! cargo run -p bucketlab-server -- --store redis://127.0.0.1:6379
//! cargo run -p bucketlab-server -- --cluster --store redis://127.0.0.1:7000,redis://127.0.0.1:7001
//! curl -i -H 'X-Api-Key: alice' http://127.0.0.1:3000/hello
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;

use bucketlab::limiter::{rust_number, BucketConfig, Field, Given, InvalidValue, Rule};
use bucketlab_server::{
    app, serve, KeyPattern, Limiter, Limits, OnStoreError, Store, SystemClock, DEFAULT_KEY_PATTERN,
};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use redis::IntoConnectionInfo;

/// The largest whole number the rate-limit headers can carry exactly: RFC 8941 structured-field
/// integers (`RateLimit-Policy: "default";q=B;w=…`) have at most 15 digits.
const MAX_HEADER_INTEGER: f64 = 999_999_999_999_999.0;

/// Serves GET /hello, rate-limited per X-Api-Key with a token bucket (bucketlab's core).
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Address to listen on: an IP address and a port, like 127.0.0.1:3000 or [::1]:3000 (port 0
    /// picks a free one; the address is printed). Host names are not resolved.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:3000", value_parser = listen)]
    listen: SocketAddr,
    /// Bucket capacity B: the largest burst (a whole number from 1 to 999999999999999: each
    /// request costs 1 token, and the headers carry B as a 15-digit integer at most).
    #[arg(long, value_name = "B", default_value = "10", value_parser = capacity, allow_negative_numbers = true)]
    capacity: f64,
    /// Refill rate r in tokens per second: the sustained rate (0, or enough that B / r seconds
    /// fits in 15 digits).
    #[arg(long, value_name = "R", default_value = "5", value_parser = refill_rate, allow_negative_numbers = true)]
    refill_rate: f64,
    /// `memory` (buckets in this process) or a Redis URL such as redis://127.0.0.1:6379 (buckets
    /// shared by every server using that Redis); a bare host:port means redis://host:port. No TLS
    /// (rediss://): this build has none. A URL with a password is better given in the
    /// environment variable, where other users' `ps` does not show it.
    // Read as text and checked in `main`: clap's own error would quote the value, password and all
    // (and `--help` does not show the variable's value).
    #[arg(
        long,
        env = "BUCKETLAB_STORE",
        hide_env_values = true,
        default_value = "memory"
    )]
    store: String,
    /// `--store` lists nodes of a Redis Cluster, separated by commas (any one is enough to find
    /// the others).
    #[arg(long)]
    cluster: bool,
    /// Each API key's Redis key: one `*`, the API key's place. With --cluster the `*` must be
    /// inside a hash tag (`{…}`), so that each client's keys hash to one slot.
    #[arg(long, default_value = DEFAULT_KEY_PATTERN, value_parser = key_pattern)]
    key_pattern: KeyPattern,
    /// What a request gets when the store fails: `closed` (503) or `open` (admitted unlimited).
    #[arg(long, default_value = "closed")]
    on_store_error: OnStoreError,
    /// The most connections one IP address may keep open at once; more are closed as they are
    /// accepted (0: no limit). Behind a load balancer or proxy every client comes from its
    /// address: set it above the proxy's pool of connections, or 0 and let the proxy limit them.
    #[arg(long, value_name = "N", default_value_t = Limits::default().per_address)]
    connections_per_address: usize,
}

/// `--store`'s value: `memory`, or Redis nodes (one unless `--cluster`).
#[derive(Debug, Clone)]
enum StoreArg {
    Memory,
    Redis(Vec<String>),
}

/// `--capacity`'s value, checked by the core's rule, and whole: a fraction of B could never be
/// spent (each request costs 1 token) nor shown (the headers carry ⌊B⌋). Refused with clap's exit
/// code 2.
fn capacity(text: &str) -> Result<f64, String> {
    let given = match InvalidValue::parse(
        Field::Capacity,
        text,
        Rule::Between(1.0, MAX_HEADER_INTEGER),
    ) {
        Ok(value) if value.fract() == 0.0 => return Ok(value),
        Ok(value) => Given::Number(value),
        Err(e) => e.given,
    };
    Err(format!(
        "--capacity must be a whole number from 1 to {}, {} (each request costs 1 token, and \
         the rate-limit headers send B as an integer of at most 15 digits)",
        rust_number(MAX_HEADER_INTEGER),
        given.text(rust_number)
    ))
}

/// `--key-pattern`'s value: one `*`. Whether a cluster can use it is checked with `--cluster`.
fn key_pattern(text: &str) -> Result<KeyPattern, String> {
    KeyPattern::parse(text).map_err(|e| e.message_with("--key-pattern"))
}

/// What `--store` allows, for its error messages.
const STORE_ALLOWED: &str = "`memory` or Redis URLs separated by commas (redis://host:port, \
     redis://user:password@host:port, redis+unix:///path, or a bare host:port; no rediss://, as \
     this build has no TLS)";

/// `--store`'s value: `memory`, or Redis URLs (or bare `host:port`s) separated by commas, each one
/// a URL the redis crate can connect to. Whether it can be reached is known only at start-up.
/// The error quotes the value with any password masked ([`masked`]).
fn store(text: &str) -> Result<StoreArg, String> {
    if text == "memory" {
        return Ok(StoreArg::Memory);
    }
    nodes(text)
        .into_iter()
        .map(|node| {
            let url = redis_url(node.trim());
            let which = || {
                if text.contains(',') {
                    format!(": {:?} is not one", masked(node))
                } else {
                    String::new()
                }
            };
            let scheme = url.split_once("://").map_or("", |(scheme, _)| scheme);
            if scheme.eq_ignore_ascii_case("rediss") || scheme.eq_ignore_ascii_case("valkeys") {
                return Err(format!(
                    "--store must be {STORE_ALLOWED}, got {:?}{} (rediss:// is Redis over TLS, \
                     which this build does not have: reach such a Redis through a TLS tunnel \
                     such as stunnel)",
                    masked(text),
                    which()
                ));
            }
            if let Some(port) = bad_port(&url) {
                return Err(format!(
                    "--store must be {STORE_ALLOWED}, got {:?}{} (its port must be a number from \
                     0 to 65535, got {port:?})",
                    masked(text),
                    which()
                ));
            }
            match url.as_str().into_connection_info() {
                Ok(_) => Ok(url),
                Err(e) => Err(format!(
                    "--store must be {STORE_ALLOWED}, got {:?}{} ({})",
                    masked(text),
                    which(),
                    hide_secrets(&e.to_string(), text)
                )),
            }
        })
        .collect::<Result<_, _>>()
        .map(StoreArg::Redis)
}

/// `--listen`'s value: an IP address and a port, as `SocketAddr` reads them. Host names are not
/// resolved: one may name several addresses, and the server would listen on only one of them.
fn listen(text: &str) -> Result<SocketAddr, String> {
    text.parse().map_err(|_| {
        format!(
            "--listen must be an IP address and a port from 0 to 65535, like 127.0.0.1:8080 or \
             [::1]:8080 (0 picks a free port; host names are not resolved: for localhost use \
             127.0.0.1 or [::1]), got {text:?}"
        )
    })
}

/// Refuses a refill rate so slow that the headers' waits (`w = ceil(B / r)` seconds, and
/// `Retry-After`, `X-RateLimit-Reset` and `t` below it) would not fit in 15 digits.
fn check_refill_rate(capacity: f64, refill_rate: f64) -> Result<(), String> {
    if refill_rate == 0.0 || (capacity / refill_rate).ceil() <= MAX_HEADER_INTEGER {
        return Ok(());
    }
    // The bound as a rule, with its value to 3 significant digits: its exact double
    // (1.000000000000001e-14 for B = 10) is no help to a reader.
    let slowest = capacity / MAX_HEADER_INTEGER;
    let about: f64 = format!("{slowest:.2e}").parse().unwrap_or(slowest);
    Err(format!(
        "--refill-rate must be 0 or at least B / {} (about {} with --capacity {}), got {} (the \
         time to refill B, ceil(B / r) seconds, goes into the rate-limit headers as an integer \
         of at most 15 digits)",
        rust_number(MAX_HEADER_INTEGER),
        rust_number(about),
        rust_number(capacity),
        rust_number(refill_rate)
    ))
}

/// Refuses `--store` and `--key-pattern` values that don't go with `--cluster` (or without it).
fn check_store(store: &StoreArg, cluster: bool, keys: &KeyPattern) -> Result<(), String> {
    match (store, cluster) {
        (StoreArg::Memory, true) => {
            Err("--cluster needs the nodes of a Redis Cluster in --store, got \"memory\"".into())
        }
        (StoreArg::Redis(nodes), false) if nodes.len() > 1 => Err(format!(
            "--store must be `memory` or one Redis URL without --cluster, got {} nodes {:?} \
             (add --cluster for the nodes of a Redis Cluster)",
            nodes.len(),
            masked_all(nodes)
        )),
        (StoreArg::Redis(_), true) => keys
            .clone()
            .for_cluster()
            .map(drop)
            .map_err(|e| e.message_with("--key-pattern")),
        _ => Ok(()),
    }
}

/// `--refill-rate`'s value, checked by the core's rule; refused with clap's exit code 2.
fn refill_rate(text: &str) -> Result<f64, String> {
    // -0 is 0, and the messages write it so.
    InvalidValue::parse(Field::RefillRate, text, Rule::NonNegative)
        .map(|r| r + 0.0)
        .map_err(|e| e.message_with("--refill-rate", rust_number))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let checked = check_refill_rate(args.capacity, args.refill_rate).and_then(|()| {
        let store = store(&args.store)?;
        check_store(&store, args.cluster, &args.key_pattern)?;
        Ok(store)
    });
    let store = match checked {
        Ok(store) => store,
        // A bad flag value, so clap's error and exit code 2, like every other.
        Err(message) => Args::command()
            .error(ErrorKind::ValueValidation, message)
            .exit(),
    };
    match run(args, store).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bucketlab-server: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args, store: StoreArg) -> Result<(), String> {
    let config = BucketConfig::new(args.capacity, args.refill_rate).map_err(|e| e.to_string())?;
    let keys = args.key_pattern;
    let store = match store {
        StoreArg::Memory => Store::memory(),
        StoreArg::Redis(nodes) if !args.cluster => {
            let url = &nodes[0];
            Store::redis(url, keys).await.map_err(|e| {
                format!(
                    "store must be `memory` or a reachable Redis URL, got {:?}: {}",
                    masked(url),
                    hide_secrets(&e.to_string(), url)
                )
            })?
        }
        StoreArg::Redis(nodes) => {
            let keys = keys.for_cluster().map_err(|e| e.to_string())?;
            let urls: Vec<&str> = nodes.iter().map(String::as_str).collect();
            Store::redis_cluster(&urls, keys).await.map_err(|e| {
                format!(
                    "store must list reachable nodes of a Redis Cluster, got {:?}: {}",
                    masked_all(&nodes),
                    hide_secrets(&e.to_string(), &nodes.join(","))
                )
            })?
        }
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("can't listen on {}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // The first line of output is the address, so scripts and tests can find a port-0 server.
    println!("listening on http://{address}");
    let limiter = Limiter::new(config, store, SystemClock).on_store_error(args.on_store_error);
    let limits = Limits {
        per_address: match args.connections_per_address {
            0 => usize::MAX,
            n => n,
        },
        ..Limits::default()
    };
    serve(listener, app(limiter), limits, async {
        // If the signal handler can't be installed, the server simply runs until killed.
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| e.to_string())
}

/// `text` as a Redis URL: a URL (`redis://…`, `redis+unix://…`) as it is, a bare
/// `host:port` (as `redis-cli` and `redis-cli --cluster create` take them) with `redis://` before it.
fn redis_url(text: &str) -> String {
    if text.contains("://") {
        text.to_owned()
    } else {
        format!("redis://{text}")
    }
}

/// The port of the URL `url` (`redis://user:pass@host:port/db`) when it is not one, such as
/// `99999` or `6379x`: the redis crate only says that the URL "did not parse". `None` when the
/// URL has no port or a good one, or when it has no host part (`redis+unix://`).
fn bad_port(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, after)| after);
    // An IPv6 host is in brackets, with colons of its own.
    let after_host = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split_once(']')?.1,
        None => host_port.find(':').map_or("", |at| &host_port[at..]),
    };
    let port = after_host.strip_prefix(':')?;
    (!port.is_empty() && port.parse::<u16>().is_err() || port.starts_with('+')).then_some(port)
}

/// The URLs (or bare `host:port`s) in `text`, separated by commas: a comma inside a URL's user
/// info (before the last `@` ahead of the next URL's `scheme://`) is part of its password, not a
/// separator, so that no piece of a password is ever taken for a node of its own.
fn nodes(text: &str) -> Vec<&str> {
    // Where each scheme starts: a new URL, whatever the commas before it.
    let mut starts: Vec<usize> = text
        .match_indices("://")
        .filter_map(|(at, _)| {
            let scheme_start = text[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')))
                .map_or(0, |before| before + 1);
            (scheme_start == 0 || text[..scheme_start].trim_end().ends_with(','))
                .then_some(scheme_start)
        })
        .collect();
    starts.dedup();
    let mut out = Vec::new();
    let mut from = 0;
    for end in starts
        .iter()
        .copied()
        .skip_while(|&s| s == 0)
        .chain([text.len()])
    {
        // One stretch from a scheme (or the start) to the next: commas before its last `@` are in
        // a password; the others separate bare nodes.
        let stretch_end = match text[from..end].rfind(',') {
            Some(comma) if end < text.len() => from + comma,
            _ => end,
        };
        let stretch = &text[from..stretch_end];
        let user_end = stretch.rfind('@').map_or(0, |at| at);
        let mut piece_start = from;
        for (at, _) in stretch.match_indices(',') {
            if at > user_end {
                out.push(&text[piece_start..from + at]);
                piece_start = from + at + 1;
            }
        }
        out.push(&text[piece_start..stretch_end]);
        from = end;
    }
    out
}

/// One URL's parts around its user info: `(scheme://, user info, the rest)`; the user info is all
/// before the last `@`, whatever it holds (`?`, `/`, `,` and `@` typed in a password included).
fn split_user_info(url: &str) -> (&str, Option<&str>, &str) {
    let after_scheme = url.find("://").map_or(0, |at| at + 3);
    let (scheme, rest) = url.split_at(after_scheme);
    match rest.rfind('@') {
        Some(at) => (scheme, Some(&rest[..at]), &rest[at + 1..]),
        None => (scheme, None, rest),
    }
}

/// `text` (one Redis URL, or several separated by commas) fit to print: the password of each
/// URL's user info replaced by `***` (`redis://:***@host:6379`, `redis://alice:***@host:6379`; a
/// user info without a `:`, which some clients read as a password, wholly: `redis://***@host`),
/// and so is the value of a `pass` or `password` query parameter (`redis+unix:///s?pass=***`).
fn masked(text: &str) -> String {
    nodes(text)
        .into_iter()
        .map(|url| {
            let (scheme, user_info, rest) = split_user_info(url);
            let mut out = String::from(scheme);
            if let Some(user_info) = user_info {
                match user_info.split_once(':') {
                    Some((user, _)) => out.push_str(&format!("{user}:***@")),
                    None => out.push_str("***@"),
                }
            }
            let (before, query) = match rest.split_once('?') {
                Some((before, query)) => (before, Some(query)),
                None => (rest, None),
            };
            out.push_str(before);
            if let Some(query) = query {
                let pairs: Vec<String> = query
                    .split('&')
                    .map(|pair| match pair.split_once('=') {
                        Some((name, _)) if is_secret_parameter(name) => format!("{name}=***"),
                        _ => pair.to_owned(),
                    })
                    .collect();
                out.push('?');
                out.push_str(&pairs.join("&"));
            }
            out
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Each of `urls`, [`masked`].
fn masked_all(urls: &[String]) -> Vec<String> {
    urls.iter().map(|url| masked(url)).collect()
}

/// Whether a URL's query parameter `name` carries a password (redis+unix URLs take it so).
fn is_secret_parameter(name: &str) -> bool {
    ["pass", "password"]
        .iter()
        .any(|secret| name.eq_ignore_ascii_case(secret))
}

/// `message` (a redis error's words) with every secret of the URLs in `text` replaced by `***`,
/// should the error ever quote one, or the part of one a URL parser took for the password (up to
/// a `?`, `/`, `#` or `,` typed in it).
fn hide_secrets(message: &str, text: &str) -> String {
    let mut secrets = Vec::new();
    for url in nodes(text) {
        let (_, user_info, rest) = split_user_info(url);
        if let Some(user_info) = user_info {
            let password = user_info
                .split_once(':')
                .map_or(user_info, |(_, pass)| pass);
            secrets.push(password);
            if let Some(cut) = password.find(['?', '/', '#', ',']) {
                secrets.push(&password[..cut]);
            }
        }
        let query = rest.split_once('?').map_or("", |(_, query)| query);
        for pair in query.split('&') {
            if let Some((name, value)) = pair.split_once('=') {
                if is_secret_parameter(name) {
                    secrets.push(value);
                }
            }
        }
    }
    // The longest first, so that a password's part never leaves the rest of it showing.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    secrets
        .into_iter()
        .filter(|secret| !secret.is_empty())
        .fold(message.to_owned(), |message, secret| {
            replace_whole(&message, secret)
        })
}

/// `message` with each occurrence of `secret` that stands apart (no letter or digit just before
/// or after it) replaced by `***`: a password "pa" is hidden, and "parse" still reads "parse".
fn replace_whole(message: &str, secret: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(secret) {
        let end = at + secret.len();
        let apart = !rest[..at].ends_with(|c: char| c.is_alphanumeric())
            && !rest[end..].starts_with(|c: char| c.is_alphanumeric());
        out.push_str(&rest[..at]);
        out.push_str(if apart { "***" } else { secret });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_hides_passwords_and_keeps_the_rest() {
        for (given, shown) in [
            ("redis://:s3cret@127.0.0.1:1", "redis://:***@127.0.0.1:1"),
            (
                "redis://alice:s3cret@h:6379/2",
                "redis://alice:***@h:6379/2",
            ),
            ("redis://s3cret@h:6379", "redis://***@h:6379"),
            ("rediss://:p@ss@h:6380", "rediss://:***@h:6380"),
            ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379"),
            ("127.0.0.1:6379", "127.0.0.1:6379"),
            (":s3cret@127.0.0.1:6379", ":***@127.0.0.1:6379"),
            (
                "redis+unix:///tmp/r.sock?db=1&pass=s3cret",
                "redis+unix:///tmp/r.sock?db=1&pass=***",
            ),
            (
                "redis://:a@h:1,redis://u:b@h:2",
                "redis://:***@h:1,redis://u:***@h:2",
            ),
            // A password with the characters that end a URL's parts: all of it hidden.
            ("redis://:pa?ss@h:6379", "redis://:***@h:6379"),
            ("redis://alice:p,w@h:6379", "redis://alice:***@h:6379"),
            ("redis://:a/b#c@h:1,h2:2", "redis://:***@h:1,h2:2"),
            ("h1:1,redis://:x,y,z@h:2,h3:3", "h1:1,redis://:***@h:2,h3:3"),
        ] {
            assert_eq!(masked(given), shown, "{given}");
        }
    }

    #[test]
    fn hide_secrets_replaces_each_password_in_a_message() {
        assert_eq!(
            hide_secrets(
                "auth s3cret failed; p2 too",
                "redis://:s3cret@h:1,redis+unix:///s?pass=p2"
            ),
            "auth *** failed; *** too"
        );
        assert_eq!(hide_secrets("no secret", "redis://h:1"), "no secret");
        // A parser that stopped at the `?` quotes only the password's first part: hidden too.
        assert_eq!(
            hide_secrets("bad port in pa and pa?ss", "redis://:pa?ss@h:1"),
            "bad port in *** and ***"
        );
        // Inside a word it is a word: the message stays readable.
        assert_eq!(
            hide_secrets("URL did not parse", "redis://:pa?ss@h:1"),
            "URL did not parse"
        );
    }

    #[test]
    fn a_port_out_of_range_is_named() {
        for (url, port) in [
            ("redis://127.0.0.1:99999", Some("99999")),
            ("redis://:pw@h:6379x/0", Some("6379x")),
            ("redis://[::1]:70000", Some("70000")),
            ("redis://h:+1", Some("+1")),
            ("redis://h:6379", None),
            ("redis://h", None),
            ("redis://h:", None),
            ("redis://[::1]:6379/2", None),
            ("redis://u:p:w@h:1", None),
            ("redis+unix:///tmp/r.sock", None),
        ] {
            assert_eq!(bad_port(url), port, "{url}");
        }
        let refused = store("127.0.0.1:99999").unwrap_err();
        assert!(
            refused.ends_with("got \"127.0.0.1:99999\" (its port must be a number from 0 to 65535, got \"99999\")"),
            "{refused}"
        );
    }

    #[test]
    fn nodes_split_at_commas_outside_passwords() {
        assert_eq!(nodes("h1:1,h2:2"), ["h1:1", "h2:2"]);
        assert_eq!(
            nodes("redis://:p,w@h:1,redis://h2:2"),
            ["redis://:p,w@h:1", "redis://h2:2"]
        );
        assert_eq!(
            nodes("redis://a:x,y@h:1,h3:3"),
            ["redis://a:x,y@h:1", "h3:3"]
        );
        assert_eq!(nodes("memory"), ["memory"]);
        assert_eq!(
            nodes("redis://a:b@h:1, redis://c:d@h:2"),
            ["redis://a:b@h:1", "redis://c:d@h:2"]
        );
    }
}
