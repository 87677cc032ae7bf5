//! The command line, as clap reads it. Every value is checked here, when it is read: a bad one
//! is an error naming the flag, the value and what is allowed, with exit code 2.

use bucketlab::limiter::{rust_number, Field, InvalidValue, Rule};
use bucketlab::replay::export::EXPORT_IDS;
use bucketlab::replay::fields::as_written;
use bucketlab::replay::{Format, KeySpec, Target, ALGORITHMS};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Rate-limiting tools from the bucketlab lesson.
#[derive(Debug, Parser)]
#[command(name = "bucketlab", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay an access log through a limiter per key: who would get 429s, the burst–rate curve,
    /// and (with --recommend) a token-bucket policy meeting a target.
    #[command(after_help = AFTER_HELP)]
    Replay(ReplayArgs),
}

const AFTER_HELP: &str = "\
Formats: combined and common (Apache/nginx; a last field that is an epoch time within 1 s of
[time], nginx's $msec or Apache's %{msec}t, gives sub-second times), json (one object per line), alb (AWS
Application Load Balancer), csv (time,key[,cost]). A --format that none of the first 16 lines
reads as is refused (exit 2). gzip input is recognised by its first bytes.
Times: epoch seconds, RFC 3339 or a web server's 10/Oct/2000:13:55:36 -0700; an epoch time from 1e11 is milliseconds, from 1e14
microseconds, from 1e17 nanoseconds. The report says which unit it read (\"times: epoch
milliseconds (read by size)\"; --json: epochUnits); a log whose numbers fall in more than one
unit is replayed with each line in its own and a warning naming the first line of each unit.
The log is read in order: a request earlier than its key's latest is replayed at that latest
time, and the report warns (sort logs joined from several servers by time first). When every
time is a whole second (no $msec), the report says the limited counts may be off either way:
the requests of one second are replayed as simultaneous (more limited), and close ones either
side of a second's end a whole second apart (fewer).
Lines that don't parse are counted, never fatal.

TARGET: keys:P% (at least P % of keys never limited, 0 < P <= 100) or requests:P% (at most P %
of requests limited, 0 <= P < 100). The policy recommended is the one that lets a client through
the fewest requests in a minute (B + 60 r), r from a grid of round rates and B whole; what it
limits is counted by replaying the log again (stdin is kept in a temporary file for that).

--export TOOL prints one configuration of the token bucket replayed (nginx, envoy, yaml: the
lesson's policy file, redis: the lesson's Lua script's arguments), keyed as the replay was; where
TOOL cannot write the policy exactly, its comments say so, and where it cannot write it at all,
the command says why (exit 2). To export a recommendation, replay it: give its B and r.

Exit status: 0 done, 1 the input could not be read, 2 a bad flag or a flag that does not fit the
log.";

/// `bucketlab replay`'s flags.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The log's format [default: detected from the first lines]
    #[arg(long, value_parser = PossibleValuesParser::new(Format::NAMES).map(|name| Format::from_name(&name).expect("one of Format::NAMES")))]
    pub format: Option<Format>,

    /// json: the field holding the time (an epoch time, s or ms…, RFC 3339 or a web server's)
    /// [default: the first of time, timestamp, @timestamp, ts, msec, time_iso8601, time_local]
    #[arg(long, value_name = "NAME")]
    pub time_field: Option<String>,

    /// What each limiter is kept per: ip (the client address), field:NAME (json; a dotted NAME
    /// reaches into nested objects) or column:N (csv) [default: ip; csv: column:2]
    #[arg(long, value_name = "ip|field:NAME|column:N", value_parser = KeySpec::parse)]
    pub key: Option<KeySpec>,

    /// The limiter: the core's token bucket, or one of the lab's, configured as B requests per
    /// B / r seconds
    #[arg(long, default_value = ALGORITHMS[0], value_parser = PossibleValuesParser::new(ALGORITHMS))]
    pub algorithm: String,

    /// B, the bucket's capacity (the window algorithms: requests per window, whole)
    #[arg(long, value_name = "B", value_parser = capacity, allow_negative_numbers = true)]
    pub capacity: f64,

    /// r, tokens added per second
    #[arg(long, value_name = "R", value_parser = refill_rate, allow_negative_numbers = true)]
    pub refill_rate: f64,

    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,

    /// List only the N keys with the most requests [default: all with --json, 20 in the table]
    #[arg(long, value_name = "N", value_parser = top, allow_negative_numbers = true)]
    pub top: Option<usize>,

    /// Recommend a token-bucket policy meeting TARGET: keys:P% or requests:P% (see below)
    #[arg(long, value_name = "TARGET", value_parser = Target::parse)]
    pub recommend: Option<Target>,

    /// Print, instead of the report, the configuration of the token bucket replayed (B and r) for
    /// TOOL, as the lesson's "Your traffic" section gives it
    #[arg(long, value_name = "TOOL", value_parser = PossibleValuesParser::new(EXPORT_IDS), conflicts_with_all = ["json", "recommend"])]
    pub export: Option<String>,

    /// The log, plain or gzip; - reads standard input
    #[arg(value_name = "FILE|-")]
    pub file: PathBuf,
}

fn capacity(text: &str) -> Result<f64, String> {
    number(Field::Capacity, "B", text, Rule::Positive)
}

fn refill_rate(text: &str) -> Result<f64, String> {
    // -0 is 0, and the report writes it so (`r = 0/s`, not `-0/s`).
    number(Field::RefillRate, "r", text, Rule::NonNegative).map(|r| r + 0.0)
}

/// `text` read as a number under `rule`; refused naming `name` and quoting `text` as typed
/// (`got "-1"` like `got "nan"`).
fn number(field: Field, name: &str, text: &str, rule: Rule) -> Result<f64, String> {
    InvalidValue::parse(field, text, rule)
        .map_err(|e| as_written(e, text).message_with(name, rust_number))
}

fn top(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| {
        format!(
            "N must be a whole number from 0 to {} (any N at least the number of keys lists them \
             all), got \"{text}\"",
            usize::MAX
        )
    })
}
