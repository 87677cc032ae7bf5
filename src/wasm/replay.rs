//! The replay's wasm boundary (module `bucketlab_replay`, feature `replay`), used by the lesson's
//! "Your traffic" worker: a `ReplayJob` fed the file's chunks pass after pass, and `sampleLog`.
//! The core does all the work (src/replay/job.rs); results cross as JSON text, one string per
//! job, rather than thousands of small objects.
//!
//! ```js
//! const job = new ReplayJob({ capacity: 5, refillRate: 1, target: 'keys:99%' });
//! do {
//!   for await (const chunk of file.stream()) if (!job.feed(chunk)) break;
//! } while (job.endOfInput());          // true: read the file again from its start
//! const result = JSON.parse(job.result());  // { outcome } or { error }
//! ```

use super::convert::{describe, field, number, read_object};
use crate::limiter::{Field, Rule};
use crate::replay::job::{Job, Next};
use crate::replay::{Format, KeySpec, Policy, Settings, Target, ALGORITHMS};
use wasm_bindgen::prelude::*;

const OPTION_KEYS: [&str; 7] = [
    "format",
    "key",
    "timeField",
    "algorithm",
    "capacity",
    "refillRate",
    "target",
];

/// A replay of one log, fed from JavaScript.
#[wasm_bindgen]
pub struct ReplayJob {
    job: Job,
}

#[wasm_bindgen]
impl ReplayJob {
    /// `{ capacity, refillRate, format?, key?, timeField?, algorithm?, target? }`, the command's
    /// flags by their JavaScript names (`key: 'field:user'`, `target: 'keys:99%'`). Throws an
    /// `Error` naming the option, the value and what is allowed.
    #[wasm_bindgen(constructor)]
    pub fn new(options: &JsValue) -> Result<ReplayJob, JsError> {
        let options = read_object("options", options, &OPTION_KEYS)?;
        let text = |key: &str| -> Result<Option<String>, JsError> {
            let value = field("options", &options, key)?;
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            value.as_string().map(Some).ok_or_else(|| {
                JsError::new(&format!(
                    "options.{key} must be text, got {}",
                    describe(&value)
                ))
            })
        };
        let refuse = |key: &str, value: &str, why: String| {
            JsError::new(&format!("options.{key} \"{value}\": {why}"))
        };
        let format = match text("format")? {
            Some(name) => Some(Format::from_name(&name).ok_or_else(|| {
                refuse(
                    "format",
                    &name,
                    "allowed: combined, common, json, alb, csv".to_owned(),
                )
            })?),
            None => None,
        };
        let key = match text("key")? {
            Some(spec) => Some(KeySpec::parse(&spec).map_err(|why| refuse("key", &spec, why))?),
            None => None,
        };
        let target = match text("target")? {
            Some(spec) => Some(Target::parse(&spec).map_err(|why| refuse("target", &spec, why))?),
            None => None,
        };
        let algorithm = text("algorithm")?.unwrap_or_else(|| ALGORITHMS[0].to_owned());
        let capacity = number(
            Field::Capacity,
            &field("options", &options, "capacity")?,
            Rule::Positive,
        )?;
        let refill_rate = number(
            Field::RefillRate,
            &field("options", &options, "refillRate")?,
            Rule::NonNegative,
        )?;
        let policy = Policy::new(&algorithm, capacity, refill_rate).map_err(|e| {
            let name = match e.option {
                "refill-rate" => "refillRate",
                other => other,
            };
            JsError::new(&format!(
                "options.{name} \"{}\": {}",
                e.value.unwrap_or_default(),
                e.why
            ))
        })?;
        Ok(ReplayJob {
            job: Job::new(Settings {
                format,
                key,
                time_field: text("timeField")?,
                policy,
                target,
            }),
        })
    }

    /// Takes the next chunk of the file; `false` once the job has failed (stop reading, then
    /// call `endOfInput`).
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        self.job.feed(chunk)
    }

    /// Ends a pass over the file: `true` when another pass is needed (read it again from its
    /// start), `false` when the result is ready.
    #[wasm_bindgen(js_name = endOfInput)]
    pub fn end_of_input(&mut self) -> bool {
        self.job.end_of_input() == Next::Again
    }

    /// After the result: a pass that follows `key` (its timeline and scenario); `true` when the
    /// file must be read once more for it.
    pub fn trace(&mut self, key: &str) -> bool {
        self.job.trace(key) == Next::Again
    }

    /// The result as JSON text: `{ "outcome": { report, curves, format, trace, exports } }` or
    /// `{ "error": { kind: "setup" | "input", … } }`; `{}` while passes remain.
    pub fn result(&self) -> String {
        let value = match (self.job.outcome(), self.job.error()) {
            (Some(outcome), _) => serde_json::json!({ "outcome": outcome }),
            (_, Some(error)) => serde_json::json!({ "error": error }),
            _ => serde_json::json!({}),
        };
        value.to_string()
    }
}

/// The seeded sample log (`lines` lines of nginx `combined` with `$msec`), as text.
#[wasm_bindgen(js_name = sampleLog)]
pub fn sample_log(seed: u32, lines: u32) -> String {
    crate::replay::sample::sample_log(u64::from(seed), lines as usize)
}
