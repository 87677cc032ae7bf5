//! A whole replay driven from outside, chunk by chunk, as a browser worker reads a file: the
//! first pass (report and curves), the recommendation's passes, then a pass that follows the
//! busiest key. After each pass the caller is told whether to read the input again from its start;
//! it never needs the whole input at once.
//!
//! ```
//! use bucketlab::replay::job::{Job, Next};
//! use bucketlab::replay::{Policy, Settings};
//!
//! let log = b"1.0,alice\n1.0,alice\n1.5,bob\n";
//! let settings = Settings {
//!     format: None,
//!     key: None,
//!     time_field: None,
//!     policy: Policy::new("token-bucket", 1.0, 1.0)?,
//!     target: None,
//! };
//! let mut job = Job::new(settings);
//! loop {
//!     for chunk in log.chunks(4) {
//!         job.feed(chunk);
//!     }
//!     if job.end_of_input() == Next::Done {
//!         break;
//!     }
//! }
//! let outcome = job.outcome().expect("done");
//! assert_eq!((outcome.report.requests, outcome.report.limited), (3, 1));
//! assert_eq!(outcome.trace.as_ref().map(|t| t.key.as_str()), Some("alice"));
//! # Ok::<(), bucketlab::replay::SetupError>(())
//! ```

use super::check::PolicyCheck;
use super::export::{exports, Export};
use super::format::{KeySpec, Parser};
use super::input::ChunkLines;
use super::pass::{Policy, Replay, Settings};
use super::recommend::{Candidate, Search};
use super::report::{Curves, Report};
use super::setup::{Problem, Remedy, SetupError};
use super::trace::{KeyTrace, Trace};
use crate::limiter::BucketConfig;
use serde::Serialize;

/// What the caller does after the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Feed the input again from its start: another pass.
    Again,
    /// Finished (or failed): read [`Job::outcome`] or [`Job::error`].
    Done,
}

/// Why a job stopped.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum JobError {
    /// A setting that does not fit the log (its format could not be found, a key field absent…).
    Setup {
        /// The setting, as the command spells it.
        option: &'static str,
        /// The value given, if any.
        value: Option<String>,
        /// What is wrong and what is allowed: `{ code, …values }`, for the front end to word.
        why: Problem,
        /// The setting to name, if naming one would help (`nameFormat`, …); `null` otherwise.
        remedy: Option<Remedy>,
    },
    /// The input itself could not be read (a gzip stream cut short or corrupt).
    Input {
        /// What went wrong.
        why: String,
    },
}

impl From<SetupError> for JobError {
    fn from(e: SetupError) -> Self {
        JobError::Setup {
            option: e.option,
            value: e.value,
            why: e.why,
            remedy: e.remedy,
        }
    }
}

/// Everything a finished job found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// The figures `bucketlab replay --json` prints (every key, most requests first).
    pub report: Report,
    /// The burst–rate curves.
    pub curves: Curves,
    /// The format read (detected or given); `None` for an input without a line.
    pub format: Option<&'static str>,
    /// The key followed by the last trace pass (the busiest one at first).
    pub trace: Option<Trace>,
    /// The policy replayed, written for nginx, Envoy, the YAML policy and the Redis script.
    pub exports: Vec<Export>,
}

enum Stage {
    First(Box<Replay>),
    Check {
        search: Search,
        candidates: Vec<Candidate>,
        check: Box<PolicyCheck>,
    },
    Trace(Box<KeyTrace>),
    Done,
    Failed(JobError),
}

/// A replay fed from outside; see the module's example.
pub struct Job {
    policy: Policy,
    config: BucketConfig,
    lines: ChunkLines,
    stage: Stage,
    outcome: Option<Outcome>,
    parser: Option<Parser>,
}

impl Job {
    /// A job with `settings`, at the start of its first pass.
    pub fn new(settings: Settings) -> Job {
        let policy = settings.policy;
        let config = match policy {
            Policy::TokenBucket(config) => config,
            // The lab's limiters are "B per B / r seconds": the bucket with the same B and r.
            Policy::Lab {
                quota, refill_rate, ..
            } => BucketConfig::new(f64::from(quota.limit()), refill_rate)
                .expect("a checked quota is a valid bucket"),
        };
        Job {
            policy,
            config,
            lines: ChunkLines::new(),
            stage: Stage::First(Box::new(Replay::new(settings))),
            outcome: None,
            parser: None,
        }
    }

