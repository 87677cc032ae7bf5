//! Settings that do not fit: a [`SetupError`] names the option and the value, says what is wrong
//! as a [`Problem`] (a code and its values rather than a sentence) and may carry a [`Remedy`].
//! Each front end words them in its own language: the command in English (`Display`, the
//! sentences of [`Problem::english`]), the lesson's page with the same codes under `errors.why` in
//! `locales/<lang>/traffic.json`. The machinery (values, sentences, serialization) is
//! the `reason` module's, shared with the reasons a line could not be read.

use super::format::Format;
use super::reason::{self, Arg};
use serde::ser::Serializer;
use serde::Serialize;
use std::fmt;

/// A setting that does not fit the log: the option, the value given (if any), why, and what the
/// reader can do about it.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupError {
    /// The option's name, as the command spells it without `--` (`key`, `time-field`, `format`).
    pub option: &'static str,
    /// What was given; `None` when the option was left out.
    pub value: Option<String>,
    /// What is wrong and what is allowed, naming no flag (a page has menus instead).
    pub why: Problem,
    /// The setting to name, when naming one would help; each front end words it.
    pub remedy: Option<Remedy>,
}

impl SetupError {
    /// `why`, then the remedy in the command's words (`; if it is one of them, name it with --format`).
    pub fn command_why(&self) -> String {
        match self.remedy {
            Some(remedy) => format!("{}; {}", self.why, remedy.command()),
            None => self.why.to_string(),
        }
    }

    /// Whether the log's bytes are at fault whatever the option says: compressed with a tool
    /// other than gzip, or not text. The command then names no flag, as the page marks no menu.
    pub fn blames_the_file(&self) -> bool {
        matches!(
            self.why,
            Problem::Compressed { .. } | Problem::NotText { .. }
        )
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = self.command_why();
        match &self.value {
            Some(value) => write!(f, "{} \"{}\": {}", self.option, value, why),
            None => write!(f, "{}: {}", self.option, why),
        }
    }
}

impl std::error::Error for SetupError {}

/// The setting a [`SetupError`] asks the reader to name: the command words it with its flags,
/// the lesson's page with its Format menu and Key field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Remedy {
    /// The log's format (detection found none).
    NameFormat,
    /// The JSON field holding the time (none of the usual names was found).
    NameTimeField,
    /// The JSON field holding the key (none of the usual names was found).
    NameKeyField,
}

impl Remedy {
    /// The advice as the command words it.
    pub fn command(self) -> &'static str {
        match self {
            Remedy::NameFormat => "if it is one of them, name it with --format",
            Remedy::NameTimeField => "name the field with --time-field NAME",
            Remedy::NameKeyField => "name the field with --key field:NAME",
        }
    }
}

