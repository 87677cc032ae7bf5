//! A token-bucket policy `(B, r)` written for the places it may end up in: nginx's `limit_req`,
//! Envoy's `local_ratelimit`, the lesson's YAML policy and the arguments of the lesson's Redis
//! script. Each is that tool's configuration of the same bucket when the tool can write it
//! exactly. When it cannot, the export says so as a [`Caveat`] (a code and its values, worded by
//! the command in English and by the lesson's page in its language, like a
//! [`Problem`](super::Problem)): a rate or a burst written the nearest way the tool allows, or no
//! configuration at all when the tool has no way to say the policy (nginx slower than 1r/m, 0.016/s, or
//! a bucket that never refills, which neither nginx nor Envoy can be). Each export keys its
//! buckets by the replay's key where the tool can say it (the Redis script takes any key); where
//! it cannot name a log's field (nginx's variable, the YAML's `key_by`), it keys by client address
//! and says so as a [`Caveat::KeyNotCarried`].

use super::format::KeySpec;
use super::reason::{self, Arg};
use crate::limiter::{rust_number, BucketConfig};
use serde::ser::Serializer;
use serde::Serialize;
use std::fmt;

/// One export: which (`nginx`, `envoy`, `yaml`, `redis`), its text, and what it could not say.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Export {
    /// Which configuration.
    pub id: &'static str,
    /// The configuration, ready to paste; `None` when the tool cannot express the policy (the
    /// caveats say why).
    pub text: Option<String>,
    /// Where the configuration is not the policy replayed, or why there is none.
    pub caveats: Vec<Caveat>,
}

impl Export {
    /// No configuration from `id`, and why.
    fn refused(id: &'static str, caveat: Caveat) -> Export {
        Export {
            id,
            text: None,
            caveats: vec![caveat],
        }
    }
}

/// Where a tool's configuration cannot be the policy replayed. It serializes as
/// `{ "code": "rateRounded", "tool": "nginx", "rate": 1.2345, … }`; `Display` is the English.
#[derive(Debug, Clone, PartialEq)]
pub enum Caveat {
    /// `r = 0`: the tool always refills, so it cannot hold a bucket that never does.
    NoRefill {
        /// `nginx` or `envoy`.
        tool: &'static str,
    },
    /// A rate slower than the tool's slowest: no configuration.
    TooSlow {
        /// `nginx` or `envoy`.
        tool: &'static str,
        /// The rate replayed, per second.
        rate: f64,
        /// The slowest rate the tool writes, as it writes it (`1r/m`).
        slowest: &'static str,
        /// That rate, per second.
        slowest_rate: f64,
    },
    /// The rate is written as the nearest the tool allows, which is not the rate replayed.
    RateRounded {
        /// `nginx` or `envoy`.
        tool: &'static str,
        /// The rate replayed, per second.
        rate: f64,
        /// The rate written, as the tool writes it (`74r/m`).
        written: String,
        /// The rate written, per second.
        written_rate: f64,
    },
    /// The tool counts whole requests: a capacity that is not whole is written rounded up.
    CapacityRounded {
        /// `nginx` or `envoy`.
        tool: &'static str,
        /// `B`.
        capacity: f64,
        /// The capacity the configuration gives (nginx: `burst + 1`).
        written: u64,
    },
    /// The replay was keyed by something other than the client address, which the tool's
    /// configuration cannot name: it keys by client address instead.
    KeyNotCarried {
        /// `nginx` or `yaml`.
        tool: &'static str,
        /// The replay's key (`field:user.id`, `column:2`).
        key: String,
    },
}

