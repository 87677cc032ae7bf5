//! A recorded scenario as text, for a link (`#s=…`): the bucket it started with and every action
//! that changes a decision, each at its lesson time. Written from a session's log, read back and
//! checked (length, count, each number by its rule), then played into a stopped session, which
//! decides exactly as the recorded one did.
//!
//! Version 1, fields separated by `_`:
//!
//! ```text
//! 1_B_r_tokens_end_action_action…      e.g. 1_5_1_5_2.4_0s1,6_1.2s1,1_1.5c5,2
//! action = time letter arguments:
//!   s cost,count   send     c B,r   reconfigure     C B,r   configure (the new reset target)
//!   z              reset    t rate,seed   steady traffic   p rate,seed   Poisson   x   traffic off
//! ```
//!
//! Numbers are written so that reading them back gives the same bits; times never decrease and
//! are at most `end`. Only letters, digits and `. _ , - +` appear, so the text needs no escaping
//! (a page reads it from the raw hash: `+` is not a space there).

use super::bucket::{BucketConfig, TokenBucket};
use super::error::{Field, InvalidValue, Rule};
use super::number::{push_uint, rust_number, DecimalText, NumberText};
use super::session::{ms_ceil, Action, Log, Session, MAX_BURST};
use super::traffic::{Pattern, MAX_TRAFFIC_RATE};

/// The version this module writes (the text's first field).
pub const SCENARIO_VERSION: &str = "1";
/// The longest scenario text read or written.
pub const MAX_SCENARIO_CHARS: usize = 2000;
/// The most actions in a scenario.
pub const MAX_SCENARIO_ACTIONS: usize = 200;
/// The longest scenario, in lesson seconds.
pub const MAX_SCENARIO_SECONDS: f64 = 3600.0;
/// The longest piece of the text quoted back in an error.
const QUOTED: usize = 24;

/// Why a scenario text was refused: which part (0 for the text as a whole or its header, `n` for
/// the n-th action), the piece quoted (cut short), and what is wrong, as data
/// ([`ScenarioFault`], for a page that words it in its reader's language) and in English
/// ([`ScenarioError::message_with`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// 0: the text or its header; n: the n-th action.
    pub action: usize,
    /// The offending piece of text, at most a few characters.
    pub piece: String,
    /// What is wrong, with the values that say so.
    pub fault: ScenarioFault,
}

/// What is wrong with a scenario's text (or with a recording too long to write as one), with what
/// was found; [`ScenarioFault::code`] names the kind.
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioFault {
    /// The text (or the link it would make) is this many characters long, over
    /// [`MAX_SCENARIO_CHARS`].
    Chars(usize),
    /// A character other than ASCII letters, digits and `. _ , - +`.
    Character(char),
    /// The text does not start with the version, `1_`.
    Version,
    /// The text has fewer than the four header fields, `1_B_r_tokens_end`.
    Header,
    /// This many actions, over [`MAX_SCENARIO_ACTIONS`].
    Actions(usize),
    /// The recording lasts this many seconds, over [`MAX_SCENARIO_SECONDS`] (only when writing).
    Seconds(f64),
    /// A number (in the header or an action) that its field's rule refuses.
    Value(InvalidValue),
    /// An action with no letter (`None`) or with one that is none of `s c C z t p x`.
    Letter(Option<char>),
    /// Action `letter`, which takes `takes` numbers, was given another count.
    Arguments {
        /// The action's letter.
        letter: char,
        /// How many numbers it takes.
        takes: usize,
    },
    /// An action's time, before the previous action's (`from`) or after the end (`to`).
    Order {
        /// The previous action's time (0 for the first).
        from: f64,
        /// The scenario's end.
        to: f64,
    },
}