/// What is wrong with a setting, and what is allowed, as data: [`Problem::code`] names the
/// sentence that says it, the fields are the values the sentence names. It serializes as
/// `{ "code": "noColumn", "lines": 3, "column": 5, "widest": 4 }`; `Display` is the English
/// sentence with the values filled in.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// No format matches the first `lines` lines.
    NoFormat {
        /// The lines looked at.
        lines: usize,
    },
    /// A time field named for a format whose lines have no named fields.
    NoNamedFields {
        /// The format read.
        format: Format,
    },
    /// A key other than `ip` for lines keyed by the client address (`combined`, `common`, `alb`).
    KeyedByIp {
        /// The format read.
        format: Format,
    },
    /// A column key for JSON lines.
    KeyedByField,
    /// A key other than a column for CSV lines.
    KeyedByColumn,
    /// Lines read as CSV that have no second column for the key.
    NoSecondColumn {
        /// The lines looked at.
        lines: usize,
        /// The most columns a line has (0 or 1).
        widest: usize,
    },
    /// A CSV key column that none of the first lines has.
    NoColumn {
        /// The lines looked at.
        lines: usize,
        /// The column asked for.
        column: usize,
        /// The most columns a line has (at least 2).
        widest: usize,
    },
    /// A web-server format named (`combined`, `common`, `alb`) that none of the first lines is in.
    NotFormat {
        /// The format named.
        format: Format,
        /// The lines looked at.
        lines: usize,
        /// The format the lines are in, when one is detected.
        looks: Option<Format>,
    },
    /// Lines read as JSON of which none is an object.
    NotJson {
        /// The lines looked at.
        lines: usize,
    },
    /// Lines of which none is text (UTF-8): compressed with something other than gzip, or no log.
    NotText {
        /// The lines looked at.
        lines: usize,
    },
    /// A log compressed with something other than gzip, told by its first bytes.
    Compressed {
        /// The compression, as its tool is named (`zstd`, `xz`, `bzip2`).
        compression: &'static str,
    },
    /// A JSON field named that none of the first objects has.
    NoSuchField {
        /// The field asked for.
        field: String,
        /// The top-level fields the objects have, in the order first met (at most
        /// [`FIELDS_SHOWN`], then `…`).
        present: Vec<String>,
    },
    /// None of the usual names of a JSON time or client field (the time field or the key to name).
    NoUsualField {
        /// The names looked for.
        usual: &'static [&'static str],
    },
    /// A key `field:` without a name.
    FieldNeedsName,
    /// A key `column:N` whose N is not a whole number from 2 to `max`.
    ColumnNumber {
        /// The most columns a CSV line may have.
        max: usize,
    },
    /// A key that is none of `ip`, `field:NAME`, `column:N`.
    UnknownKey,
    /// A name that is none of `allowed` (a limiter, a format).
    OneOf {
        /// The names allowed.
        allowed: &'static [&'static str],
    },
    /// A number that must be finite and above 0.
    Positive {
        /// The setting as the lesson writes it (`B`).
        name: &'static str,
    },
    /// A number that must be finite and at least 0.
    NonNegative {
        /// The setting as the lesson writes it (`r`).
        name: &'static str,
    },
    /// A window limiter with a refill rate of 0.
    NeedsRate {
        /// The limiter, as the command names it.
        algorithm: &'static str,
    },
    /// A window limiter given a capacity that is not a whole number of requests up to `max`.
    WholeRequests {
        /// The limiter, as the command names it.
        algorithm: &'static str,
        /// The largest capacity.
        max: u32,
    },
    /// A window limiter whose window `B / r` is out of its range.
    WindowRange {
        /// The limiter, as the command names it.
        algorithm: &'static str,
        /// `B / r`, seconds.
        window: f64,
        /// The shortest window, seconds.
        min: f64,
        /// The longest window, seconds.
        max: f64,
    },
}

/// How many field names a [`Problem::NoSuchField`] lists.
pub const FIELDS_SHOWN: usize = 12;

