//! The reasons a line could not be read, as data: every [`Unreadable`] has a code, serializes as
//! `{ code, …values }` and is said by the command in English (`Display`, the sentences of
//! `ENGLISH`), as it was before reasons were data; the lesson's page has a sentence of every code
//! in Portuguese and English (`unreadable.why` in `locales/<lang>/traffic.json`) naming values the
//! reason has, the same ones in both languages.

mod replay_support;

use bucketlab::replay::fields::FieldError;
use bucketlab::replay::report::Malformed;
use bucketlab::replay::unreadable::{CLF_PARTS, ENGLISH};
use bucketlab::replay::{Format, JsonKind, KeySpec, Line, Parsed, Parser, Unreadable};
use replay_support::{marks, traffic_words};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// One of each reason (and of each sentence: every field error, a count of one and more).
fn examples() -> Vec<Unreadable> {
    let field = || "ts".to_owned();
    let mut all = vec![
        Unreadable::TooLong {
            length: 2_000_000,
            max: 1 << 20,
        },
        Unreadable::NotUtf8 { byte: 7 },
        Unreadable::UnitCost {
            cost: 2.5,
            limiter: "fixed-window",
        },
        Unreadable::Refused {
            detail: "time must be a finite number, got NaN".into(),
        },
        Unreadable::NoClient,
        Unreadable::NoIdent,
        Unreadable::NoUser,
        Unreadable::BadStatus {
            status: "\"99\"".into(),
        },
        Unreadable::BadSize {
            size: "\"x\"".into(),
        },
        Unreadable::NotCommonLogTime {
            time: "\"10/Oct/2000\"".into(),
            detail: "the 'hour' component could not be parsed".into(),
        },
        Unreadable::NotRfc3339 {
            part: "request_creation_time",
            time: "\"yesterday\"".into(),
            detail: "the 'year' component could not be parsed".into(),
        },
        Unreadable::NotTime {
            time: "\"now\"".into(),
        },
        Unreadable::NoOffset {
            time: "\"2000-10-10T20:55:36\"".into(),
        },
        Unreadable::TimeOutOfRange {
            time: "\"99999999999999999999\"".into(),
        },
        Unreadable::DateOutOfRange {
            time: "\"10/Oct/6000:13:55:36 +0000\"".into(),
        },
        Unreadable::OffsetOutOfRange {
            time: "\"10/Oct/2000:13:55:36 +2500\"".into(),
            offset: "+25:00".into(),
        },
        Unreadable::BadType {
            given: "\"ftp\"".into(),
            allowed: &["http", "https"],
        },
        Unreadable::NoAlbTime,
        Unreadable::NoBalancer,
        Unreadable::NoClientPort,
        Unreadable::BadClient {
            client: "\"1.2.3.4\"".into(),
        },
        Unreadable::NotJson {
            column: 2,
            detail: "EOF while parsing an object at line 1 column 1".into(),
        },
        Unreadable::NotObject {
            kind: JsonKind::Array,
        },
        Unreadable::BadEpoch {
            field: field(),
            number: "-1".into(),
        },
        Unreadable::TimeFieldOutOfRange {
            field: field(),
            time: "1e400".into(),
        },
        Unreadable::BadTimeText {
            field: field(),
            time: "\"now\"".into(),
        },
        Unreadable::NoOffsetField {
            field: field(),
            time: "\"2000-10-10 20:55:36\"".into(),
        },
        Unreadable::TimeKind {
            field: field(),
            kind: JsonKind::Null,
        },
        Unreadable::NoTimeField { field: field() },
        Unreadable::KeyKind {
            field: "ip".into(),
            kind: JsonKind::Object,
        },
        Unreadable::NoKeyField { field: "ip".into() },
        Unreadable::EmptyKeyField { field: "ip".into() },
        Unreadable::TooManyColumns { max: 64 },
        Unreadable::FieldTooLong,
        Unreadable::UnclosedQuote,
        Unreadable::ColumnNotUtf8 { column: 2 },
        Unreadable::NoKeyColumn {
            column: 3,
            columns: 1,
        },
        Unreadable::NoKeyColumn {
            column: 3,
            columns: 2,
        },
        Unreadable::EmptyKey { column: 2 },
        Unreadable::BadCost {
            given: "\"abc\"".into(),
        },
    ];
    for error in [
        FieldError::QuotedExpected,
        FieldError::BracketedExpected,
        FieldError::QuotedNotClosed,
        FieldError::BracketedNotClosed,
        FieldError::Missing,
    ] {
        all.push(Unreadable::Field {
            part: "time",
            error,
        });
    }
    all
}