impl ScenarioFault {
    /// The kind as a short name (`chars`, `character`, `version`, `header`, `actions`,
    /// `seconds`, `value`, `letter`, `arguments`, `order`), the key of its text in a page's
    /// locale tables.
    pub fn code(&self) -> &'static str {
        self.data().0
    }

    /// The kind's code and its values as two numbers (NaN where there is none), for a page that
    /// words the refusal itself: `chars`, `actions`, `seconds`: what it has and the most
    /// allowed; `character`, `letter`: the character's code point; `arguments`: the letter's
    /// code point and how many numbers it takes; `order`: the previous action's time and the
    /// end. A refused number's values are its [`InvalidValue`]'s.
    pub fn data(&self) -> (&'static str, [f64; 2]) {
        let code = |c: char| f64::from(u32::from(c));
        let none = f64::NAN;
        match *self {
            ScenarioFault::Chars(n) => ("chars", [n as f64, MAX_SCENARIO_CHARS as f64]),
            ScenarioFault::Character(c) => ("character", [code(c), none]),
            ScenarioFault::Version => ("version", [none, none]),
            ScenarioFault::Header => ("header", [none, none]),
            ScenarioFault::Actions(n) => ("actions", [n as f64, MAX_SCENARIO_ACTIONS as f64]),
            ScenarioFault::Seconds(n) => ("seconds", [n, MAX_SCENARIO_SECONDS]),
            ScenarioFault::Value(_) => ("value", [none, none]),
            ScenarioFault::Letter(c) => ("letter", [c.map_or(none, code), none]),
            ScenarioFault::Arguments { letter, takes } => {
                ("arguments", [code(letter), takes as f64])
            }
            ScenarioFault::Order { from, to } => ("order", [from, to]),
        }
    }
}

/// Said after a refusal that only a shorter recording avoids.
const RECORD_SHORTER: &str = " (reset the diagram and record a shorter scenario)";

impl ScenarioError {
    fn new(action: usize, piece: &str, fault: ScenarioFault) -> Self {
        let mut quoted: String = piece.chars().take(QUOTED).collect();
        // Longer than what was kept: `chars().count()` would bring a large vectorised counter
        // into the wasm (as in `Given::describe`).
        if quoted.len() < piece.len() {
            quoted.push('…');
        }
        ScenarioError {
            action,
            piece: quoted,
            fault,
        }
    }

    /// One sentence, numbers written by Rust: see [`ScenarioError::message_with`].
    pub fn message(&self) -> String {
        self.message_with(rust_number)
    }

    /// One sentence, numbers written by `number`: `scenario action 3 "0.5q1": …`,
    /// `scenario "…": …` for the header, or `scenario: …` for a recording too long to write
    /// (there is no text to quote).
    pub fn message_with(&self, number: NumberText) -> String {
        let mut out = String::from("scenario");
        if self.action > 0 {
            out.push_str(" action ");
            push_uint(&mut out, self.action as u64);
        }
        if !self.piece.is_empty() {
            out.push_str(" \"");
            out.push_str(&self.piece);
            out.push('"');
        }
        out.push_str(": ");
        // Writing (no piece) and reading (the text quoted) word a length differently.
        let writing = self.piece.is_empty();
        match &self.fault {
            ScenarioFault::Chars(count) => {
                out.push_str(if writing {
                    "the link would be "
                } else {
                    "the text is "
                });
                push_uint(&mut out, *count as u64);
                out.push_str(" characters long; at most ");
                push_uint(&mut out, MAX_SCENARIO_CHARS as u64);
                if writing {
                    out.push_str(RECORD_SHORTER);
                }
            }
            ScenarioFault::Character(bad) => {
                out.push_str("the character \"");
                out.push(*bad);
                out.push_str("\" is not allowed (letters, digits and . _ , - + only)");
            }
            ScenarioFault::Version => out.push_str("it must start with the version 1_"),
            ScenarioFault::Header => out.push_str("it must start with 1_B_r_tokens_end"),
            ScenarioFault::Actions(count) => {
                out.push_str("it has ");
                push_uint(&mut out, *count as u64);
                out.push_str(" actions; at most ");
                push_uint(&mut out, MAX_SCENARIO_ACTIONS as u64);
                out.push_str(RECORD_SHORTER);
            }
            ScenarioFault::Seconds(seconds) => {
                out.push_str("it lasts ");
                out.push_str(&number(*seconds));
                out.push_str(" s; at most ");
                out.push_str(&number(MAX_SCENARIO_SECONDS));
                out.push_str(RECORD_SHORTER);
            }
            ScenarioFault::Value(err) => out.push_str(&err.message_with(err.field.name(), number)),
            ScenarioFault::Letter(None) => out.push_str("no action letter (s, c, C, z, t, p or x)"),
            ScenarioFault::Letter(Some(letter)) => {
                out.push_str("unknown action \"");
                out.push(*letter);
                out.push_str("\" (allowed: s, c, C, z, t, p, x)");
            }
            ScenarioFault::Arguments { letter, takes } => {
                out.push_str("action \"");
                out.push(*letter);
                out.push_str("\" takes ");
                push_uint(&mut out, *takes as u64);
                out.push_str(" numbers separated by commas");
            }
            ScenarioFault::Order { from, to } => {
                // The first action has no previous one: its time starts at 0.
                out.push_str(if self.action > 1 {
                    "its time must be from the previous action's ("
                } else {
                    "its time must be from the start ("
                });
                out.push_str(&number(*from));
                out.push_str(") to the end (");
                out.push_str(&number(*to));
                out.push(')');
            }
        }
        out
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for ScenarioError {}

/// A scenario: the starting bucket, the actions at their lesson times, and the lesson time it
/// ends at (when it was recorded).
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The bucket at lesson time 0 (and what "reset" returns to until a `C` action).
    pub config: BucketConfig,
    /// The actions that change decisions, oldest first, with their lesson times.
    pub steps: Vec<(f64, Action)>,
    /// The lesson time at which the recording stopped.
    pub end: f64,
}

impl Scenario {
    /// The scenario of a session's `log`, ending at lesson time `end`, resets included, clock
    /// actions left out. It starts at the session's start, or at the first reset after which
    /// what follows fits a link (at most [`MAX_SCENARIO_SECONDS`] and
    /// [`MAX_SCENARIO_ACTIONS`]): there the bucket is its reset target's, as it starts, with no
    /// traffic. Its times count from a second before its first action (or from that start, if
    /// later), where the bucket holds what the refill gave it since: a link stays openable
    /// however long the page was open. It ends at `end`, or, when no traffic runs after its last
    /// action, an hour after its start if that action came within the hour: the time after, in
    /// which nothing happened but the refill, is left out, so a few clicks made before a long
    /// pause still fit a link (the bucket at its end is then as that hour left it). Times are
    /// rounded to the millisecond, which the session's own action times already are, so the
    /// replay decides as the session did.
    pub fn from_log(log: &Log, end: f64) -> Scenario {
        Scenario::from_log_after(log, end, 0)
    }

