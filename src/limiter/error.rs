//! The one error type of the core: a value that is not allowed, with its field and the rule.

use super::number::{push_hex, push_uint, read_typed, rust_decimal, rust_number};
use super::number::{DecimalText, NumberText};
use std::fmt;

/// The value an [`InvalidValue`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Bucket capacity `B`.
    Capacity,
    /// Refill rate `r`, tokens per second.
    RefillRate,
    /// Initial token count.
    Tokens,
    /// Cost of one request.
    Cost,
    /// The time a request arrives, in seconds.
    Now,
    /// Speed of the lesson clock.
    Speed,
    /// A step of the lesson clock, in seconds.
    Step,
    /// Requests per second of automatic traffic.
    TrafficRate,
    /// Requests sent at once in a burst.
    BurstSize,
    /// Seed of the random traffic.
    Seed,
    /// A setting of the algorithm lab (see [`crate::limiter::lab`]).
    Lab(super::lab::LabField),
    /// A setting of the retrying clients (see [`crate::limiter::clients`]).
    Clients(super::clients::ClientField),
    /// A setting of the flood (see [`crate::limiter::flood`]).
    Flood(super::flood::FloodField),
    /// A script's argument, by its name in the JavaScript API (`t`, `wallMs`).
    Arg(&'static str),
}

impl Field {
    /// The field's name in Rust code and in the lesson's formulas (`refill_rate`).
    pub fn name(self) -> &'static str {
        match self {
            Field::Capacity => "capacity",
            Field::RefillRate => "refill_rate",
            Field::Tokens => "tokens",
            Field::Cost => "cost",
            Field::Now => "now",
            Field::Speed => "speed",
            Field::Step => "seconds",
            Field::TrafficRate => "traffic_rate",
            Field::BurstSize => "burst_size",
            Field::Seed => "seed",
            Field::Lab(field) => field.name(),
            Field::Clients(field) => field.name(),
            Field::Flood(field) => field.name(),
            Field::Arg(name) => name,
        }
    }

    /// The field's name as JavaScript callers spell it (`refillRate`).
    pub fn js_name(self) -> &'static str {
        match self {
            Field::RefillRate => "refillRate",
            Field::Now => "nowSeconds",
            Field::TrafficRate => "trafficRate",
            Field::BurstSize => "burstSize",
            Field::Lab(field) => field.js_name(),
            other => other.name(),
        }
    }
}

/// What a field allows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// A finite number greater than zero.
    Positive,
    /// A finite number, zero or more.
    NonNegative,
    /// A finite number in `0..=max`.
    UpTo(f64),
    /// A finite number above 0 and at most `max`.
    PositiveUpTo(f64),
    /// A finite number in `min..=max`.
    Between(f64, f64),
    /// A whole number in `min..=max`.
    Whole(u32, u32),
    /// Any finite number.
    Finite,
}

impl Rule {
    /// The rule's kind as a code a page words in its language (`whole`, `between`, …), with
    /// [`Rule::bounds`] its numbers.
    pub fn code(&self) -> &'static str {
        match self {
            Rule::Positive => "positive",
            Rule::NonNegative => "nonNegative",
            Rule::UpTo(_) => "upTo",
            Rule::PositiveUpTo(_) => "positiveUpTo",
            Rule::Between(..) => "between",
            Rule::Whole(..) => "whole",
            Rule::Finite => "finite",
        }
    }

    /// The rule's least and greatest allowed values, where it names them.
    pub fn bounds(&self) -> (Option<f64>, Option<f64>) {
        match *self {
            Rule::UpTo(max) | Rule::PositiveUpTo(max) => (None, Some(max)),
            Rule::Between(min, max) => (Some(min), Some(max)),
            Rule::Whole(min, max) => (Some(min.into()), Some(max.into())),
            Rule::Positive | Rule::NonNegative | Rule::Finite => (None, None),
        }
    }

    /// What the rule allows, in words; numbers written by `number`.
    fn describe(&self, out: &mut String, number: NumberText) {
        match self {
            Rule::Positive => out.push_str("a finite number greater than 0"),
            Rule::NonNegative => out.push_str("a finite number of at least 0"),
            Rule::UpTo(max) => {
                out.push_str("a finite number from 0 to ");
                out.push_str(&number(*max));
            }
            Rule::PositiveUpTo(max) => {
                out.push_str("a finite number greater than 0 and at most ");
                out.push_str(&number(*max));
            }
            Rule::Between(min, max) => {
                out.push_str("a finite number from ");
                out.push_str(&number(*min));
                out.push_str(" to ");
                out.push_str(&number(*max));
            }
            Rule::Whole(min, max) => {
                out.push_str("a whole number from ");
                push_uint(out, (*min).into());
                out.push_str(" to ");
                push_uint(out, (*max).into());
            }
            Rule::Finite => out.push_str("a finite number"),
        }
    }
}

