//! The wasm boundary of the policy parser: `parsePolicy(text)` for the lesson's Config tab.

use super::convert::string;
use crate::limiter::policy::{KeyBy, Policy, PolicyError, Storage};
use crate::limiter::BucketConfig;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// One tier, as JavaScript reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TierObject {
    capacity: f64,
    refill_rate: f64,
}

/// A parsed policy, as JavaScript reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PolicyObject {
    tiers: BTreeMap<String, TierObject>,
    storage: Storage,
    key_by: KeyBy,
    status: u16,
    retry_after: bool,
    plans: BTreeMap<String, TierObject>,
    costs: BTreeMap<String, f64>,
}

/// Named buckets as JavaScript reads them.
fn buckets(named: &BTreeMap<String, BucketConfig>) -> BTreeMap<String, TierObject> {
    named
        .iter()
        .map(|(name, config)| {
            let tier = TierObject {
                capacity: config.capacity(),
                refill_rate: config.refill_rate(),
            };
            (name.clone(), tier)
        })
        .collect()
}

/// `{ ok: true, policy }` or `{ ok: false, error }`; never throws for bad text.
#[derive(Serialize)]
#[serde(untagged)]
enum Parsed {
    Ok { ok: bool, policy: PolicyObject },
    Err { ok: bool, error: PolicyError },
}

impl From<Policy> for PolicyObject {
    fn from(policy: Policy) -> Self {
        PolicyObject {
            tiers: buckets(&policy.tiers),
            storage: policy.storage,
            key_by: policy.key_by,
            status: policy.on_deny.status.0,
            retry_after: policy.on_deny.retry_after,
            plans: buckets(&policy.plans),
            costs: policy.costs,
        }
    }
}

/// Parses a YAML policy. The error names the line, the path and the problem in a structured form
/// (`{ line, column, path, problem: { kind, … }, message }`) so the page can word it in its language.
/// A `text` that is not a string throws an `Error` naming it and its type.
#[wasm_bindgen(js_name = parsePolicy)]
pub fn parse_policy(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
) -> Result<JsValue, JsError> {
    let text = string("text", text, "a string (the policy's YAML)")?;
    let parsed = match Policy::from_yaml(&text) {
        Ok(policy) => Parsed::Ok {
            ok: true,
            policy: policy.into(),
        },
        Err(error) => Parsed::Err { ok: false, error },
    };
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    parsed
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}
