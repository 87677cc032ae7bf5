//! The lesson's rate-limit policy file: tiers of buckets, where their state lives, what identifies
//! a client and what a refused request gets. Parsed from YAML with `serde_norway`; every value is
//! checked while it is read, so an error carries the line, the path (`tiers.search.capacity`) and
//! what is allowed.
//!
//! ```
//! use bucketlab::limiter::policy::{Policy, Storage};
//!
//! let policy = Policy::from_yaml(
//!     "tiers:\n  default: { capacity: 10, refill_rate: 5 }\nstorage: redis\nkey_by: ip\n\
//!      on_deny: { status: 429, retry_after: true }\n",
//! )?;
//! assert_eq!(policy.tier("default").unwrap().capacity(), 10.0);
//! assert_eq!(policy.storage, Storage::Redis);
//! # Ok::<(), bucketlab::limiter::policy::PolicyError>(())
//! ```

use super::number::rust_number;
use super::{BucketConfig, Field, Given, InvalidValue, Rule};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;

/// The tier every policy must have: what applies to a route that names none.
pub const DEFAULT_TIER: &str = "default";

/// A whole policy file.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// Named buckets, in file order of their names (sorted).
    pub tiers: BTreeMap<String, BucketConfig>,
    /// Where the buckets' state lives.
    pub storage: Storage,
    /// What identifies one client, so each gets its own bucket.
    pub key_by: KeyBy,
    /// The response to a refused request.
    pub on_deny: OnDeny,
    /// Buckets per plan (`anonymous`, `free`, `paid`…): one per client of that plan, in name order.
    /// Optional; empty when the file has none.
    pub plans: BTreeMap<String, BucketConfig>,
    /// Tokens a request to an endpoint costs (`/search: 5`); an endpoint not listed costs 1.
    /// Optional; empty when the file has none.
    pub costs: BTreeMap<String, f64>,
}

/// Where the buckets' state lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Storage {
    /// Each server's own memory: one bucket per client *per server*.
    Memory,
    /// A shared Redis, updated by one atomic script per request.
    Redis,
}

/// What identifies one client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyBy {
    /// The client's IP address (before login there is nothing better).
    Ip,
    /// The API token sent with the request.
    ApiToken,
    /// The logged-in user.
    UserId,
}

/// The response to a refused request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OnDeny {
    /// `429` (Too Many Requests) or `503` (Service Unavailable).
    pub status: Status,
    /// Whether to send `Retry-After`.
    pub retry_after: bool,
}

/// An HTTP status allowed for a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Status(pub u16);

/// What a policy error is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Problem {
    /// The text is not YAML (or not the shape of a policy): `message` is the parser's, in English.
    Syntax { message: String },
    /// A key the policy does not know; `expected` lists the allowed ones.
    UnknownField { name: String, expected: Vec<String> },
    /// A required key is absent.
    MissingField { name: String },
    /// A word that is not one of `expected` (for `storage`, `key_by`).
    UnknownVariant {
        given: String,
        expected: Vec<String>,
    },
    /// A value of the wrong kind (a list where a number belongs, …): `message` is the parser's;
    /// `expected` says what belongs there, when it is one a page words (`None` otherwise).
    InvalidType {
        message: String,
        expected: Option<Expected>,
    },
    /// A number outside its rule (`capacity`, `refill_rate`).
    InvalidValue {
        field: String,
        /// `positive` or `nonNegative`.
        rule_kind: &'static str,
        given: String,
    },
    /// A number written in quotes (`capacity: "5"`), which YAML reads as text, where
    /// `rule_kind` asks for a number; `given` is the text without its quotes.
    QuotedNumber {
        field: String,
        /// `positive` or `nonNegative`.
        rule_kind: &'static str,
        given: String,
    },
    /// An integer written with a leading zero (`capacity: 010`), which the parser reads as text
    /// (YAML 1.1 took it for octal); `number` is how to write it (`10`).
    LeadingZero {
        field: String,
        given: String,
        number: String,
    },
    /// A status other than 429 or 503.
    InvalidStatus { given: String },
    /// No `default` tier.
    MissingDefaultTier,
    /// A key written twice in one mapping (two `default:` tiers, `capacity` twice in a tier);
    /// the error's line is the second one's.
    DuplicateKey { name: String },
    /// A second YAML document (after a `---` line): a policy is one. The error's line is where
    /// the second starts, when the text shows it.
    SeveralDocuments,
}

