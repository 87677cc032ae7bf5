//! The log formats, how a request's key is chosen, and the parser that turns one line into an
//! [`Event`] for the format and key chosen (or detected from the first lines).

use super::lines::{Line, MAX_LINE};
use super::setup::{Problem, Remedy, SetupError};
use super::timestamp::{epoch_or_rfc3339, CommonLogCache, EpochUnit, LogTime};
use super::unreadable::Unreadable;
use super::{alb, clf, csv, fields, jsonl};
use crate::limiter::{Field, InvalidValue, Rule};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// The formats a log may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Apache / nginx `combined`, optionally ending with nginx's `$msec`.
    Combined,
    /// Apache / nginx `common`, optionally ending with nginx's `$msec`.
    Common,
    /// One JSON object per line.
    Json,
    /// AWS Application Load Balancer access logs.
    Alb,
    /// `time,key[,cost]`.
    Csv,
}

impl Format {
    /// Every format, in the order detection prefers them when they match as many lines (a
    /// `combined` line is also a `common` one with extra fields).
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Alb,
        Format::Combined,
        Format::Common,
        Format::Csv,
    ];

    /// The names `--format` takes, in the order the help lists them.
    pub const NAMES: [&'static str; 5] = ["combined", "common", "json", "alb", "csv"];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Combined => "combined",
            Format::Common => "common",
            Format::Json => "json",
            Format::Alb => "alb",
            Format::Csv => "csv",
        }
    }

    /// The format called `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether `line` reads as this format (with its default key and time field).
    fn matches(self, line: &str) -> bool {
        match self {
            Format::Combined | Format::Common => clf::parse(
                line,
                self == Format::Combined,
                &mut CommonLogCache::default(),
            )
            .is_ok(),
            Format::Json => jsonl::object(line).is_ok(),
            Format::Alb => alb::parse(line).is_ok(),
            Format::Csv => csv::Splitter::default()
                .split(line.as_bytes())
                .is_ok_and(|c| c.len() >= 2 && c.get(1).is_some_and(|t| is_time(t.ok()))),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// As its name (`"combined"`).
impl Serialize for Format {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Whether `text` is a time: one read, or a date and time the log wrote without its UTC offset
/// (each such line is then refused for that, rather than the log for no format).
fn is_time(text: Option<&str>) -> bool {
    text.is_some_and(|t| {
        matches!(
            epoch_or_rfc3339(t),
            Ok(_) | Err(Unreadable::NoOffset { .. })
        )
    })
}

/// The format most of `samples` (the first lines of a log) are in; `None` when none matches.
/// Ties go to the earlier format of [`Format::ALL`]. Every `combined` line is also a `common` one
/// (with fields after the size), so a log is `combined` when most of its `common` lines are: a
/// combined log with a broken line among the first (a user-agent cut short) is not read as
/// `common`, which would replay that line instead of calling it malformed. A lone line that names
/// CSV columns (`time,key`) is CSV: a header with no request after it, rather than no format at all.
pub fn detect(samples: &[&str]) -> Option<Format> {
    let count = |format: Format| samples.iter().filter(|line| format.matches(line)).count();
    let mut best = None;
    for format in Format::ALL {
        let count = count(format);
        if count > 0 && best.is_none_or(|(_, most)| count > most) {
            best = Some((format, count));
        }
    }
    match (best, samples) {
        (Some((Format::Common, common)), _) if 2 * count(Format::Combined) > common => {
            Some(Format::Combined)
        }
        (Some((format, _)), _) => Some(format),
        (None, [line]) if is_csv_header(line) => Some(Format::Csv),
        _ => None,
    }
}

/// Whether `line` reads as a CSV header: two columns or more, none empty, the first not a time
/// (as [`Parser`] takes a CSV log's first line to be).
fn is_csv_header(line: &str) -> bool {
    csv::Splitter::default()
        .split(line.as_bytes())
        .is_ok_and(|c| {
            c.len() >= 2
                && (1..=c.len()).all(|n| {
                    c.get(n)
                        .is_some_and(|t| t.is_ok_and(|t| !t.trim().is_empty()))
                })
                && !is_time(c.get(1).and_then(Result::ok))
        })
}

/// What requests are grouped by: each key gets its own limiter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySpec {
    /// The client's IP address (`combined`, `common`, `alb`; for `json`, the first of
    /// [`jsonl::IP_FIELDS`] the lines have).
    Ip,
    /// A JSON field, by name or dotted path.
    Field(String),
    /// A CSV column, counting from 1.
    Column(usize),
}

impl KeySpec {
    /// Whether it is the client's address: `ip`, or a JSON field `ip` finds (`remote_addr`, …),
    /// which a JSON log keyed by `ip` reports as that field.
    pub fn is_client_address(&self) -> bool {
        match self {
            KeySpec::Ip => true,
            KeySpec::Field(name) => jsonl::IP_FIELDS.contains(&name.as_str()),
            KeySpec::Column(_) => false,
        }
    }

    /// Reads `ip`, `field:NAME` or `column:N`.
    pub fn parse(text: &str) -> Result<KeySpec, Problem> {
        if text == "ip" {
            Ok(KeySpec::Ip)
        } else if let Some(name) = text.strip_prefix("field:") {
            if name.is_empty() {
                return Err(Problem::FieldNeedsName);
            }
            Ok(KeySpec::Field(name.to_owned()))
        } else if let Some(n) = text.strip_prefix("column:") {
            match n.parse::<usize>() {
                Ok(n) if (2..=csv::MAX_COLUMNS).contains(&n) => Ok(KeySpec::Column(n)),
                _ => Err(Problem::ColumnNumber {
                    max: csv::MAX_COLUMNS,
                }),
            }
        } else {
            Err(Problem::UnknownKey)
        }
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySpec::Ip => f.write_str("ip"),
            KeySpec::Field(name) => write!(f, "field:{name}"),
            KeySpec::Column(n) => write!(f, "column:{n}"),
        }
    }
}

/// One request: when, whose, and what it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct Event<'a> {
    /// Epoch seconds.
    pub time: f64,
    /// The key the request is limited by.
    pub key: Cow<'a, str>,
    /// Tokens it takes (1 unless a CSV cost column says otherwise).
    pub cost: f64,
    /// The unit its time was read in, when the log wrote it as a number (told by its size);
    /// `None` for a date and time (and for nginx's `$msec`, which `[time]` confirms as seconds).
    pub epoch_unit: Option<EpochUnit>,
}

