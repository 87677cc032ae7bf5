//! A reason as data: a code that names the sentence saying it, and the values that sentence
//! names. [`Problem`](super::Problem) (a setting that does not fit) and
//! [`Unreadable`](super::Unreadable) (a line that could not be read) are both said this way:
//! in English by the command (`Display`, through [`write_english`]), and by the lesson's page in
//! its language from the serialized `{ "code": …, then each value by its name }`
//! ([`serialize`]).

use crate::limiter::rust_number;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt;

/// A value a reason's sentence names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Arg {
    /// Text from the log or the command, the same in any language.
    Text(String),
    /// A whole number.
    Whole(u64),
    /// A number, written the Rust way in English (`0.0005`, `inf`).
    Number(f64),
    /// A word each language says its own way: its name (what the page looks up), then its
    /// English.
    Word(&'static str, &'static str),
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Text(text) => f.write_str(text),
            Arg::Whole(n) => write!(f, "{n}"),
            Arg::Number(x) => f.write_str(&rust_number(*x)),
            Arg::Word(_, english) => f.write_str(english),
        }
    }
}

impl Serialize for Arg {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Arg::Text(text) => serializer.serialize_str(text),
            Arg::Word(name, _) => serializer.serialize_str(name),
            Arg::Whole(n) => serializer.serialize_u64(*n),
            Arg::Number(x) if x.is_finite() => serializer.serialize_f64(*x),
            // JSON has no infinity: the number as the English writes it.
            Arg::Number(x) => serializer.serialize_str(&rust_number(*x)),
        }
    }
}

/// The sentence of `code` in `table` (pairs of a code and its English, values in braces).
pub(crate) fn lookup(table: &[(&str, &'static str)], code: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, text)| *text)
}

/// `sentence` with each `{name}` replaced by the value of that name in `args`; a mark with no
/// value is written as it is.
pub(crate) fn write_english(
    f: &mut fmt::Formatter<'_>,
    sentence: &str,
    args: &[(&'static str, Arg)],
) -> fmt::Result {
    let mut rest = sentence;
    while let Some((before, after)) = rest.split_once('{') {
        f.write_str(before)?;
        let Some((name, after)) = after.split_once('}') else {
            return write!(f, "{{{after}");
        };
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => write!(f, "{value}")?,
            None => write!(f, "{{{name}}}")?,
        }
        rest = after;
    }
    f.write_str(rest)
}

/// `{ "code": code, then each value by its name }`, for a front end that words it itself.
pub(crate) fn serialize<S: Serializer>(
    serializer: S,
    code: &str,
    args: &[(&'static str, Arg)],
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(args.len() + 1))?;
    map.serialize_entry("code", code)?;
    for (name, value) in args {
        map.serialize_entry(name, value)?;
    }
    map.end()
}