    /// The text of the link for `log` at `end`: [`Scenario::from_log`], encoded; when that text
    /// would be longer than a link may be, the recording since the last reset, as the refusal
    /// asks ("reset the diagram and record a shorter scenario"), which a reset under the action
    /// and seconds bounds would not otherwise start.
    pub fn link(log: &Log, end: f64, number: NumberText) -> Result<String, ScenarioError> {
        let whole = Scenario::from_log(log, end).encode(number);
        let last_reset = log
            .entries()
            .iter()
            .filter(|e| !e.action.is_clock())
            .enumerate()
            .filter(|(_, e)| e.action == Action::Reset)
            .last();
        match (&whole, last_reset) {
            (Err(err), Some((i, _))) if matches!(err.fault, ScenarioFault::Chars(_)) => {
                Scenario::from_log_after(log, end, i + 1).encode(number)
            }
            _ => whole,
        }
    }

    /// [`Scenario::from_log`], starting no earlier than action `min_start` (of those not the
    /// clock's), which follows a reset.
    fn from_log_after(log: &Log, end: f64, min_start: usize) -> Scenario {
        let entries: Vec<(f64, Action)> = log
            .entries()
            .iter()
            .filter(|e| !e.action.is_clock())
            .map(|e| (e.at, e.action))
            .collect();
        // Whether traffic runs after the last action (a reset stops it): then the time after is
        // no pause, and the recording runs to `end`. Else what must fit a link ends there.
        let runs = entries
            .iter()
            .fold(false, |runs, (_, action)| match action {
                Action::Traffic { .. } => true,
                Action::StopTraffic | Action::Reset => false,
                _ => runs,
            });
        let busy_until = match entries.last() {
            Some((at, _)) if !runs => *at,
            _ => end,
        };
        // Where it starts: (first entry kept, lesson time, the bucket then).
        let mut target = *log.config();
        let mut start = (0, 0.0, target);
        for (i, (at, action)) in entries.iter().enumerate() {
            match *action {
                Action::Reconfigure {
                    config,
                    initial: true,
                } => target = config,
                Action::Reset
                    if i < min_start
                        || busy_until - start.1 > MAX_SCENARIO_SECONDS
                        || entries.len() - start.0 > MAX_SCENARIO_ACTIONS =>
                {
                    start = (i + 1, *at, target);
                }
                _ => {}
            }
        }
        let (from, cut, mut config) = start;
        let kept = &entries[from..];
        // Nothing happens between the start and the first action but the refill, so the
        // scenario may begin later with the tokens it gave, unless a reset, which returns to the
        // starting tokens, would then return to those.
        let mut origin = cut;
        let first = kept.first().map_or(end, |(at, _)| *at);
        let later = (ms_round(first - 1.0)).max(cut);
        if let Ok(tokens) = TokenBucket::started_at(config, cut).and_then(|b| b.tokens_at(later)) {
            if tokens == config.initial_tokens() || !kept.iter().any(|(_, a)| *a == Action::Reset) {
                if let Ok(rebased) = config.with_initial_tokens(tokens) {
                    config = rebased;
                    origin = later;
                }
            }
        }
        let steps: Vec<(f64, Action)> = kept
            .iter()
            .map(|(at, action)| (ms_round(at - origin), *action))
            .collect();
        let last = steps.last().map_or(0.0, |(at, _)| *at);
        // A page left open long after its last action, no traffic running: the recording stops
        // an hour in, so that a few clicks stay a link. Actions over an hour apart, or traffic
        // running longer, are refused as before, for what they last.
        let end = ms_ceil(end - origin);
        let end = if !runs && last <= MAX_SCENARIO_SECONDS {
            end.min(MAX_SCENARIO_SECONDS).max(last)
        } else {
            end
        };
        Scenario { config, steps, end }
    }

