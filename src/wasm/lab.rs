//! The lab's wasm boundary: one function, `simulate(options)`. The whole run happens inside wasm in
//! one call; results come back as typed arrays, not one object per request.
//!
//! ```js
//! const run = simulate({
//!   algorithms: ['fixedWindow', 'slidingLog'],   // default: all seven
//!   traffic: { pattern: 'windowEdge' },            // or steady/burst/poisson/ramp/pasted
//!   duration: 3, seed: 1, limit: 10, window: 1,    // limit and window default to 10 per 1 s
//! });
//! run.lanes[0].peak  // 20: the most passed within one window's span (here 1 s)
//! ```

use super::convert::{self, describe, field, not_one_of, number, object, read_object, to_js};
use crate::limiter::lab::{
    self, Algorithm, LabError, LabField, Quota, Simulation, Traffic, MAX_RATE,
};
use crate::limiter::{Field, Rule};
use js_sys::{Array, Float64Array, Uint8Array};
use wasm_bindgen::prelude::*;

const OPTION_KEYS: [&str; 7] = [
    "algorithms",
    "traffic",
    "duration",
    "seed",
    "limit",
    "window",
    "samples",
];
const PATTERNS: [&str; 6] = ["steady", "burst", "poisson", "ramp", "windowEdge", "pasted"];
const DEFAULT_SAMPLES: f64 = 200.0;
const RATE: Rule = Rule::PositiveUpTo(MAX_RATE);

/// Runs one trace through the chosen limiters. Returns
/// `{ arrivals: Float64Array, duration, limit, window, sampleInterval, lanes: [{ algorithm,
/// admitted, delayed, denied, peak (the most passed on within one window's span), peakStart,
/// outcomes: Uint8Array (0 admitted, 1 delayed, 2 denied), delays: Float64Array, samples:
/// Float64Array }] }`.
/// Throws an `Error` naming the option, the value and what is allowed.
#[wasm_bindgen]
pub fn simulate(options: &JsValue) -> Result<JsValue, JsError> {
    let options = read_object("options", options, &OPTION_KEYS)?;
    let get = |key: &str| field("options", &options, key);
    // Left out: the default; given (a form field left empty is `undefined`): checked.
    let optional = |key: &str, field: Field, rule: Rule, default: f64| {
        convert::optional("options", &options, key, field, rule, default)
    };
    let limit = optional(
        "limit",
        Field::Lab(LabField::Limit),
        Rule::Whole(1, lab::MAX_LIMIT),
        10.0,
    )?;
    let window = optional(
        "window",
        Field::Lab(LabField::Window),
        lab::WINDOW_RULE,
        1.0,
    )?;
    let quota = Quota::new(limit as u32, window).map_err(to_js)?;
    let duration_rule = Rule::PositiveUpTo(lab::MAX_DURATION);
    let duration = number(
        Field::Lab(LabField::Duration),
        &get("duration")?,
        duration_rule,
    )?;
    let duration = lab::check_duration(duration).map_err(to_js)?;
    let seed = optional("seed", Field::Seed, Rule::Whole(0, u32::MAX), 0.0)?;
    let samples = optional(
        "samples",
        Field::Lab(LabField::Samples),
        Rule::Whole(2, 10_000),
        DEFAULT_SAMPLES,
    )?;
    let algorithms = algorithms(&get("algorithms")?)?;
    let traffic = traffic(&get("traffic")?, duration)?;
    // A duration too long for the rate is a refused value like any other: its `problem` too.
    let arrivals = traffic
        .arrivals(quota, duration, seed as u64)
        .map_err(|err| match err {
            LabError::Value(err) => to_js(err),
            LabError::Pasted(err) => pasted_error(&err),
        })?;
    let run = lab::simulate(&algorithms, quota, arrivals, duration, samples as usize);
    Ok(to_object(&run, quota, duration).into())
}

/// `algorithms`: an array of distinct names; all seven when left out.
fn algorithms(value: &JsValue) -> Result<Vec<Algorithm>, JsError> {
    if value.is_undefined() {
        return Ok(Algorithm::ALL.to_vec());
    }
    let names = Algorithm::ALL.map(|a| format!("{:?}", a.name())).join(", ");
    if !Array::is_array(value) || Array::from(value).length() == 0 {
        let given = if Array::is_array(value) {
            "an empty array".to_owned()
        } else {
            describe(value)
        };
        return Err(JsError::new(&format!(
            "algorithms must be a non-empty array of names from {names}, got {given}"
        )));
    }
    let mut chosen = Vec::new();
    for (index, item) in Array::from(value).iter().enumerate() {
        let algorithm = item
            .as_string()
            .and_then(|name| Algorithm::from_name(&name));
        match algorithm {
            Some(a) if chosen.contains(&a) => {
                return Err(JsError::new(&format!(
                    "algorithms[{index}] is {:?} again; name each algorithm once",
                    a.name()
                )))
            }
            Some(a) => chosen.push(a),
            None => {
                let what = format!("algorithms[{index}]");
                return Err(not_one_of(&what, Algorithm::ALL.map(|a| a.name()), &item));
            }
        }
    }
    Ok(chosen)
}