/// What a line turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed<'a> {
    /// Empty or only spaces: skipped.
    Blank,
    /// A CSV header line (only the first line can be one).
    Header,
    /// A request.
    Event(Event<'a>),
    /// Not a line of the format, and why.
    Malformed(Unreadable),
}

#[derive(Debug, Clone)]
enum How {
    Clf { combined: bool },
    Alb,
    Json { time: String, key: String },
    Csv { key: usize, cost: Option<usize> },
}

/// Reads lines of one format with one key; made by [`Parser::new`], which checks that the key and
/// time field fit the format. Cloning gives a parser for another pass over the same log.
#[derive(Debug, Clone)]
pub struct Parser {
    format: Format,
    how: How,
    /// Whether a line has been read (only the first may be a CSV header).
    started: bool,
    /// The limiter that counts whole requests, if one does: then every request must cost 1.
    unit_cost: Option<&'static str>,
    stamps: CommonLogCache,
    columns: csv::Splitter,
}

impl Parser {
    /// A parser for `format`, keyed by `key` (the format's default when `None`), taking the time
    /// from `time_field` (JSON only). For JSON, the default time field and the `ip` key are the
    /// first of [`jsonl::TIME_FIELDS`] and [`jsonl::IP_FIELDS`] that an object of `samples` has.
    /// A JSON field or CSV column that none of `samples` (the log's first lines) has is refused
    /// here, naming the option, rather than making every line malformed.
    pub fn new(
        format: Format,
        key: Option<&KeySpec>,
        time_field: Option<&str>,
        samples: &[&str],
    ) -> Result<Parser, SetupError> {
        let refuse = |option, value: String, why| SetupError {
            remedy: None,
            option,
            value: Some(value),
            why,
        };
        // A format none of the first lines is in would make every line malformed. CSV is
        // checked once its columns are (a line of one column says more as that), and a lone
        // header is a CSV log with no requests yet.
        let not_format = || {
            refuse(
                "format",
                format.name().to_owned(),
                Problem::NotFormat {
                    format,
                    lines: samples.len(),
                    looks: detect(samples),
                },
            )
        };
        let none_reads = !samples.is_empty() && !samples.iter().any(|line| format.matches(line));
        let web = matches!(format, Format::Combined | Format::Common | Format::Alb);
        if web && none_reads {
            return Err(not_format());
        }
        if let (Some(field), false) = (time_field, format == Format::Json) {
            return Err(refuse(
                "time-field",
                field.to_owned(),
                Problem::NoNamedFields { format },
            ));
        }
        let how = match (format, key) {
            (Format::Combined | Format::Common, None | Some(KeySpec::Ip)) => How::Clf {
                combined: format == Format::Combined,
            },
            (Format::Alb, None | Some(KeySpec::Ip)) => How::Alb,
            (Format::Json, None | Some(KeySpec::Ip | KeySpec::Field(_))) => {
                json_fields(key, time_field, samples)?
            }
            (Format::Csv, None) => csv_key(2, None, samples)?,
            (Format::Csv, Some(spec @ KeySpec::Column(n))) => csv_key(*n, Some(spec), samples)?,
            (_, Some(other)) => {
                let why = match format {
                    Format::Json => Problem::KeyedByField,
                    Format::Csv => Problem::KeyedByColumn,
                    _ => Problem::KeyedByIp { format },
                };
                return Err(refuse("key", other.to_string(), why));
            }
        };
        let lone_header = matches!(samples, [line] if is_csv_header(line));
        if format == Format::Csv && none_reads && !lone_header {
            return Err(not_format());
        }
        Ok(Parser {
            format,
            how,
            started: false,
            unit_cost: None,
            stamps: CommonLogCache::default(),
            columns: csv::Splitter::default(),
        })
    }

