//! Setup errors as data: every [`Problem`] has a code, serializes as `{ code, …values }`, and is
//! said by a sentence of that code, the same in the command's English (`Display`) and on the
//! page (`errors.why` in `locales/en/traffic.json`), with a Portuguese sentence naming the same
//! values. The page words what the worker hands it from these codes alone.

mod replay_support;

use bucketlab::limiter::rust_number;
use bucketlab::replay::setup::{ENGLISH, FIELDS_SHOWN};
use bucketlab::replay::{Format, KeySpec, Policy, Problem};
use replay_support::{marks, traffic_words};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// One of each problem, in each of its sentences (one line looked at or more, a list or none…).
fn examples() -> Vec<Problem> {
    let names = |n: usize| (1..=n).map(|i| format!("f{i}")).collect::<Vec<_>>();
    vec![
        Problem::NoFormat { lines: 16 },
        Problem::NoFormat { lines: 1 },
        Problem::NoNamedFields {
            format: Format::Alb,
        },
        Problem::KeyedByIp {
            format: Format::Combined,
        },
        Problem::KeyedByField,
        Problem::KeyedByColumn,
        Problem::NoSecondColumn {
            lines: 2,
            widest: 1,
        },
        Problem::NoSecondColumn {
            lines: 1,
            widest: 1,
        },
        Problem::NoColumn {
            lines: 3,
            column: 9,
            widest: 4,
        },
        Problem::NoColumn {
            lines: 1,
            column: 9,
            widest: 4,
        },
        Problem::NoColumn {
            lines: 3,
            column: 5,
            widest: 2,
        },
        Problem::NoColumn {
            lines: 1,
            column: 5,
            widest: 2,
        },
        Problem::NotFormat {
            format: Format::Alb,
            lines: 11,
            looks: None,
        },
        Problem::NotFormat {
            format: Format::Common,
            lines: 1,
            looks: None,
        },
        Problem::NotFormat {
            format: Format::Alb,
            lines: 11,
            looks: Some(Format::Combined),
        },
        Problem::NotFormat {
            format: Format::Combined,
            lines: 1,
            looks: Some(Format::Csv),
        },
        Problem::NotJson { lines: 16 },
        Problem::NotJson { lines: 1 },
        Problem::NotText { lines: 16 },
        Problem::NotText { lines: 1 },
        Problem::Compressed {
            compression: "zstd",
        },
        Problem::NoSuchField {
            field: "user".into(),
            present: names(3),
        },
        Problem::NoSuchField {
            field: "user".into(),
            present: names(FIELDS_SHOWN + 3),
        },
        Problem::NoSuchField {
            field: "user".into(),
            present: vec![],
        },
        Problem::NoUsualField {
            usual: &["time", "ts"],
        },
        Problem::FieldNeedsName,
        Problem::ColumnNumber { max: 64 },
        Problem::UnknownKey,
        Problem::OneOf {
            allowed: &Format::NAMES,
        },
        Problem::Positive { name: "B" },
        Problem::NonNegative { name: "r" },
        Problem::NeedsRate { algorithm: "gcra" },
        Problem::WholeRequests {
            algorithm: "fixed-window",
            max: 10_000,
        },
        Problem::WindowRange {
            algorithm: "sliding-log",
            window: 0.0005,
            min: 0.001,
            max: 86_400.0,
        },
    ]
}

/// The variant's name: a variant added without an example above stops this from compiling, a
/// reminder to give it one (and its sentences).
fn variant(problem: &Problem) -> &'static str {
    match problem {
        Problem::NoFormat { .. } => "NoFormat",
        Problem::NoNamedFields { .. } => "NoNamedFields",
        Problem::KeyedByIp { .. } => "KeyedByIp",
        Problem::KeyedByField => "KeyedByField",
        Problem::KeyedByColumn => "KeyedByColumn",
        Problem::NoSecondColumn { .. } => "NoSecondColumn",
        Problem::NoColumn { .. } => "NoColumn",
        Problem::NotFormat { .. } => "NotFormat",
        Problem::NotJson { .. } => "NotJson",
        Problem::NotText { .. } => "NotText",
        Problem::Compressed { .. } => "Compressed",
        Problem::NoSuchField { .. } => "NoSuchField",
        Problem::NoUsualField { .. } => "NoUsualField",
        Problem::FieldNeedsName => "FieldNeedsName",
        Problem::ColumnNumber { .. } => "ColumnNumber",
        Problem::UnknownKey => "UnknownKey",
        Problem::OneOf { .. } => "OneOf",
        Problem::Positive { .. } => "Positive",
        Problem::NonNegative { .. } => "NonNegative",
        Problem::NeedsRate { .. } => "NeedsRate",
        Problem::WholeRequests { .. } => "WholeRequests",
        Problem::WindowRange { .. } => "WindowRange",
    }
}