/// `traffic`: `{ pattern, ...that pattern's settings }`.
fn traffic(value: &JsValue, duration: f64) -> Result<Traffic, JsError> {
    let pattern_value = if value.is_object() {
        js_sys::Reflect::get(value, &JsValue::from_str("pattern")).unwrap_or_default()
    } else {
        JsValue::UNDEFINED
    };
    let pattern = pattern_value.as_string().unwrap_or_default();
    let keys: &[&str] = match pattern.as_str() {
        "steady" | "poisson" => &["pattern", "rate"],
        "burst" => &["pattern", "size", "every"],
        "ramp" => &["pattern", "from", "to"],
        "windowEdge" => &["pattern"],
        "pasted" => &["pattern", "timestamps"],
        _ if !value.is_object() => &[],
        _ => return Err(not_one_of("traffic.pattern", PATTERNS, &pattern_value)),
    };
    let traffic = read_object("traffic", value, keys)?;
    let setting = |key: &str, lab_field: LabField, rule: Rule| {
        number(
            Field::Lab(lab_field),
            &field("traffic", &traffic, key)?,
            rule,
        )
    };
    let checked = match pattern.as_str() {
        "steady" => Traffic::steady(setting("rate", LabField::Rate, RATE)?),
        "poisson" => Traffic::poisson(setting("rate", LabField::Rate, RATE)?),
        "burst" => Traffic::burst(
            setting("size", LabField::Size, Rule::Whole(1, 10_000))?,
            setting("every", LabField::Every, Rule::Positive)?,
        ),
        "ramp" => Traffic::ramp(
            setting("from", LabField::From, Rule::UpTo(MAX_RATE))?,
            setting("to", LabField::To, Rule::UpTo(MAX_RATE))?,
        ),
        "windowEdge" => Ok(Traffic::WindowEdge),
        _ => return pasted_times(&field("traffic", &traffic, "timestamps")?, duration),
    };
    checked.map_err(to_js)
}

/// `traffic.timestamps`: text with one time per line, or an array of numbers.
fn pasted_times(value: &JsValue, duration: f64) -> Result<Traffic, JsError> {
    let times = if let Some(text) = value.as_string() {
        lab::parse_timestamps_before(&text, duration)
    } else if Array::is_array(value) {
        let array = Array::from(value);
        let mut numbers = Vec::with_capacity(array.length() as usize);
        for (index, item) in array.iter().enumerate() {
            match item.as_f64() {
                Some(n) => numbers.push(n),
                None => {
                    return Err(JsError::new(&format!(
                        "traffic.timestamps[{index}] must be a number of seconds, got {}",
                        describe(&item)
                    )))
                }
            }
        }
        lab::check_timestamps(&numbers, duration)
    } else {
        return Err(JsError::new(&format!(
            "traffic.timestamps must be text with one time in seconds per line or an array of numbers, got {}",
            describe(value)
        )));
    };
    times.map(Traffic::pasted).map_err(|err| pasted_error(&err))
}

/// A pasted list's error: its message for scripts, and the same as data in `problem`
/// (`{ field: "traffic.timestamps", code, line | index, … }`) for the page to word.
fn pasted_error(err: &lab::PasteError) -> JsError {
    use lab::{Position, Problem};
    let error = JsError::new(&err.to_string());
    let mut entries: Vec<(&str, JsValue)> = vec![("field", "traffic.timestamps".into())];
    match err.position {
        Some(Position::Line(line)) => entries.push(("line", (line as f64).into())),
        Some(Position::Index(index)) => entries.push(("index", (index as f64).into())),
        None => {}
    }
    let code = match &err.problem {
        Problem::NotANumber(text) => {
            entries.push(("given", text.as_str().into()));
            "notANumber"
        }
        Problem::Ambiguous(text) => {
            entries.push(("given", text.as_str().into()));
            "ambiguous"
        }
        Problem::Negative(time) => {
            entries.push(("given", (*time).into()));
            "negative"
        }
        Problem::Descending { time, previous } => {
            entries.push(("given", (*time).into()));
            entries.push(("previous", (*previous).into()));
            "descending"
        }
        Problem::Beyond { time, duration } => {
            entries.push(("given", (*time).into()));
            entries.push(("duration", (*duration).into()));
            "beyond"
        }
        Problem::Empty => "empty",
        Problem::TooMany(count) => {
            entries.push(("count", (*count as f64).into()));
            entries.push(("max", (lab::MAX_PASTED as f64).into()));
            "tooMany"
        }
    };
    entries.push(("code", code.into()));
    // The same JavaScript object as `error` (a clone shares it).
    let _ = js_sys::Reflect::set(
        &JsValue::from(error.clone()),
        &"problem".into(),
        &object(&entries),
    );
    error
}

/// The simulation as the object `simulate` returns (see there).
fn to_object(run: &Simulation, quota: Quota, duration: f64) -> js_sys::Object {
    let lanes: Array = run
        .lanes
        .iter()
        .map(|lane| {
            object(&[
                ("algorithm", lane.algorithm.name().into()),
                ("admitted", lane.admitted.into()),
                ("delayed", lane.delayed.into()),
                ("denied", lane.denied.into()),
                ("peak", lane.peak.into()),
                ("peakStart", lane.peak_start.into()),
                ("outcomes", Uint8Array::from(&lane.outcomes[..]).into()),
                ("delays", Float64Array::from(&lane.delays[..]).into()),
                ("samples", Float64Array::from(&lane.samples[..]).into()),
            ])
        })
        .collect();
    object(&[
        ("arrivals", Float64Array::from(&run.arrivals[..]).into()),
        ("duration", duration.into()),
        ("limit", quota.limit().into()),
        ("window", quota.window().into()),
        ("sampleInterval", run.sample_interval.into()),
        ("lanes", lanes.into()),
    ])
}
