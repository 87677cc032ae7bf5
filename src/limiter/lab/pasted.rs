//! Pasted timestamps: one time in seconds per line (a decimal comma is fine), ascending. Every
//! refusal names the line (or array index), what was there and what is allowed.

use std::fmt;

use crate::limiter::groups_thousands;

/// The most times a pasted list may hold.
pub const MAX_PASTED: usize = super::traffic::MAX_ARRIVALS;

/// Where a bad time was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// A line of pasted text, counting from 1.
    Line(usize),
    /// An index of an array of numbers, counting from 0.
    Index(usize),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Line(line) => write!(f, "traffic.timestamps line {line}"),
            Position::Index(index) => write!(f, "traffic.timestamps[{index}]"),
        }
    }
}

/// What is wrong with a pasted time.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Not a number at all.
    NotANumber(String),
    /// A comma that could group thousands as well as mark decimals (`1,000`): read as neither.
    Ambiguous(String),
    /// A number below 0, or not finite.
    Negative(f64),
    /// Earlier than the time before it.
    Descending {
        /// This time.
        time: f64,
        /// The time before it.
        previous: f64,
    },
    /// At or after the end of the simulation.
    Beyond {
        /// This time.
        time: f64,
        /// The simulation's length.
        duration: f64,
    },
    /// No times at all.
    Empty,
    /// More times than a simulation may have.
    TooMany(usize),
}

/// A pasted list that cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub struct PasteError {
    /// Where, unless the problem is with the whole list.
    pub position: Option<Position>,
    /// What.
    pub problem: Problem,
}

impl PasteError {
    fn at(position: Position, problem: Problem) -> Self {
        PasteError {
            position: Some(position),
            problem,
        }
    }

    /// The first time in `times` at or after `duration` (`late`), by its index.
    pub fn beyond(times: &[f64], late: f64, duration: f64) -> Self {
        let index = times.iter().position(|&t| t == late).unwrap_or(0);
        PasteError::at(
            Position::Index(index),
            Problem::Beyond {
                time: late,
                duration,
            },
        )
    }
}

impl fmt::Display for PasteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.position {
            Some(position) => write!(f, "{position}: ")?,
            None => f.write_str("traffic.timestamps: ")?,
        }
        match &self.problem {
            Problem::NotANumber(text) => write!(
                f,
                "{text:?} is not a number; write one time in seconds per line, such as 0.25"
            ),
            Problem::Ambiguous(text) => {
                let (whole, point) = crate::limiter::Given::readings(text);
                write!(
                    f,
                    "{text:?} could mean {whole} or {point}; write the one you mean without a thousands separator"
                )
            }
            Problem::Negative(time) => write!(
                f,
                "{} is not allowed; times must be finite numbers of seconds from 0 up",
                js_number(*time)
            ),
            Problem::Descending { time, previous } => write!(
                f,
                "{} comes before the previous time, {}; list the times in ascending order",
                js_number(*time),
                js_number(*previous)
            ),
            Problem::Beyond { time, duration } => write!(
                f,
                "{} is not before the end of the simulation; times must be less than the duration, {}",
                js_number(*time),
                js_number(*duration)
            ),
            Problem::Empty => f.write_str("no times given; write at least one time in seconds"),
            Problem::TooMany(count) => {
                write!(f, "{count} times given; at most {MAX_PASTED} are allowed")
            }
        }
    }
}

impl std::error::Error for PasteError {}

fn js_number(value: f64) -> String {
    match value {
        v if v == f64::INFINITY => "Infinity".into(),
        v if v == f64::NEG_INFINITY => "-Infinity".into(),
        v => v.to_string(),
    }
}

/// Parses pasted text: one time per line; blank lines are skipped; `2,5` reads as `2.5`, and a
/// comma that could group thousands (`1,000`) is refused, as the core's numbers are.
///
/// ```
/// use bucketlab::limiter::lab::parse_timestamps;
///
/// assert_eq!(parse_timestamps("0.1\n\n0,25\n1")?, vec![0.1, 0.25, 1.0]);
/// let err = parse_timestamps("0.1\nsoon").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "traffic.timestamps line 2: \"soon\" is not a number; write one time in seconds per line, such as 0.25"
/// );
/// # Ok::<(), bucketlab::limiter::lab::PasteError>(())
/// ```
pub fn parse_timestamps(text: &str) -> Result<Vec<f64>, PasteError> {
    parse_timestamps_before(text, f64::INFINITY)
}

