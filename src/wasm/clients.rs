//! The retrying clients' wasm boundary: one function, `simulateClients(options)`, built into the
//! lab's module. The whole run happens inside wasm in one call; results come back as typed arrays.
//!
//! ```js
//! const run = simulateClients({
//!   clients: 100, successes: 1, spread: 0,          // 100 clients start together, 1 success each
//!   capacity: 10, rate: 10, shared: true,           // one bucket of 10 refilled at 10/s
//!   policy: { name: 'retryAfter', header: 'whole', jitter: true, base: 1, factor: 2, cap: 30 },
//!   maxAttempts: 50, seed: 1,
//! });
//! run.metrics.attemptsPerSuccess  // 3.11
//! ```

use super::convert::{describe, field, not_one_of, object, optional, read_object, to_js};
use crate::limiter::clients::{
    self, Backoff, ClientField, Header, Policy, Run, Scenario, Settings, MAX_ATTEMPTS, MAX_BUCKET,
    MAX_CLIENTS, MAX_FACTOR, MAX_SPREAD, MAX_SUCCESSES, MAX_WAIT, POLICY_NAMES,
};
use crate::limiter::{Field, Rule};
use js_sys::{Float64Array, Uint16Array, Uint8Array};
use wasm_bindgen::prelude::*;

const OPTION_KEYS: [&str; 9] = [
    "clients",
    "successes",
    "spread",
    "capacity",
    "rate",
    "shared",
    "policy",
    "maxAttempts",
    "seed",
];

/// Runs `clients` retrying clients to the end. Returns `{ times, clients: Uint16Array, outcomes:
/// Uint8Array (0 admitted, 1 refused then retried, 2 refused then gave up), retries: Uint8Array
/// (1 for a retry), retryAfter, next (NaN: no next attempt), finish (per client, NaN: gave up),
/// metrics: { attempts, successes, attemptsPerSuccess, deniedShare, gaveUp, finishP50, finishP95,
/// finishMax, peak, peakStart, peakRetries } }` (unnamed arrays are Float64Array, in seconds).
/// Throws an `Error` naming the option, the value and what is allowed.
#[wasm_bindgen(js_name = simulateClients)]
pub fn simulate_clients(options: &JsValue) -> Result<JsValue, JsError> {
    let options = read_object("options", options, &OPTION_KEYS)?;
    let get = |key: &str| field("options", &options, key);
    let setting = |key: &str, field: ClientField, rule: Rule, default: f64| {
        optional(
            "options",
            &options,
            key,
            Field::Clients(field),
            rule,
            default,
        )
    };
    let seed = optional(
        "options",
        &options,
        "seed",
        Field::Seed,
        Rule::Whole(0, u32::MAX),
        0.0,
    )?;
    let shared = match get("shared")? {
        v if v.is_undefined() => true,
        v => v.as_bool().ok_or_else(|| {
            JsError::new(&format!(
                "shared must be true (one bucket) or false (one per client), got {}",
                describe(&v)
            ))
        })?,
    };
    let settings = Settings {
        clients: setting(
            "clients",
            ClientField::Clients,
            Rule::Whole(1, MAX_CLIENTS),
            100.0,
        )? as u32,
        successes: setting(
            "successes",
            ClientField::Successes,
            Rule::Whole(1, MAX_SUCCESSES),
            1.0,
        )? as u32,
        spread: setting("spread", ClientField::Spread, Rule::UpTo(MAX_SPREAD), 0.0)?,
        capacity: setting(
            "capacity",
            ClientField::Capacity,
            Rule::Whole(1, MAX_BUCKET as u32),
            10.0,
        )?,
        rate: setting(
            "rate",
            ClientField::Rate,
            Rule::PositiveUpTo(MAX_BUCKET),
            10.0,
        )?,
        shared,
        policy: policy(&get("policy")?)?,
        max_attempts: setting(
            "maxAttempts",
            ClientField::MaxAttempts,
            Rule::Whole(1, MAX_ATTEMPTS),
            10.0,
        )? as u32,
        seed: seed as u32,
    };
    let scenario = Scenario::new(settings).map_err(to_js)?;
    Ok(to_object(&clients::simulate(&scenario)).into())
}