    /// The same parser for `limiter`, which counts requests: a request costing anything but 1
    /// is then malformed rather than counted as one.
    pub fn with_unit_cost(self, limiter: &'static str) -> Parser {
        Parser {
            unit_cost: Some(limiter),
            ..self
        }
    }

    /// The format read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The key as resolved: `ip`, `field:remote_addr`, `column:2`.
    pub fn key(&self) -> KeySpec {
        match &self.how {
            How::Clf { .. } | How::Alb => KeySpec::Ip,
            How::Json { key, .. } => KeySpec::Field(key.clone()),
            How::Csv { key, .. } => KeySpec::Column(*key),
        }
    }

    /// The JSON time field read, if the format is JSON.
    pub fn time_field(&self) -> Option<&str> {
        match &self.how {
            How::Json { time, .. } => Some(time),
            _ => None,
        }
    }

    /// What `line` is.
    pub fn line<'a>(&mut self, line: Line<'a>) -> Parsed<'a> {
        let bytes = match line {
            Line::Text(bytes) => bytes,
            Line::TooLong(length) => {
                self.started = true;
                return Parsed::Malformed(Unreadable::TooLong {
                    length,
                    max: MAX_LINE,
                });
            }
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Parsed::Blank;
        }
        let first = !self.started;
        self.started = true;
        // simdutf8's `compat` check: the standard library's answer, SIMD-fast on valid text.
        let text = match simdutf8::compat::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return Parsed::Malformed(Unreadable::NotUtf8 {
                    byte: e.valid_up_to() + 1,
                })
            }
        };
        match self.event(text, first) {
            Ok(Some(event)) if event.cost != 1.0 && self.unit_cost.is_some() => {
                Parsed::Malformed(Unreadable::UnitCost {
                    cost: event.cost,
                    limiter: self.unit_cost.unwrap_or_default(),
                })
            }
            Ok(Some(event)) => Parsed::Event(event),
            Ok(None) => Parsed::Header,
            Err(why) => Parsed::Malformed(why),
        }
    }

    fn event<'a>(&mut self, line: &'a str, first: bool) -> Result<Option<Event<'a>>, Unreadable> {
        let one = |time: LogTime, key| {
            Ok(Some(Event {
                time: time.seconds,
                key,
                cost: 1.0,
                epoch_unit: time.epoch_unit,
            }))
        };
        match &self.how {
            How::Clf { combined } => {
                let request = clf::parse(line, *combined, &mut self.stamps)?;
                one(LogTime::date(request.time), Cow::Borrowed(request.host))
            }
            How::Alb => {
                let request = alb::parse(line)?;
                one(LogTime::date(request.time), Cow::Borrowed(request.client))
            }
            How::Json { time, key } => {
                let mut object = jsonl::object_timed(line, time)?;
                let at = jsonl::time(time, jsonl::take(&mut object, time), line)?;
                let key = jsonl::key(key, jsonl::take(&mut object, key))?;
                one(at, Cow::Owned(key))
            }
            How::Csv { key, cost } => {
                let columns = self.columns.split(line.as_bytes())?;
                let time_text = columns.get(1).transpose()?.unwrap_or_default();
                let time = match epoch_or_rfc3339(time_text) {
                    Ok(time) => time,
                    // The first line may name the columns instead (a time out of range is
                    // a time all the same); a time field with digits is a time the log wrote
                    // in a form not read (`2023-10-10 13:55:36`): counted, not taken as names.
                    Err(Unreadable::NotTime { .. })
                        if first && !time_text.bytes().any(|b| b.is_ascii_digit()) =>
                    {
                        return Ok(None)
                    }
                    Err(e) => return Err(e),
                };
                let key_text =
                    columns
                        .get(*key)
                        .transpose()?
                        .ok_or_else(|| Unreadable::NoKeyColumn {
                            column: *key,
                            columns: columns.len(),
                        })?;
                // `1700000000, alice` is alice's, as its cost column is read trimmed; a quoted
                // key keeps its spaces, which quoting says are part of it.
                let key_text = if columns.is_quoted(*key) {
                    key_text
                } else {
                    key_text.trim()
                };
                if key_text.is_empty() {
                    return Err(Unreadable::EmptyKey { column: *key });
                }
                let cost = match cost.and_then(|n| columns.get(n)).transpose()? {
                    Some(text) => InvalidValue::parse(Field::Cost, text, Rule::NonNegative)
                        .map_err(|e| fields::as_written(e, text))?,
                    None => 1.0,
                };
                Ok(Some(Event {
                    time: time.seconds,
                    key: Cow::Owned(key_text.to_owned()),
                    cost,
                    epoch_unit: time.epoch_unit,
                }))
            }
        }
    }
}