/// [`parse_timestamps`], also refusing (by line) a time at or after `duration`.
pub fn parse_timestamps_before(text: &str, duration: f64) -> Result<Vec<f64>, PasteError> {
    let mut times = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let position = Position::Line(index + 1);
        if groups_thousands(trimmed, ',') {
            return Err(PasteError::at(
                position,
                Problem::Ambiguous(trimmed.to_owned()),
            ));
        }
        let normalised = if trimmed.contains(',') && !trimmed.contains('.') {
            trimmed.replacen(',', ".", 1)
        } else {
            trimmed.to_owned()
        };
        // Rust also reads "inf" and "NaN"; those are numbers, refused by the range check.
        let time = normalised.parse::<f64>().map_err(|_| {
            let shown: String = trimmed.chars().take(40).collect();
            PasteError::at(position, Problem::NotANumber(shown))
        })?;
        push_checked(&mut times, time, position, duration)?;
    }
    finish(times)
}

/// Checks numbers given as an array: finite, ≥ 0, ascending, before `duration` (which may be
/// infinite).
pub fn check_timestamps(given: &[f64], duration: f64) -> Result<Vec<f64>, PasteError> {
    let mut times = Vec::with_capacity(given.len().min(MAX_PASTED));
    for (index, &time) in given.iter().enumerate() {
        push_checked(&mut times, time, Position::Index(index), duration)?;
    }
    finish(times)
}

fn push_checked(
    times: &mut Vec<f64>,
    time: f64,
    position: Position,
    duration: f64,
) -> Result<(), PasteError> {
    if !(time.is_finite() && time >= 0.0) {
        return Err(PasteError::at(position, Problem::Negative(time)));
    }
    if time >= duration {
        return Err(PasteError::at(position, Problem::Beyond { time, duration }));
    }
    if let Some(&previous) = times.last() {
        if time < previous {
            return Err(PasteError::at(
                position,
                Problem::Descending { time, previous },
            ));
        }
    }
    if times.len() == MAX_PASTED {
        return Err(PasteError {
            position: None,
            problem: Problem::TooMany(MAX_PASTED + 1),
        });
    }
    times.push(time + 0.0);
    Ok(())
}

fn finish(times: Vec<f64>) -> Result<Vec<f64>, PasteError> {
    if times.is_empty() {
        return Err(PasteError {
            position: None,
            problem: Problem::Empty,
        });
    }
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_line_is_named_with_its_number_and_value() {
        let err = |text: &str| parse_timestamps(text).unwrap_err().to_string();
        assert_eq!(
            err("0.5\n-1"),
            "traffic.timestamps line 2: -1 is not allowed; times must be finite numbers of seconds from 0 up"
        );
        assert_eq!(
            err("0.5\n\n0.2"),
            "traffic.timestamps line 3: 0.2 comes before the previous time, 0.5; list the times in ascending order"
        );
        assert_eq!(err("NaN"), "traffic.timestamps line 1: NaN is not allowed; times must be finite numbers of seconds from 0 up");
        assert_eq!(
            err(" \n "),
            "traffic.timestamps: no times given; write at least one time in seconds"
        );
        assert!(err("1\n2 3").starts_with("traffic.timestamps line 2: \"2 3\" is not a number"));
        // A comma that could group thousands is read as neither: not 1 s, as it was.
        assert_eq!(
            err("0,5\n 1,000 "),
            "traffic.timestamps line 2: \"1,000\" could mean 1000 or 1.000; write the one you mean without a thousands separator"
        );
        assert_eq!(
            parse_timestamps("0,500\n1,0000\n2,5").unwrap(),
            [0.5, 1.0, 2.5]
        );
        let late = parse_timestamps_before("1\n\n3", 3.0).unwrap_err();
        assert_eq!(
            late.to_string(),
            "traffic.timestamps line 3: 3 is not before the end of the simulation; times must be less than the duration, 3"
        );
    }

    #[test]
    fn arrays_are_checked_by_index() {
        assert_eq!(
            check_timestamps(&[0.0, 0.0, 1.5], 2.0),
            Ok(vec![0.0, 0.0, 1.5])
        );
        let err = check_timestamps(&[1.0, f64::INFINITY], f64::INFINITY).unwrap_err();
        assert_eq!(
            err.to_string(),
            "traffic.timestamps[1]: Infinity is not allowed; times must be finite numbers of seconds from 0 up"
        );
    }
}
