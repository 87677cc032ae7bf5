//! Values crossing the boundary, one way each: JavaScript objects and numbers in, checked, with an
//! error that names the field; numbers, plain objects and errors out. The classes, `simulate` and
//! the diagram's view all convert through here.

use crate::limiter::{Field, Given, InvalidValue, Rule};
#[cfg(feature = "diagram")]
use crate::limiter::{ScenarioError, ScenarioFault};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

/// `value` as a plain object holding only `allowed` keys. Anything else is refused with an
/// `Error` naming `name`: `config must be an object, got a value of type string`, or `config has
/// an unknown field "refill_rate"; allowed fields: capacity, refillRate, tokens` (so a typo is
/// named instead of silently ignored).
pub(crate) fn read_object(
    name: &str,
    value: &JsValue,
    allowed: &[&str],
) -> Result<Object, JsError> {
    if !value.is_object() || Array::is_array(value) {
        return Err(wrong_type(name, "an object", value));
    }
    let object: Object = value.clone().unchecked_into();
    for key in Object::keys(&object).iter() {
        let known = key
            .as_string()
            .is_some_and(|k| allowed.contains(&k.as_str()));
        if !known {
            let mut message = String::from(name);
            message.push_str(" has an unknown field ");
            // JSON quoting from JavaScript: Rust's `{:?}` would bring its formatting machinery.
            let quoted = js_sys::JSON::stringify(&key).map(String::from);
            message.push_str(&quoted.unwrap_or_default());
            message.push_str("; allowed fields: ");
            // A loop rather than `join`, whose generic code is larger in the wasm.
            for (i, key) in allowed.iter().enumerate() {
                if i > 0 {
                    message.push_str(", ");
                }
                message.push_str(key);
            }
            return Err(JsError::new(&message));
        }
    }
    Ok(object)
}

/// A decision's `retryAfter` for scripts: the wait in seconds (0 when admitted), or `null` when no
/// wait can be given: the request can never pass, or its wait does not fit a double (r = 1e-320/s),
/// as the types promise (`Infinity` would make `setTimeout` retry at once).
pub(crate) fn retry_after(decision: &crate::limiter::Decision) -> JsValue {
    decision
        .retry_after()
        .filter(|s| s.is_finite())
        .map_or(JsValue::NULL, JsValue::from_f64)
}

/// `value` as a string, or an error naming `name` that says what it allows (`allowed`, starting
/// `a string`) and what was given instead. A `&str` parameter would leave that check to
/// wasm-bindgen's glue, which has none: a number traps the module (memory access out of bounds).
#[cfg(any(feature = "diagram", feature = "config", feature = "replay"))]
pub(crate) fn string(name: &str, value: &JsValue, allowed: &str) -> Result<String, JsError> {
    value
        .as_string()
        .ok_or_else(|| wrong_type(name, allowed, value))
}

/// The error for `value` given as `name`, which must be `allowed`: `config must be an object,
/// got a value of type string`, or `… it is missing` for `undefined`. (A type with no number
/// rule to state, so no `problem`: see [`refusal`] for refused numbers.)
pub(crate) fn wrong_type(name: &str, allowed: &str, value: &JsValue) -> JsError {
    let given = if value.is_undefined() {
        Given::Missing
    } else {
        Given::Type(type_name(value))
    };
    let mut message = String::from(name);
    message.push_str(" must be ");
    message.push_str(allowed);
    message.push_str(", ");
    message.push_str(&given.text(js_number));
    JsError::new(&message)
}

/// The value of `key` in `object` (read by [`read_object`] from `name`); `undefined` when absent.
/// A getter that throws is refused, naming `name.key`.
pub(crate) fn field(name: &str, object: &Object, key: &str) -> Result<JsValue, JsError> {
    Reflect::get(object, &JsValue::from_str(key)).map_err(|_| {
        let mut message = String::from(name);
        message.push('.');
        message.push_str(key);
        message.push_str(" could not be read");
        JsError::new(&message)
    })
}

