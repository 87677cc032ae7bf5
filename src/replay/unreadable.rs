//! Why a line of the log could not be read, as data: an [`Unreadable`] is a code and the values
//! its sentence names, like a setup [`Problem`](super::Problem). The command says it in English
//! (`Display`, the sentences of [`ENGLISH`]), as `bucketlab replay` always has; the lesson's
//! page words the same codes from `unreadable.why` in `locales/<lang>/traffic.json`, and the
//! words among the values (a JSON value's [`JsonKind`], a part of a web-server line of
//! [`CLF_PARTS`]) from `unreadable.kinds` and `unreadable.parts`.

use super::fields::FieldError;
use super::reason::{self, Arg};
use crate::limiter::rust_number;
use serde::ser::Serializer;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Why a line is not a line of the format. Text from the line (a time, a status) is quoted and
/// cut the way [`quoted`](super::fields::quoted) does, before it gets here.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// Longer than the longest line kept.
    TooLong {
        /// Its length, bytes.
        length: u64,
        /// The longest line kept, bytes ([`MAX_LINE`](super::MAX_LINE)).
        max: usize,
    },
    /// Not UTF-8 text.
    NotUtf8 {
        /// The first byte that is not, counting from 1.
        byte: usize,
    },
    /// A request costing other than 1 for a limiter that counts requests.
    UnitCost {
        /// The cost.
        cost: f64,
        /// The limiter, as the command names it.
        limiter: &'static str,
    },
    /// A time or cost the bucket refused (the parsers give none such; said all the same).
    Refused {
        /// The bucket's English.
        detail: String,
    },
    /// A web-server line without a client address.
    NoClient,
    /// A web-server line without the ident field.
    NoIdent,
    /// A web-server line without the user field.
    NoUser,
    /// A bracketed or quoted part that is missing or not closed.
    Field {
        /// The part: `time`, `request`, `referer`, `user-agent` (words the page translates, see
        /// [`CLF_PARTS`]), or an ALB field's own name.
        part: &'static str,
        /// What is wrong with it.
        error: FieldError,
    },
    /// A status that is not three digits.
    BadStatus {
        /// The status, quoted.
        status: String,
    },
    /// A size that is neither digits nor `-`.
    BadSize {
        /// The size, quoted.
        size: String,
    },
    /// A web server's `[time]` that is not `day/Mon/year:hh:mm:ss ±hhmm`.
    NotCommonLogTime {
        /// The time, quoted.
        time: String,
        /// What the date parser said, in English (the command shows it; the page does not).
        detail: String,
    },
    /// An ALB time that is not an RFC 3339 date and time.
    NotRfc3339 {
        /// Which time: `time`, or `request_creation_time`.
        part: &'static str,
        /// The time, quoted.
        time: String,
        /// What the date parser said, in English (the command shows it; the page does not).
        detail: String,
    },
    /// A CSV time that is neither an epoch time, an RFC 3339 date and time nor a web server's.
    NotTime {
        /// The time, quoted.
        time: String,
    },
    /// A date and time with no UTC offset (`2000-10-10T20:55:36`, `10/Oct/2000:13:55:36`): which
    /// moment it names depends on a time zone the line does not give.
    NoOffset {
        /// The time, quoted.
        time: String,
    },
    /// [`Unreadable::NoOffset`] in the JSON member `field`.
    NoOffsetField {
        /// The member's name.
        field: String,
        /// The time, quoted.
        time: String,
    },
    /// An epoch number from `1e20`: past the year 5138 even in nanoseconds.
    TimeOutOfRange {
        /// The time, quoted as the line writes it (a JSON number bare).
        time: String,
    },
    /// A date and time before 1970 or from epoch second `1e11` (16 November 5138), the times
    /// every epoch unit reads right in. The command says a date's range ([`ENGLISH_DATE`]); the
    /// page words it by [`Unreadable::TimeOutOfRange`]'s code until its locales have a sentence
    /// of its own.
    DateOutOfRange {
        /// The time, quoted.
        time: String,
    },
    /// A time whose UTC offset is beyond ±14:00, which no place uses.
    OffsetOutOfRange {
        /// The time, quoted.
        time: String,
        /// The offset, `+25:00`.
        offset: String,
    },
    /// An ALB entry whose type is not one of the types.
    BadType {
        /// The type, quoted.
        given: String,
        /// The types.
        allowed: &'static [&'static str],
    },
    /// An ALB entry without its time.
    NoAlbTime,
    /// An ALB entry without the load balancer's name.
    NoBalancer,
    /// An ALB entry without the client's `ip:port`.
    NoClientPort,
    /// An ALB client that is not `ip:port`.
    BadClient {
        /// The client, quoted.
        client: String,
    },
    /// A line that is not JSON.
    NotJson {
        /// Where the JSON goes wrong: serde_json's column, which counts bytes from 1.
        column: usize,
        /// What the JSON parser said, in English (the command shows it; the page does not).
        detail: String,
    },
    /// A JSON line that is not an object.
    NotObject {
        /// What it is instead.
        kind: JsonKind,
    },
    /// A JSON time that is a number but no epoch time: a negative one.
    BadEpoch {
        /// The time field.
        field: String,
        /// The number as the line writes it.
        number: String,
    },
    /// A JSON time that is an epoch number from `1e20`, a number or a string of digits: a
    /// [`Unreadable::TimeOutOfRange`] naming its field. A number past a double's (`1e400`, which
    /// serde_json refuses as it reads the line) is one too.
    TimeFieldOutOfRange {
        /// The time field.
        field: String,
        /// The time, quoted as the line writes it (a JSON number bare).
        time: String,
    },
    /// A JSON time that is a string but neither an epoch time, an RFC 3339 date and time nor a
    /// web server's.
    BadTimeText {
        /// The time field.
        field: String,
        /// The time, quoted.
        time: String,
    },
    /// A JSON time that is neither a number nor a string.
    TimeKind {
        /// The time field.
        field: String,
        /// What it is instead.
        kind: JsonKind,
    },
    /// A JSON line without the time field.
    NoTimeField {
        /// The time field.
        field: String,
    },
    /// A JSON key that is neither a string nor a number (nor a boolean).
    KeyKind {
        /// The key field.
        field: String,
        /// What it is instead.
        kind: JsonKind,
    },
    /// A JSON line without the key field.
    NoKeyField {
        /// The key field.
        field: String,
    },
    /// A JSON line whose key field is the empty string (no client to count its requests under).
    EmptyKeyField {
        /// The key field.
        field: String,
    },
    /// A CSV line of more columns than a line may have.
    TooManyColumns {
        /// The most columns a line may have.
        max: usize,
    },
    /// A CSV field longer than the line.
    FieldTooLong,
    /// A CSV field that opens a quote and never closes it.
    UnclosedQuote,
    /// A CSV column that is not UTF-8 text.
    ColumnNotUtf8 {
        /// The column, counting from 1.
        column: usize,
    },
    /// A CSV line without the key's column.
    NoKeyColumn {
        /// The key's column.
        column: usize,
        /// The columns the line has.
        columns: usize,
    },
    /// A CSV line whose key column is empty.
    EmptyKey {
        /// The key's column.
        column: usize,
    },
    /// A CSV cost that is not a finite number of at least 0.
    BadCost {
        /// What was given, quoted as the line writes it (`"abc"`, `"-1"`: [`as_written`]).
        ///
        /// [`as_written`]: super::fields::as_written
        given: String,
    },
}

