//! One pass over a log: every request through its key's limiter, in file order, counting what is
//! refused, while each key's burst–rate curve is built alongside.

use super::curve::{rate_grid, BurstTracker};
use super::format::{detect, Event, Format, KeySpec, Parsed, Parser};
use super::input::compression;
use super::lines::Line;
use super::recommend::{Search, Target};
use super::report::{
    Backwards, Curves, EpochUnitCount, KeyCount, Malformed, NeverCounts, Report, MALFORMED_EXAMPLES,
};
use super::setup::{Problem, Remedy, SetupError};
use super::unreadable::Unreadable;
use crate::limiter::lab::{Algorithm, Limiter, Quota};
use crate::limiter::{rust_number, BucketConfig, Field, Never, Outcome, TokenBucket};
use hashbrown::HashMap;
use std::borrow::Cow;

/// The limiters a replay can use, by the names the command takes.
pub const ALGORITHMS: [&str; 5] = [
    TOKEN_BUCKET,
    LAB_ALGORITHMS[0].0,
    LAB_ALGORITHMS[1].0,
    LAB_ALGORITHMS[2].0,
    LAB_ALGORITHMS[3].0,
];

const TOKEN_BUCKET: &str = "token-bucket";

/// The lab's limiters a replay can use, by the names the command takes.
const LAB_ALGORITHMS: [(&str, Algorithm); 4] = [
    ("fixed-window", Algorithm::FixedWindow),
    ("sliding-log", Algorithm::SlidingLog),
    ("sliding-counter", Algorithm::SlidingCounter),
    ("gcra", Algorithm::Gcra),
];

/// Non-blank lines read before the format is decided (by detection or to resolve JSON fields).
pub const SAMPLE_LINES: usize = 16;

/// The limiter every key gets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// The core's token bucket, any `B > 0`, `r ≥ 0`, requests of any cost.
    TokenBucket(BucketConfig),
    /// One of the lab's limiters, configured "`B` requests per `B / r` seconds"; requests cost 1.
    Lab {
        /// Which.
        algorithm: Algorithm,
        /// `B` per `B / r` seconds.
        quota: Quota,
        /// `r` as given (`B / (B / r)` may differ from it in the last place).
        refill_rate: f64,
    },
}

impl Policy {
    /// `algorithm` (one of [`ALGORITHMS`]) with capacity `B` and refill rate `r`. The lab's
    /// limiters count whole requests in a window of `B / r` seconds, so they need a whole `B`
    /// from 1 to 10 000 and a window from 1 ms to a day.
    pub fn new(algorithm: &str, capacity: f64, refill_rate: f64) -> Result<Policy, SetupError> {
        let refuse = |option: &'static str, value: f64, why| SetupError {
            remedy: None,
            option,
            value: Some(rust_number(value)),
            why,
        };
        let config = BucketConfig::new(capacity, refill_rate).map_err(|e| match e.field {
            Field::Capacity => refuse("capacity", capacity, Problem::Positive { name: "B" }),
            _ => refuse(
                "refill-rate",
                refill_rate,
                Problem::NonNegative { name: "r" },
            ),
        })?;
        if algorithm == TOKEN_BUCKET {
            return Ok(Policy::TokenBucket(config));
        }
        let Some(&(name, lab)) = LAB_ALGORITHMS.iter().find(|(name, _)| *name == algorithm) else {
            return Err(SetupError {
                remedy: None,
                option: "algorithm",
                value: Some(algorithm.to_owned()),
                why: Problem::OneOf {
                    allowed: &ALGORITHMS,
                },
            });
        };
        if refill_rate <= 0.0 {
            return Err(refuse(
                "refill-rate",
                refill_rate,
                Problem::NeedsRate { algorithm: name },
            ));
        }
        let limit = crate::limiter::lab::MAX_LIMIT;
        if capacity.fract() != 0.0 || capacity > f64::from(limit) {
            return Err(refuse(
                "capacity",
                capacity,
                Problem::WholeRequests {
                    algorithm: name,
                    max: limit,
                },
            ));
        }
        let window = capacity / refill_rate;
        let quota = Quota::new(capacity as u32, window).map_err(|_| {
            refuse(
                "refill-rate",
                refill_rate,
                Problem::WindowRange {
                    algorithm: name,
                    window,
                    min: crate::limiter::lab::MIN_WINDOW,
                    max: crate::limiter::lab::MAX_WINDOW,
                },
            )
        })?;
        Ok(Policy::Lab {
            algorithm: lab,
            quota,
            refill_rate,
        })
    }

    /// The refill rate `r`.
    pub fn refill_rate(&self) -> f64 {
        match self {
            Policy::TokenBucket(config) => config.refill_rate(),
            Policy::Lab { refill_rate, .. } => *refill_rate,
        }
    }

    /// A fresh limiter for one key.
    pub(crate) fn limiter(&self) -> KeyLimiter {
        match *self {
            Policy::TokenBucket(config) => KeyLimiter::Bucket(TokenBucket::new(config)),
            Policy::Lab {
                algorithm, quota, ..
            } => KeyLimiter::Lab(algorithm.build(quota)),
        }
    }
}