/// `sentence` with each mark replaced by its value, as the page's translator does (numbers in
/// the command's way here: the page writes them in its language's).
fn fill(sentence: &str, values: &Map<String, Value>) -> String {
    let mut out = sentence.to_owned();
    for (name, value) in values {
        let text = match value {
            Value::String(text) => text.clone(),
            Value::Number(n) => n
                .as_u64()
                .map_or_else(|| rust_number(n.as_f64().unwrap()), |n| n.to_string()),
            other => panic!("{name}: {other} is not a text or a number"),
        };
        out = out.replace(&format!("{{{name}}}"), &text);
    }
    out
}

#[test]
fn every_problem_is_a_code_and_values_said_alike_by_the_command_and_the_page() {
    let examples = examples();
    let variants: BTreeSet<_> = examples.iter().map(variant).collect();
    assert_eq!(variants.len(), 22, "an example of every variant");
    let english: Map<String, Value> = ENGLISH
        .iter()
        .map(|(code, text)| ((*code).to_owned(), Value::from(*text)))
        .collect();
    assert_eq!(
        traffic_words("en", &["errors", "why"]),
        english,
        "the page's English is the command's"
    );
    let portuguese = traffic_words("pt-BR", &["errors", "why"]);
    let mut said = BTreeSet::new();
    for problem in &examples {
        let code = problem.code();
        said.insert(code);
        let Value::Object(mut values) = serde_json::to_value(problem).unwrap() else {
            panic!("{problem:?} is not serialized as an object");
        };
        assert_eq!(
            values.remove("code"),
            Some(Value::from(code)),
            "{problem:?}"
        );
        let sentence = Problem::english(code).unwrap_or_else(|| panic!("no sentence for {code}"));
        // Every value, but the count of lines when a sentence is about one line.
        let mut names: BTreeSet<String> = values.keys().cloned().collect();
        if code.ends_with("One") {
            names.remove("lines");
        }
        assert_eq!(
            marks(sentence),
            names,
            "{code}: the sentence names its values"
        );
        assert_eq!(
            marks(portuguese[code].as_str().unwrap()),
            names,
            "{code} in Portuguese"
        );
        assert_eq!(fill(sentence, &values), problem.to_string(), "{code}");
        assert!(!problem.to_string().contains('{'), "{problem}");
    }
    let codes: BTreeSet<&str> = ENGLISH.iter().map(|(code, _)| *code).collect();
    assert_eq!(said, codes, "every sentence is said by some problem");
}

#[test]
fn values_are_the_sentence_s_own() {
    let value = |p: Problem| serde_json::to_value(p).unwrap();
    assert_eq!(
        value(Problem::NoColumn {
            lines: 3,
            column: 5,
            widest: 2
        }),
        json!({ "code": "noColumnTwoOnly", "lines": 3, "column": 5, "widest": 2 })
    );
    // Lists of names (the log's or the command's) are one text, cut after FIELDS_SHOWN.
    let many = Problem::NoSuchField {
        field: "user".into(),
        present: (0..20).map(|i| format!("f{i}")).collect(),
    };
    let present = value(many)["present"].as_str().unwrap().to_owned();
    assert!(
        present.starts_with("f0, f1, ") && present.ends_with("f11, …"),
        "{present}"
    );
    // A window JSON has no number for (infinite) is written as the command writes it.
    let infinite = Problem::WindowRange {
        algorithm: "gcra",
        window: f64::INFINITY,
        min: 0.001,
        max: 86_400.0,
    };
    assert_eq!(value(infinite.clone())["window"], "Infinity");
    assert!(
        infinite.to_string().contains("would be Infinity s"),
        "{infinite}"
    );
}

#[test]
fn the_settings_themselves_are_refused_as_problems() {
    let refused = |algorithm, capacity, rate| Policy::new(algorithm, capacity, rate).unwrap_err();
    let e = refused("token-bucket", 0.0, 1.0);
    assert_eq!((e.option, e.value.as_deref()), ("capacity", Some("0")));
    assert_eq!(e.why, Problem::Positive { name: "B" });
    assert_eq!(
        e.to_string(),
        "capacity \"0\": B must be a finite number greater than 0"
    );
    assert_eq!(
        refused("token-bucket", 1.0, -1.0).why,
        Problem::NonNegative { name: "r" }
    );
    assert_eq!(
        refused("fixed-window", 2.5, 1.0).why,
        Problem::WholeRequests {
            algorithm: "fixed-window",
            max: 10_000
        }
    );
    assert_eq!(
        refused("gcra", 5.0, 0.0).why,
        Problem::NeedsRate { algorithm: "gcra" }
    );
    let e = refused("sliding-log", 5.0, 10_000.0);
    assert_eq!((e.option, e.why.code()), ("refill-rate", "windowRange"));
    assert_eq!(
        e.why.to_string(),
        "sliding-log's window B / r would be 0.0005 s; it must be from 0.001 to 86400 s"
    );
    assert_eq!(refused("leaky", 1.0, 1.0).why.code(), "oneOf");
    for (text, code) in [
        ("field:", "fieldNeedsName"),
        ("column:1", "columnNumber"),
        ("column:x", "columnNumber"),
        ("user", "unknownKey"),
    ] {
        assert_eq!(KeySpec::parse(text).unwrap_err().code(), code, "{text}");
    }
}
