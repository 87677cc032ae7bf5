//! The `TokenBucket` class for scripts, over the core's bucket. Values from JavaScript are checked
//! here for type; the core checks their range.

use super::convert::{field, number, object, read_object, retry_after, to_js};
use crate::limiter::{self, BucketConfig, Field, Never, Outcome, Rule};
use wasm_bindgen::prelude::*;

/// A token bucket for experiments: `new TokenBucket({ capacity: 5, refillRate: 1 })`, the lesson's bucket.
#[wasm_bindgen(js_name = TokenBucket)]
pub struct JsTokenBucket {
    inner: limiter::TokenBucket,
}

/// The answer to `tryAcquireAt` as a plain object `{ allowed, tokens, retryAfter, never }`:
/// `retryAfter` in seconds (0 when allowed, `null` when no wait can be given); `never`
/// says why it can never pass (`"costExceedsCapacity"` or `"noRefill"`), else `null`.
fn decision_object(decision: &limiter::Decision) -> JsValue {
    let never = match decision.outcome {
        Outcome::Never(Never::CostExceedsCapacity) => JsValue::from_str("costExceedsCapacity"),
        Outcome::Never(Never::NoRefill) => JsValue::from_str("noRefill"),
        _ => JsValue::NULL,
    };
    object(&[
        ("allowed", JsValue::from_bool(decision.is_admitted())),
        ("tokens", JsValue::from_f64(decision.tokens)),
        ("retryAfter", retry_after(decision)),
        ("never", never),
    ])
    .into()
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

/// Reads `{ capacity, refillRate, tokens? }`.
fn config_from_js(config: &JsValue) -> Result<BucketConfig, JsError> {
    const NAME: &str = "config";
    let config = read_object(NAME, config, &["capacity", "refillRate", "tokens"])?;
    let capacity = number(
        Field::Capacity,
        &field(NAME, &config, "capacity")?,
        Rule::Positive,
    )?;
    let refill_rate = number(
        Field::RefillRate,
        &field(NAME, &config, "refillRate")?,
        Rule::NonNegative,
    )?;
    let built = BucketConfig::new(capacity, refill_rate).map_err(to_js)?;
    let tokens = field(NAME, &config, "tokens")?;
    if tokens.is_undefined() {
        return Ok(built);
    }
    let tokens = number(Field::Tokens, &tokens, Rule::UpTo(capacity))?;
    built.with_initial_tokens(tokens).map_err(to_js)
}
