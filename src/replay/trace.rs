//! One key's trace, from a further pass over the log: its requests per moment (admitted and
//! refused by the policy replayed) for a timeline, and its first requests as a scenario the
//! lesson's diagram can play: those of its first [`SPAN`] seconds, the stretch the diagram's
//! timeline shows, so the reader can step through the whole scenario from its start.

use super::format::{Parsed, Parser};
use super::lines::Line;
use super::pass::{KeyLimiter, Policy};
use crate::limiter::{
    rust_number, Action, BucketConfig, Scenario, MAX_SCENARIO_ACTIONS, MAX_SCENARIO_CHARS, SPAN,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// The most bars a timeline has.
pub const TIMELINE_BARS: usize = 240;
/// The most requests the diagram sends in one action.
const MAX_GROUP: u32 = crate::limiter::MAX_BURST;

/// What a trace pass found about one key.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// The key.
    pub key: String,
    /// Its requests.
    pub requests: u64,
    /// Epoch seconds of its first request (the timeline's origin).
    pub start: f64,
    /// Seconds each bar of the timeline covers (a whole number, at least 1).
    pub bar_seconds: f64,
    /// Requests admitted in each bar.
    pub admitted: Vec<u64>,
    /// Requests refused in each bar.
    pub limited: Vec<u64>,
    /// The key's first requests as a scenario text for the diagram's `playScenario` (times from
    /// its first request, to the millisecond; those of its first [`SPAN`] seconds, ending by
    /// then); `None` when not even its first request fits one (it costs more than `B`).
    pub scenario: Option<String>,
    /// How many of the key's requests the scenario holds.
    pub scenario_requests: u64,
}

/// A pass that follows one key.
pub struct KeyTrace {
    parser: Parser,
    key: String,
    config: BucketConfig,
    limiter: KeyLimiter,
    requests: u64,
    start: Option<f64>,
    /// Per whole second since `start`: admitted, refused.
    seconds: BTreeMap<u64, (u64, u64)>,
    /// The scenario's actions so far: time since `start` (ms), cost, count.
    steps: Vec<(f64, f64, u32)>,
    /// Set once a request falls outside what a scenario can hold.
    steps_closed: bool,
}

impl KeyTrace {
    /// A pass over the log read by `parser` (fresh, from the first pass) that follows `key`
    /// through a limiter of `policy`; `config` is the token bucket the scenario starts with.
    pub fn new(parser: Parser, key: &str, policy: &Policy, config: BucketConfig) -> Self {
        KeyTrace {
            parser,
            key: key.to_owned(),
            config,
            limiter: policy.limiter(),
            requests: 0,
            start: None,
            seconds: BTreeMap::new(),
            steps: Vec::new(),
            steps_closed: false,
        }
    }

    /// Reads the next line; other keys' lines and malformed lines are skipped.
    pub fn line(&mut self, line: Line<'_>) {
        let Parsed::Event(event) = self.parser.line(line) else {
            return;
        };
        if *event.key != *self.key {
            return;
        }
        let Ok(fate) = self.limiter.decide(event.time, event.cost) else {
            return;
        };
        let refused = fate.refused();
        self.requests += 1;
        let start = *self.start.get_or_insert(event.time);
        let since = (event.time - start).max(0.0);
        let second = self.seconds.entry(since as u64).or_default();
        if refused {
            second.1 += 1;
        } else {
            second.0 += 1;
        }
        self.step(since, event.cost);
    }

    /// Adds a request to the scenario while it fits.
    fn step(&mut self, since: f64, cost: f64) {
        if self.steps_closed {
            return;
        }
        let at = (since * 1000.0).round() / 1000.0;
        // Times may go back in a log; the diagram's may not (the bucket treats them as now).
        let at = self.steps.last().map_or(at, |&(last, _, _)| at.max(last));
        // Past the timeline's span the diagram could not scrub back to the scenario's start. A
        // request costing more than B stays: the diagram refuses it for good, as the log's server
        // did.
        if at >= SPAN {
            self.steps_closed = true;
            return;
        }
        if let Some(last) = self.steps.last_mut() {
            if last.0 == at && last.1 == cost && last.2 < MAX_GROUP {
                last.2 += 1;
                return;
            }
        }
        if self.steps.len() == MAX_SCENARIO_ACTIONS {
            self.steps_closed = true;
            return;
        }
        self.steps.push((at, cost, 1));
    }

    /// The key's trace, in at most [`TIMELINE_BARS`] bars.
    pub fn finish(mut self) -> Trace {
        let span = self.seconds.keys().next_back().map_or(0, |&s| s + 1);
        let bar = span.div_ceil(TIMELINE_BARS as u64).max(1);
        let bars = span.div_ceil(bar) as usize;
        let (mut admitted, mut limited) = (vec![0; bars], vec![0; bars]);
        for (second, (a, l)) in &self.seconds {
            admitted[(second / bar) as usize] += a;
            limited[(second / bar) as usize] += l;
        }
        let (scenario, scenario_requests) = self.scenario();
        Trace {
            key: self.key,
            requests: self.requests,
            start: self.start.unwrap_or(0.0),
            bar_seconds: bar as f64,
            admitted,
            limited,
            scenario,
            scenario_requests,
        }
    }

    /// The scenario text, dropping its last actions until it fits a link.
    fn scenario(&mut self) -> (Option<String>, u64) {
        while !self.steps.is_empty() {
            let end = self.steps.last().map_or(0.0, |s| s.0);
            let scenario = Scenario {
                config: self.config,
                steps: self
                    .steps
                    .iter()
                    .map(|&(at, cost, count)| (at, Action::Send { cost, count }))
                    .collect(),
                end: (end + 1.0).min(SPAN),
            };
            match scenario.encode(rust_number) {
                Ok(text) => {
                    let requests = self.steps.iter().map(|s| u64::from(s.2)).sum();
                    return (Some(text), requests);
                }
                Err(_) => {
                    // Each action takes at least 4 characters: cut to what may fit, then one more.
                    let fit = MAX_SCENARIO_CHARS / 4;
                    let keep = (self.steps.len() - 1).min(fit);
                    self.steps.truncate(keep);
                }
            }
        }
        (None, 0)
    }
}