/// `policy`: `{ name, ...that policy's settings }`; the herd's policy (Retry-After as sent, in
/// whole seconds, no jitter) when left out. `header` defaults to `"whole"` too: the exact wait is
/// what no HTTP header carries, so a script asks for it by name.
fn policy(value: &JsValue) -> Result<Policy, JsError> {
    if value.is_undefined() {
        return Ok(Policy::RetryAfter {
            header: Header::WholeSeconds,
            jitter: None,
        });
    }
    let name_value = if value.is_object() {
        js_sys::Reflect::get(value, &JsValue::from_str("name")).unwrap_or_default()
    } else {
        JsValue::UNDEFINED
    };
    let name = name_value.as_string().unwrap_or_default();
    let keys: &[&str] = match name.as_str() {
        "hammer" => &["name"],
        "fixed" => &["name", "wait"],
        "retryAfter" => &["name", "header", "jitter", "base", "factor", "cap"],
        "exponential" | "fullJitter" | "decorrelated" => &["name", "base", "factor", "cap"],
        _ if !value.is_object() => &[],
        _ => return Err(not_one_of("policy.name", POLICY_NAMES, &name_value)),
    };
    let policy = read_object("policy", value, keys)?;
    let get = |key: &str| field("policy", &policy, key);
    let wait = |key: &str, field: ClientField, rule: Rule, default: f64| {
        optional("policy", &policy, key, Field::Clients(field), rule, default)
    };
    let backoff = || -> Result<Backoff, JsError> {
        let base = wait("base", ClientField::Base, Rule::PositiveUpTo(MAX_WAIT), 1.0)?;
        let factor = wait(
            "factor",
            ClientField::Factor,
            Rule::Between(1.0, MAX_FACTOR),
            2.0,
        )?;
        let cap = wait("cap", ClientField::Cap, Rule::Between(base, MAX_WAIT), 30.0)?;
        Backoff::new(base, factor, cap).map_err(to_js)
    };
    Ok(match name.as_str() {
        "hammer" => Policy::Hammer,
        "fixed" => Policy::fixed(wait("wait", ClientField::Wait, Rule::UpTo(MAX_WAIT), 1.0)?)
            .map_err(to_js)?,
        "retryAfter" => {
            let header = match get("header")? {
                v if v.is_undefined() => Header::WholeSeconds,
                v => match v.as_string().as_deref() {
                    Some("exact") => Header::Exact,
                    Some("whole") => Header::WholeSeconds,
                    _ => {
                        return Err(JsError::new(&format!(
                            "policy.header must be \"whole\" (whole seconds, as sent) or \"exact\", got {}",
                            describe(&v)
                        )))
                    }
                },
            };
            let jitter = match get("jitter")? {
                v if v.is_undefined() => false,
                v => v.as_bool().ok_or_else(|| {
                    JsError::new(&format!(
                        "policy.jitter must be true or false, got {}",
                        describe(&v)
                    ))
                })?,
            };
            Policy::RetryAfter {
                header,
                jitter: if jitter { Some(backoff()?) } else { None },
            }
        }
        "exponential" => Policy::Exponential(backoff()?),
        "fullJitter" => Policy::FullJitter(backoff()?),
        "decorrelated" => Policy::Decorrelated(backoff()?),
        _ => {
            return Err(JsError::new(&format!(
                "policy must be an object with a name from {}, got {}",
                POLICY_NAMES.map(|p| format!("{p:?}")).join(", "),
                describe(value)
            )))
        }
    })
}

/// The run as the object `simulateClients` returns (see there).
fn to_object(run: &Run) -> js_sys::Object {
    let m = &run.metrics;
    let retries: Vec<u8> = run.retries.iter().map(|&r| u8::from(r)).collect();
    let metrics = object(&[
        ("attempts", m.attempts.into()),
        ("successes", m.successes.into()),
        ("attemptsPerSuccess", m.attempts_per_success.into()),
        ("deniedShare", m.denied_share.into()),
        ("gaveUp", m.gave_up.into()),
        ("finishP50", m.finish_p50.into()),
        ("finishP95", m.finish_p95.into()),
        ("finishMax", m.finish_max.into()),
        ("peak", m.peak.into()),
        ("peakStart", m.peak_start.into()),
        ("peakRetries", m.peak_retries.into()),
    ]);
    object(&[
        ("times", Float64Array::from(&run.times[..]).into()),
        ("clients", Uint16Array::from(&run.clients[..]).into()),
        ("outcomes", Uint8Array::from(&run.outcomes[..]).into()),
        ("retries", Uint8Array::from(&retries[..]).into()),
        (
            "retryAfter",
            Float64Array::from(&run.retry_after[..]).into(),
        ),
        ("next", Float64Array::from(&run.next[..]).into()),
        ("finish", Float64Array::from(&run.finish[..]).into()),
        ("metrics", metrics.into()),
    ])
}
