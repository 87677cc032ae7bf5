//! A made-up access log, the same for the same seed: nginx `combined` lines ending with `$msec`,
//! from a crowd of ordinary clients, a few busy ones and one that bursts, with two malformed lines
//! to show how they are reported. The lesson's "Your traffic" section runs it when no file is
//! given; the tests and the benchmark use it too.

use time::OffsetDateTime;

/// Epoch seconds of the sample's first line (2026-03-02 09:00:00 UTC).
pub const SAMPLE_START: i64 = 1_772_442_000;

/// The line numbers (from 1) of the sample's malformed lines, when it has that many lines.
pub const SAMPLE_MALFORMED: [u64; 2] = [37, 1001];

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const PATHS: [&str; 6] = [
    "/api/items",
    "/api/items/42",
    "/api/search?q=bucket",
    "/api/cart",
    "/login",
    "/static/app.js",
];
const AGENTS: [&str; 3] = [
    "Mozilla/5.0 (X11; Linux x86_64)",
    "curl/8.5.0",
    "okhttp/4.12.0",
];

/// One client of the sample: its address and how often it asks.
struct Client {
    address: String,
    /// Mean requests per second.
    rate: f64,
    /// Every `burst.1` seconds, `burst.0` requests within 1 s (0: never).
    burst: (u32, f64),
    next: f64,
    next_burst: f64,
}

/// The most lines the wasm's `sampleLog` makes: ten times the page's sample of 20,000 lines, about
/// 32 MB of text, well inside a wasm module's memory (a larger count is refused, not cut).
pub const MAX_SAMPLE_LINES: u32 = 200_000;

/// `lines` lines of sample log (a final newline included), from `seed`.
pub fn sample_log(seed: u64, lines: usize) -> String {
    let mut out = String::with_capacity(lines * 160);
    for_each_sample_line(seed, lines, |line| {
        out.push_str(line);
        out.push('\n');
    });
    out
}

/// Calls `each` with every line of [`sample_log`] (without its newline), without holding them.
pub fn for_each_sample_line(seed: u64, lines: usize, mut each: impl FnMut(&str)) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut clients = clients(&mut rng);
    let mut line = String::with_capacity(256);
    for number in 1..=lines as u64 {
        line.clear();
        if SAMPLE_MALFORMED.contains(&number) {
            line.push_str(if number == SAMPLE_MALFORMED[0] {
                "198.51.100.77 - - [02/Mar/2026:09:00:0"
            } else {
                "\u{1f}\u{8b}not a log line"
            });
            each(&line);
            continue;
        }
        // The client whose next request comes first.
        let (index, time) = clients
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.next.min(c.next_burst)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("clients");
        let client = &mut clients[index];
        if client.next_burst <= client.next {
            // A burst: its requests a few ms apart.
            client.next_burst = if client.burst.0 > 1 && rng.f64() < 1.0 / f64::from(client.burst.0)
            {
                time + client.burst.1 * (0.5 + rng.f64())
            } else {
                time + 0.002 + rng.f64() * 0.01
            };
        } else {
            client.next = time + exponential(&mut rng, client.rate);
        }
        write_line(&mut line, &mut rng, &client.address, time);
        each(&line);
    }
}

fn clients(rng: &mut fastrand::Rng) -> Vec<Client> {
    let mut clients = Vec::new();
    let mut add = |address: String, rate: f64, burst: (u32, f64), rng: &mut fastrand::Rng| {
        let next = exponential(rng, rate);
        let next_burst = if burst.0 > 0 {
            burst.1 * rng.f64()
        } else {
            f64::INFINITY
        };
        clients.push(Client {
            address,
            rate,
            burst,
            next,
            next_burst,
        });
    };
    for i in 0..48 {
        let address = format!("203.0.113.{}", 10 + i);
        add(address, 0.02 + rng.f64() * 0.1, (0, 0.0), rng);
    }
    for i in 0..8 {
        let address = format!("2001:db8::{:x}", 0x10 + i);
        add(address, 0.05 + rng.f64() * 0.2, (0, 0.0), rng);
    }
    add("198.51.100.23".to_owned(), 2.0, (0, 0.0), rng);
    add("198.51.100.24".to_owned(), 1.0, (12, 40.0), rng);
    add("192.0.2.66".to_owned(), 0.3, (40, 90.0), rng);
    clients
}

/// A wait with mean `1 / rate`.
fn exponential(rng: &mut fastrand::Rng, rate: f64) -> f64 {
    -(1.0 - rng.f64()).ln() / rate
}

/// One `combined` line with `$msec` at `since` seconds after [`SAMPLE_START`].
fn write_line(out: &mut String, rng: &mut fastrand::Rng, address: &str, since: f64) {
    use std::fmt::Write;
    let millis = (since * 1000.0).floor() as i64;
    let (whole, ms) = (SAMPLE_START + millis / 1000, millis % 1000);
    let at = OffsetDateTime::from_unix_timestamp(whole).expect("a 2026 time");
    let path = PATHS[rng.usize(..PATHS.len())];
    let agent = AGENTS[rng.usize(..AGENTS.len())];
    let status = if rng.f64() < 0.03 { 404 } else { 200 };
    let _ = write!(
        out,
        "{address} - - [{:02}/{}/{}:{:02}:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" {status} {} \"-\" \"{agent}\" {whole}.{ms:03}",
        at.day(),
        MONTHS[usize::from(u8::from(at.month())) - 1],
        at.year(),
        at.hour(),
        at.minute(),
        at.second(),
        200 + rng.usize(..4000),
    );
}
