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

use super::convert::{checked, describe, field, number, read_object, string, wrong_type};
use crate::limiter::{Field, Rule};
use crate::replay::job::{Job, JobError, Next};
use crate::replay::sample::MAX_SAMPLE_LINES;
use crate::replay::{Format, KeySpec, Policy, Problem, Settings, SetupError, Target, ALGORITHMS};
use js_sys::{Reflect, Uint8Array, JSON};
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
    /// `Error` naming the option, the value and what is allowed; when the value itself is refused
    /// (not its type), the `Error`'s `setup` says so as data, for a page to word.
    #[wasm_bindgen(constructor)]
    pub fn new(options: &JsValue) -> Result<ReplayJob, JsValue> {
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
        let refuse = |option, value: &str, why| {
            refused(SetupError {
                option,
                value: Some(value.to_owned()),
                why,
                remedy: None,
            })
        };
        let format = match text("format")? {
            Some(name) => Some(Format::from_name(&name).ok_or_else(|| {
                refuse(
                    "format",
                    &name,
                    Problem::OneOf {
                        allowed: &Format::NAMES,
                    },
                )
            })?),
            None => None,
        };
        let key = match text("key")? {
            Some(spec) => Some(KeySpec::parse(&spec).map_err(|why| refuse("key", &spec, why))?),
            None => None,
        };
        // Not a setup error: the page's menu offers only targets the command takes.
        let target = match text("target")? {
            Some(spec) => Some(
                Target::parse(&spec)
                    .map_err(|why| JsError::new(&format!("options.target \"{spec}\": {why}")))?,
            ),
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
        let policy = Policy::new(&algorithm, capacity, refill_rate).map_err(refused)?;
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

    /// Takes the next chunk of the file (a `Uint8Array`, as a stream's reader hands it out);
    /// `false` once the job has failed (stop reading, then call `endOfInput`). Any other value
    /// throws an `Error` naming `chunk` and its type: the glue of a `&[u8]` would read a string's
    /// characters as bytes of 0.
    pub fn feed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] chunk: &JsValue,
    ) -> Result<bool, JsError> {
        let Some(bytes) = chunk.dyn_ref::<Uint8Array>() else {
            return Err(wrong_type(
                "chunk",
                "a Uint8Array (the file's next bytes)",
                chunk,
            ));
        };
        Ok(self.job.feed(&bytes.to_vec()))
    }

    /// Ends a pass over the file: `true` when another pass is needed (read it again from its
    /// start), `false` when the result is ready.
    #[wasm_bindgen(js_name = endOfInput)]
    pub fn end_of_input(&mut self) -> bool {
        self.job.end_of_input() == Next::Again
    }

    /// After the result: a pass that follows `key` (its timeline and scenario); `true` when the
    /// file must be read once more for it. A `key` that is not a string throws an `Error` naming
    /// it and its type.
    pub fn trace(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: &JsValue,
    ) -> Result<bool, JsError> {
        let key = string(
            "key",
            key,
            "a string (a client's key, as the report lists it)",
        )?;
        Ok(self.job.trace(&key) == Next::Again)
    }

    /// The result as JSON text: `{ "outcome": { report, curves, format, trace, exports } }` or
    /// `{ "error": { kind: "setup" | "input", … } }` (a setup error's `why` is
    /// `{ code, …values }`, a sentence of `errors.why` in `locales/<lang>/traffic.json`); `{}` while
    /// passes remain.
    pub fn result(&self) -> String {
        let value = match (self.job.outcome(), self.job.error()) {
            (Some(outcome), _) => serde_json::json!({ "outcome": outcome }),
            (_, Some(error)) => serde_json::json!({ "error": error }),
            _ => serde_json::json!({}),
        };
        value.to_string()
    }
}

/// A setting the core refuses, thrown: an `Error` with the command's English message
/// (`options.refillRate "0": gcra needs a refill rate above 0: its window is B / r`) and, in its
/// `setup`, the refusal as data shaped as `result()`'s setup error (`{ kind: "setup", option,
/// value, why: { code, … }, remedy }`), so a page words it in its own language.
fn refused(e: SetupError) -> JsValue {
    let name = match e.option {
        "refill-rate" => "refillRate",
        "time-field" => "timeField",
        other => other,
    };
    let message = format!(
        "options.{name} \"{}\": {}",
        e.value.as_deref().unwrap_or_default(),
        e.why
    );
    let error = JsValue::from(JsError::new(&message));
    let setup = serde_json::to_string(&JobError::from(e))
        .ok()
        .and_then(|json| JSON::parse(&json).ok());
    if let Some(setup) = setup {
        // A data property on a fresh Error: cannot fail.
        let _ = Reflect::set(&error, &JsValue::from_str("setup"), &setup);
    }
    error
}

/// The seeded sample log (`lines` lines of nginx `combined` with `$msec`), as text: `seed` a whole
/// number from 0 to 4294967295, `lines` one from 1 to [`MAX_SAMPLE_LINES`]. Any other value (`-1`,
/// `2**32 + 5`, `"x"`) throws an `Error` naming the argument, the value and what is allowed,
/// with the same as data in its `problem`; none is wrapped or truncated.
#[wasm_bindgen(js_name = sampleLog)]
pub fn sample_log(
    #[wasm_bindgen(unchecked_param_type = "number")] seed: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] lines: &JsValue,
) -> Result<String, JsError> {
    let seed = checked(Field::Seed, seed, Rule::Whole(0, u32::MAX))?;
    let lines = checked(Field::Arg("lines"), lines, Rule::Whole(1, MAX_SAMPLE_LINES))?;
    Ok(crate::replay::sample::sample_log(
        seed as u64,
        lines as usize,
    ))
}