/// What a JSON value is, when it is not what was wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// Every kind, in the order declared.
    pub const ALL: [JsonKind; 6] = [
        JsonKind::Null,
        JsonKind::Boolean,
        JsonKind::Number,
        JsonKind::String,
        JsonKind::Array,
        JsonKind::Object,
    ];

    /// The kind of `value`.
    pub fn of(value: &Value) -> JsonKind {
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Boolean,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    /// Its name, as the page looks it up under `unreadable.kinds`.
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "boolean",
            JsonKind::Number => "number",
            JsonKind::String => "string",
            JsonKind::Array => "array",
            JsonKind::Object => "object",
        }
    }

    /// How the command's English says it (`an array`).
    pub fn english(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// The parts of a web-server line a [`Unreadable::Field`] may name: words the page says in its
/// language (`unreadable.parts`). An ALB field's name (`user_agent`) is the log's own and stays.
pub const CLF_PARTS: [&str; 4] = ["time", "request", "referer", "user-agent"];

/// Every sentence an [`Unreadable`] may be said with: its code and the command's English, each
/// value named in braces. `tests/replay_unreadable.rs` checks that the page has a sentence of
/// each code in each language, naming values the reason has.
pub const ENGLISH: [(&str, &str); 43] = [
    (
        "tooLong",
        "the line is {length} bytes long; a line may have at most {max}",
    ),
    ("notUtf8", "not UTF-8 text (byte {byte} of the line)"),
    (
        "unitCost",
        "cost {cost}: {limiter} counts requests, so each must cost 1",
    ),
    ("refused", "{detail}"),
    ("noClient", "no client address"),
    ("noIdent", "no ident field after the client address"),
    ("noUser", "no user field after the ident"),
    ("quotedExpected", "{part}: a quoted field was expected"),
    (
        "bracketedExpected",
        "{part}: a bracketed field was expected",
    ),
    ("quotedNotClosed", "{part}: a quoted field is not closed"),
    (
        "bracketedNotClosed",
        "{part}: a bracketed field is not closed",
    ),
    ("fieldMissing", "{part}: a field is missing"),
    ("badStatus", "status {status} is not a 3-digit code"),
    ("badSize", "size {size} is neither a number nor -"),
    (
        "notCommonLogTime",
        "time {time} is not day/Mon/year:hh:mm:ss ±hhmm ({detail})",
    ),
    (
        "notRfc3339",
        "{part} {time} is not an RFC 3339 date and time ({detail})",
    ),
    (
        "notTime",
        "time {time} is neither an epoch time (digits with an optional fraction, in s, ms, µs or \
         ns by size), an RFC 3339 date and time nor a web server's (10/Oct/2000:13:55:36 -0700)",
    ),
    (
        "noOffset",
        "time {time} has no UTC offset, so the moment it names is unknown: end it with Z for UTC \
         or with the server's offset (2000-10-10T20:55:36Z, 2000-10-10T13:55:36-07:00)",
    ),
    (
        "noOffsetField",
        "time field \"{field}\": {time} has no UTC offset, so the moment it names is unknown: end \
         it with Z for UTC or with the server's offset (2000-10-10T20:55:36Z, \
         2000-10-10T13:55:36-07:00)",
    ),
    (
        "timeOutOfRange",
        "time {time} is out of range: times run from 1970 to the year 5138 (an epoch number \
         below 1e20, in s, ms, µs or ns by size)",
    ),
    (
        "offsetOutOfRange",
        "time {time} has the UTC offset {offset}; offsets run from -14:00 to +14:00",
    ),
    ("badType", "type {given} is not one of {allowed}"),
    ("noAlbTime", "no time after the type"),
    ("noBalancer", "no load balancer name after the time"),
    ("noClientPort", "no client:port after the load balancer"),
    ("badClient", "client {client} is not ip:port"),
    ("notJson", "not JSON: {detail}"),
    ("notObject", "{kind} is not an object"),
    (
        "badEpoch",
        "time field \"{field}\": {number} is not an epoch time (0 or more and below 1e20: s, ms, µs or ns since 1970)",
    ),
    (
        "timeFieldOutOfRange",
        "time field \"{field}\": {time} is out of range: times run from 1970 to the year 5138 \
         (an epoch number below 1e20, in s, ms, µs or ns by size)",
    ),
    (
        "badTimeText",
        "time field \"{field}\": {time} is neither an epoch time (digits with an optional \
         fraction, in s, ms, µs or ns by size), an RFC 3339 date and time nor a web server's \
         (10/Oct/2000:13:55:36 -0700)",
    ),
    (
        "timeKind",
        "time field \"{field}\" is {kind}, not a number or a string",
    ),
    ("noTimeField", "no time field \"{field}\""),
    (
        "keyKind",
        "key field \"{field}\" is {kind}, not a string or a number",
    ),
    ("noKeyField", "no key field \"{field}\""),
    ("emptyKeyField", "the key field \"{field}\" is empty"),
    ("tooManyColumns", "more than {max} columns"),
    ("fieldTooLong", "a field is too long"),
    ("unclosedQuote", "a quote is opened and never closed"),
    ("columnNotUtf8", "column {column} is not UTF-8 text"),
    (
        "noKeyColumn",
        "no column {column} for the key ({count} columns)",
    ),
    ("emptyKey", "the key (column {column}) is empty"),
    (
        "badCost",
        "cost must be a finite number of at least 0, got {given}",
    ),
];

/// The command's English for a [`Unreadable::DateOutOfRange`]: the range of a date, where
/// `timeOutOfRange`'s sentence gives an epoch number's.
pub const ENGLISH_DATE: &str = "time {time} is out of range: dates run from 1970-01-01 00:00:00 \
                                UTC to before 5138-11-16 09:46:40 UTC";

/// The command's English for a reason whose `count` is 1, where it differs (the page's plural
/// entries choose for themselves).
pub const ENGLISH_ONE: [(&str, &str); 1] = [(
    "noKeyColumn",
    "no column {column} for the key ({count} column)",
)];

impl Unreadable {
    /// The sentence that says it: one code per variant (but `timeOutOfRange` for an epoch number
    /// and a date out of range alike), and one per [`FieldError`] for a part.
    pub fn code(&self) -> &'static str {
        match self {
            Unreadable::TooLong { .. } => "tooLong",
            Unreadable::NotUtf8 { .. } => "notUtf8",
            Unreadable::UnitCost { .. } => "unitCost",
            Unreadable::Refused { .. } => "refused",
            Unreadable::NoClient => "noClient",
            Unreadable::NoIdent => "noIdent",
            Unreadable::NoUser => "noUser",
            Unreadable::Field { error, .. } => error.code(),
            Unreadable::BadStatus { .. } => "badStatus",
            Unreadable::BadSize { .. } => "badSize",
            Unreadable::NotCommonLogTime { .. } => "notCommonLogTime",
            Unreadable::NotRfc3339 { .. } => "notRfc3339",
            Unreadable::NotTime { .. } => "notTime",
            Unreadable::NoOffset { .. } => "noOffset",
            Unreadable::NoOffsetField { .. } => "noOffsetField",
            Unreadable::TimeOutOfRange { .. } | Unreadable::DateOutOfRange { .. } => {
                "timeOutOfRange"
            }
            Unreadable::OffsetOutOfRange { .. } => "offsetOutOfRange",
            Unreadable::BadType { .. } => "badType",
            Unreadable::NoAlbTime => "noAlbTime",
            Unreadable::NoBalancer => "noBalancer",
            Unreadable::NoClientPort => "noClientPort",
            Unreadable::BadClient { .. } => "badClient",
            Unreadable::NotJson { .. } => "notJson",
            Unreadable::NotObject { .. } => "notObject",
            Unreadable::BadEpoch { .. } => "badEpoch",
            Unreadable::TimeFieldOutOfRange { .. } => "timeFieldOutOfRange",
            Unreadable::BadTimeText { .. } => "badTimeText",
            Unreadable::TimeKind { .. } => "timeKind",
            Unreadable::NoTimeField { .. } => "noTimeField",
            Unreadable::KeyKind { .. } => "keyKind",
            Unreadable::NoKeyField { .. } => "noKeyField",
            Unreadable::EmptyKeyField { .. } => "emptyKeyField",
            Unreadable::TooManyColumns { .. } => "tooManyColumns",
            Unreadable::FieldTooLong => "fieldTooLong",
            Unreadable::UnclosedQuote => "unclosedQuote",
            Unreadable::ColumnNotUtf8 { .. } => "columnNotUtf8",
            Unreadable::NoKeyColumn { .. } => "noKeyColumn",
            Unreadable::EmptyKey { .. } => "emptyKey",
            Unreadable::BadCost { .. } => "badCost",
        }
    }

    /// The command's English sentence of `code` (a code of [`ENGLISH`]), values in braces.
    pub fn english(code: &str) -> Option<&'static str> {
        reason::lookup(&ENGLISH, code)
    }

    /// The values, by the names the sentences give them; `count` is what a sentence counts (the
    /// page's plural entries choose their form by it).
    fn args(&self) -> Vec<(&'static str, Arg)> {
        let whole = |n: usize| Arg::Whole(n as u64);
        let text = |s: &str| Arg::Text(s.to_owned());
        let kind = |k: &JsonKind| Arg::Word(k.name(), k.english());
        match self {
            Unreadable::TooLong { length, max } => {
                vec![("length", Arg::Whole(*length)), ("max", whole(*max))]
            }
            Unreadable::NotUtf8 { byte } => vec![("byte", whole(*byte))],
            Unreadable::UnitCost { cost, limiter } => {
                vec![("cost", Arg::Number(*cost)), ("limiter", text(limiter))]
            }
            Unreadable::Refused { detail } => vec![("detail", text(detail))],
            Unreadable::NoClient
            | Unreadable::NoIdent
            | Unreadable::NoUser
            | Unreadable::NoAlbTime
            | Unreadable::NoBalancer
            | Unreadable::NoClientPort
            | Unreadable::FieldTooLong
            | Unreadable::UnclosedQuote => vec![],
            Unreadable::Field { part, .. } => vec![("part", text(part))],
            Unreadable::BadStatus { status } => vec![("status", text(status))],
            Unreadable::BadSize { size } => vec![("size", text(size))],
            Unreadable::NotCommonLogTime { time, detail } => {
                vec![("time", text(time)), ("detail", text(detail))]
            }
            Unreadable::NotRfc3339 { part, time, detail } => vec![
                ("part", text(part)),
                ("time", text(time)),
                ("detail", text(detail)),
            ],
            Unreadable::NotTime { time }
            | Unreadable::NoOffset { time }
            | Unreadable::TimeOutOfRange { time }
            | Unreadable::DateOutOfRange { time } => {
                vec![("time", text(time))]
            }
            Unreadable::OffsetOutOfRange { time, offset } => {
                vec![("time", text(time)), ("offset", text(offset))]
            }
            Unreadable::BadType { given, allowed } => {
                vec![
                    ("given", text(given)),
                    ("allowed", Arg::Text(allowed.join(", "))),
                ]
            }
            Unreadable::BadClient { client } => vec![("client", text(client))],
            Unreadable::NotJson { column, detail } => {
                vec![("column", whole(*column)), ("detail", text(detail))]
            }
            Unreadable::NotObject { kind: k } => vec![("kind", kind(k))],
            Unreadable::BadEpoch { field, number } => {
                vec![("field", text(field)), ("number", text(number))]
            }
            Unreadable::BadTimeText { field, time }
            | Unreadable::NoOffsetField { field, time }
            | Unreadable::TimeFieldOutOfRange { field, time } => {
                vec![("field", text(field)), ("time", text(time))]
            }
            Unreadable::TimeKind { field, kind: k } | Unreadable::KeyKind { field, kind: k } => {
                vec![("field", text(field)), ("kind", kind(k))]
            }
            Unreadable::NoTimeField { field }
            | Unreadable::NoKeyField { field }
            | Unreadable::EmptyKeyField { field } => {
                vec![("field", text(field))]
            }
            Unreadable::TooManyColumns { max } => vec![("max", whole(*max))],
            Unreadable::ColumnNotUtf8 { column } | Unreadable::EmptyKey { column } => {
                vec![("column", whole(*column))]
            }
            Unreadable::NoKeyColumn { column, columns } => {
                vec![("column", whole(*column)), ("count", whole(*columns))]
            }
            Unreadable::BadCost { given } => vec![("given", text(given))],
        }
    }
}