/// How a replay reads and limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The log's format; detected from the first lines when `None`.
    pub format: Option<Format>,
    /// The key; the format's default when `None`.
    pub key: Option<KeySpec>,
    /// JSON only: the time field; the first of the usual names when `None`.
    pub time_field: Option<String>,
    /// The limiter of each key.
    pub policy: Policy,
    /// A target to recommend a policy for.
    pub target: Option<Target>,
}

/// One key's limiter.
pub(crate) enum KeyLimiter {
    Bucket(TokenBucket),
    Lab(Box<dyn Limiter>),
}

/// What a key's limiter did with one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Let through (at once, or later by the leaky bucket's queue).
    Passed,
    /// Refused now; the same request would pass later.
    Limited,
    /// Refused for good: waiting would not let it through.
    Never(Never),
}

impl Fate {
    /// Whether the request was refused, for good or not.
    pub(crate) fn refused(self) -> bool {
        self != Fate::Passed
    }
}

impl KeyLimiter {
    /// What becomes of the request; an error (a time or cost the bucket refuses) says why.
    pub(crate) fn decide(&mut self, time: f64, cost: f64) -> Result<Fate, String> {
        match self {
            KeyLimiter::Bucket(bucket) => bucket
                .try_acquire(cost, time)
                .map(|decision| match decision.outcome {
                    Outcome::Admitted => Fate::Passed,
                    Outcome::Denied { .. } => Fate::Limited,
                    Outcome::Never(why) => Fate::Never(why),
                })
                .map_err(|e| e.to_string()),
            // Never final: requests of cost 1 with a whole `B ≥ 1` and `r > 0` (`Policy::new`).
            KeyLimiter::Lab(limiter) => Ok(if limiter.decide(time).passes() {
                Fate::Passed
            } else {
                Fate::Limited
            }),
        }
    }
}

struct KeyState {
    requests: u64,
    limited: u64,
    /// The latest time of the key's requests so far.
    latest: f64,
    limiter: KeyLimiter,
    curve: BurstTracker,
}

/// A line kept while the format is not yet known.
enum Held {
    Text(Vec<u8>),
    TooLong(u64),
}

/// What a finished pass found.
#[derive(Debug)]
pub struct Finished {
    /// The figures `--json` prints (without the recommendation, which needs more passes).
    pub report: Report,
    /// The keys' burst–rate curve.
    pub curves: Curves,
    /// The parser used (format and key resolved), fresh for another pass; `None` when the log had
    /// no line to decide a format from.
    pub parser: Option<Parser>,
    /// With a target: the search for the recommended policy, to be run by [`super::PolicyCheck`]
    /// passes. `None` without a target or without requests.
    pub search: Option<Search>,
}

/// A replay in progress: feed it every line with [`Replay::line`], then [`Replay::finish`].
pub struct Replay {
    settings: Settings,
    rates: Vec<f64>,
    parser: Option<Parser>,
    fresh: Option<Parser>,
    held: Vec<(u64, Held)>,
    failed: Option<SetupError>,
    lines: u64,
    requests: u64,
    malformed: u64,
    limited: u64,
    /// Of the limited requests, those that could never pass.
    never: Option<NeverCounts>,
    examples: Vec<Malformed>,
    keys: HashMap<Box<str>, KeyState>,
    /// Requests whose time was a number, by the unit it was read in (in the order of
    /// [`EpochUnit::ALL`](super::timestamp::EpochUnit::ALL)), with the first line of each.
    epoch_units: [Option<EpochUnitCount>; 4],
    /// Requests earlier than their key's latest time.
    backwards: Option<Backwards>,
    /// Requests whose time was a whole second.
    whole_seconds: u64,
    /// The costliest request's cost.
    max_cost: f64,
}

