//! The thin wasm boundary for scripts: a `TokenBucket` class over the core's bucket. Values from
//! JavaScript are checked here for type; the core checks their range.

use crate::limiter::{self, BucketConfig, Field, Given, InvalidValue, Never, Outcome, Rule};
use wasm_bindgen::prelude::*;

/// A token bucket for experiments: `new TokenBucket({ capacity: 10, refillRate: 5 })`.
#[wasm_bindgen(js_name = TokenBucket)]
pub struct JsTokenBucket {
    inner: limiter::TokenBucket,
}

/// The answer to `tryAcquireAt` as a plain object `{ allowed, tokens, retryAfter, never }`:
/// `retryAfter` in seconds (0 when allowed, `null` when the request can never pass); `never`
/// says why it can never pass (`"costExceedsCapacity"` or `"noRefill"`), else `null`. Built with
/// `Reflect.set` rather than a serializer, which would add several KB to the module.
fn decision_object(decision: &limiter::Decision) -> JsValue {
    let object = js_sys::Object::new();
    let never = match decision.outcome {
        Outcome::Never(Never::CostExceedsCapacity) => JsValue::from_str("costExceedsCapacity"),
        Outcome::Never(Never::NoRefill) => JsValue::from_str("noRefill"),
        _ => JsValue::NULL,
    };
    let retry_after = decision
        .retry_after()
        .map_or(JsValue::NULL, JsValue::from_f64);
    let entries = [
        ("allowed", JsValue::from_bool(decision.is_allowed())),
        ("tokens", JsValue::from_f64(decision.tokens)),
        ("retryAfter", retry_after),
        ("never", never),
    ];
    for (key, value) in entries {
        // Setting a data property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), &value);
    }
    object.into()
}

#[wasm_bindgen(js_class = TokenBucket)]
impl JsTokenBucket {
    /// Builds a bucket from `{ capacity, refillRate, tokens? }`; it starts full unless `tokens`
    /// is given. Throws an `Error` naming the field, the value and what is allowed.
    #[wasm_bindgen(constructor)]
    pub fn new(config: &JsValue) -> Result<JsTokenBucket, JsError> {
        Ok(JsTokenBucket {
            inner: limiter::TokenBucket::new(config_from_js(config)?),
        })
    }

    /// Asks for `cost` tokens at `nowSeconds`; returns `{ allowed, tokens, retryAfter, never }`.
    #[wasm_bindgen(js_name = tryAcquireAt)]
    pub fn try_acquire_at(
        &mut self,
        cost: &JsValue,
        now_seconds: &JsValue,
    ) -> Result<JsValue, JsError> {
        let cost = number(Field::Cost, cost, Rule::NonNegative)?;
        let now = number(Field::Now, now_seconds, Rule::Finite)?;
        let decision = self.inner.try_acquire(cost, now).map_err(to_js)?;
        Ok(decision_object(&decision))
    }

    /// Tokens the bucket holds at `nowSeconds`, without changing it.
    #[wasm_bindgen(js_name = tokensAt)]
    pub fn tokens_at(&self, now_seconds: &JsValue) -> Result<f64, JsError> {
        let now = number(Field::Now, now_seconds, Rule::Finite)?;
        self.inner.tokens_at(now).map_err(to_js)
    }

    /// `B`, the capacity.
    #[wasm_bindgen(getter)]
    pub fn capacity(&self) -> f64 {
        self.inner.config().capacity()
    }

    /// `r`, tokens added per second.
    #[wasm_bindgen(getter, js_name = refillRate)]
    pub fn refill_rate(&self) -> f64 {
        self.inner.config().refill_rate()
    }
}

/// Reads `{ capacity, refillRate, tokens? }`, refusing unknown keys so a typo such as
/// `refill_rate` is named instead of silently ignored.
pub(crate) fn config_from_js(config: &JsValue) -> Result<BucketConfig, JsError> {
    if !config.is_object() {
        return Err(JsError::new(
            "config must be an object such as { capacity: 10, refillRate: 5 }",
        ));
    }
    const KEYS: [&str; 3] = ["capacity", "refillRate", "tokens"];
    for key in js_sys::Object::keys(config.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !KEYS.contains(&key.as_str()) {
            let mut message = String::from("config has an unknown field ");
            message.push_str(
                &js_sys::JSON::stringify(&JsValue::from_str(&key))
                    .map(String::from)
                    .unwrap_or(key),
            );
            message.push_str("; allowed fields: capacity, refillRate, tokens");
            return Err(JsError::new(&message));
        }
    }
    let field = |name: &str| {
        js_sys::Reflect::get(config, &JsValue::from_str(name)).map_err(|_| {
            let mut message = String::from("config.");
            message.push_str(name);
            message.push_str(" could not be read");
            JsError::new(&message)
        })
    };
    let capacity = number(Field::Capacity, &field("capacity")?, Rule::Positive)?;
    let refill_rate = number(Field::RefillRate, &field("refillRate")?, Rule::NonNegative)?;
    let built = BucketConfig::new(capacity, refill_rate).map_err(to_js)?;
    let tokens = field("tokens")?;
    if tokens.is_undefined() {
        return Ok(built);
    }
    let tokens = number(Field::Tokens, &tokens, Rule::UpTo(capacity))?;
    built.with_initial_tokens(tokens).map_err(to_js)
}

/// A JavaScript number, or an error naming `field` that says what was given instead.
pub(crate) fn number(field: Field, value: &JsValue, rule: Rule) -> Result<f64, JsError> {
    let given = match value.as_f64() {
        Some(number) => return Ok(number),
        None if value.is_undefined() => Given::Missing,
        None => Given::Type(type_name(value)),
    };
    Err(to_js(InvalidValue { field, given, rule }))
}

/// JavaScript's `typeof`, as a static name.
pub(crate) fn type_name(value: &JsValue) -> &'static str {
    if value.is_null() {
        "null"
    } else if value.is_string() {
        "string"
    } else if value.is_bigint() {
        "bigint"
    } else if value.is_symbol() {
        "symbol"
    } else if value.is_function() {
        "function"
    } else if value.as_bool().is_some() {
        "boolean"
    } else {
        "object"
    }
}

/// The core's error as a JavaScript `Error`, worded with JavaScript field names.
pub(crate) fn to_js(err: InvalidValue) -> JsError {
    JsError::new(&err.message_with(err.field.js_name(), js_number))
}

/// A number as JavaScript's `String(value)` writes it (shortest round-trip form). Asking
/// JavaScript keeps Rust's float formatting machinery out of the wasm.
pub(crate) fn js_number(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// A decimal literal (its syntax already checked by [`limiter::parse_number`]) read by
/// JavaScript's `parseFloat`, which keeps Rust's float parser out of the wasm.
#[cfg(feature = "diagram")]
pub(crate) fn js_decimal(text: &str) -> f64 {
    js_sys::Number::parse_float(text)
}

/// [`InvalidValue::parse`] for the wasm build: the same syntax, the number read by JavaScript.
#[cfg(feature = "diagram")]
pub(crate) fn parse_text(field: Field, text: &str, rule: Rule) -> Result<f64, InvalidValue> {
    InvalidValue::parse_with(field, text, rule, js_decimal)
}