/// The variant's name: a variant added without an example above stops this from compiling, a
/// reminder to give it one (and its sentences).
fn variant(reason: &Unreadable) -> &'static str {
    match reason {
        Unreadable::TooLong { .. } => "TooLong",
        Unreadable::NotUtf8 { .. } => "NotUtf8",
        Unreadable::UnitCost { .. } => "UnitCost",
        Unreadable::Refused { .. } => "Refused",
        Unreadable::NoClient => "NoClient",
        Unreadable::NoIdent => "NoIdent",
        Unreadable::NoUser => "NoUser",
        Unreadable::Field { .. } => "Field",
        Unreadable::BadStatus { .. } => "BadStatus",
        Unreadable::BadSize { .. } => "BadSize",
        Unreadable::NotCommonLogTime { .. } => "NotCommonLogTime",
        Unreadable::NotRfc3339 { .. } => "NotRfc3339",
        Unreadable::NotTime { .. } => "NotTime",
        Unreadable::NoOffset { .. } => "NoOffset",
        Unreadable::NoOffsetField { .. } => "NoOffsetField",
        Unreadable::TimeOutOfRange { .. } => "TimeOutOfRange",
        Unreadable::DateOutOfRange { .. } => "DateOutOfRange",
        Unreadable::OffsetOutOfRange { .. } => "OffsetOutOfRange",
        Unreadable::BadType { .. } => "BadType",
        Unreadable::NoAlbTime => "NoAlbTime",
        Unreadable::NoBalancer => "NoBalancer",
        Unreadable::NoClientPort => "NoClientPort",
        Unreadable::BadClient { .. } => "BadClient",
        Unreadable::NotJson { .. } => "NotJson",
        Unreadable::NotObject { .. } => "NotObject",
        Unreadable::BadEpoch { .. } => "BadEpoch",
        Unreadable::TimeFieldOutOfRange { .. } => "TimeFieldOutOfRange",
        Unreadable::BadTimeText { .. } => "BadTimeText",
        Unreadable::TimeKind { .. } => "TimeKind",
        Unreadable::NoTimeField { .. } => "NoTimeField",
        Unreadable::KeyKind { .. } => "KeyKind",
        Unreadable::NoKeyField { .. } => "NoKeyField",
        Unreadable::EmptyKeyField { .. } => "EmptyKeyField",
        Unreadable::TooManyColumns { .. } => "TooManyColumns",
        Unreadable::FieldTooLong => "FieldTooLong",
        Unreadable::UnclosedQuote => "UnclosedQuote",
        Unreadable::ColumnNotUtf8 { .. } => "ColumnNotUtf8",
        Unreadable::NoKeyColumn { .. } => "NoKeyColumn",
        Unreadable::EmptyKey { .. } => "EmptyKey",
        Unreadable::BadCost { .. } => "BadCost",
    }
}

/// The forms of a page entry: one sentence, or a plural entry's (`one`, `other`…).
fn forms(code: &str, entry: &Value) -> Vec<String> {
    match entry {
        Value::String(text) => vec![text.clone()],
        Value::Object(forms) => {
            assert!(
                forms.contains_key("other"),
                "{code}: a plural entry has other"
            );
            forms
                .values()
                .map(|f| f.as_str().unwrap().to_owned())
                .collect()
        }
        other => panic!("{code}: {other} is no sentence"),
    }
}