    /// The text, numbers written by `number` (Rust's natively, JavaScript's in wasm: both give
    /// the shortest text that reads back as the same number). Refused when it would be longer
    /// or hold more actions than a link may.
    pub fn encode(&self, number: NumberText) -> Result<String, ScenarioError> {
        if self.steps.len() > MAX_SCENARIO_ACTIONS {
            return Err(too_many(self.steps.len()));
        }
        // As `decode` checks it: a link that could never open is not written.
        if self.end > MAX_SCENARIO_SECONDS || self.end.is_nan() {
            return Err(ScenarioError::new(0, "", ScenarioFault::Seconds(self.end)));
        }
        let c = &self.config;
        let mut out = String::from(SCENARIO_VERSION);
        for value in [c.capacity(), c.refill_rate(), c.initial_tokens(), self.end] {
            out.push('_');
            out.push_str(&number(value));
        }
        for (at, action) in &self.steps {
            out.push('_');
            out.push_str(&number(*at));
            let (letter, args): (char, [Option<f64>; 2]) = match *action {
                Action::Send { cost, count } => ('s', [Some(cost), Some(f64::from(count))]),
                Action::Reconfigure { config, initial } => (
                    if initial { 'C' } else { 'c' },
                    [Some(config.capacity()), Some(config.refill_rate())],
                ),
                Action::Reset => ('z', [None, None]),
                Action::Traffic {
                    pattern,
                    rate,
                    seed,
                } => (
                    if pattern == Pattern::Steady { 't' } else { 'p' },
                    [Some(rate), Some(seed as f64)],
                ),
                Action::StopTraffic => ('x', [None, None]),
                // Clock actions are never kept (see `from_log`).
                _ => continue,
            };
            out.push(letter);
            for (i, arg) in args.iter().flatten().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&number(*arg));
            }
        }
        if out.len() > MAX_SCENARIO_CHARS {
            return Err(ScenarioError::new(0, "", ScenarioFault::Chars(out.len())));
        }
        Ok(out)
    }

    /// Reads and checks a scenario text; `decimal` converts checked number literals.
    pub fn decode(text: &str, decimal: DecimalText) -> Result<Scenario, ScenarioError> {
        let refuse = |fault| Err(ScenarioError::new(0, text, fault));
        // A text of more bytes than that may still be short in characters (and then holds a
        // character no scenario has, refused below); the refusal counts characters, as it says.
        if text.len() > MAX_SCENARIO_CHARS {
            let chars = text.chars().count();
            if chars > MAX_SCENARIO_CHARS {
                return refuse(ScenarioFault::Chars(chars));
            }
        }
        if let Some(bad) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ',' | '-' | '+')))
        {
            return refuse(ScenarioFault::Character(bad));
        }
        let mut fields = text.split('_');
        if fields.next() != Some(SCENARIO_VERSION) {
            return refuse(ScenarioFault::Version);
        }
        let header: Vec<&str> = fields.by_ref().take(4).collect();
        let [b, r, tokens, end] = header.as_slice() else {
            return refuse(ScenarioFault::Header);
        };
        let in_header = |err| ScenarioError::new(0, text, ScenarioFault::Value(err));
        let num = |field, piece: &str, rule| read(field, piece, rule, decimal);
        let capacity = num(Field::Capacity, b, Rule::Positive).map_err(in_header)?;
        let rate = num(Field::RefillRate, r, Rule::NonNegative).map_err(in_header)?;
        let tokens = num(Field::Tokens, tokens, Rule::UpTo(capacity)).map_err(in_header)?;
        let end =
            num(Field::Now, end, Rule::Between(0.0, MAX_SCENARIO_SECONDS)).map_err(in_header)?;
        let config = BucketConfig::new(capacity, rate)
            .and_then(|c| c.with_initial_tokens(tokens))
            .map_err(in_header)?;

        let mut steps = Vec::new();
        let mut last = 0.0;
        for (i, piece) in fields.enumerate() {
            let n = i + 1;
            if n > MAX_SCENARIO_ACTIONS {
                let count = n + text.split('_').skip(5 + n).count();
                return Err(too_many(count));
            }
            let step =
                read_action(piece, decimal).map_err(|fault| ScenarioError::new(n, piece, fault))?;
            if step.0 < last || step.0 > end {
                let fault = ScenarioFault::Order {
                    from: last,
                    to: end,
                };
                return Err(ScenarioError::new(n, piece, fault));
            }
            last = step.0;
            steps.push(step);
        }
        Ok(Scenario { config, steps, end })
    }

    /// The scenario played into a stopped session held at its end.
    pub fn play(&self) -> Result<Session, InvalidValue> {
        Session::play(self.config, self.steps.iter().copied(), self.end)
    }
}

