//! The one error type of the core: a value that is not allowed, with its field and the rule.

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
        }
    }

    /// The field's name as JavaScript callers spell it (`refillRate`).
    pub fn js_name(self) -> &'static str {
        match self {
            Field::RefillRate => "refillRate",
            Field::Now => "nowSeconds",
            Field::TrafficRate => "trafficRate",
            Field::BurstSize => "burstSize",
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
    /// A whole number in `min..=max`.
    Whole(u32, u32),
    /// Any finite number.
    Finite,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Positive => f.write_str("a finite number greater than 0"),
            Rule::NonNegative => f.write_str("a finite number of at least 0"),
            Rule::UpTo(max) => write!(f, "a finite number from 0 to {}", Number(*max)),
            Rule::PositiveUpTo(max) => {
                write!(
                    f,
                    "a finite number greater than 0 and at most {}",
                    Number(*max)
                )
            }
            Rule::Whole(min, max) => write!(f, "a whole number from {min} to {max}"),
            Rule::Finite => f.write_str("a finite number"),
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
    /// Nothing: a required field was left out.
    Missing,
    /// A value of another type, named as JavaScript's `typeof` names it.
    Type(&'static str),
}

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Quoted text is cut here so a huge value can't flood the message.
        const MAX_QUOTED: usize = 40;
        match self {
            Given::Number(v) => write!(f, "got {}", Number(*v)),
            Given::Text(text) if text.chars().count() > MAX_QUOTED => {
                let head: String = text.chars().take(MAX_QUOTED).collect();
                write!(f, "got {head:?}… ({} characters)", text.chars().count())
            }
            Given::Text(text) => write!(f, "got {text:?}"),
            Given::Missing => f.write_str("it is missing"),
            Given::Type(kind) => write!(f, "got a value of type {kind}"),
        }
    }
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
                Rule::Whole(min, max) => {
                    value.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&value)
                }
                Rule::Finite => true,
            };
        if ok {
            Ok(value)
        } else {
            Err(InvalidValue {
                field,
                given: Given::Number(value),
                rule,
            })
        }
    }

    /// Parses `text` (an attribute or URL value, as typed by a person) as a number and checks it.
    /// A decimal comma (`2,5`, as written in Portuguese) is accepted as well as a point.
    pub fn parse(field: Field, text: &str, rule: Rule) -> Result<f64, InvalidValue> {
        let trimmed = text.trim();
        let number = if trimmed.contains(',') && !trimmed.contains('.') {
            trimmed.replacen(',', ".", 1).parse::<f64>()
        } else {
            trimmed.parse::<f64>()
        };
        // Rust also parses "inf" and "NaN"; those are then refused by the rule as numbers.
        match number {
            Ok(value) => Self::check(field, value, rule),
            Err(_) => Err(InvalidValue {
                field,
                given: Given::Text(text.to_owned()),
                rule,
            }),
        }
    }

    /// The message with the JavaScript spelling of the field name.
    pub fn js_message(&self) -> String {
        self.message(self.field.js_name())
    }

    /// The message with the field called `name` (an HTML attribute or URL parameter, say).
    pub fn message(&self, name: &str) -> String {
        format!("{name} must be {}, {}", self.rule, self.given)
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(self.field.name()))
    }
}

impl std::error::Error for InvalidValue {}

/// Formats a number the way JavaScript prints it (`Infinity`, `NaN`, `-0`), so that a message
/// quotes exactly what the caller typed.
struct Number(f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            v if v == f64::INFINITY => f.write_str("Infinity"),
            v if v == f64::NEG_INFINITY => f.write_str("-Infinity"),
            v => write!(f, "{v}"),
        }
    }
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
    fn non_finite_values_are_quoted_like_javascript() {
        let err = InvalidValue::check(Field::Capacity, f64::INFINITY, Rule::Positive).unwrap_err();
        assert!(err.to_string().ends_with("got Infinity"), "{err}");
        let err = InvalidValue::check(Field::Cost, f64::NAN, Rule::NonNegative).unwrap_err();
        assert!(err.to_string().ends_with("got NaN"), "{err}");
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
    fn long_text_is_cut_in_the_message() {
        let text = "9".repeat(50) + "x";
        let err = InvalidValue::parse(Field::Capacity, &text, Rule::Positive).unwrap_err();
        let message = err.to_string();
        assert!(message.ends_with("… (51 characters)"), "{message}");
        assert!(message.len() < 120, "{message}");
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
