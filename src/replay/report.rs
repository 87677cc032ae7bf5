//! What a replay found, shaped as `bucketlab replay --json` prints it (field names in camelCase).

use super::timestamp::EpochUnit;
use super::unreadable::Unreadable;
use crate::limiter::Never;
use serde::Serialize;

/// The result of a replay.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Lines read, blank and malformed ones included.
    pub lines: u64,
    /// Requests replayed (lines that parsed, not counting a CSV header).
    pub requests: u64,
    /// Lines that did not parse.
    pub malformed: u64,
    /// The first few malformed lines (at most [`MALFORMED_EXAMPLES`]).
    pub malformed_examples: Vec<Malformed>,
    /// Distinct keys.
    pub keys: u64,
    /// Requests the limiter refused, those that could never pass included.
    pub limited: u64,
    /// Of the `limited` requests, those the token bucket refused for good, by reason (a cost
    /// above `B`, or a bucket short with `r = 0`): waiting would not let them through, so they
    /// are counted apart from the refusals a client could retry. Absent when there are none,
    /// which is always so for the lab's limiters: they count requests of cost 1 with a whole
    /// `B ≥ 1` and `r > 0`, so every request they refuse would pass later.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub never: Option<NeverCounts>,
    /// Every key, most requests first (ties by key).
    pub by_key: Vec<KeyCount>,
    /// With `--recommend`: the policy found, or `null` when there was nothing to recommend for.
    /// Absent without `--recommend`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<Option<Recommendation>>,
    /// How the times were read when the log wrote them as numbers: each unit met (told by the
    /// number's size, [`EpochUnit::of`]), in the order of its first line. Absent when no time
    /// was a number. Two or more mean the log mixes units; each line was still read in its own
    /// unit, which is right for logs of different units joined together and wrong for a clock
    /// that does not count from 1970: the reports warn, naming each unit's first line, rather
    /// than refuse a log that no flag could then get through.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub epoch_units: Vec<EpochUnitCount>,
    /// Requests whose time was earlier than the latest of their key's before them: each was
    /// replayed at that latest time (a bucket's clock does not go back), which piles such
    /// requests up at one instant. Logs joined from several servers (one file per node) do
    /// this at every file boundary; sorted by time, they do not. Absent when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backwards: Option<Backwards>,
    /// `true` when every request's time was a whole second (the `combined` and `common` formats
    /// without nginx's `$msec`, epoch seconds without a fraction): requests of the same second
    /// are replayed as simultaneous (more limited) and close ones either side of a second's end
    /// a whole second apart (fewer): the limited counts may be off either way. Absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub whole_second_times: bool,
}

/// The requests whose time went back from the latest of their key.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Backwards {
    /// How many.
    pub requests: u64,
    /// The first of their lines, counting from 1.
    pub first_line: u64,
    /// The largest step back, seconds.
    pub largest_step: f64,
}

impl Backwards {
    /// Counts a request of line `line` that came `step` seconds before its key's latest.
    pub fn add(this: &mut Option<Backwards>, line: u64, step: f64) {
        let counted = this.get_or_insert(Backwards {
            requests: 0,
            first_line: line,
            largest_step: 0.0,
        });
        counted.requests += 1;
        counted.largest_step = counted.largest_step.max(step);
    }
}

/// The refused requests that could never pass, by reason (see [`Never`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeverCounts {
    /// Requests whose cost is above the capacity: no bucket of that `B` ever holds them. Absent
    /// when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub cost_exceeds_capacity: u64,
    /// The largest of their costs, what `B` would have to reach; absent when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest_cost: Option<f64>,
    /// Requests short of tokens with a refill rate of 0: nothing is ever added. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub no_refill: u64,
}

impl NeverCounts {
    /// Counts a request of cost `cost` refused for good because of `why`.
    pub fn add(this: &mut Option<NeverCounts>, why: Never, cost: f64) {
        let counted = this.get_or_insert_with(NeverCounts::default);
        match why {
            Never::CostExceedsCapacity => {
                counted.cost_exceeds_capacity += 1;
                counted.largest_cost = Some(counted.largest_cost.map_or(cost, |c| c.max(cost)));
            }
            Never::NoRefill => counted.no_refill += 1,
        }
    }

    /// How many, whatever the reason.
    pub fn total(&self) -> u64 {
        self.cost_exceeds_capacity + self.no_refill
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The requests whose time was a number read in one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpochUnitCount {
    /// `seconds`, `milliseconds`, `microseconds` or `nanoseconds`.
    pub unit: EpochUnit,
    /// Requests replayed with their time in this unit.
    pub requests: u64,
    /// The first of their lines, counting from 1.
    pub first_line: u64,
}

/// How many malformed lines a report quotes.
pub const MALFORMED_EXAMPLES: usize = 5;

/// A line that did not parse. `--json` prints `why` as the command's English, as it always has,
/// and `reason` as the code and values the page words (`{ "code": "noTimeField", "field": "ts" }`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Malformed {
    /// Its number, counting from 1.
    pub line: u64,
    /// Why it did not parse, in the command's English (`reason` said).
    pub why: String,
    /// Why it did not parse, as data.
    pub reason: Unreadable,
}

impl Malformed {
    /// Line `line`, unreadable for `reason`.
    pub fn new(line: u64, reason: Unreadable) -> Malformed {
        Malformed {
            line,
            why: reason.to_string(),
            reason,
        }
    }
}

/// One key's figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyCount {
    /// The key (client address, field value or column).
    pub key: String,
    /// Its requests.
    pub requests: u64,
    /// How many of them the limiter refused.
    pub limited: u64,
}

/// A token-bucket policy that meets a target, with what it limits in this log (replayed through
/// the core's bucket, not estimated).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    /// `B`, a whole number of tokens.
    pub capacity: f64,
    /// `r`, tokens per second, a rate of the curve's grid.
    pub refill_rate: f64,
    /// The target as written (`keys:99%`).
    pub target: String,
    /// Keys with at least one request refused.
    pub keys_limited: u64,
    /// Requests refused.
    pub requests_limited: u64,
}

/// The burst–rate curve of the keys, at every rate of the grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Curves {
    /// The rates, ascending, requests per second.
    pub rates: Vec<f64>,
    /// At each rate, the capacity half of the keys stay within (nearest rank).
    pub median: Vec<f64>,
    /// The capacity 95 % of the keys stay within.
    pub p95: Vec<f64>,
    /// The capacity 99 % of the keys stay within.
    pub p99: Vec<f64>,
    /// The key with the most requests (the first of `byKey`), and its own curve.
    pub heaviest: Option<(String, Vec<f64>)>,
}