/// Every sentence a [`Caveat`] may be said with: its code and its English words, each value
/// named in braces. The page's English (`exports.caveats` in `locales/en/traffic.json`) is this
/// table; `tests/replay_export.rs` checks it, and that the Portuguese names the same values.
pub const ENGLISH: [(&str, &str); 5] = [
    (
        "noRefill",
        "{tool} always refills a bucket, so it cannot enforce r = 0 (a bucket that never \
         refills); no {tool} configuration is given",
    ),
    (
        "tooSlow",
        "{tool}'s slowest rate is {slowest} ({slowestRate}/s), faster than the r = {rate}/s \
         replayed; no {tool} configuration is given",
    ),
    (
        "rateRounded",
        "{tool} cannot enforce r = {rate}/s exactly: the rate written, {written}, is {writtenRate}/s \
         in {tool}",
    ),
    (
        "capacityRounded",
        "{tool} counts whole requests: B = {capacity} is written as {written}",
    ),
    (
        "keyNotCarried",
        "the replay was keyed by {key}; this configuration ({tool}) keys by client address, as \
         it cannot name a field of the log: key it by what holds {key} in your requests",
    ),
];

impl Caveat {
    /// The sentence that says it.
    pub fn code(&self) -> &'static str {
        match self {
            Caveat::NoRefill { .. } => "noRefill",
            Caveat::TooSlow { .. } => "tooSlow",
            Caveat::RateRounded { .. } => "rateRounded",
            Caveat::CapacityRounded { .. } => "capacityRounded",
            Caveat::KeyNotCarried { .. } => "keyNotCarried",
        }
    }

    /// The English sentence of `code` (a code of [`ENGLISH`]), values in braces.
    pub fn english(code: &str) -> Option<&'static str> {
        reason::lookup(&ENGLISH, code)
    }

    fn args(&self) -> Vec<(&'static str, Arg)> {
        // The tool by its id (the page names it), or as the English writes it.
        let tool = |t: &'static str| {
            let english = match t {
                "envoy" => "Envoy",
                "yaml" => "the lesson's YAML policy",
                _ => "nginx",
            };
            ("tool", Arg::Word(t, english))
        };
        match self {
            Caveat::NoRefill { tool: t } => vec![tool(t)],
            Caveat::TooSlow {
                tool: t,
                rate,
                slowest,
                slowest_rate,
            } => vec![
                tool(t),
                ("rate", Arg::Number(*rate)),
                ("slowest", Arg::Text((*slowest).to_owned())),
                ("slowestRate", Arg::Number(*slowest_rate)),
            ],
            Caveat::RateRounded {
                tool: t,
                rate,
                written,
                written_rate,
            } => vec![
                tool(t),
                ("rate", Arg::Number(*rate)),
                ("written", Arg::Text(written.clone())),
                ("writtenRate", Arg::Number(*written_rate)),
            ],
            Caveat::CapacityRounded {
                tool: t,
                capacity,
                written,
            } => vec![
                tool(t),
                ("capacity", Arg::Number(*capacity)),
                ("written", Arg::Whole(*written)),
            ],
            Caveat::KeyNotCarried { tool: t, key } => {
                vec![tool(t), ("key", Arg::Text(key.clone()))]
            }
        }
    }
}

/// The English sentence, its values filled in.
impl fmt::Display for Caveat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.code();
        reason::write_english(f, Caveat::english(code).unwrap_or(code), &self.args())
    }
}

/// `{ "code": …, then each value by its name }`, for a front end that words it itself.
impl Serialize for Caveat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        reason::serialize(serializer, self.code(), &self.args())
    }
}

/// Envoy refuses a `fill_interval` under 50 ms.
const ENVOY_MIN_INTERVAL_MS: f64 = 50.0;
/// The longest `fill_interval` (a `google.protobuf.Duration`: 10,000 years), in milliseconds.
const ENVOY_MAX_INTERVAL_MS: f64 = 315_576_000_000_000.0;
/// The most tokens per fill tried when looking for an Envoy fill that is the rate exactly.
const ENVOY_MOST_TOKENS_TRIED: u32 = 1000;

/// Whether `x` is a whole number, to the rounding of the arithmetic that made it: relative to
/// `x`, so a tiny rate (`1e-12 · 60`) is not taken for the whole number 0.
fn whole(x: f64) -> bool {
    (x - x.round()).abs() <= 1e-9 * x.abs()
}

/// The exports' ids, in [`exports`]' order: what `bucketlab replay --export` takes.
pub const EXPORT_IDS: [&str; 4] = ["nginx", "envoy", "yaml", "redis"];