#[test]
fn every_reason_is_a_code_and_values_said_by_the_command_and_by_the_page_in_both_languages() {
    let examples = examples();
    let variants: BTreeSet<_> = examples.iter().map(variant).collect();
    assert_eq!(variants.len(), 40, "an example of every variant");
    let (english, portuguese) = (
        traffic_words("en", &["unreadable", "why"]),
        traffic_words("pt-BR", &["unreadable", "why"]),
    );
    let codes: BTreeSet<&str> = ENGLISH.iter().map(|(code, _)| *code).collect();
    let page_codes =
        |words: &Map<String, Value>| -> BTreeSet<String> { words.keys().cloned().collect() };
    let codes_owned: BTreeSet<String> = codes.iter().map(|c| (*c).to_owned()).collect();
    assert_eq!(
        page_codes(&english),
        codes_owned,
        "the page's English has every code"
    );
    assert_eq!(
        page_codes(&portuguese),
        codes_owned,
        "the Portuguese has every code"
    );
    let mut said = BTreeSet::new();
    for reason in &examples {
        let code = reason.code();
        said.insert(code);
        let Value::Object(mut values) = serde_json::to_value(reason).unwrap() else {
            panic!("{reason:?} is not serialized as an object");
        };
        assert_eq!(values.remove("code"), Some(Value::from(code)), "{reason:?}");
        let names: BTreeSet<String> = values.keys().cloned().collect();
        let sentence =
            Unreadable::english(code).unwrap_or_else(|| panic!("no sentence for {code}"));
        // The command's English may name a detail (the JSON or date parser's English) that the
        // page leaves out, and the page a place (a byte) the detail says in its own words.
        assert!(
            marks(sentence).is_subset(&names),
            "{code}: the command's sentence names only the reason's values"
        );
        let said_text = reason.to_string();
        assert!(
            !said_text.contains('{') && !said_text.is_empty(),
            "{said_text}"
        );
        for (lang, words) in [("en", &english), ("pt-BR", &portuguese)] {
            let entry = &words[code];
            if entry.is_object() {
                assert!(
                    values["count"].is_u64(),
                    "{code}: a plural entry counts `count`"
                );
            }
            for form in forms(code, entry) {
                assert!(
                    marks(&form).is_subset(&names),
                    "{code} in {lang}: \"{form}\" names only the reason's values {names:?}"
                );
            }
        }
        let all_marks = |entry: &Value| -> BTreeSet<String> {
            forms(code, entry).iter().flat_map(|f| marks(f)).collect()
        };
        assert_eq!(
            all_marks(&english[code]),
            all_marks(&portuguese[code]),
            "{code}: Portuguese and English name the same values"
        );
        let named: BTreeSet<String> = marks(sentence)
            .union(&all_marks(&english[code]))
            .cloned()
            .collect();
        assert_eq!(
            named, names,
            "{code}: every value is said by the command or the page"
        );
    }
    assert_eq!(said, codes, "every sentence is said by some reason");
}

#[test]
fn the_words_among_the_values_are_said_in_both_languages() {
    for lang in ["en", "pt-BR"] {
        let kinds = traffic_words(lang, &["unreadable", "kinds"]);
        let names: BTreeSet<_> = JsonKind::ALL.iter().map(|k| k.name().to_owned()).collect();
        assert_eq!(
            kinds.keys().cloned().collect::<BTreeSet<_>>(),
            names,
            "{lang}"
        );
        let parts = traffic_words(lang, &["unreadable", "parts"]);
        let names: BTreeSet<_> = CLF_PARTS.iter().map(|p| (*p).to_owned()).collect();
        assert_eq!(
            parts.keys().cloned().collect::<BTreeSet<_>>(),
            names,
            "{lang}"
        );
    }
    // The page's English for a kind is the command's.
    let kinds = traffic_words("en", &["unreadable", "kinds"]);
    for kind in JsonKind::ALL {
        assert_eq!(kinds[kind.name()], kind.english(), "{kind:?}");
    }
}

