//! The field syntax that web-server and load-balancer logs share: fields separated by single
//! spaces, some of them in double quotes (where `\"` is a quote and `\\` a backslash, as Apache
//! writes them; nginx writes `\x22`, which needs nothing special) or in square brackets.

use crate::limiter::{rust_number, Given, InvalidValue};

/// A piece of a log line as a message shows it: quoted and escaped, cut after 40 characters (the
/// core's way of quoting what it was given), so a line of garbage can't flood a report.
pub fn quoted(text: &str) -> String {
    let got = Given::Text(text.to_owned()).text(rust_number);
    got.strip_prefix("got ").map(str::to_owned).unwrap_or(got)
}

/// `refused`, the number it read from `text` quoted as `text` writes it: the core names a number
/// it read by its value (`got -1`, `got 0.5` for `0,5`) and text it could not read quoted (`got
/// "nan"`), while a log or a command line gave both as text, so both are said the same way.
pub fn as_written(refused: InvalidValue, text: &str) -> InvalidValue {
    match refused.given {
        Given::Number(_) => InvalidValue {
            given: Given::Text(text.to_owned()),
            ..refused
        },
        _ => refused,
    }
}

/// What is wrong with an enclosed field (or a missing one), said with the field's name as an
/// [`Unreadable::Field`](super::Unreadable::Field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldError {
    /// The next field does not start with a quote.
    QuotedExpected,
    /// The next field does not start with a bracket.
    BracketedExpected,
    /// A quote opens a field that no quote closes.
    QuotedNotClosed,
    /// A bracket opens a field that no bracket closes.
    BracketedNotClosed,
    /// The line ends where a field should be.
    Missing,
}

impl FieldError {
    /// The code of its sentence (`unreadable.why` on the page).
    pub fn code(self) -> &'static str {
        match self {
            FieldError::QuotedExpected => "quotedExpected",
            FieldError::BracketedExpected => "bracketedExpected",
            FieldError::QuotedNotClosed => "quotedNotClosed",
            FieldError::BracketedNotClosed => "bracketedNotClosed",
            FieldError::Missing => "fieldMissing",
        }
    }
}

/// Reads the fields of one line from left to right.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    rest: &'a str,
}

impl<'a> Fields<'a> {
    /// The fields of `line`.
    pub fn new(line: &'a str) -> Self {
        Fields { rest: line }
    }

    /// Whether every field has been read.
    pub fn is_done(&self) -> bool {
        self.rest.is_empty()
    }

    /// What is left of the line, unread.
    pub fn rest(&self) -> &'a str {
        self.rest
    }

    /// The next bare field (up to a space), or `None` at the end of the line.
    pub fn bare(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b' ', self.rest.as_bytes()).unwrap_or(self.rest.len());
        let field = &self.rest[..end];
        self.advance(end);
        Some(field)
    }

    /// The next field in `open … close` (brackets, quotes), without them; `Err` says what was
    /// wrong. Inside quotes a backslash escapes the next character.
    pub fn enclosed(&mut self, open: u8, close: u8) -> Result<&'a str, FieldError> {
        let bytes = self.rest.as_bytes();
        if bytes.first() != Some(&open) {
            return Err(match open {
                b'"' => FieldError::QuotedExpected,
                _ => FieldError::BracketedExpected,
            });
        }
        // The next closing byte, or inside quotes the next backslash (which skips what follows).
        let mut i = 1;
        while i < bytes.len() {
            let found = if close == b'"' {
                memchr::memchr2(b'\\', close, &bytes[i..])
            } else {
                memchr::memchr(close, &bytes[i..])
            };
            let Some(at) = found.map(|at| i + at) else {
                break;
            };
            if bytes[at] == b'\\' {
                i = at + 2;
                continue;
            }
            let field = &self.rest[1..at];
            self.advance(at + 1);
            return Ok(field);
        }
        Err(match close {
            b'"' => FieldError::QuotedNotClosed,
            _ => FieldError::BracketedNotClosed,
        })
    }

    /// The next field, quoted or bare.
    pub fn any(&mut self) -> Result<&'a str, FieldError> {
        if self.rest.starts_with('"') {
            self.enclosed(b'"', b'"')
        } else {
            self.bare().ok_or(FieldError::Missing)
        }
    }

    /// Skips `end` bytes and the one space after them; a field must be followed by a space or
    /// the end of the line, otherwise the next read sees the junk and fails.
    fn advance(&mut self, end: usize) {
        let rest = &self.rest[end..];
        self.rest = rest.strip_prefix(' ').unwrap_or(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_keep_escaped_quotes_inside() {
        let mut f = Fields::new(r#"a [x y] "say \"hi\" \\" "" b"#);
        assert_eq!(f.bare(), Some("a"));
        assert_eq!(f.enclosed(b'[', b']'), Ok("x y"));
        assert_eq!(f.any(), Ok(r#"say \"hi\" \\"#));
        assert_eq!(f.any(), Ok(""));
        assert_eq!(f.any(), Ok("b"));
        assert!(f.is_done());
        assert_eq!(f.any(), Err(FieldError::Missing));
    }

    #[test]
    fn quoted_pieces_are_escaped_and_cut() {
        assert_eq!(quoted("a\"b"), r#""a\"b""#);
        assert_eq!(quoted("\u{1}"), r#""\u{1}""#);
        let long = quoted(&"x".repeat(100));
        assert!(
            long.ends_with("… (100 characters)") && long.len() < 70,
            "{long}"
        );
    }

    #[test]
    fn unclosed_fields_are_errors() {
        assert!(Fields::new(r#""open \" end"#).any().is_err());
        assert!(Fields::new("[no end").enclosed(b'[', b']').is_err());
        assert!(Fields::new("bare").enclosed(b'"', b'"').is_err());
        // A backslash as the last byte escapes nothing that could close the field.
        assert!(Fields::new(r#""ends with \"#).any().is_err());
        assert_eq!(Fields::new(r#""\\" x"#).any(), Ok(r#"\\"#));
    }
}