/// What belongs where a value of the wrong kind was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Expected {
    /// `true` or `false` (`retry_after`); YAML 1.1's `yes` and `on` are text to this parser.
    Boolean,
    /// `429` or `503` (`on_deny.status`).
    Status,
    /// A number (`capacity`, `refill_rate`, a cost).
    Number,
    /// A mapping of fields (a tier, `on_deny`, `tiers` itself).
    Mapping,
}

/// Why a policy was refused, and where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyError {
    /// 1-based line, when the parser knows it.
    pub line: Option<usize>,
    /// 1-based column, when the parser knows it.
    pub column: Option<usize>,
    /// Dotted path of the value (`tiers.search.capacity`), or `""` for the whole file.
    pub path: String,
    /// What is wrong.
    pub problem: Problem,
    /// The whole message in English, as a developer's log would show it.
    pub message: String,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PolicyError {}

impl Policy {
    /// Parses and checks a policy file.
    // The error is large (its position, path, problem and message) and made at most once per edit
    // of the Config tab's text: boxing it would buy nothing a reader could notice.
    #[allow(clippy::result_large_err)]
    pub fn from_yaml(text: &str) -> Result<Policy, PolicyError> {
        REFUSED.with(|r| r.borrow_mut().take());
        // A byte-order mark (some editors on Windows start a file with one) is no part of the
        // policy, and the parser does not skip it: it misread the text after it (a policy with
        // every field was "missing storage" on line 1). It is no line break, so lines keep their
        // numbers.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let refusal = |err| from_parser(err, text);
        let parsed = serde_norway::from_str::<File>(text);
        // A key written twice: the maps keep the last one silently, and serde's own check of a
        // struct's fields places its error at the mapping's first line. So a file read well, or
        // refused for that, is read again for repeated keys, each named where it is repeated.
        // (Not before: any other error the parser meets, earlier or later in the text, is
        // named first; the repeat then comes once that one is mended.)
        let repeated_field =
            |err: &serde_norway::Error| err.to_string().contains("duplicate field `");
        if parsed.as_ref().err().is_none_or(repeated_field) {
            serde_norway::from_str::<NoRepeatedKeys>(text).map_err(refusal)?;
        }
        let file = parsed.map_err(refusal)?;
        let tiers: BTreeMap<String, BucketConfig> = file
            .tiers
            .into_iter()
            .map(|(name, tier)| (name, tier.config))
            .collect();
        if !tiers.contains_key(DEFAULT_TIER) {
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with("tiers:"))
                .map(|i| i + 1);
            return Err(PolicyError {
                line,
                column: line.map(|_| 1),
                path: "tiers".into(),
                problem: Problem::MissingDefaultTier,
                message: "tiers: a tier named `default` is required".into(),
            });
        }
        Ok(Policy {
            tiers,
            storage: file.storage,
            key_by: file.key_by,
            on_deny: file.on_deny,
            plans: file
                .plans
                .into_iter()
                .map(|(name, plan)| (name, plan.config))
                .collect(),
            costs: file
                .costs
                .into_iter()
                .map(|(endpoint, cost)| (endpoint, cost.value))
                .collect(),
        })
    }

    /// The bucket of tier `name`.
    pub fn tier(&self, name: &str) -> Option<&BucketConfig> {
        self.tiers.get(name)
    }

    /// The bucket of plan `name`.
    pub fn plan(&self, name: &str) -> Option<&BucketConfig> {
        self.plans.get(name)
    }

    /// What a request to `endpoint` costs: its listed cost, or 1.
    pub fn cost(&self, endpoint: &str) -> f64 {
        self.costs.get(endpoint).copied().unwrap_or(1.0)
    }
}

/// Any YAML value, read only to refuse a mapping, at any depth, that writes a key twice.
struct NoRepeatedKeys;

impl<'de> Deserialize<'de> for NoRepeatedKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Walk)
    }
}

/// The visitor of [`NoRepeatedKeys`]: accepts every value, and checks each mapping's keys.
struct Walk;