/// Every export of `config` keyed by `key` (the replay's), in the order the page shows them.
pub fn exports(config: BucketConfig, key: &KeySpec) -> Vec<Export> {
    vec![
        nginx_export(config, key),
        envoy_export(config, key),
        yaml_export(config, key),
        Export {
            id: "redis",
            text: Some(redis(config, key)),
            caveats: vec![],
        },
    ]
}

/// The caveat for `tool`, which keys only by client address, when the replay's `key` is not it.
fn key_caveat(tool: &'static str, key: &KeySpec) -> Option<Caveat> {
    (!key.is_client_address()).then(|| Caveat::KeyNotCarried {
        tool,
        key: key.to_string(),
    })
}

/// nginx's slowest rate, `1r/m`, as nginx keeps it ([`nginx_kept_per_minute`]): 0.016/s.
pub const NGINX_SLOWEST_RATE: f64 = 0.016;

/// The rate nginx enforces for `Nr/m`, per second: it keeps a rate in thousandths of a request
/// per second, rounded down (`ngx_http_limit_req_module`: `rate * 1000 / scale`), so `1r/m` is
/// 0.016/s, not 1/60, and only a multiple of `3r/m` is exact. (`Nr/s` is always exact.)
pub fn nginx_kept_per_minute(per_minute: u64) -> f64 {
    (per_minute.saturating_mul(1000) / 60) as f64 / 1000.0
}

/// nginx's rate as it is written: whole requests per second (`5r/s`) or per minute (`150r/m`),
/// with a caveat when the rate nginx then enforces is not `rate` (the nearest per minute, which
/// nginx keeps to the thousandth below); `Err` when nginx cannot write it at all (`r = 0`, or
/// slower than its slowest rate, `1r/m`, as it keeps it).
pub fn nginx_rate(rate: f64) -> Result<(String, Option<Caveat>), Caveat> {
    let tool = "nginx";
    if rate <= 0.0 {
        return Err(Caveat::NoRefill { tool });
    }
    if rate >= 1.0 && whole(rate) {
        return Ok((format!("{}r/s", rate.round() as u64), None));
    }
    if rate < NGINX_SLOWEST_RATE && !same_rate(rate, NGINX_SLOWEST_RATE) {
        return Err(Caveat::TooSlow {
            tool,
            rate,
            slowest: "1r/m",
            slowest_rate: NGINX_SLOWEST_RATE,
        });
    }
    // At least 1: a rate just above 0.016/s is nearer 1r/m than 0r/m, which is no rate.
    let written = ((rate * 60.0).round() as u64).max(1);
    let kept = nginx_kept_per_minute(written);
    let text = format!("{written}r/m");
    let caveat = (!same_rate(kept, rate)).then(|| Caveat::RateRounded {
        tool,
        rate,
        written: text.clone(),
        written_rate: kept,
    });
    Ok((text, caveat))
}