/// Every sentence a [`Problem`] may be said with: its code and its English words, each value
/// named in braces. The page's English (`errors.why` in `locales/en/traffic.json`) is this table;
/// `tests/replay_setup.rs` checks it, and that the Portuguese has the same codes and values.
pub const ENGLISH: [(&str, &str); 33] = [
    (
        "noFormat",
        "none of combined, common, json, alb or csv matches the first {lines} lines",
    ),
    (
        "noFormatOne",
        "none of combined, common, json, alb or csv matches the first line",
    ),
    (
        "noNamedFields",
        "only json lines have named fields; {format} lines carry their own time",
    ),
    (
        "keyedByIp",
        "{format} lines are keyed by ip, the client address",
    ),
    ("keyedByField", "json lines are keyed by ip or field:NAME"),
    (
        "keyedByColumn",
        "csv lines are keyed by column:N (column:2 unless given)",
    ),
    (
        "noSecondColumn",
        "csv lines are time,key[,cost]; none of the first {lines} lines has a second column \
         (the widest has {widest})",
    ),
    (
        "noSecondColumnOne",
        "csv lines are time,key[,cost]; the first line has no second column (it has {widest})",
    ),
    (
        "noColumn",
        "none of the first {lines} lines has a column {column}; they have at most {widest}, so \
         the key can be column:2 to column:{widest}",
    ),
    (
        "noColumnOne",
        "the first line has no column {column}; it has {widest}, so the key can be column:2 to \
         column:{widest}",
    ),
    (
        "noColumnTwoOnly",
        "none of the first {lines} lines has a column {column}; they have at most {widest}, so \
         the key can be column:2",
    ),
    (
        "noColumnTwoOnlyOne",
        "the first line has no column {column}; it has {widest}, so the key can be column:2",
    ),
    (
        "notFormat",
        "none of the first {lines} lines reads as {format}",
    ),
    ("notFormatOne", "the first line does not read as {format}"),
    (
        "notFormatLooks",
        "none of the first {lines} lines reads as {format}; they read as {looks}",
    ),
    (
        "notFormatLooksOne",
        "the first line does not read as {format}; it reads as {looks}",
    ),
    (
        "notJson",
        "none of the first {lines} lines is a JSON object",
    ),
    ("notJsonOne", "the first line is not a JSON object"),
    (
        "notText",
        "none of the first {lines} lines is text (UTF-8): a log compressed with something \
         other than gzip (the only compression read), or not a log at all",
    ),
    (
        "notTextOne",
        "the first line is not text (UTF-8): a log compressed with something other than gzip (the \
         only compression read), or not a log at all",
    ),
    (
        "compressed",
        "the log is compressed with {compression}, and gzip is the only compression read: \
         decompress it first",
    ),
    (
        "noSuchField",
        "none of the first JSON lines has a field \"{field}\"; they have {present}",
    ),
    (
        "noSuchFieldEmpty",
        "none of the first JSON lines has a field \"{field}\"; they are empty objects",
    ),
    (
        "noUsualField",
        "none of the first JSON lines has any of {usual}",
    ),
    (
        "fieldNeedsName",
        "field: needs a name; allowed: ip, field:NAME (a JSON field) or column:N (a CSV column, \
         from 2)",
    ),
    (
        "columnNumber",
        "column:N needs a whole number from 2 to {max} (column 1 is the time)",
    ),
    (
        "unknownKey",
        "allowed: ip, field:NAME (a JSON field) or column:N (a CSV column, from 2)",
    ),
    ("oneOf", "allowed: {allowed}"),
    ("positive", "{name} must be a finite number greater than 0"),
    (
        "nonNegative",
        "{name} must be a finite number of at least 0",
    ),
    (
        "needsRate",
        "{algorithm} needs a refill rate above 0: its window is B / r",
    ),
    (
        "wholeRequests",
        "{algorithm} counts whole requests: a whole number from 1 to {max}",
    ),
    (
        "windowRange",
        "{algorithm}'s window B / r would be {window} s; it must be from {min} to {max} s",
    ),
];