/// What the caller gave for a field that was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// A number outside the rule.
    Number(f64),
    /// Text that is not a number (from an attribute, a URL or a form field).
    Text(String),
    /// Text that is a number too large in magnitude for a double (`1e400`, 400 nines): written
    /// as a number, but with no finite value to check.
    TooLarge(String),
    /// Text that is a number other than 0 too small in magnitude for a double (`1e-400`): it would
    /// read as 0, which it is not.
    TooSmall(String),
    /// Text with one comma before exactly three digits (`1,000`, `-2,500`): a thousands
    /// separator to one writer, a decimal comma to another, so it is read as neither.
    Ambiguous(String),
    /// Nothing: a required field was left out.
    Missing,
    /// What a browser's number field holds when it can't read it as a number (`1e400`, `1e`):
    /// the field gives the page no text to quote.
    Unreadable,
    /// A value of another type, named as JavaScript's `typeof` names it.
    Type(&'static str),
}

impl Given {
    /// The two readings of an [`Given::Ambiguous`] text, as it would be written to mean each:
    /// without the comma (`1000`), and with a point for it (`1.000`).
    pub fn readings(text: &str) -> (String, String) {
        (text.replacen(',', "", 1), text.replacen(',', ".", 1))
    }

    /// Text that reads as a number but not a finite one: too large when it has digits (`1e400`,
    /// 400 nines), else a word (`inf`, `NaN`), quoted as text.
    pub fn not_finite(text: &str) -> Given {
        if text.bytes().any(|b| b.is_ascii_digit()) {
            Given::TooLarge(text.to_owned())
        } else {
            Given::Text(text.to_owned())
        }
    }

    /// `got …`: what was given, in words, numbers written by `number`.
    pub fn text(&self, number: NumberText) -> String {
        let mut out = String::new();
        self.describe(&mut out, number);
        out
    }

    /// What was given, in words; numbers written by `number`, text quoted (and cut when long,
    /// so a huge value can't flood the message).
    fn describe(&self, out: &mut String, number: NumberText) {
        const MAX_QUOTED: usize = 40;
        match self {
            Given::Number(v) => {
                out.push_str("got ");
                out.push_str(&number(*v));
            }
            Given::Text(text) | Given::TooLarge(text) | Given::TooSmall(text) => {
                out.push_str("got ");
                // A plain loop: `chars().count()` brings a large vectorised counter into the wasm.
                let count = text.chars().fold(0usize, |n, _| n + 1);
                quote(out, text.chars().take(MAX_QUOTED));
                if count > MAX_QUOTED {
                    out.push_str("… (");
                    push_uint(out, count as u64);
                    out.push_str(" characters)");
                }
                if let Given::TooLarge(_) = self {
                    out.push_str(", which is too large");
                }
                if let Given::TooSmall(_) = self {
                    out.push_str(", which is too small to tell from 0");
                }
            }
            Given::Ambiguous(text) => {
                let (whole, point) = Given::readings(text);
                out.push_str("got ");
                quote(out, text.chars());
                out.push_str(", which could mean ");
                out.push_str(&whole);
                out.push_str(" or ");
                out.push_str(&point);
                out.push_str(": write the one meant");
            }
            Given::Missing => out.push_str("it is missing"),
            Given::Unreadable => out.push_str("got text that is not a number the field can read"),
            Given::Type(kind) => {
                out.push_str("got a value of type ");
                out.push_str(kind);
            }
        }
    }
}