impl Replay {
    /// A replay with `settings`; the curve's grid includes the policy's own rate.
    pub fn new(settings: Settings) -> Self {
        let rates = rate_grid(Some(settings.policy.refill_rate()));
        Replay {
            settings,
            rates,
            parser: None,
            fresh: None,
            held: Vec::new(),
            failed: None,
            lines: 0,
            requests: 0,
            malformed: 0,
            limited: 0,
            never: None,
            examples: Vec::new(),
            keys: HashMap::new(),
            epoch_units: [None; 4],
            backwards: None,
            whole_seconds: 0,
            max_cost: 0.0,
        }
    }

    /// The setting that turned out not to fit the log, if one did: the replay then ignores the
    /// rest and [`Replay::finish`] returns it, so a reader may stop early.
    pub fn failure(&self) -> Option<&SetupError> {
        self.failed.as_ref()
    }

    /// Reads the next line.
    pub fn line(&mut self, line: Line<'_>) {
        if self.failed.is_some() {
            return;
        }
        self.lines += 1;
        if self.parser.is_some() {
            self.read(self.lines, line);
            return;
        }
        // A log compressed with something other than gzip: its first bytes say which, and
        // naming it beats reading its bytes as lines (a few may even be UTF-8).
        if let (1, Line::Text(bytes)) = (self.lines, line) {
            if let Some(compression) = compression(bytes) {
                // No value: whatever --format says, it is not what is wrong.
                self.failed = Some(SetupError {
                    option: "format",
                    value: None,
                    remedy: None,
                    why: Problem::Compressed { compression },
                });
                return;
            }
        }
        let held = match line {
            Line::Text(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => return,
            Line::Text(bytes) => Held::Text(bytes.to_vec()),
            Line::TooLong(length) => Held::TooLong(length),
        };
        self.held.push((self.lines, held));
        if self.held.len() >= SAMPLE_LINES {
            self.start();
        }
    }

    /// Decides the format from the lines held, makes the parser and reads those lines.
    fn start(&mut self) {
        let held = std::mem::take(&mut self.held);
        let texts: Vec<&str> = held
            .iter()
            .filter_map(|(_, h)| match h {
                Held::Text(bytes) => std::str::from_utf8(bytes).ok(),
                Held::TooLong(_) => None,
            })
            .collect();
        // Lines, none of them text: no format can read them, and saying so beats calling each
        // one malformed (binary data, or a compression without magic bytes such as brotli).
        if texts.is_empty() && held.iter().any(|(_, h)| matches!(h, Held::Text(_))) {
            self.failed = Some(SetupError {
                option: "format",
                value: self.settings.format.map(|f| f.name().to_owned()),
                remedy: None,
                why: Problem::NotText { lines: held.len() },
            });
            return;
        }
        let Some(format) = self.settings.format.or_else(|| detect(&texts)) else {
            self.failed = Some(SetupError {
                option: "format",
                value: None,
                remedy: Some(Remedy::NameFormat),
                why: Problem::NoFormat { lines: held.len() },
            });
            return;
        };
        let settings = &self.settings;
        let parser = Parser::new(
            format,
            settings.key.as_ref(),
            settings.time_field.as_deref(),
            &texts,
        )
        .map(|parser| match settings.policy {
            Policy::Lab { algorithm, .. } => parser.with_unit_cost(lab_name(algorithm)),
            Policy::TokenBucket(_) => parser,
        });
        match parser {
            Ok(parser) => {
                self.fresh = Some(parser.clone());
                self.parser = Some(parser);
            }
            Err(e) => {
                self.failed = Some(e);
                return;
            }
        }
        for (number, line) in &held {
            let line = match line {
                Held::Text(bytes) => Line::Text(bytes),
                Held::TooLong(length) => Line::TooLong(*length),
            };
            self.read(*number, line);
        }
    }

    fn read(&mut self, number: u64, line: Line<'_>) {
        let Some(parser) = self.parser.as_mut() else {
            return;
        };
        match parser.line(line) {
            Parsed::Blank | Parsed::Header => {}
            Parsed::Malformed(why) => self.malformed(number, why),
            Parsed::Event(event) => self.event(number, event),
        }
    }

    fn malformed(&mut self, line: u64, reason: Unreadable) {
        self.malformed += 1;
        if self.examples.len() < MALFORMED_EXAMPLES {
            self.examples.push(Malformed::new(line, reason));
        }
    }

    fn event(&mut self, number: u64, event: Event<'_>) {
        let (policy, width) = (&self.settings.policy, self.rates.len());
        let state = key_slot(&mut self.keys, event.key, || KeyState {
            requests: 0,
            limited: 0,
            latest: f64::NEG_INFINITY,
            limiter: policy.limiter(),
            curve: BurstTracker::new(width),
        });
        let fate = match state.limiter.decide(event.time, event.cost) {
            Ok(fate) => fate,
            // The parsers give finite times and costs; should one slip through, say so.
            Err(detail) => return self.malformed(number, Unreadable::Refused { detail }),
        };
        if event.time < state.latest {
            Backwards::add(&mut self.backwards, number, state.latest - event.time);
        }
        state.latest = state.latest.max(event.time);
        self.whole_seconds += u64::from(event.time.fract() == 0.0);
        self.max_cost = self.max_cost.max(event.cost);
        let refused = u64::from(fate.refused());
        state.requests += 1;
        state.limited += refused;
        state.curve.add(&self.rates, event.time, event.cost);
        self.requests += 1;
        self.limited += refused;
        if let Fate::Never(why) = fate {
            NeverCounts::add(&mut self.never, why, event.cost);
        }
        if let Some(unit) = event.epoch_unit {
            // `EpochUnit::ALL` is in the order the units are declared.
            self.epoch_units[unit as usize]
                .get_or_insert(EpochUnitCount {
                    unit,
                    requests: 0,
                    first_line: number,
                })
                .requests += 1;
        }
    }

    /// Ends the pass: the report (keys by requests, most first), the curves, and the start of the
    /// recommendation's search; or the setting that did not fit the log.
    pub fn finish(mut self) -> Result<Finished, SetupError> {
        if self.parser.is_none() && !self.held.is_empty() {
            self.start();
        }
        if let Some(failure) = self.failed {
            return Err(failure);
        }
        let mut keys: Vec<(Box<str>, KeyState)> = self.keys.into_iter().collect();
        keys.sort_unstable_by(|(a, x), (b, y)| y.requests.cmp(&x.requests).then_with(|| a.cmp(b)));
        let curves = curves(&self.rates, &keys);
        let search = self.settings.target.and_then(|target| {
            let trackers: Vec<(u64, &BurstTracker)> =
                keys.iter().map(|(_, s)| (s.requests, &s.curve)).collect();
            Search::start(target, &self.rates, &trackers, self.max_cost)
        });
        let mut epoch_units: Vec<EpochUnitCount> = self.epoch_units.into_iter().flatten().collect();
        epoch_units.sort_unstable_by_key(|u| u.first_line);
        let report = Report {
            lines: self.lines,
            requests: self.requests,
            malformed: self.malformed,
            malformed_examples: self.examples,
            keys: keys.len() as u64,
            limited: self.limited,
            never: self.never,
            by_key: keys
                .into_iter()
                .map(|(key, state)| KeyCount {
                    key: key.into_string(),
                    requests: state.requests,
                    limited: state.limited,
                })
                .collect(),
            recommendation: None,
            epoch_units,
            backwards: self.backwards,
            whole_second_times: self.requests > 0 && self.whole_seconds == self.requests,
        };
        Ok(Finished {
            report,
            curves,
            parser: self.fresh,
            search,
        })
    }
}

/// The lab algorithm's name as the command spells it.
fn lab_name(algorithm: Algorithm) -> &'static str {
    LAB_ALGORITHMS
        .iter()
        .find(|(_, a)| *a == algorithm)
        .map_or(algorithm.name(), |(name, _)| name)
}