/// `t` rounded to the nearest millisecond.
fn ms_round(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

fn too_many(count: usize) -> ScenarioError {
    ScenarioError::new(0, "", ScenarioFault::Actions(count))
}

/// `piece` as a number of `field` checked by `rule` (the link's text holds no spaces or
/// decimal commas: the character check and the separators keep them out).
fn read(field: Field, piece: &str, rule: Rule, decimal: DecimalText) -> Result<f64, InvalidValue> {
    InvalidValue::parse_with(field, piece, rule, decimal)
}

/// One action, `time letter arguments`; the error is what is wrong with it.
fn read_action(piece: &str, decimal: DecimalText) -> Result<(f64, Action), ScenarioFault> {
    let why = ScenarioFault::Value;
    let (time, rest) = piece
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .and_then(|split| piece.split_at_checked(split))
        .ok_or(ScenarioFault::Letter(None))?;
    let at = read(
        Field::Now,
        time,
        Rule::Between(0.0, MAX_SCENARIO_SECONDS),
        decimal,
    )
    .map_err(why)?;
    let mut chars = rest.chars();
    let letter = chars.next().unwrap_or(' ');
    let args: Vec<&str> = match chars.as_str() {
        "" => Vec::new(),
        list => list.split(',').collect(),
    };
    let arity = if matches!(letter, 'z' | 'x') { 0 } else { 2 };
    if !matches!(letter, 's' | 'c' | 'C' | 'z' | 't' | 'p' | 'x') {
        return Err(ScenarioFault::Letter(Some(letter)));
    }
    if args.len() != arity {
        return Err(ScenarioFault::Arguments {
            letter,
            takes: arity,
        });
    }
    let arg = |i: usize, field, rule| read(field, args[i], rule, decimal).map_err(why);
    let action = match letter {
        's' => Action::Send {
            cost: arg(0, Field::Cost, Rule::NonNegative)?,
            count: arg(1, Field::BurstSize, Rule::Whole(1, MAX_BURST))? as u32,
        },
        'c' | 'C' => Action::Reconfigure {
            config: BucketConfig::new(
                arg(0, Field::Capacity, Rule::Positive)?,
                arg(1, Field::RefillRate, Rule::NonNegative)?,
            )
            .map_err(why)?,
            initial: letter == 'C',
        },
        't' | 'p' => Action::Traffic {
            pattern: if letter == 't' {
                Pattern::Steady
            } else {
                Pattern::Poisson
            },
            rate: arg(0, Field::TrafficRate, Rule::PositiveUpTo(MAX_TRAFFIC_RATE))?,
            seed: arg(1, Field::Seed, Rule::Whole(0, u32::MAX))? as u64,
        },
        'z' => Action::Reset,
        _ => Action::StopTraffic,
    };
    Ok((at, action))
}