/// Why `line` is malformed for a parser of `format` keyed by `key`.
fn why(format: Format, key: Option<KeySpec>, line: &str) -> Unreadable {
    let samples: &[&str] = match format {
        Format::Json => &[r#"{"time": 1, "ip": "192.0.2.1"}"#],
        _ => &[],
    };
    let mut parser = Parser::new(format, key.as_ref(), None, samples).unwrap();
    match parser.line(Line::Text(line.as_bytes())) {
        Parsed::Malformed(why) => why,
        other => panic!("{line:?} gave {other:?}"),
    }
}

#[test]
fn the_command_says_malformed_lines_as_it_always_has() {
    let clf = |line| why(Format::Combined, None, line).to_string();
    assert_eq!(clf("192.0.2.1 -"), "no user field after the ident");
    assert_eq!(
        clf("192.0.2.1 - - 10/Oct/2000:13:55:36 -0700"),
        "time: a bracketed field was expected"
    );
    assert_eq!(
        clf(r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 20 1 "-" "-""#),
        "status \"20\" is not a 3-digit code"
    );
    assert_eq!(
        clf(r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "curl"#),
        "user-agent: a quoted field is not closed"
    );
    let time = clf(r#"192.0.2.1 - - [10/Oct/2000] "GET / HTTP/1.1" 200 1 "-" "-""#);
    assert!(
        time.starts_with("time \"10/Oct/2000\" is not day/Mon/year:hh:mm:ss ±hhmm ("),
        "{time}"
    );

    let json = |line| why(Format::Json, None, line).to_string();
    assert_eq!(json("[1]"), "an array is not an object");
    assert!(json("{\"ts\": 1").starts_with("not JSON: EOF while parsing"));
    assert_eq!(json(r#"{"ip": "a"}"#), "no time field \"time\"");
    assert_eq!(
        json(r#"{"time": "now", "ip": "a"}"#),
        "time field \"time\": \"now\" is neither an epoch time (digits with an optional \
         fraction, in s, ms, µs or ns by size), an RFC 3339 date and time nor a web server's \
         (10/Oct/2000:13:55:36 -0700)"
    );
    assert_eq!(
        json(r#"{"time": 1, "ip": null}"#),
        "key field \"ip\" is null, not a string or a number"
    );
    // Changed where the old sentence named no field (a negative number's did), and where it
    // called a number past a double's (which serde_json refuses) not JSON.
    let range = "is out of range: times run from 1970 to the year 5138 (an epoch number below \
                 1e20, in s, ms, µs or ns by size)";
    for (line, time) in [
        (r#"{"time": 1e20, "ip": "1.2.3.4"}"#, "1e20"),
        (r#"{"time": 1e400, "ip": "1.2.3.4"}"#, "1e400"),
        (r#"{"ip": "1.2.3.4", "time": 12.5e399}"#, "12.5e399"),
    ] {
        let reason = why(Format::Json, None, line);
        assert_eq!(
            reason.to_string(),
            format!("time field \"time\": {time} {range}"),
            "{line}"
        );
        assert_eq!(
            serde_json::to_value(&reason).unwrap(),
            json!({ "code": "timeFieldOutOfRange", "field": "time", "time": time }),
            "{line}: the page words it naming the field"
        );
    }

    let csv = |line| why(Format::Csv, None, line).to_string();
    assert_eq!(csv("1700000000,,1"), "the key (column 2) is empty");
    assert_eq!(
        csv("1700000000,alice,-1"),
        "cost must be a finite number of at least 0, got \"-1\""
    );
    assert_eq!(
        csv("1700000000,alice,\"x\""),
        "cost must be a finite number of at least 0, got \"x\""
    );
    assert_eq!(
        why(Format::Csv, Some(KeySpec::Column(3)), "1700000000,alice").to_string(),
        "no column 3 for the key (2 columns)"
    );
    // Changed where the old sentence was wrong: it said "(1 columns)".
    assert_eq!(csv("1700000000"), "no column 2 for the key (1 column)");

    // Changed where the old sentence named no field: "a quoted field is not closed".
    let alb = "http 2018-07-02T22:23:00.186641Z app/lb/1 192.0.2.1:2817 10.0.0.1:80 0.000 \
               0.001 0.000 200 200 34 366 \"GET http://example.com/ HTTP/1.1\" \"curl";
    assert_eq!(
        why(Format::Alb, None, alb).to_string(),
        "user_agent: a quoted field is not closed"
    );

    assert_eq!(
        why(Format::Alb, None, "ftp 2024-03-10T02:30:01Z x 1.2.3.4:5").to_string(),
        "type \"ftp\" is not one of http, https, h2, grpcs, ws, wss"
    );
}

#[test]
fn the_json_report_keeps_why_and_adds_the_reason() {
    let malformed = Malformed::new(3, Unreadable::NoTimeField { field: "ts".into() });
    assert_eq!(
        serde_json::to_value(&malformed).unwrap(),
        json!({
            "line": 3,
            "why": "no time field \"ts\"",
            "reason": { "code": "noTimeField", "field": "ts" }
        })
    );
    let kind = Unreadable::NotObject {
        kind: JsonKind::Boolean,
    };
    assert_eq!(
        serde_json::to_value(&kind).unwrap(),
        json!({ "code": "notObject", "kind": "boolean" }),
        "a kind is named, for the page to say"
    );
    assert_eq!(kind.to_string(), "a boolean is not an object");
    // A date out of range is said with a date's range, but the page words it by the code it
    // has for any time out of range (its locales have no sentence of a date's own).
    let date = Unreadable::DateOutOfRange {
        time: "\"31/Dec/9999:13:55:38 +0000\"".into(),
    };
    assert_eq!(
        serde_json::to_value(&date).unwrap(),
        json!({ "code": "timeOutOfRange", "time": "\"31/Dec/9999:13:55:38 +0000\"" })
    );
    assert_eq!(
        date.to_string(),
        "time \"31/Dec/9999:13:55:38 +0000\" is out of range: dates run from 1970-01-01 00:00:00 \
         UTC to before 5138-11-16 09:46:40 UTC"
    );
}

#[test]
fn a_refused_cost_is_quoted_without_the_cores_english_about_it() {
    use bucketlab::limiter::{Field, InvalidValue, Rule};
    for (typed, quoted) in [("1e400", "\"1e400\""), ("1,000", "\"1,000\""), ("-2", "-2")] {
        let refused = InvalidValue::parse(Field::Cost, typed, Rule::NonNegative).unwrap_err();
        assert_eq!(
            Unreadable::from(refused),
            Unreadable::BadCost {
                given: quoted.into()
            },
            "{typed}"
        );
    }
}

#[test]
fn the_page_says_each_reason_in_english_as_the_command_does() {
    // The command adds the parsers' own words (`{detail}`, which the page leaves out); the page
    // has a plural's forms, the command its "other" one.
    let page = traffic_words("en", &["unreadable", "why"]);
    let differ: Vec<_> = ENGLISH
        .iter()
        .filter(|(_, sentence)| !sentence.contains("{detail}"))
        .filter(|(code, sentence)| {
            let said = page.get(*code).map(|v| v.get("other").unwrap_or(v));
            said.and_then(Value::as_str) != Some(sentence)
        })
        .map(|(code, sentence)| format!("{code}: command {sentence:?}, page {:?}", page.get(*code)))
        .collect();
    assert!(differ.is_empty(), "{differ:#?}");
}