/// The entry of `key`, made by `make` on its first request (the key's text is copied only then):
/// one lookup.
pub(crate) fn key_slot<'m, V>(
    map: &'m mut HashMap<Box<str>, V>,
    key: Cow<'_, str>,
    make: impl FnOnce() -> V,
) -> &'m mut V {
    map.entry_ref(&*key).or_insert_with(make)
}

/// The median, p95 and p99 of the keys' needs at each rate, and the heaviest key's own curve.
fn curves(rates: &[f64], keys: &[(Box<str>, KeyState)]) -> Curves {
    let mut median = Vec::new();
    let mut p95 = Vec::new();
    let mut p99 = Vec::new();
    if !keys.is_empty() {
        let mut needs = Vec::with_capacity(keys.len());
        for i in 0..rates.len() {
            needs.clear();
            needs.extend(keys.iter().map(|(_, s)| s.curve.burst(i)));
            needs.sort_unstable_by(f64::total_cmp);
            // Nearest rank: the smallest need at least `p` % of the keys stay within.
            let rank =
                |p: f64| needs[((p / 100.0 * needs.len() as f64).ceil() as usize).max(1) - 1];
            median.push(rank(50.0));
            p95.push(rank(95.0));
            p99.push(rank(99.0));
        }
    }
    Curves {
        rates: rates.to_vec(),
        median,
        p95,
        p99,
        heaviest: keys
            .first()
            .map(|(key, state)| (key.to_string(), state.curve.bursts().collect())),
    }
}
