//! JSON lines: one object per line, the time and the key in named fields.
//!
//! A name is first looked up as it is; if the object has no such member and the name has dots,
//! it is followed as a path into nested objects (`client.ip` finds `{"client": {"ip": …}}`).

use super::fields::quoted;
use super::timestamp::LogTime;
use super::unreadable::{JsonKind, Unreadable};
use serde_json::{Map, Value};

/// Time fields tried, in order, when `--time-field` is not given.
pub const TIME_FIELDS: [&str; 6] = [
    "time",
    "timestamp",
    "@timestamp",
    "ts",
    "msec",
    "time_iso8601",
];
/// Client-address fields tried, in order, for the key `ip`.
pub const IP_FIELDS: [&str; 6] = [
    "remote_addr",
    "client_ip",
    "clientIp",
    "ip",
    "client.ip",
    "source.ip",
];

/// One line's object, or why it is not one.
pub fn object(line: &str) -> Result<Map<String, Value>, Unreadable> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Unreadable::NotObject {
            kind: JsonKind::of(&other),
        }),
        Err(e) => Err(Unreadable::NotJson {
            column: e.column(),
            detail: e.to_string(),
        }),
    }
}

/// Takes the member `name` (or the dotted path) out of `object`.
pub fn take(object: &mut Map<String, Value>, name: &str) -> Option<Value> {
    if let Some(value) = object.remove(name) {
        return Some(value);
    }
    let (head, rest) = name.split_once('.')?;
    match object.get_mut(head)? {
        Value::Object(inner) => take(inner, rest),
        _ => None,
    }
}

/// Whether `object` has the member `name` (or the dotted path).
pub fn has(object: &Map<String, Value>, name: &str) -> bool {
    object.contains_key(name)
        || name
            .split_once('.')
            .is_some_and(|(head, rest)| match object.get(head) {
                Some(Value::Object(inner)) => has(inner, rest),
                _ => false,
            })
}

/// The first of `names` that `object` has.
pub fn first_present<'n>(object: &Map<String, Value>, names: &[&'n str]) -> Option<&'n str> {
    names.iter().copied().find(|name| has(object, name))
}

/// The top-level member names of `objects`, in the order first met.
pub fn member_names(objects: &[Map<String, Value>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in objects.iter().flat_map(|o| o.keys()) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// A time member: an epoch time as a number or a string of digits (seconds, or milliseconds and
/// finer told by their size: [`LogTime::epoch`]), or an RFC 3339 string.
pub fn time(name: &str, value: Option<Value>) -> Result<LogTime, Unreadable> {
    let field = name.to_owned();
    match value {
        Some(Value::Number(n)) => match n.as_f64().filter(|t| t.is_finite() && *t >= 0.0) {
            Some(t) => LogTime::epoch_within(t, &n.to_string()),
            None => Err(Unreadable::BadEpoch {
                field,
                number: n.to_string(),
            }),
        },
        Some(Value::String(text)) => {
            super::timestamp::epoch_or_rfc3339(&text).map_err(|e| match e {
                Unreadable::NotTime { .. } => Unreadable::BadTimeText {
                    field,
                    time: quoted(&text),
                },
                range => range,
            })
        }
        Some(other) => Err(Unreadable::TimeKind {
            field,
            kind: JsonKind::of(&other),
        }),
        None => Err(Unreadable::NoTimeField { field }),
    }
}

/// A key member as text: strings as they are, numbers and booleans as JSON writes them.
pub fn key(name: &str, value: Option<Value>) -> Result<String, Unreadable> {
    let field = name.to_owned();
    match value {
        Some(Value::String(text)) => Ok(text),
        // A key is a string or a number, as the refusal of any other kind says: a boolean is
        // refused like null (it would group every client whose field is true as one).
        Some(value @ Value::Number(_)) => Ok(value.to_string()),
        Some(other) => Err(Unreadable::KeyKind {
            field,
            kind: JsonKind::of(&other),
        }),
        None => Err(Unreadable::NoKeyField { field }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_names_reach_into_nested_objects() {
        let mut o = object(r#"{"client": {"ip": "::1"}, "a.b": 1}"#).unwrap();
        assert!(has(&o, "client.ip") && has(&o, "a.b") && !has(&o, "client.port"));
        assert_eq!(first_present(&o, &IP_FIELDS), Some("client.ip"));
        assert_eq!(key("a.b", take(&mut o, "a.b")), Ok("1".to_owned()));
        assert_eq!(
            key("client.ip", take(&mut o, "client.ip")),
            Ok("::1".to_owned())
        );
    }

    #[test]
    fn times_and_keys_of_the_wrong_kind_are_named() {
        assert_eq!(time("t", Some(Value::from(1.5))), Ok(LogTime::epoch(1.5)));
        assert_eq!(time("t", Some(Value::from("2.5"))), Ok(LogTime::epoch(2.5)));
        let pino = time("t", Some(Value::from(1_700_000_000_250_u64))).unwrap();
        assert_eq!(pino.seconds, 1_700_000_000.25);
        assert_eq!(pino.epoch_unit.map(|u| u.name()), Some("milliseconds"));
        assert!(time("t", Some(Value::from(-1)))
            .unwrap_err()
            .to_string()
            .contains("not an epoch time"));
        assert_eq!(
            time("t", None).unwrap_err().to_string(),
            "no time field \"t\""
        );
        assert!(key("k", Some(Value::Null))
            .unwrap_err()
            .to_string()
            .contains("is null"));
        assert_eq!(
            key("k", Some(Value::Bool(true))),
            Err(Unreadable::KeyKind {
                field: "k".to_owned(),
                kind: JsonKind::Boolean
            })
        );
        assert!(object("[1]")
            .unwrap_err()
            .to_string()
            .contains("an array is not an object"));
    }
}