impl<'de> Visitor<'de> for Walk {
    type Value = NoRepeatedKeys;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_unit<E: de::Error>(self) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_none<E: de::Error>(self) -> Result<NoRepeatedKeys, E> {
        Ok(NoRepeatedKeys)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<NoRepeatedKeys, A::Error> {
        while seq.next_element::<NoRepeatedKeys>()?.is_some() {}
        Ok(NoRepeatedKeys)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<NoRepeatedKeys, A::Error> {
        let mut seen = BTreeSet::new();
        while map.next_key_seed(NewKey(&mut seen))?.is_some() {
            map.next_value::<NoRepeatedKeys>()?;
        }
        Ok(NoRepeatedKeys)
    }
    // A tagged value (`!name value`): its value is walked as any other.
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<NoRepeatedKeys, A::Error> {
        use de::VariantAccess;
        let (de::IgnoredAny, value) = data.variant()?;
        value.newtype_variant::<NoRepeatedKeys>()
    }
}

/// A mapping's key, refused if `.0` already holds it. Keys are compared as text, as the policy's
/// maps and fields read them: `/search` and `"/search"` are one key. The check runs inside the
/// key's own visitor, so the error points at the repeated key, not at the mapping's first line.
struct NewKey<'a>(&'a mut BTreeSet<String>);

impl<'de> de::DeserializeSeed<'de> for NewKey<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NewKey<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<(), E> {
        if self.0.insert(key.to_owned()) {
            Ok(())
        } else {
            Err(E::custom(format!("duplicate key `{key}`")))
        }
    }
}

/// The file as written; tiers are checked into `BucketConfig`s while they are read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    tiers: BTreeMap<String, TierEntry>,
    storage: Storage,
    key_by: KeyBy,
    on_deny: OnDeny,
    #[serde(default)]
    plans: BTreeMap<String, TierEntry>,
    #[serde(default)]
    costs: BTreeMap<String, Checked<CostRule>>,
}

struct TierEntry {
    config: BucketConfig,
}

impl<'de> Deserialize<'de> for TierEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Tier {
            capacity: Checked<CapacityRule>,
            refill_rate: Checked<RefillRateRule>,
        }
        let tier = Tier::deserialize(deserializer)?;
        // Each value already passed its rule, so the pair is a valid config.
        let config = BucketConfig::new(tier.capacity.value, tier.refill_rate.value)
            .map_err(de::Error::custom)?;
        Ok(TierEntry { config })
    }
}

// The refused value of the last failed parse on this thread. serde's errors are text; this keeps
// the structured `InvalidValue` so a page can say the same thing in its own language.
thread_local! {
    static REFUSED: RefCell<Option<InvalidValue>> = const { RefCell::new(None) };
}

/// What the number's and the status's visitors expect, as serde's "invalid type" message quotes it.
const EXPECTED_NUMBER: &str = "a number";
const EXPECTED_STATUS: &str = "429 or 503";

/// A numeric field and its rule.
trait NumberRule {
    const FIELD: Field;
    const RULE: Rule;
}

struct CapacityRule;
impl NumberRule for CapacityRule {
    const FIELD: Field = Field::Capacity;
    const RULE: Rule = Rule::Positive;
}

struct CostRule;
impl NumberRule for CostRule {
    const FIELD: Field = Field::Cost;
    const RULE: Rule = Rule::Positive;
}

struct RefillRateRule;
impl NumberRule for RefillRateRule {
    const FIELD: Field = Field::RefillRate;
    const RULE: Rule = Rule::NonNegative;
}

/// A number checked against `R` inside the parser's visitor, so an error points at the value itself.
struct Checked<R> {
    value: f64,
    rule: PhantomData<R>,
}