    /// Takes the next chunk of the input. Returns `false` once the job has failed, so the caller
    /// can stop reading (then call [`Job::end_of_input`]).
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        let stage = &mut self.stage;
        let read = self.lines.feed(chunk, |line| match stage {
            Stage::First(replay) => replay.line(line),
            Stage::Check { check, .. } => check.line(line),
            Stage::Trace(trace) => trace.line(line),
            Stage::Done | Stage::Failed(_) => {}
        });
        if let Err(e) = read {
            self.fail(JobError::Input { why: e.to_string() });
        }
        match &self.stage {
            Stage::First(replay) => replay.failure().is_none(),
            Stage::Failed(_) | Stage::Done => false,
            _ => true,
        }
    }

    fn fail(&mut self, error: JobError) {
        self.stage = Stage::Failed(error);
        self.outcome = None;
    }

    /// Ends the current pass; says whether another is needed.
    pub fn end_of_input(&mut self) -> Next {
        let stage = &mut self.stage;
        let ended = self.lines.finish(|line| match stage {
            Stage::First(replay) => replay.line(line),
            Stage::Check { check, .. } => check.line(line),
            Stage::Trace(trace) => trace.line(line),
            Stage::Done | Stage::Failed(_) => {}
        });
        // A reader that stopped once the first pass failed (as `feed` invites) leaves a gzip
        // stream unfinished: the setting that failed is the error, not the cut stream.
        let stopped = match &self.stage {
            Stage::First(replay) => replay.failure().is_some(),
            Stage::Failed(_) => true,
            _ => false,
        };
        if let (Err(e), false) = (ended, stopped) {
            self.fail(JobError::Input { why: e.to_string() });
        }
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::First(replay) => self.after_first(*replay),
            Stage::Check {
                mut search,
                candidates,
                check,
            } => {
                search.narrow(&candidates, &(*check).finish());
                self.search(search)
            }
            Stage::Trace(trace) => {
                if let Some(outcome) = self.outcome.as_mut() {
                    outcome.trace = Some(trace.finish());
                }
                Next::Done
            }
            Stage::Done => Next::Done,
            Stage::Failed(error) => {
                self.stage = Stage::Failed(error);
                Next::Done
            }
        }
    }

    fn after_first(&mut self, replay: Replay) -> Next {
        let finished = match replay.finish() {
            Ok(finished) => finished,
            Err(e) => {
                self.fail(e.into());
                return Next::Done;
            }
        };
        let format = finished.parser.as_ref().map(|p| p.format().name());
        self.parser = finished.parser;
        let mut report = finished.report;
        if finished.search.is_some() || report.recommendation.is_some() {
            report.recommendation = Some(None);
        }
        self.outcome = Some(Outcome {
            report,
            curves: finished.curves,
            format,
            trace: None,
            exports: exports(
                self.config,
                &self.parser.as_ref().map_or(KeySpec::Ip, Parser::key),
            ),
        });
        match finished.search {
            Some(search) => self.search(search),
            None => self.trace_busiest(),
        }
    }

    /// The next pass of the recommendation's search, or its result and the trace pass.
    fn search(&mut self, search: Search) -> Next {
        let candidates = search.candidates();
        let parser = self.parser.clone();
        if let (false, Some(parser)) = (candidates.is_empty(), parser) {
            if let Ok(check) = PolicyCheck::new(parser, &candidates) {
                self.stage = Stage::Check {
                    search,
                    candidates,
                    check: Box::new(check),
                };
                return Next::Again;
            }
        }
        if let Some(outcome) = self.outcome.as_mut() {
            outcome.report.recommendation = Some(search.result());
        }
        self.trace_busiest()
    }

    fn trace_busiest(&mut self) -> Next {
        let busiest = self
            .outcome
            .as_ref()
            .and_then(|o| o.report.by_key.first())
            .map(|k| k.key.clone());
        match busiest {
            Some(key) => self.trace(&key),
            None => Next::Done,
        }
    }

    /// After a finished job: a pass that follows `key` instead (for its timeline and scenario).
    /// [`Next::Done`] when there is nothing to follow (no such key, or the job failed).
    pub fn trace(&mut self, key: &str) -> Next {
        let known = self
            .outcome
            .as_ref()
            .is_some_and(|o| o.report.by_key.iter().any(|k| k.key == key));
        match (&self.parser, known, &self.stage) {
            (Some(parser), true, Stage::Done) => {
                let trace = KeyTrace::new(parser.clone(), key, &self.policy, self.config);
                self.stage = Stage::Trace(Box::new(trace));
                self.lines = ChunkLines::new();
                Next::Again
            }
            _ => Next::Done,
        }
    }

    /// The result, once [`Job::end_of_input`] said [`Next::Done`] and nothing failed.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self.stage {
            Stage::Done => self.outcome.as_ref(),
            _ => None,
        }
    }

    /// Why the job stopped, if it failed.
    pub fn error(&self) -> Option<&JobError> {
        match &self.stage {
            Stage::Failed(error) => Some(error),
            _ => None,
        }
    }
}
