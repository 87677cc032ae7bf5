//! Log timestamps as seconds since the Unix epoch (`f64`): the web servers' `10/Oct/2000:13:55:36
//! -0700`, RFC 3339 (`2018-07-02T22:23:00.186641Z`) and plain epoch numbers (`1698765432.123`;
//! milliseconds, microseconds and nanoseconds are told apart by their size, [`EpochUnit::of`]).

use super::fields::quoted;
use super::unreadable::Unreadable;
use serde::Serialize;
use std::fmt;
use time::format_description::well_known::Rfc3339;
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

/// Apache's and nginx's `%t` / `$time_local`, without the brackets.
const COMMON_LOG: &[BorrowedFormatItem<'static>] = format_description!(
    "[day]/[month repr:short]/[year]:[hour]:[minute]:[second] [offset_hour sign:mandatory][offset_minute]"
);

/// The first epoch second past the times a log may have: the year 5138, where an epoch number
/// of seconds would be read as milliseconds ([`EpochUnit::of`]). Times run from 1970 to then.
pub const LATEST_SECOND: f64 = 1e11;
/// The first epoch number past the times a log may have: the year 5138 in nanoseconds.
pub const LATEST_NUMBER: f64 = 1e20;
/// The widest UTC offset in use (Kiribati's +14:00), in seconds.
pub const WIDEST_OFFSET: i32 = 14 * 3600;

/// `time`, parsed from `text`, as epoch seconds: refused when it is outside 1970 to the year
/// 5138 or its offset is wider than ±14:00 (a time far ahead would stop its key's clock there).
fn seconds(time: OffsetDateTime, text: &str) -> Result<f64, Unreadable> {
    let offset = time.offset().whole_seconds();
    if offset.abs() > WIDEST_OFFSET {
        let (sign, offset) = (if offset < 0 { '-' } else { '+' }, offset.abs());
        return Err(Unreadable::OffsetOutOfRange {
            time: quoted(text),
            offset: format!("{sign}{:02}:{:02}", offset / 3600, offset % 3600 / 60),
        });
    }
    let seconds = time.unix_timestamp() as f64 + f64::from(time.nanosecond()) * 1e-9;
    if !(0.0..LATEST_SECOND).contains(&seconds) {
        return Err(Unreadable::DateOutOfRange { time: quoted(text) });
    }
    Ok(seconds)
}

/// `10/Oct/2000:13:55:36 -0700` as epoch seconds.
pub fn common_log(text: &str) -> Result<f64, Unreadable> {
    let time =
        OffsetDateTime::parse(text, COMMON_LOG).map_err(|e| Unreadable::NotCommonLogTime {
            time: quoted(text),
            detail: e.to_string(),
        })?;
    seconds(time, text)
}

/// An RFC 3339 date and time with its offset, as epoch seconds; `part` names it when it is not
/// one (`time`, `request_creation_time`).
pub fn rfc3339(part: &'static str, text: &str) -> Result<f64, Unreadable> {
    let time = OffsetDateTime::parse(text, &Rfc3339).map_err(|e| Unreadable::NotRfc3339 {
        part,
        time: quoted(text),
        detail: e.to_string(),
    })?;
    seconds(time, text)
}

/// Epoch seconds written as digits with an optional fraction (`1698765432.123`); nothing else
/// (no sign, exponent, `inf` or `NaN`, which Rust's float parser would take), and finite.
pub fn epoch(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    text.parse().ok().filter(|t: &f64| t.is_finite())
}

/// The unit a numeric epoch time is read in, told by its size ([`EpochUnit::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EpochUnit {
    /// Below `1e11`.
    Seconds,
    /// From `1e11` (pino's, Java's `currentTimeMillis`, JavaScript's `Date.now()`).
    Milliseconds,
    /// From `1e14`.
    Microseconds,
    /// From `1e17`.
    Nanoseconds,
}

impl EpochUnit {
    /// Every unit, the smallest numbers' first.
    pub const ALL: [EpochUnit; 4] = [
        EpochUnit::Seconds,
        EpochUnit::Milliseconds,
        EpochUnit::Microseconds,
        EpochUnit::Nanoseconds,
    ];

    /// The unit `value` is read in: the largest whose [`EpochUnit::starts_at`] it reaches. Any
    /// time from 1973 to the year 5138 is thus read right in each unit (`1e11` s would be the
    /// year 5138, while `1e11` ms is March 1973, and so on); a log of seconds earlier than 1973
    /// would need a time field of another kind.
    pub fn of(value: f64) -> EpochUnit {
        EpochUnit::ALL
            .into_iter()
            .rev()
            .find(|unit| value >= unit.starts_at())
            .unwrap_or(EpochUnit::Seconds)
    }