impl<'de, R: NumberRule> Deserialize<'de> for Checked<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Check<R>(PhantomData<R>);
        impl<R: NumberRule> Check<R> {
            fn refuse<E: de::Error>(&self, given: Given) -> E {
                let err = InvalidValue {
                    field: R::FIELD,
                    given,
                    rule: R::RULE,
                };
                let message = err.to_string();
                REFUSED.with(|r| *r.borrow_mut() = Some(err));
                E::custom(message)
            }
            fn number<E: de::Error>(&self, value: f64) -> Result<Checked<R>, E> {
                InvalidValue::check(R::FIELD, value, R::RULE)
                    .map(|value| Checked {
                        value,
                        rule: PhantomData,
                    })
                    .map_err(|err| self.refuse(err.given))
            }
        }
        impl<'de, R: NumberRule> Visitor<'de> for Check<R> {
            type Value = Checked<R>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECTED_NUMBER)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                self.number(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                self.number(v as f64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                self.number(v as f64)
            }
            // The parser hands an integer beyond 64 bits (from ±2^64, as the replay's export
            // spells out a large B) to these: a number all the same, checked by its rule.
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
                self.number(v as f64)
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
                self.number(v as f64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                // Digits a double can't hold (`1e400`, 400 of them) are text to the parser, with
                // quotes or without: called too large, as every reader of a number calls them.
                let given = match v.parse::<f64>() {
                    Ok(value) if !value.is_finite() => Given::not_finite(v),
                    _ => Given::Text(v.to_owned()),
                };
                Err(self.refuse(given))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Err(self.refuse(Given::Text(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Err(self.refuse(Given::Missing))
            }
        }
        deserializer.deserialize_any(Check::<R>(PhantomData))
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A visitor, not a value read and then checked, so the error points at the value itself.
        struct Check;
        impl Check {
            fn code<E: de::Error>(&self, code: impl fmt::Display) -> Result<Status, E> {
                match code.to_string().as_str() {
                    "429" => Ok(Status(429)),
                    "503" => Ok(Status(503)),
                    other => Err(E::custom(format!("status must be 429 or 503, got {other}"))),
                }
            }
        }
        impl<'de> Visitor<'de> for Check {
            type Value = Status;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECTED_STATUS)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Status, E> {
                self.code(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Status, E> {
                self.code(v)
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Status, E> {
                self.code(v)
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Status, E> {
                self.code(v)
            }
            // Written as a number is written in an error (`4.4e+299`, not 300 digits the text
            // did not have); 429.0 is 429.
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Status, E> {
                self.code(rust_number(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Status, E> {
                self.code(v)
            }
        }
        deserializer.deserialize_any(Check)
    }
}

/// Turns the parser's error into a `PolicyError`, recovering the structure serde flattened to text;
/// `source` is the text parsed, where a position is looked at when the message can't tell.
fn from_parser(err: serde_norway::Error, source: &str) -> PolicyError {
    let location = err.location();
    let mut line = location.as_ref().map(|l| l.line());
    let mut column = location.as_ref().map(|l| l.column());
    let full = err.to_string();
    // serde_norway writes "path: message at line L column C"; take the parts apart again.
    let without_mark = match full.rfind(" at line ") {
        Some(at) => &full[..at],
        None => &full,
    };
    let (path, text) = match without_mark.split_once(": ") {
        Some((path, rest)) if !path.contains(' ') => (path.to_owned(), rest),
        _ => (String::new(), without_mark),
    };
    let quoted = backticked(text);
    let problem = if let Some(refused) = REFUSED.with(|r| r.borrow_mut().take()) {
        refused_number(refused, written_in_quotes(source, line, column))
    } else if text.starts_with("status must be") {
        Problem::InvalidStatus {
            given: text.rsplit("got ").next().unwrap_or_default().to_owned(),
        }
    } else if let Some(name) = text
        .strip_prefix("duplicate key `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        Problem::DuplicateKey {
            name: name.to_owned(),
        }
    } else if text.starts_with("unknown field") {
        Problem::UnknownField {
            name: quoted.first().cloned().unwrap_or_default(),
            expected: quoted.into_iter().skip(1).collect(),
        }
    } else if text.starts_with("missing field") {
        Problem::MissingField {
            name: quoted.first().cloned().unwrap_or_default(),
        }
    } else if text.starts_with("unknown variant") {
        Problem::UnknownVariant {
            given: quoted.first().cloned().unwrap_or_default(),
            expected: quoted.into_iter().skip(1).collect(),
        }
    } else if text.starts_with("invalid type") {
        Problem::InvalidType {
            message: text.to_owned(),
            expected: expected_in(text),
        }
    } else if text.starts_with("deserializing from YAML containing more than one document") {
        // The parser gives no position for this one.
        line = second_document_line(source);
        column = line.map(|_| 1);
        Problem::SeveralDocuments
    } else {
        Problem::Syntax {
            message: text.to_owned(),
        }
    };
    PolicyError {
        line,
        column,
        path,
        problem,
        message: full,
    }
}

/// The problem of a number its rule refused; `quoted` tells whether it was written in quotes.
fn refused_number(refused: InvalidValue, quoted: bool) -> Problem {
    let field = refused.field.name().to_owned();
    let rule_kind = match refused.rule {
        Rule::NonNegative => "nonNegative",
        _ => "positive",
    };
    match refused.given {
        // Text that reads as a number: in quotes, or an integer with a leading zero, which the
        // parser takes for text without them. (One out of f64's range, 1e400, is text to the
        // parser either way, and is named as too large.)
        Given::Text(given) if given.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
            if quoted {
                Problem::QuotedNumber {
                    field,
                    rule_kind,
                    given,
                }
            } else if let Some(number) = without_leading_zeros(&given) {
                Problem::LeadingZero {
                    field,
                    given,
                    number,
                }
            } else {
                Problem::InvalidValue {
                    field,
                    rule_kind,
                    given,
                }
            }
        }
        given => Problem::InvalidValue {
            field,
            rule_kind,
            given: match given {
                Given::Number(v) => v.to_string(),
                Given::Text(t) | Given::TooLarge(t) | Given::TooSmall(t) | Given::Ambiguous(t) => t,
                Given::Missing | Given::Unreadable => String::new(),
                Given::Type(t) => t.to_owned(),
            },
        },
    }
}

/// `given` without the leading zeros of its digits (`-010` → `-10`, `00` → `0`), if it is an
/// integer that has some: the parser reads such a one as text.
fn without_leading_zeros(given: &str) -> Option<String> {
    let digits = given.trim_start_matches(['-', '+']);
    let sign = &given[..given.len() - digits.len()];
    let whole =
        digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit());
    whole.then(|| {
        let kept = digits.trim_start_matches('0');
        format!("{sign}{}", if kept.is_empty() { "0" } else { kept })
    })
}

/// Whether the value at `line`, `column` (1-based, in characters, as the parser counts) of
/// `source` is written in quotes, after its anchor (`&base`) or tag (`!!str`) if it has one.
fn written_in_quotes(source: &str, line: Option<usize>, column: Option<usize>) -> bool {
    let (Some(line), Some(column)) = (line, column) else {
        return false;
    };
    let Some(text) = source.lines().nth(line.saturating_sub(1)) else {
        return false;
    };
    let rest: String = text.chars().skip(column.saturating_sub(1)).collect();
    let value = rest
        .split_whitespace()
        .find(|word| !word.starts_with(['&', '!']))
        .unwrap_or_default();
    value.starts_with(['"', '\''])
}

/// What an "invalid type" message of serde's says belongs there, when it is one a page words.
fn expected_in(message: &str) -> Option<Expected> {
    match message.rsplit_once(", expected ")?.1 {
        "a boolean" => Some(Expected::Boolean),
        EXPECTED_STATUS => Some(Expected::Status),
        EXPECTED_NUMBER => Some(Expected::Number),
        what if what == "a map" || what.starts_with("struct ") => Some(Expected::Mapping),
        _ => None,
    }
}

/// The 1-based line where `source`'s second YAML document starts: its `---` line, or its first
/// line of content after a `...` line that ended the first one.
fn second_document_line(source: &str) -> Option<usize> {
    let mut started = false;
    let mut ended = false;
    for (index, line) in source.lines().enumerate() {
        let marker = |mark: &str| {
            line.strip_prefix(mark)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        };
        let content = !line.trim().is_empty() && !line.trim_start().starts_with('#');
        if marker("---") || (ended && content && !line.starts_with('%')) {
            if started {
                return Some(index + 1);
            }
            started = true;
        } else if marker("...") {
            ended = started;
        } else if content && !line.starts_with('%') {
            started = true;
        }
    }
    None
}

/// The words between backticks in a serde message (`unknown field `x`, expected `a`, `b``).
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}