/// The CSV key in column `key` (`spec` when given; the default otherwise), the cost in column 3
/// when the key is column 2. Refused when the sample lines are CSV and none has that column.
fn csv_key(key: usize, spec: Option<&KeySpec>, samples: &[&str]) -> Result<How, SetupError> {
    let mut splitter = csv::Splitter::default();
    let widest = samples
        .iter()
        .filter_map(|line| splitter.split(line.as_bytes()).ok().map(|c| c.len()))
        .max();
    let lines = samples.len();
    match widest {
        // Only a log read as CSV by `--format` can lack a key column altogether.
        Some(widest @ 0..=1) => Err(SetupError {
            remedy: None,
            option: "format",
            value: Some(Format::Csv.name().to_owned()),
            why: Problem::NoSecondColumn { lines, widest },
        }),
        Some(widest) if widest < key => Err(SetupError {
            remedy: None,
            option: "key",
            value: spec.map(KeySpec::to_string),
            why: Problem::NoColumn {
                lines,
                column: key,
                widest,
            },
        }),
        _ => Ok(How::Csv {
            key,
            cost: (key == 2).then_some(3),
        }),
    }
}

/// The JSON time and key fields: as named, or the first of the usual names that the sample
/// objects have (the first object that has one decides).
fn json_fields(
    key: Option<&KeySpec>,
    time_field: Option<&str>,
    samples: &[&str],
) -> Result<How, SetupError> {
    let objects: Vec<_> = samples
        .iter()
        .filter_map(|line| jsonl::object(line).ok())
        .collect();
    let named_key = match key {
        Some(KeySpec::Field(name)) => Some(name.as_str()),
        _ => None,
    };
    if objects.is_empty() && (time_field.is_none() || named_key.is_none()) {
        return Err(SetupError {
            remedy: None,
            option: "format",
            value: Some("json".to_owned()),
            why: Problem::NotJson {
                lines: samples.len(),
            },
        });
    }
    // A name the caller gave (if a sample object has it), or the first usual one found, or the
    // error asking for the field to be named.
    let resolve = |given: Option<&str>,
                   usual: &'static [&'static str],
                   option,
                   value: Option<&str>,
                   remedy| {
        if let Some(name) = given {
            if objects.is_empty() || objects.iter().any(|o| jsonl::has(o, name)) {
                return Ok(name.to_owned());
            }
            return Err(SetupError {
                remedy: None,
                option,
                value: value.map(str::to_owned),
                why: Problem::NoSuchField {
                    field: name.to_owned(),
                    present: jsonl::member_names(&objects),
                },
            });
        }
        objects
            .iter()
            .find_map(|o| jsonl::first_present(o, usual))
            .map(str::to_owned)
            .ok_or_else(|| SetupError {
                remedy: Some(remedy),
                option,
                value: value.map(str::to_owned),
                why: Problem::NoUsualField { usual },
            })
    };
    Ok(How::Json {
        time: resolve(
            time_field,
            &jsonl::TIME_FIELDS,
            "time-field",
            time_field,
            Remedy::NameTimeField,
        )?,
        key: resolve(
            named_key,
            &jsonl::IP_FIELDS,
            "key",
            Some(&key.map_or("ip".to_owned(), KeySpec::to_string)),
            Remedy::NameKeyField,
        )?,
    })
}