/// Whether `c` changes how the text around it is laid out without being a control character:
/// the bidirectional marks, embeddings, overrides and isolates (U+202E would show `1.0.0.01` as
/// `10.0.0.1`) and the line and paragraph separators. A quoted value, or a key in a report,
/// shows them escaped, as it shows control characters.
pub fn reorders_text(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Writes `text` in double quotes, escaping quotes, backslashes, control characters and those
/// that reorder text ([`reorders_text`]) the way a Rust or JavaScript string literal would.
fn quote(out: &mut String, text: impl Iterator<Item = char>) {
    out.push('"');
    for c in text {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || reorders_text(c) => {
                out.push_str("\\u{");
                push_hex(out, u32::from(c));
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A value that breaks its field's [`Rule`]. Its message names the field, the value and the rule.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidValue {
    /// Which value was wrong.
    pub field: Field,
    /// What was given.
    pub given: Given,
    /// What would have been accepted.
    pub rule: Rule,
}

impl InvalidValue {
    /// Checks `value` against `rule`, naming `field` if it fails.
    pub fn check(field: Field, value: f64, rule: Rule) -> Result<f64, InvalidValue> {
        let ok = value.is_finite()
            && match rule {
                Rule::Positive => value > 0.0,
                Rule::NonNegative => value >= 0.0,
                Rule::UpTo(max) => (0.0..=max).contains(&value),
                Rule::PositiveUpTo(max) => value > 0.0 && value <= max,
                Rule::Between(min, max) => (min..=max).contains(&value),
                Rule::Whole(min, max) => {
                    value.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&value)
                }
                Rule::Finite => true,
            };
        if ok {
            Ok(value)
        } else {
            Err(Self::refused(field, value, rule))
        }
    }

    /// The error for a number `value` that `rule` refuses.
    #[cold]
    pub fn refused(field: Field, value: f64, rule: Rule) -> InvalidValue {
        InvalidValue {
            field,
            given: Given::Number(value),
            rule,
        }
    }

    /// Reads `text` (an attribute or URL value, as typed by a person) as a number and checks it.
    /// A decimal comma (`2,5`, as written in Portuguese) is accepted as well as a point.
    pub fn parse(field: Field, text: &str, rule: Rule) -> Result<f64, InvalidValue> {
        Self::parse_with(field, text, rule, rust_decimal)
    }

    /// [`InvalidValue::parse`] with the conversion of a checked decimal literal left to `decimal`
    /// (the wasm build asks JavaScript, which keeps Rust's float parser out of the module).
    pub fn parse_with(
        field: Field,
        text: &str,
        rule: Rule,
        decimal: DecimalText,
    ) -> Result<f64, InvalidValue> {
        // Like Rust, "inf" and "NaN" are read; those are then refused by the rule, quoting the
        // text as typed (not `inf` as JavaScript's `Infinity`). Digits read as infinite are a
        // number too large, not "not a number"; other digits than 0 read as 0 are too small.
        if thousands_like(text) {
            return Err(InvalidValue {
                field,
                given: Given::Ambiguous(text.trim().to_owned()),
                rule,
            });
        }
        match read_typed(text, decimal) {
            Some(value) if value == 0.0 && nonzero_digits(text) => Err(InvalidValue {
                field,
                given: Given::TooSmall(text.to_owned()),
                rule,
            }),
            Some(value) => Self::check(field, value, rule).map_err(|mut err| {
                if !value.is_finite() {
                    err.given = Given::not_finite(text);
                }
                err
            }),
            None => Err(InvalidValue {
                field,
                given: Given::Text(text.to_owned()),
                rule,
            }),
        }
    }

    /// The message with the JavaScript spelling of the field name.
    pub fn js_message(&self) -> String {
        self.message_with(self.field.js_name(), rust_number)
    }

    /// The message: `{name} must be {rule}, {given}`, numbers written by `number`.
    pub fn message_with(&self, name: &str, number: NumberText) -> String {
        let mut out = String::from(name);
        out.push_str(" must be ");
        self.rule.describe(&mut out, number);
        out.push_str(", ");
        self.given.describe(&mut out, number);
        out
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_with(self.field.name(), rust_number))
    }
}

impl std::error::Error for InvalidValue {}

/// Whether `text` is one comma between 1 to 3 digits (the first not 0) and exactly 3 (`1,000`,
/// `+12,500`, `-1,125`): a thousands separator in English, a decimal comma in Portuguese. `0,500`
/// and `2,5` can only be decimals, `1,0000` can't group thousands.
fn thousands_like(text: &str) -> bool {
    groups_thousands(text, ',')
}

/// [`thousands_like`] with `separator` in the comma's place: in a Portuguese form, where a
/// thousand is written `1.000`, a point is read as neither too (as the page's forms read it,
/// www/i18n/typed-number.js).
pub fn groups_thousands(text: &str, separator: char) -> bool {
    let text = text.trim();
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    match body.split_once(separator) {
        Some((int, frac)) => {
            (1..=3).contains(&int.len())
                && !int.starts_with('0')
                && frac.len() == 3
                && int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// Whether `text`'s digits before any exponent are not all 0 (`1e-400`, not `0e5` or `-0.0`).
fn nonzero_digits(text: &str) -> bool {
    text.bytes()
        .take_while(|b| !matches!(b, b'e' | b'E'))
        .any(|b| matches!(b, b'1'..=b'9'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_field_value_and_rule() {
        let err = InvalidValue::check(Field::RefillRate, -1.0, Rule::NonNegative).unwrap_err();
        assert_eq!(
            err.to_string(),
            "refill_rate must be a finite number of at least 0, got -1"
        );
        assert_eq!(
            err.js_message(),
            "refillRate must be a finite number of at least 0, got -1"
        );
    }

    #[test]
    fn a_comma_before_three_digits_is_refused_naming_both_readings() {
        for (typed, whole, point) in [
            ("1,000", "1000", "1.000"),
            (" -12,500 ", "-12500", "-12.500"),
            ("+999,125", "+999125", "+999.125"),
        ] {
            let err = InvalidValue::parse(Field::Capacity, typed, Rule::Positive).unwrap_err();
            assert_eq!(err.given, Given::Ambiguous(typed.trim().to_owned()));
            assert_eq!(
                err.js_message(),
                format!(
                    "capacity must be a finite number greater than 0, got \"{}\", which could \
                     mean {whole} or {point}: write the one meant",
                    typed.trim()
                )
            );
        }
        // Only decimals, or no thousands grouping: read as before.
        for (typed, value) in [
            ("2,5", 2.5),
            ("0,500", 0.5),
            ("1,0000", 1.0),
            ("1,25", 1.25),
            ("1000", 1000.0),
            ("1.000", 1.0),
        ] {
            let read = InvalidValue::parse(Field::Capacity, typed, Rule::Positive);
            assert_eq!(read, Ok(value), "{typed}");
        }
        // Neither reading is taken when one comma more could only group (1,000,000 is not a number).
        let err = InvalidValue::parse(Field::Capacity, "1,000,000", Rule::Positive).unwrap_err();
        assert_eq!(err.given, Given::Text("1,000,000".to_owned()));
    }

    #[test]
    fn non_finite_values_are_quoted_like_javascript() {
        let err = InvalidValue::check(Field::Capacity, f64::INFINITY, Rule::Positive).unwrap_err();
        assert!(err.to_string().ends_with("got Infinity"), "{err}");
        let err = InvalidValue::check(Field::Cost, f64::NAN, Rule::NonNegative).unwrap_err();
        assert!(err.to_string().ends_with("got NaN"), "{err}");
        // Typed as text, they are quoted as typed.
        for typed in ["inf", "NaN", "-Infinity"] {
            let err = InvalidValue::parse(Field::Capacity, typed, Rule::Positive).unwrap_err();
            assert!(
                err.to_string().ends_with(&format!("got \"{typed}\"")),
                "{err}"
            );
        }
    }

    #[test]
    fn parse_accepts_decimal_comma_and_quotes_bad_text() {
        assert_eq!(
            InvalidValue::parse(Field::RefillRate, " 2,5 ", Rule::Positive),
            Ok(2.5)
        );
        assert_eq!(
            InvalidValue::parse(Field::RefillRate, "2.5", Rule::Positive),
            Ok(2.5)
        );
        let err = InvalidValue::parse(Field::Capacity, "dez", Rule::Positive).unwrap_err();
        assert_eq!(
            err.to_string(),
            "capacity must be a finite number greater than 0, got \"dez\""
        );
        let err = InvalidValue::parse(Field::Capacity, "", Rule::Positive).unwrap_err();
        assert!(err.to_string().ends_with("got \"\""), "{err}");
    }

    #[test]
    fn digits_other_than_0_read_as_0_are_too_small_not_0() {
        for text in ["1e-400", "-2,5e-999", "0.000001e-399"] {
            let err = InvalidValue::parse(Field::RefillRate, text, Rule::NonNegative).unwrap_err();
            assert_eq!(err.given, Given::TooSmall(text.to_owned()));
            assert_eq!(
                err.to_string(),
                format!("refill_rate must be a finite number of at least 0, got \"{text}\", which is too small to tell from 0")
            );
        }
        for zero in ["0", "-0.0", "0e5", "0,000", "00e-999"] {
            assert_eq!(
                InvalidValue::parse(Field::RefillRate, zero, Rule::NonNegative),
                Ok(0.0),
                "{zero}"
            );
        }
        assert!(InvalidValue::parse(Field::RefillRate, "1e-320", Rule::NonNegative).unwrap() > 0.0);
    }

    #[test]
    fn a_number_too_large_for_a_double_is_called_too_large_not_text() {
        let nines = "9".repeat(5000);
        let err = InvalidValue::parse(Field::Capacity, &nines, Rule::Positive).unwrap_err();
        assert_eq!(err.given, Given::TooLarge(nines));
        assert!(
            err.to_string()
                .ends_with("… (5000 characters), which is too large"),
            "{err}"
        );
        let err = InvalidValue::parse(Field::Capacity, "-1e400", Rule::Positive).unwrap_err();
        assert_eq!(
            err.to_string(),
            "capacity must be a finite number greater than 0, got \"-1e400\", which is too large"
        );
        let err = InvalidValue::parse(Field::Capacity, "inf", Rule::Positive).unwrap_err();
        assert_eq!(
            err.given,
            Given::Text("inf".to_owned()),
            "a word stays text"
        );
    }

    #[test]
    fn long_text_is_cut_in_the_message() {
        let text = "9".repeat(50) + "x";
        let err = InvalidValue::parse(Field::Capacity, &text, Rule::Positive).unwrap_err();
        let message = err.to_string();
        assert!(message.ends_with("… (51 characters)"), "{message}");
        assert!(message.len() < 120, "{message}");
    }

    #[test]
    fn huge_numbers_are_quoted_like_javascript() {
        let err = InvalidValue::check(Field::Capacity, -1e308, Rule::Positive).unwrap_err();
        assert_eq!(
            err.to_string(),
            "capacity must be a finite number greater than 0, got -1e+308"
        );
    }

    #[test]
    fn a_rule_is_data_too_for_a_page_to_word() {
        assert_eq!(Rule::Whole(1, 100).code(), "whole");
        assert_eq!(Rule::Whole(1, 100).bounds(), (Some(1.0), Some(100.0)));
        assert_eq!(Rule::PositiveUpTo(50.0).bounds(), (None, Some(50.0)));
        assert_eq!(Rule::Positive.bounds(), (None, None));
    }

    #[test]
    fn up_to_rule_quotes_its_bound() {
        let err = InvalidValue::check(Field::Tokens, 11.0, Rule::UpTo(10.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tokens must be a finite number from 0 to 10, got 11"
        );
        assert_eq!(
            InvalidValue::check(Field::Tokens, 10.0, Rule::UpTo(10.0)),
            Ok(10.0)
        );
    }
}