/// A JavaScript number, or an error naming `field` that says what was given instead (`rule` is
/// what is allowed; the caller or the core checks the number against it).
pub(crate) fn number(field: Field, value: &JsValue, rule: Rule) -> Result<f64, JsError> {
    as_number(field, value, rule).map_err(to_js)
}

/// [`number`] checked against `rule` too: the one way a script's number argument enters.
#[cfg(feature = "replay")]
pub(crate) fn checked(field: Field, value: &JsValue, rule: Rule) -> Result<f64, JsError> {
    as_number(field, value, rule)
        .and_then(|n| InvalidValue::check(field, n, rule))
        .map_err(to_js)
}

/// [`number`] with the refusal as the core's error, for a caller that words it itself.
pub(crate) fn as_number(field: Field, value: &JsValue, rule: Rule) -> Result<f64, InvalidValue> {
    let given = match value.as_f64() {
        Some(number) => return Ok(number),
        None if value.is_undefined() => Given::Missing,
        None => Given::Type(type_name(value)),
    };
    Err(InvalidValue { field, given, rule })
}

/// The number option `key` of `object` (read by [`read_object`] from `name`) checked against
/// `rule`, or `default` when the object has no such key. A key that is there must hold a number:
/// `{ clients: undefined }` (a form field left empty) is refused as missing, not taken as the
/// default; a getter that throws is refused as [`field`] refuses it.
#[cfg(feature = "lab")]
pub(crate) fn optional(
    name: &str,
    object: &Object,
    key: &str,
    field: Field,
    rule: Rule,
    default: f64,
) -> Result<f64, JsError> {
    if !Reflect::has(object, &JsValue::from_str(key)).unwrap_or(false) {
        return Ok(default);
    }
    let value = self::field(name, object, key)?;
    number(field, &value, rule).and_then(|v| InvalidValue::check(field, v, rule).map_err(to_js))
}

/// The error for a name that is none of `allowed`: "`what` must be one of "a", "b", got …".
#[cfg(feature = "lab")]
pub(crate) fn not_one_of<'a>(
    what: &str,
    allowed: impl IntoIterator<Item = &'a str>,
    given: &JsValue,
) -> JsError {
    let names: Vec<String> = allowed.into_iter().map(|n| format!("{n:?}")).collect();
    JsError::new(&format!(
        "{what} must be one of {}, got {}",
        names.join(", "),
        describe(given)
    ))
}

/// How a refused value is quoted: its text or number, or its type.
#[cfg(any(feature = "lab", feature = "replay"))]
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "nothing (it is missing)".to_owned();
    }
    if let Some(text) = value.as_string() {
        return Given::Text(text)
            .text(crate::limiter::rust_number)
            .trim_start_matches("got ")
            .to_owned();
    }
    if let Some(number) = value.as_f64() {
        return Given::Number(number)
            .text(crate::limiter::rust_number)
            .trim_start_matches("got ")
            .to_owned();
    }
    format!("a value of type {}", type_name(value))
}

/// JavaScript's `typeof`, as a static name, with arrays called `array`.
pub(crate) fn type_name(value: &JsValue) -> &'static str {
    if value.is_null() {
        "null"
    } else if value.is_undefined() {
        "undefined"
    } else if value.as_f64().is_some() {
        "number"
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
    } else if Array::is_array(value) {
        "array"
    } else {
        "object"
    }
}

/// A plain object from `(key, value)` pairs. Built with `Reflect.set` rather than a serializer,
/// which would add several KB to the module.
pub(crate) fn object(entries: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    set(&object, entries);
    object
}

/// Adds `(key, value)` pairs to a plain object of ours.
fn set(object: &Object, entries: &[(&str, JsValue)]) {
    for (key, value) in entries {
        // Setting a data property on a plain object cannot fail.
        let _ = Reflect::set(object, &JsValue::from_str(key), value);
    }
}

/// The core's error as a JavaScript `Error`, worded with JavaScript field names, and the same as
/// data in its `problem` (see [`refusal`]).
pub(crate) fn to_js(err: InvalidValue) -> JsError {
    refusal(&err, err.field.js_name(), None)
}

