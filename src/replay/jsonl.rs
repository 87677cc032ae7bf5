//! JSON lines: one object per line, the time and the key in named fields.
//!
//! A name is first looked up as it is; if the object has no such member and the name has dots,
//! it is followed as a path into nested objects (`client.ip` finds `{"client": {"ip": …}}`).

use super::timestamp::LogTime;
use super::unreadable::{JsonKind, Unreadable};
use serde_json::{Map, Number, Value};

/// Time fields tried, in order, when `--time-field` is not given.
pub const TIME_FIELDS: [&str; 7] = [
    "time",
    "timestamp",
    "@timestamp",
    "ts",
    "msec",
    "time_iso8601",
    "time_local",
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

/// One line's object, as [`object`] reads it, for a log whose time is the member `time`: a number
/// there past a double's range (`1e400`), which serde_json refuses as it reads the line, is a time
/// out of range as [`time`] says any ([`out_of_range_time`]), not text that is not JSON.
pub fn object_timed(line: &str, time: &str) -> Result<Map<String, Value>, Unreadable> {
    object(line).map_err(|why| match why {
        // serde_json's error gives its kind only in its message (a test pins the wording).
        Unreadable::NotJson { column, detail } if detail.starts_with("number out of range") => {
            out_of_range_time(line, time, column).unwrap_or(Unreadable::NotJson { column, detail })
        }
        other => other,
    })
}

/// Why the time member `field` of `line` is refused, when the number that serde_json refused as
/// out of range, ending or overflowing at byte `column` (its column, as the error gives it), is
/// that member's value; `None` when it is another member's (a member not read leaves the line
/// not JSON) or the line has another fault.
fn out_of_range_time(line: &str, field: &str, column: usize) -> Option<Unreadable> {
    let bytes = line.as_bytes();
    let is_number = |b: &u8| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    let (before, after) = (bytes.get(..column)?, bytes.get(column..)?);
    let start = before
        .iter()
        .rposition(|b| !is_number(b))
        .map_or(0, |at| at + 1);
    let end = column
        + after
            .iter()
            .position(|b| !is_number(b))
            .unwrap_or(after.len());
    let text = line.get(start..end)?;
    // Infinity, signed: a number all the same to say as the line writes it.
    let value: f64 = text.parse().ok()?;
    // The member is the number's when it is whatever stands in the number's place (and the
    // rest of the line is JSON).
    let with = |stand_in: &str| {
        // `start` and `end` are on character boundaries: `text` is a slice between them.
        let mut object = object(&[&line[..start], stand_in, &line[end..]].concat()).ok()?;
        take(&mut object, field)
    };
    match (with("null")?, with("0")?) {
        (Value::Null, Value::Number(_)) => epoch_number(field, value, || text.to_owned()).err(),
        _ => None,
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

/// A time member of `line`: an epoch time as a number or a string of digits (seconds, or
/// milliseconds and finer told by their size: [`LogTime::epoch`]), or an RFC 3339 string. A
/// number refused is named as `line` writes it ([`number_text`]).
pub fn time(name: &str, value: Option<Value>, line: &str) -> Result<LogTime, Unreadable> {
    let field = name.to_owned();
    match value {
        // Without serde_json's `arbitrary_precision` every number is a double.
        Some(Value::Number(n)) => epoch_number(name, n.as_f64().unwrap_or(f64::NAN), || {
            number_text(line, &n)
        }),
        Some(Value::String(text)) => {
            super::timestamp::epoch_or_rfc3339(&text).map_err(|e| in_field(name, e))
        }
        Some(other) => Err(Unreadable::TimeKind {
            field,
            kind: JsonKind::of(&other),
        }),
        None => Err(Unreadable::NoTimeField { field }),
    }
}

/// The time member `field`'s epoch number `value`, named as `text` gives it when refused: no
/// epoch time below 0, out of range from `1e20`.
fn epoch_number(
    field: &str,
    value: f64,
    text: impl FnOnce() -> String,
) -> Result<LogTime, Unreadable> {
    if value >= 0.0 {
        LogTime::epoch_within(value, text).map_err(|e| in_field(field, e))
    } else {
        Err(Unreadable::BadEpoch {
            field: field.to_owned(),
            number: text(),
        })
    }
}

/// Why the time member `field` is refused, naming it where a sentence has its place: a time that
/// is none, or an epoch number out of range. A date out of range or an offset too wide is said
/// as in any format.
fn in_field(field: &str, why: Unreadable) -> Unreadable {
    let field = field.to_owned();
    match why {
        Unreadable::NotTime { time } => Unreadable::BadTimeText { field, time },
        Unreadable::NoOffset { time } => Unreadable::NoOffsetField { field, time },
        Unreadable::TimeOutOfRange { time } => Unreadable::TimeFieldOutOfRange { field, time },
        other => other,
    }
}

/// `number` as `line` writes it (`170000000000000000000`, `-1.50`): serde_json keeps a number's
/// value, not its text (past `u64` it is an `f64`, written `1.7e+20`), so the first number
/// outside a string of `line` with the same value as a double is taken; serde_json's own text
/// if none is. Only for a message: a refused line is rare, and this reads it again.
pub fn number_text(line: &str, number: &Number) -> String {
    let bytes = line.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            // A string (a member's name or value): skipped, escapes and all.
            b'"' => {
                at += 1;
                while let Some(&inside) = bytes.get(at) {
                    at += if inside == b'\\' { 2 } else { 1 };
                    if inside == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while bytes
                    .get(at)
                    .is_some_and(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    at += 1;
                }
                let text = &line[start..at];
                // Compared as doubles: a second instance of serde_json's number parser would
                // cost the replay's module ~4 KB for a message.
                if text
                    .parse::<f64>()
                    .ok()
                    .is_some_and(|n| Some(n) == number.as_f64())
                {
                    return text.to_owned();
                }
            }
            _ => at += 1,
        }
    }
    number.to_string()
}

/// A key member as text: strings as they are, numbers as JSON writes them. An empty string is
/// refused, as a CSV line's empty key column is: it names no client.
pub fn key(name: &str, value: Option<Value>) -> Result<String, Unreadable> {
    let field = name.to_owned();
    match value {
        Some(Value::String(text)) if text.is_empty() => Err(Unreadable::EmptyKeyField { field }),
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
        let mut empty = object(r#"{"ip": ""}"#).unwrap();
        assert_eq!(
            key("ip", take(&mut empty, "ip")),
            Err(Unreadable::EmptyKeyField { field: "ip".into() })
        );
        assert_eq!(
            key("client.ip", take(&mut o, "client.ip")),
            Ok("::1".to_owned())
        );
    }

    #[test]
    fn a_number_is_named_as_the_line_writes_it() {
        let line = r#"{"n": "170000000000000000000 1", "a": 1.7E20, "t": 170000000000000000000}"#;
        let mut o = object(line).unwrap();
        let Some(Value::Number(n)) = take(&mut o, "t") else {
            panic!("a number")
        };
        assert_eq!(n.to_string(), "1.7e+20", "serde_json's own text");
        // The first number of that value outside a string, however written.
        assert_eq!(number_text(line, &n), "1.7E20");
        assert_eq!(
            time(
                "t",
                Some(Value::Number(n)),
                r#"{"t": 170000000000000000000}"#
            )
            .unwrap_err()
            .to_string(),
            "time field \"t\": 170000000000000000000 is out of range: times run from 1970 to the \
             year 5138 (an epoch number below 1e20, in s, ms, µs or ns by size)"
        );
        let line = r#"{"t\"": "-1.50", "t": -1.50}"#;
        let Some(n) = object(line).unwrap().remove("t") else {
            panic!("a member")
        };
        assert_eq!(
            time("t", Some(n), line).unwrap_err().to_string(),
            "time field \"t\": -1.50 is not an epoch time (0 or more and below 1e20: s, ms, µs \
             or ns since 1970)"
        );
    }

    #[test]
    fn a_time_past_a_double_is_out_of_range_not_json_refused() {
        let out_of_range = |field: &str, time: &str| Unreadable::TimeFieldOutOfRange {
            field: field.into(),
            time: time.into(),
        };
        for (line, field, why) in [
            (r#"{"t": 1e400}"#, "t", out_of_range("t", "1e400")),
            (
                r#"{"a": "1e400", "t":1.5E+400 }"#,
                "t",
                out_of_range("t", "1.5E+400"),
            ),
            // serde_json stops in the exponent, where it overflows an i32.
            (
                r#"{"t": 1e99999999999}"#,
                "t",
                out_of_range("t", "1e99999999999"),
            ),
            (
                r#"{"c": {"t": 1e400}}"#,
                "c.t",
                out_of_range("c.t", "1e400"),
            ),
            (
                r#"{"t": -1e400}"#,
                "t",
                Unreadable::BadEpoch {
                    field: "t".into(),
                    number: "-1e400".into(),
                },
            ),
        ] {
            assert_eq!(object_timed(line, field), Err(why), "{line}");
            assert!(
                matches!(object(line), Err(Unreadable::NotJson { .. })),
                "serde_json refuses {line}"
            );
        }
        // Elsewhere than the time member, or the line not JSON after it: serde_json's refusal.
        for (line, field) in [
            (r#"{"t": 1, "n": 1e400}"#, "t"),
            (r#"{"t": [1e400]}"#, "t"),
            (r#"{"t": {"u": 1e400}}"#, "t"),
            (r#"{"t": 1e400e1}"#, "t"),
            (r#"{"t": 1e400, "n": 1e400}"#, "t"),
            (r#"{"t": 1e400,}"#, "t"),
            (r#"{"t": 1e400"#, "t"),
            (r#"{"t": 1e400}"#, "n"),
        ] {
            assert_eq!(object_timed(line, field), object(line), "{line}");
        }
        assert_eq!(object_timed(r#"{"t": 2}"#, "t"), object(r#"{"t": 2}"#));
    }

    #[test]
    fn times_and_keys_of_the_wrong_kind_are_named() {
        assert_eq!(
            time("t", Some(Value::from(1.5)), ""),
            Ok(LogTime::epoch(1.5))
        );
        assert_eq!(
            time("t", Some(Value::from("2.5")), ""),
            Ok(LogTime::epoch(2.5))
        );
        let pino = time("t", Some(Value::from(1_700_000_000_250_u64)), "").unwrap();
        assert_eq!(pino.seconds, 1_700_000_000.25);
        assert_eq!(pino.epoch_unit.map(|u| u.name()), Some("milliseconds"));
        assert!(time("t", Some(Value::from(-1)), "")
            .unwrap_err()
            .to_string()
            .contains("not an epoch time"));
        assert_eq!(
            time("t", None, "").unwrap_err().to_string(),
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