    /// The smallest number read in this unit.
    pub fn starts_at(self) -> f64 {
        match self {
            EpochUnit::Seconds => 0.0,
            EpochUnit::Milliseconds => 1e11,
            EpochUnit::Microseconds => 1e14,
            EpochUnit::Nanoseconds => 1e17,
        }
    }

    /// How many of the unit make a second.
    pub fn per_second(self) -> f64 {
        match self {
            EpochUnit::Seconds => 1.0,
            EpochUnit::Milliseconds => 1e3,
            EpochUnit::Microseconds => 1e6,
            EpochUnit::Nanoseconds => 1e9,
        }
    }

    /// `seconds`, `milliseconds`, `microseconds` or `nanoseconds`.
    pub fn name(self) -> &'static str {
        match self {
            EpochUnit::Seconds => "seconds",
            EpochUnit::Milliseconds => "milliseconds",
            EpochUnit::Microseconds => "microseconds",
            EpochUnit::Nanoseconds => "nanoseconds",
        }
    }
}

impl fmt::Display for EpochUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A time as a log wrote it, read: epoch seconds, and the unit when it was a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogTime {
    /// Seconds since the Unix epoch.
    pub seconds: f64,
    /// The unit a numeric epoch time was read in (by its size); `None` for a date and time.
    pub epoch_unit: Option<EpochUnit>,
}

impl LogTime {
    /// A numeric epoch time, its unit read from its size; refused from [`LATEST_NUMBER`] (past
    /// the year 5138 even in nanoseconds), naming it as `text` gives it (only then called).
    pub fn epoch_within(value: f64, text: impl FnOnce() -> String) -> Result<LogTime, Unreadable> {
        if value < LATEST_NUMBER {
            Ok(LogTime::epoch(value))
        } else {
            Err(Unreadable::TimeOutOfRange { time: text() })
        }
    }

    /// A numeric epoch time, its unit read from its size ([`EpochUnit::of`]).
    pub fn epoch(value: f64) -> LogTime {
        let unit = EpochUnit::of(value);
        LogTime {
            seconds: value / unit.per_second(),
            epoch_unit: Some(unit),
        }
    }

    /// A date and time, as epoch seconds.
    pub fn date(seconds: f64) -> LogTime {
        LogTime {
            seconds,
            epoch_unit: None,
        }
    }
}

/// A numeric epoch time as seconds, its unit read from its size: seconds below `1e11`,
/// milliseconds from `1e11`, microseconds from `1e14`, nanoseconds from `1e17`
/// ([`EpochUnit::of`]).
pub fn epoch_seconds(value: f64) -> f64 {
    LogTime::epoch(value).seconds
}

/// An epoch time ([`LogTime::epoch`]: seconds, or milliseconds and finer by their size), an RFC
/// 3339 string or a web server's `10/Oct/2000:13:55:36 -0700` (nginx's `$time_local` in a JSON
/// log), whichever `text` is; any of them outside 1970 to the year 5138 (or with an offset beyond
/// ±14:00) is refused as such.
pub fn epoch_or_rfc3339(text: &str) -> Result<LogTime, Unreadable> {
    if let Some(number) = epoch(text) {
        return LogTime::epoch_within(number, || quoted(text));
    }
    let date = match rfc3339("time", text) {
        Err(Unreadable::NotRfc3339 { .. }) => common_log(text),
        other => other,
    };
    date.map(LogTime::date).map_err(|e| match e {
        Unreadable::NotCommonLogTime { .. } if without_offset(text) => {
            Unreadable::NoOffset { time: quoted(text) }
        }
        Unreadable::NotCommonLogTime { .. } => Unreadable::NotTime { time: quoted(text) },
        range => range,
    })
}

/// Whether `text` is a date and time that would be read but for its missing UTC offset:
/// `2000-10-10T20:55:36` (or with a space or a lowercase `t`, and a fraction of a second), as
/// Python's `isoformat()` writes a naive time, or a web server's `10/Oct/2000:13:55:36`.
fn without_offset(text: &str) -> bool {
    let naive = OffsetDateTime::parse(&format!("{text}Z"), &Rfc3339).is_ok()
        || text
            .get(10..11)
            .is_some_and(|t| t == " " || t == "t")
            .then(|| format!("{}T{}Z", &text[..10], &text[11..]))
            .is_some_and(|iso| OffsetDateTime::parse(&iso, &Rfc3339).is_ok());
    naive || OffsetDateTime::parse(&format!("{text} +0000"), COMMON_LOG).is_ok()
}

/// Remembers the last `%t` text parsed: a busy log repeats each second many times.
#[derive(Debug, Clone, Default)]
pub struct CommonLogCache {
    text: String,
    seconds: f64,
}