/// Whether two rates are the same but for a double's rounding (1e-9 of the larger).
fn same_rate(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// The capacity a tool that counts whole requests gives for `B` (rounded up, at least 1), and
/// the caveat when that is not `B`.
fn whole_capacity(tool: &'static str, capacity: f64) -> (u64, Option<Caveat>) {
    let written = capacity.ceil().max(1.0) as u64;
    let caveat = (written as f64 != capacity).then_some(Caveat::CapacityRounded {
        tool,
        capacity,
        written,
    });
    (written, caveat)
}

/// The caveats as the configuration's first comment lines.
fn comments(caveats: &[Caveat]) -> String {
    caveats.iter().map(|c| format!("# Note: {c}.\n")).collect()
}

/// `limit_req_zone` and `limit_req`: nginx admits one request at the rate and queues `burst`
/// beyond it, so `burst = B − 1` (B rounded up to a whole request); `nodelay` serves the queued
/// ones at once, as a bucket does. B = 1 is `limit_req` alone: nginx refuses `burst=0`. Keyed by
/// `$binary_remote_addr`: nginx has no variable for a log's field, so another `key` is a caveat.
pub fn nginx_export(config: BucketConfig, key: &KeySpec) -> Export {
    let (rate, rate_caveat) = match nginx_rate(config.refill_rate()) {
        Ok(rate) => rate,
        Err(caveat) => return Export::refused("nginx", caveat),
    };
    let (capacity, capacity_caveat) = whole_capacity("nginx", config.capacity());
    let caveats: Vec<Caveat> = [rate_caveat, capacity_caveat, key_caveat("nginx", key)]
        .into_iter()
        .flatten()
        .collect();
    let (burst, why) = match capacity - 1 {
        0 => (String::new(), "B = 1 leaves none"),
        beyond => (format!(" burst={beyond} nodelay"), "so burst = B - 1"),
    };
    let text = format!(
        "# B = {b}, r = {r}/s: nginx counts the burst beyond the first request, {why}.\n\
         {notes}\
         limit_req_zone $binary_remote_addr zone=per_client:10m rate={rate};\n\
         \n\
         server {{\n    location / {{\n        limit_req zone=per_client{burst};\n        \
         limit_req_status 429;\n    }}\n}}\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
        notes = comments(&caveats),
    );
    Export {
        id: "nginx",
        text: Some(text),
        caveats,
    }
}

/// nginx's configuration of `config` keyed by client address, or `None` when nginx cannot
/// express it.
pub fn nginx(config: BucketConfig) -> Option<String> {
    nginx_export(config, &KeySpec::Ip).text
}

/// Envoy's `tokens_per_fill` and `fill_interval` for `rate` in a bucket of `max_tokens`: every
/// second for a whole rate, else the fewest whole tokens every whole number of milliseconds (at
/// least 50 ms, Envoy's minimum) that is `rate` exactly; when none is, the nearest (with a
/// caveat). Never more tokens per fill than `max_tokens`: Envoy's bucket "will never contain more
/// than max_tokens", so a larger fill would be cut and refill slower than it says. `Err` when
/// Envoy cannot write it (`r = 0`: `tokens_per_fill` must be above 0; or slower than one token
/// per `fill_interval`'s longest).
pub fn envoy_fill(rate: f64, max_tokens: u64) -> Result<(u64, String, Option<Caveat>), Caveat> {
    let tool = "envoy";
    if rate <= 0.0 {
        return Err(Caveat::NoRefill { tool });
    }
    let interval = |ms: f64| format!("{}s", rust_number(ms / 1000.0));
    if 1000.0 / rate > ENVOY_MAX_INTERVAL_MS {
        return Err(Caveat::TooSlow {
            tool,
            rate,
            slowest: "1 token every 315576000000s",
            slowest_rate: 1000.0 / ENVOY_MAX_INTERVAL_MS,
        });
    }
    if rate >= 1.0 && whole(rate) && rate <= max_tokens as f64 {
        return Ok((rate.round() as u64, "1s".to_owned(), None));
    }
    let most = u32::try_from(max_tokens)
        .map_or(ENVOY_MOST_TOKENS_TRIED, |m| m.min(ENVOY_MOST_TOKENS_TRIED));
    for tokens in 1..=most {
        let ms = f64::from(tokens) * 1000.0 / rate;
        if (ENVOY_MIN_INTERVAL_MS..=ENVOY_MAX_INTERVAL_MS).contains(&ms) && whole(ms) {
            return Ok((u64::from(tokens), interval(ms.round()), None));
        }
    }
    // No exact fill: one token every `1/r` (to the millisecond), or, faster than one token per
    // 50 ms, whole tokens every 50 ms.
    let ms = (1000.0 / rate).round();
    let (tokens, ms) = if ms >= ENVOY_MIN_INTERVAL_MS {
        (1, ms)
    } else {
        (
            ((rate * ENVOY_MIN_INTERVAL_MS / 1000.0).round().max(1.0) as u64).min(max_tokens),
            ENVOY_MIN_INTERVAL_MS,
        )
    };
    let written = interval(ms);
    let caveat = Caveat::RateRounded {
        tool,
        rate,
        written: format!("tokens_per_fill: {tokens}, fill_interval: {written}"),
        written_rate: tokens as f64 * 1000.0 / ms,
    };
    Ok((tokens, written, Some(caveat)))
}

/// Envoy's `local_ratelimit` HTTP filter with a token bucket of `(B, r)`: one bucket per Envoy
/// instance, whose first comment says that a bucket per `key` needs descriptors.
pub fn envoy_export(config: BucketConfig, key: &KeySpec) -> Export {
    let (max, capacity_caveat) = whole_capacity("envoy", config.capacity());
    let (tokens, interval, rate_caveat) = match envoy_fill(config.refill_rate(), max) {
        Ok(fill) => fill,
        Err(caveat) => return Export::refused("envoy", caveat),
    };
    let caveats: Vec<Caveat> = [rate_caveat, capacity_caveat]
        .into_iter()
        .flatten()
        .collect();
    let text = format!(
        "# One bucket per Envoy instance (a bucket per {key}, as replayed, needs descriptors); it \
         refills in steps.\n\
         {notes}\
         http_filters:\n\
         - name: envoy.filters.http.local_ratelimit\n  \
           typed_config:\n    \
             \"@type\": type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit\n    \
             stat_prefix: http_local_rate_limiter\n    \
             token_bucket:\n      \
               max_tokens: {max}\n      \
               tokens_per_fill: {tokens}\n      \
               fill_interval: {interval}\n    \
             filter_enabled:\n      \
               default_value: {{ numerator: 100, denominator: HUNDRED }}\n      \
               runtime_key: local_rate_limit_enabled\n    \
             filter_enforced:\n      \
               default_value: {{ numerator: 100, denominator: HUNDRED }}\n      \
               runtime_key: local_rate_limit_enforced\n",
        notes = comments(&caveats),
        key = key_name(key),
    );
    Export {
        id: "envoy",
        text: Some(text),
        caveats,
    }
}

/// Envoy's configuration of `config`, or `None` when Envoy cannot express it.
pub fn envoy(config: BucketConfig) -> Option<String> {
    envoy_export(config, &KeySpec::Ip).text
}

/// The key as the exports' comments name it: `client address`, or the replay's `field:user.id`.
fn key_name(key: &KeySpec) -> String {
    match key {
        key if key.is_client_address() => "client address".to_owned(),
        other => other.to_string(),
    }
}

/// The lesson's YAML policy with `(B, r)`, keyed by client address (its `key_by` names no log
/// field), with a caveat when the replay's `key` was another.
fn yaml_export(config: BucketConfig, key: &KeySpec) -> Export {
    let caveats: Vec<Caveat> = key_caveat("yaml", key).into_iter().collect();
    Export {
        id: "yaml",
        text: Some(format!("{}{}", comments(&caveats), yaml(config))),
        caveats,
    }
}

/// The lesson's YAML policy (src/limiter/policy.rs) with `(B, r)` as its default tier.
pub fn yaml(config: BucketConfig) -> String {
    format!(
        "tiers:\n  default:\n    capacity: {b}\n    refill_rate: {r}\n\
         storage: redis\nkey_by: ip\n\
         on_deny:\n  status: 429\n  retry_after: true\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
    )
}

/// The lesson's Redis script's arguments (redis/token_bucket.lua): one bucket of the replay's
/// `key` (an example address, or `$KEY` to set to a value of the key replayed), then
/// `B r cost now`, `now` in whole Unix seconds (`date +%s`, which every `date` has; the script
/// takes a fraction too).
pub fn redis(config: BucketConfig, key: &KeySpec) -> String {
    let (bucket, value) = match key {
        key if key.is_client_address() => (
            "the client's bucket, by client address as replayed".to_owned(),
            "203.0.113.9",
        ),
        other => (
            format!("the bucket of one {other} value, as replayed: set KEY to it"),
            "$KEY",
        ),
    };
    format!(
        "# KEYS[1] = {bucket}; ARGV = B r cost now (Unix seconds)\n\
         redis-cli --eval redis/token_bucket.lua \"bucketlab:{{{value}}}\" , {b} {r} 1 \"$(date +%s)\"\n",
        b = rust_number(config.capacity()),
        r = rust_number(config.refill_rate()),
    )
}