impl Problem {
    /// The sentence that says it: one code per variant, with `One` at the end when the lines
    /// looked at are one (`notJsonOne`) and another ending where the values change the sentence.
    pub fn code(&self) -> &'static str {
        let one = |lines: usize, many, one| if lines == 1 { one } else { many };
        match self {
            Problem::NoFormat { lines } => one(*lines, "noFormat", "noFormatOne"),
            Problem::NoNamedFields { .. } => "noNamedFields",
            Problem::KeyedByIp { .. } => "keyedByIp",
            Problem::KeyedByField => "keyedByField",
            Problem::KeyedByColumn => "keyedByColumn",
            Problem::NoSecondColumn { lines, .. } => {
                one(*lines, "noSecondColumn", "noSecondColumnOne")
            }
            Problem::NoColumn {
                lines, widest: 2, ..
            } => one(*lines, "noColumnTwoOnly", "noColumnTwoOnlyOne"),
            Problem::NoColumn { lines, .. } => one(*lines, "noColumn", "noColumnOne"),
            Problem::NotFormat {
                lines, looks: None, ..
            } => one(*lines, "notFormat", "notFormatOne"),
            Problem::NotFormat { lines, .. } => one(*lines, "notFormatLooks", "notFormatLooksOne"),
            Problem::NotJson { lines } => one(*lines, "notJson", "notJsonOne"),
            Problem::NotText { lines } => one(*lines, "notText", "notTextOne"),
            Problem::Compressed { .. } => "compressed",
            Problem::NoSuchField { present, .. } if present.is_empty() => "noSuchFieldEmpty",
            Problem::NoSuchField { .. } => "noSuchField",
            Problem::NoUsualField { .. } => "noUsualField",
            Problem::FieldNeedsName => "fieldNeedsName",
            Problem::ColumnNumber { .. } => "columnNumber",
            Problem::UnknownKey => "unknownKey",
            Problem::OneOf { .. } => "oneOf",
            Problem::Positive { .. } => "positive",
            Problem::NonNegative { .. } => "nonNegative",
            Problem::NeedsRate { .. } => "needsRate",
            Problem::WholeRequests { .. } => "wholeRequests",
            Problem::WindowRange { .. } => "windowRange",
        }
    }

    /// The English sentence of `code` (a code of [`ENGLISH`]), values in braces.
    pub fn english(code: &str) -> Option<&'static str> {
        reason::lookup(&ENGLISH, code)
    }

    /// The values, by the names the sentences give them. A list is one text, its names
    /// separated by commas: names from the log or the command, the same in any language.
    fn args(&self) -> Vec<(&'static str, Arg)> {
        let whole = |n: usize| Arg::Whole(n as u64);
        let text = |s: &str| Arg::Text(s.to_owned());
        match self {
            Problem::NoFormat { lines }
            | Problem::NotJson { lines }
            | Problem::NotText { lines } => {
                vec![("lines", whole(*lines))]
            }
            Problem::NotFormat {
                format,
                lines,
                looks,
            } => {
                let mut args = vec![("format", text(format.name())), ("lines", whole(*lines))];
                args.extend(looks.map(|looks| ("looks", text(looks.name()))));
                args
            }
            Problem::NoNamedFields { format } | Problem::KeyedByIp { format } => {
                vec![("format", text(format.name()))]
            }
            Problem::KeyedByField
            | Problem::KeyedByColumn
            | Problem::FieldNeedsName
            | Problem::UnknownKey => vec![],
            Problem::Compressed { compression } => vec![("compression", text(compression))],
            Problem::NoSecondColumn { lines, widest } => {
                vec![("lines", whole(*lines)), ("widest", whole(*widest))]
            }
            Problem::NoColumn {
                lines,
                column,
                widest,
            } => vec![
                ("lines", whole(*lines)),
                ("column", whole(*column)),
                ("widest", whole(*widest)),
            ],
            Problem::NoSuchField { field, present } if present.is_empty() => {
                vec![("field", text(field))]
            }
            Problem::NoSuchField { field, present } => {
                let mut names = present[..present.len().min(FIELDS_SHOWN)].join(", ");
                if present.len() > FIELDS_SHOWN {
                    names.push_str(", …");
                }
                vec![("field", text(field)), ("present", Arg::Text(names))]
            }
            Problem::NoUsualField { usual } => vec![("usual", Arg::Text(usual.join(", ")))],
            Problem::ColumnNumber { max } => vec![("max", whole(*max))],
            Problem::OneOf { allowed } => vec![("allowed", Arg::Text(allowed.join(", ")))],
            Problem::Positive { name } | Problem::NonNegative { name } => {
                vec![("name", text(name))]
            }
            Problem::NeedsRate { algorithm } => vec![("algorithm", text(algorithm))],
            Problem::WholeRequests { algorithm, max } => vec![
                ("algorithm", text(algorithm)),
                ("max", Arg::Whole(u64::from(*max))),
            ],
            Problem::WindowRange {
                algorithm,
                window,
                min,
                max,
            } => vec![
                ("algorithm", text(algorithm)),
                ("window", Arg::Number(*window)),
                ("min", Arg::Number(*min)),
                ("max", Arg::Number(*max)),
            ],
        }
    }
}

/// The English sentence, its values filled in.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.code();
        reason::write_english(f, Problem::english(code).unwrap_or(code), &self.args())
    }
}

impl std::error::Error for Problem {}

/// `{ "code": …, then each value by its name }`, for a front end that words it itself.
impl Serialize for Problem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        reason::serialize(serializer, self.code(), &self.args())
    }
}