/// A refused value as a JavaScript `Error`, the one shape every refusal of a value leaves the
/// wasm in: its `message` the core's, worded with `name` (the API's or the attribute's
/// spelling), for scripts; its `problem` the same as data (`{ field, rule, min, max, given,
/// tooLarge, tooSmall, ambiguous, type }`: `field` is `name`; `given` a number, the text, or
/// absent when missing or of another type; `tooLarge` / `tooSmall` whether that text is a number
/// too large for a double, or one other than 0 too small for it; `ambiguous` whether it is a comma
/// before three digits, `1,000`; `type` the `typeof` of a value of another type), for a page to
/// word in its language with its labels (`www/i18n/refusal.js`); and, when the caller has a
/// language (the widget, `checkSetting`), its `localized`: the same refusal worded for a person.
pub(crate) fn refusal(err: &InvalidValue, name: &str, localized: Option<String>) -> JsError {
    let error = JsError::new(&err.message_with(name, js_number));
    // The same JavaScript object as `error` (a clone shares it).
    let target = Object::from(JsValue::from(error.clone()));
    set(&target, &[("problem", problem(err, name).into())]);
    if let Some(words) = localized {
        set(&target, &[("localized", words.into())]);
    }
    error
}

/// A refused value as data (see [`refusal`]), its field called `name`.
fn problem(err: &InvalidValue, name: &str) -> Object {
    let (min, max) = err.rule.bounds();
    let bound = |value: Option<f64>| value.map_or(JsValue::UNDEFINED, JsValue::from);
    let given = match &err.given {
        Given::Number(value) => JsValue::from(*value),
        Given::Text(text)
        | Given::TooLarge(text)
        | Given::TooSmall(text)
        | Given::Ambiguous(text) => JsValue::from_str(text),
        Given::Missing | Given::Unreadable | Given::Type(_) => JsValue::UNDEFINED,
    };
    let kind = match err.given {
        Given::Type(kind) => JsValue::from_str(kind),
        _ => JsValue::UNDEFINED,
    };
    object(&[
        ("field", name.into()),
        ("rule", err.rule.code().into()),
        ("min", bound(min)),
        ("max", bound(max)),
        ("given", given),
        (
            "tooLarge",
            JsValue::from_bool(matches!(err.given, Given::TooLarge(_))),
        ),
        (
            "tooSmall",
            JsValue::from_bool(matches!(err.given, Given::TooSmall(_))),
        ),
        (
            "ambiguous",
            JsValue::from_bool(matches!(err.given, Given::Ambiguous(_))),
        ),
        ("type", kind),
    ])
}

/// A refused scenario as a JavaScript `Error`: its `message` the core's (numbers as JavaScript
/// writes them), its `problem` the same as data for a page to word in its language:
/// `{ scenario, action, piece, values }`: the kind, the action's number (0: the text or its
/// header), the piece quoted, and the kind's two numbers (see [`ScenarioFault::data`]; a
/// `Float64Array`, which costs the module less than a value per kind). A refused number
/// (`value`) has those of [`refusal`] besides, its `field` named as the message names it.
#[cfg(feature = "diagram")]
pub(crate) fn scenario_to_js(err: ScenarioError) -> JsError {
    let error = JsError::new(&err.message_with(js_number));
    let problem = match err.fault {
        ScenarioFault::Value(ref value) => problem(value, value.field.name()),
        _ => Object::new(),
    };
    let (code, values) = err.fault.data();
    set(
        &problem,
        &[
            ("scenario", code.into()),
            ("action", (err.action as f64).into()),
            ("piece", err.piece.as_str().into()),
            ("values", js_sys::Float64Array::from(&values[..]).into()),
        ],
    );
    let target = Object::from(JsValue::from(error.clone()));
    set(&target, &[("problem", problem.into())]);
    error
}

/// A number as JavaScript's `String(value)` writes it (shortest round-trip form). Asking
/// JavaScript keeps Rust's float formatting machinery out of the wasm.
pub(crate) fn js_number(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// A decimal literal (its syntax already checked by [`crate::limiter::parse_number`]) read by
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