impl CommonLogCache {
    /// [`common_log`], parsed once per distinct text in a row.
    pub fn parse(&mut self, text: &str) -> Result<f64, Unreadable> {
        if self.text != text {
            self.seconds = common_log(text)?;
            self.text.clear();
            self.text.push_str(text);
        }
        Ok(self.seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_spellings() {
        // Apache's documentation example: 13:55:36 at UTC−7 is 20:55:36 UTC.
        assert_eq!(common_log("10/Oct/2000:13:55:36 -0700"), Ok(971_211_336.0));
        assert_eq!(common_log("10/Oct/2000:20:55:36 +0000"), Ok(971_211_336.0));
        assert_eq!(
            rfc3339("time", "2000-10-10T20:55:36.25Z"),
            Ok(971_211_336.25)
        );
        assert_eq!(
            rfc3339("time", "2000-10-11T02:25:36+05:30"),
            Ok(971_211_336.0)
        );
        assert_eq!(epoch("971211336.5"), Some(971_211_336.5));
        assert_eq!(
            epoch_or_rfc3339("2000-10-10T20:55:36Z"),
            Ok(LogTime::date(971_211_336.0))
        );
        assert_eq!(
            epoch_or_rfc3339("10/Oct/2000:13:55:36 -0700"),
            Ok(LogTime::date(971_211_336.0))
        );
    }

    #[test]
    fn epoch_milliseconds_and_finer_are_told_by_their_size() {
        let seconds = 1_700_000_000.25;
        assert_eq!(epoch_seconds(seconds), seconds);
        assert_eq!(epoch_seconds(1_700_000_000_250.0), seconds);
        assert_eq!(epoch_seconds(1_700_000_000_250_000.0), seconds);
        // Nanoseconds since 1970 are past f64's whole numbers: within a microsecond.
        assert!((epoch_seconds(1_700_000_000_250_000_000.0) - seconds).abs() < 1e-6);
        assert_eq!(
            epoch_or_rfc3339("1700000000250"),
            Ok(LogTime {
                seconds,
                epoch_unit: Some(EpochUnit::Milliseconds)
            })
        );
        // Either side of the first limit: the year 5138 in seconds, March 1973 in milliseconds.
        assert_eq!(epoch_seconds(99_999_999_999.0), 99_999_999_999.0);
        assert_eq!(epoch_seconds(100_000_000_000.0), 100_000_000.0);
        // Small numbers stay seconds (a trace that starts at 0).
        assert_eq!(epoch_seconds(12.5), 12.5);
        let units: Vec<_> = [0.0, 99_999_999_999.0, 1e11, 1e14 - 1.0, 1e14, 1e17, 1e19]
            .into_iter()
            .map(|v| EpochUnit::of(v).name())
            .collect();
        assert_eq!(
            units,
            [
                "seconds",
                "seconds",
                "milliseconds",
                "milliseconds",
                "microseconds",
                "nanoseconds",
                "nanoseconds"
            ]
        );
    }

    #[test]
    fn a_time_that_is_neither_says_what_is_allowed() {
        let why = epoch_or_rfc3339("1e9").unwrap_err();
        assert_eq!(
            why.to_string(),
            "time \"1e9\" is neither an epoch time (digits with an optional fraction, in s, ms, µs \
             or ns by size), an RFC 3339 date and time nor a web server's (10/Oct/2000:13:55:36 \
             -0700)"
        );
    }

    #[test]
    fn a_date_and_time_without_an_offset_is_refused_for_that() {
        for text in [
            "2000-10-10T20:55:36",
            "2000-10-10 20:55:36",
            "2000-10-10t20:55:36.123456",
            "10/Oct/2000:13:55:36",
        ] {
            assert_eq!(
                epoch_or_rfc3339(text),
                Err(Unreadable::NoOffset { time: quoted(text) }),
                "{text}"
            );
        }
        let why = epoch_or_rfc3339("2000-10-10T20:55:36").unwrap_err();
        assert_eq!(
            why.to_string(),
            "time \"2000-10-10T20:55:36\" has no UTC offset, so the moment it names is unknown: \
             end it with Z for UTC or with the server's offset (2000-10-10T20:55:36Z, \
             2000-10-10T13:55:36-07:00)"
        );
        // Not a date and time at all, or one that is wrong in another way: said as before.
        for text in [
            "2000-13-10T20:55:36",
            "2000-10-10",
            "yesterday",
            "2000-10-10T20:55",
        ] {
            assert_eq!(
                epoch_or_rfc3339(text),
                Err(Unreadable::NotTime { time: quoted(text) }),
                "{text}"
            );
        }
    }

    #[test]
    fn near_misses_are_refused() {
        assert!(common_log("10/Oct/2000:13:55:36").is_err(), "no offset");
        assert!(common_log("32/Oct/2000:13:55:36 +0000").is_err());
        assert!(rfc3339("time", "2000-10-10 20:55:36").is_err());
        for text in ["", ".5", "1e9", "-3", "inf", "NaN", "1.2.3", " 1"] {
            assert_eq!(epoch(text), None, "{text:?}");
        }
    }
}