/// The command's English sentence, its values filled in.
impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.code();
        let args = self.args();
        let one = args
            .iter()
            .any(|(name, n)| *name == "count" && *n == Arg::Whole(1));
        let sentence = if let Unreadable::DateOutOfRange { .. } = self {
            ENGLISH_DATE
        } else {
            one.then(|| reason::lookup(&ENGLISH_ONE, code))
                .flatten()
                .or_else(|| Unreadable::english(code))
                .unwrap_or(code)
        };
        reason::write_english(f, sentence, &args)
    }
}

impl std::error::Error for Unreadable {}

/// `{ "code": …, then each value by its name }`, for the page to word.
impl Serialize for Unreadable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        reason::serialize(serializer, self.code(), &self.args())
    }
}

impl From<crate::limiter::InvalidValue> for Unreadable {
    /// A cost the core refused, as [`Unreadable::BadCost`] (a number quoted as the line wrote it
    /// when `e` went through [`as_written`](super::fields::as_written)).
    fn from(e: crate::limiter::InvalidValue) -> Self {
        use crate::limiter::Given;
        // The value only, quoted: the core's English words about it ("which is too large") would
        // reach the Portuguese page inside its sentence.
        let given = match e.given {
            Given::TooLarge(text) | Given::TooSmall(text) | Given::Ambiguous(text) => {
                Given::Text(text)
            }
            other => other,
        };
        let given = given.text(rust_number);
        Unreadable::BadCost {
            given: given.strip_prefix("got ").unwrap_or(&given).to_owned(),
        }
    }
}
