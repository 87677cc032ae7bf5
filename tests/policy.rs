//! The YAML policy of the Config tab: what it accepts, and errors that name line, path and rule.

use bucketlab::limiter::policy::{Expected, KeyBy, Policy, PolicyError, Problem, Storage};
use bucketlab::limiter::{Outcome, TokenBucket};

const LESSON: &str = "\
tiers:
  default:
    capacity: 10
    refill_rate: 5
  search:
    capacity: 30
    refill_rate: 10
  auth_login:
    capacity: 5
    refill_rate: 0.2
storage: redis
key_by: api_token
on_deny:
  status: 429
  retry_after: true
";

fn refused(text: &str) -> PolicyError {
    Policy::from_yaml(text).expect_err("the policy should be refused")
}

#[test]
fn reads_every_tier_and_setting() {
    let policy = Policy::from_yaml(LESSON).unwrap();
    let login = policy.tier("auth_login").unwrap();
    assert_eq!((login.capacity(), login.refill_rate()), (5.0, 0.2));
    assert_eq!(policy.tier("search").unwrap().capacity(), 30.0);
    assert_eq!(policy.storage, Storage::Redis);
    assert_eq!(policy.key_by, KeyBy::ApiToken);
    assert_eq!(policy.on_deny.status.0, 429);
    assert!(policy.on_deny.retry_after);
}

#[test]
fn a_negative_capacity_names_its_line_path_and_rule() {
    let err = refused(&LESSON.replace("capacity: 30", "capacity: -3"));
    assert_eq!(err.line, Some(6), "{err:?}");
    assert_eq!(err.path, "tiers.search.capacity");
    match &err.problem {
        Problem::InvalidValue {
            field,
            rule_kind,
            given,
            ..
        } => {
            assert_eq!(
                (field.as_str(), *rule_kind, given.as_str()),
                ("capacity", "positive", "-3")
            );
        }
        other => panic!("expected an invalid value, got {other:?}"),
    }
    assert!(
        err.message
            .contains("capacity must be a finite number greater than 0, got -3"),
        "{}",
        err.message
    );
}

#[test]
fn text_where_a_rate_belongs_is_quoted_back() {
    let err = refused(&LESSON.replace("refill_rate: 5", "refill_rate: fast"));
    assert_eq!(err.line, Some(4));
    assert_eq!(err.path, "tiers.default.refill_rate");
    assert!(
        matches!(&err.problem, Problem::InvalidValue { rule_kind: "nonNegative", given, .. } if given == "fast"),
        "{err:?}"
    );
}

#[test]
fn a_number_in_quotes_is_called_text_not_a_number() {
    let err = refused(&LESSON.replace("capacity: 30", "capacity: \"5\""));
    assert_eq!(err.line, Some(6), "{err:?}");
    assert_eq!(err.path, "tiers.search.capacity");
    assert!(
        matches!(&err.problem, Problem::QuotedNumber { field, rule_kind: "positive", given } if field == "capacity" && given == "5"),
        "{err:?}"
    );
    let err = refused(&LESSON.replace("refill_rate: 5", "refill_rate: '0.5'"));
    assert!(
        matches!(&err.problem, Problem::QuotedNumber { rule_kind: "nonNegative", given, .. } if given == "0.5"),
        "{err:?}"
    );
    // A word is text but no number in quotes: still an invalid value.
    let err = refused(&LESSON.replace("refill_rate: 5", "refill_rate: fast"));
    assert!(
        matches!(&err.problem, Problem::InvalidValue { .. }),
        "{err:?}"
    );
    // A number too large for an f64 reaches us as text although it has no quotes: it is named as
    // written, never called "in quotes".
    let err = refused(&LESSON.replace("capacity: 30", "capacity: 1e400"));
    assert!(
        matches!(&err.problem, Problem::InvalidValue { rule_kind: "positive", given, .. } if given == "1e400"),
        "{err:?}"
    );
}

#[test]
fn unknown_keys_and_words_list_what_is_allowed() {
    let err = refused(&LESSON.replace("capacity: 5", "burst: 5"));
    assert_eq!(err.line, Some(9));
    assert!(
        matches!(&err.problem, Problem::UnknownField { name, expected } if name == "burst" && expected.contains(&"capacity".to_owned())),
        "{err:?}"
    );

    let err = refused(&LESSON.replace("storage: redis", "storage: postgres"));
    assert_eq!(err.line, Some(11));
    assert_eq!(err.path, "storage");
    assert!(
        matches!(&err.problem, Problem::UnknownVariant { given, expected } if given == "postgres" && expected == &["memory", "redis"]),
        "{err:?}"
    );
}

#[test]
fn broken_yaml_is_a_syntax_error_with_a_line() {
    let err = refused(&LESSON.replace("    capacity: 30", "\tcapacity: 30"));
    assert!(matches!(err.problem, Problem::Syntax { .. }), "{err:?}");
    assert_eq!(err.line, Some(6), "{err:?}");

    let err = refused(&LESSON.replace("  search:\n", "  search: [\n"));
    assert!(
        matches!(err.problem, Problem::InvalidType { .. }),
        "{err:?}"
    );
    assert_eq!((err.line, err.path.as_str()), (Some(5), "tiers.search"));
}

#[test]
fn the_default_tier_and_the_settings_are_required() {
    let err = refused(&LESSON.replace("  default:", "  basic:"));
    assert_eq!(err.problem, Problem::MissingDefaultTier);
    assert_eq!(err.line, Some(1));

    let err = refused(&LESSON.replace("key_by: api_token\n", ""));
    assert!(
        matches!(&err.problem, Problem::MissingField { name } if name == "key_by"),
        "{err:?}"
    );
}

#[test]
fn only_429_or_503_refuse_a_request() {
    let err = refused(&LESSON.replace("status: 429", "status: 200"));
    assert_eq!(err.path, "on_deny.status");
    assert_eq!(
        err.problem,
        Problem::InvalidStatus {
            given: "200".into()
        }
    );
    assert!(Policy::from_yaml(&LESSON.replace("status: 429", "status: 503")).is_ok());
}

#[test]
fn integers_beyond_64_bits_are_numbers_checked_by_their_rule() {
    // From 2^64 on YAML's integers reach the parser as 128-bit ones; the replay's export writes
    // a B of 2·10^19 in whole digits. Found by fuzzing (fuzz/fuzz_targets/policy_yaml.rs).
    let policy =
        Policy::from_yaml(&LESSON.replace("capacity: 10", "capacity: 20000000000000000000"))
            .expect("a large whole capacity is a capacity");
    assert_eq!(policy.tier("default").unwrap().capacity(), 2e19);
    let policy = Policy::from_yaml(&format!(
        "{LESSON}costs:\n  /export: 18446744073709551616\n"
    ))
    .expect("a large whole cost is a cost");
    assert_eq!(policy.cost("/export"), 18446744073709551616.0);

    let err = refused(&LESSON.replace("refill_rate: 5", "refill_rate: -18446744073709551616"));
    assert_eq!(err.path, "tiers.default.refill_rate");
    assert!(
        matches!(&err.problem, Problem::InvalidValue { field, rule_kind: "nonNegative", .. } if field == "refill_rate"),
        "{err:?}"
    );
    assert!(
        err.message.contains(
            "refill_rate must be a finite number of at least 0, got -18446744073709552000"
        ),
        "{}",
        err.message
    );

    // Past 128 bits a status is a double to the parser: written as a number is in an error, not
    // as 300 digits that were never typed.
    let err = refused(&LESSON.replace("status: 429", &format!("status: {}", "4".repeat(300))));
    assert_eq!(
        err.problem,
        Problem::InvalidStatus {
            given: "4.444444444444445e+299".into()
        }
    );
    assert!(Policy::from_yaml(&LESSON.replace("status: 429", "status: 429.0")).is_ok());

    let err = refused(&LESSON.replace("status: 429", "status: 100000000000000000429"));
    assert_eq!(
        err.problem,
        Problem::InvalidStatus {
            given: "100000000000000000429".into()
        }
    );
}

#[test]
fn a_refused_value_does_not_leak_into_the_next_parse() {
    let _ = refused(&LESSON.replace("capacity: 10", "capacity: 0"));
    let err = refused(&LESSON.replace("storage: redis", "storage: disk"));
    assert!(
        matches!(err.problem, Problem::UnknownVariant { .. }),
        "{err:?}"
    );
}

/// Hostile YAML (issue 7): nesting thousands deep, a 10 MB value, markup; each is refused with an
/// error, and nothing panics or overflows the stack.
#[test]
fn hostile_yaml_is_refused_without_panicking() {
    let deep_flow = format!("tiers: {}{}", "[".repeat(10_000), "]".repeat(10_000));
    let mut deep_block = String::from("tiers:\n");
    for level in 0..2_000 {
        deep_block.push_str(&" ".repeat(2 * level + 2));
        deep_block.push_str("a:\n");
    }
    let huge = format!(
        "tiers:\n  default:\n    capacity: {}x\n    refill_rate: 5\n",
        "9".repeat(10 * 1024 * 1024)
    );
    let markup =
        "tiers:\n  default:\n    capacity: <img src=x onerror=alert(1)>\n    refill_rate: 5\n";
    let aliases = "a: &a [1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c]\ntiers: [*d,*d,*d,*d,*d,*d,*d,*d]\n";
    for (name, text) in [
        ("deep flow", deep_flow.as_str()),
        ("deep block", &deep_block),
        ("10 MB", &huge),
        ("markup", markup),
        ("aliases", aliases),
    ] {
        let err = Policy::from_yaml(text).expect_err(name);
        assert!(!err.message.is_empty(), "{name}");
        assert!(
            err.message.len() < 400,
            "{name}: a short message, got {} bytes",
            err.message.len()
        );
    }
}

mod properties {
    use bucketlab::limiter::policy::Policy;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any text, and YAML-shaped text with arbitrary values: a policy or an error, no panic.
        #[test]
        fn any_text_parses_or_is_refused(
            junk in "\\PC{0,60}",
            capacity in prop_oneof!["[0-9.e+-]{0,8}", Just(".nan".to_owned()), Just(".inf".to_owned()), Just("-0".to_owned()), Just("~".to_owned()), Just("[1]".to_owned()), Just("{a: 1}".to_owned())],
            rate in "[0-9.,-]{0,6}",
            extra in prop_oneof![Just(String::new()), Just("storage: redis\n".to_owned()), Just("key_by: ip\n".to_owned()), Just("on_deny:\n  status: 999\n".to_owned()), "[a-z_]{1,8}: [a-z0-9]{0,4}\n"],
        ) {
            let _ = Policy::from_yaml(&junk);
            let text = format!("tiers:\n  default:\n    capacity: {capacity}\n    refill_rate: {rate}\n{extra}");
            match Policy::from_yaml(&text) {
                Ok(policy) => {
                    let tier = policy.tier("default").unwrap();
                    prop_assert!(tier.capacity() > 0.0 && tier.capacity().is_finite());
                    prop_assert!(tier.refill_rate() >= 0.0 && tier.refill_rate().is_finite());
                }
                Err(err) => prop_assert!(!err.message.is_empty()),
            }
        }
    }
}

/// The "Designing good limits" section's policy, as the page shows it (its comments are locale
/// keys inside YAML comments, so the file parses as it is).
const PLANS: &str = include_str!("../lesson/code/config/plans.yaml");

#[test]
fn plans_and_endpoint_costs_are_read() {
    let policy = Policy::from_yaml(PLANS).unwrap();
    let plan = |name: &str| {
        let p = policy.plan(name).unwrap();
        (p.capacity(), p.refill_rate())
    };
    assert_eq!(plan("anonymous"), (10.0, 0.5));
    assert_eq!(plan("free"), (30.0, 2.0));
    assert_eq!(plan("paid"), (300.0, 50.0));
    assert_eq!(policy.cost("/search"), 5.0);
    assert_eq!(policy.cost("/items/:id"), 1.0);
    assert_eq!(policy.cost("/not-listed"), 1.0);
    assert!(policy.cost("/search") > policy.cost("/items/:id"));
    assert_eq!(policy.key_by, KeyBy::UserId);
}

#[test]
fn anonymous_callers_can_never_export_as_the_page_says() {
    // "Designing good limits" says exporting needs a login: an export costs more than an anonymous
    // bucket can hold (c > B), so the answer is "never", not a wait; a logged-in plan can export.
    let policy = Policy::from_yaml(PLANS).unwrap();
    let export = policy.cost("/export");
    let first_export = |plan: &str| {
        let mut bucket = TokenBucket::new(*policy.plan(plan).unwrap());
        bucket.try_acquire(export, 0.0).unwrap().outcome
    };
    assert!(
        matches!(first_export("anonymous"), Outcome::Never(_)),
        "{:?}",
        first_export("anonymous")
    );
    assert_eq!(first_export("free"), Outcome::Admitted);
    assert_eq!(first_export("paid"), Outcome::Admitted);
}

#[test]
fn plans_and_costs_are_optional() {
    let policy = Policy::from_yaml(LESSON).unwrap();
    assert!(policy.plans.is_empty() && policy.costs.is_empty());
}

#[test]
fn a_bad_plan_is_named_with_its_line() {
    let line_of = |needle: &str| PLANS.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let err = refused(&PLANS.replace("capacity: 300", "capacity: 0"));
    assert_eq!(err.line, Some(line_of("capacity: 300")), "{err:?}");
    assert_eq!(err.path, "plans.paid.capacity");
    assert!(
        err.message
            .contains("capacity must be a finite number greater than 0, got 0"),
        "{}",
        err.message
    );
    let err = refused(&PLANS.replace("refill_rate: 0.5", "refill_rate: -1"));
    assert_eq!(err.line, Some(line_of("refill_rate: 0.5")));
    assert_eq!(err.path, "plans.anonymous.refill_rate");
    let err = refused(&PLANS.replace("    refill_rate: 2\n  paid", "    rate: 2\n  paid"));
    assert_eq!(err.path, "plans.free");
    assert!(
        matches!(&err.problem, Problem::UnknownField { name, .. } if name == "rate"),
        "{err:?}"
    );
}

#[test]
fn a_bad_endpoint_cost_is_named_with_its_line() {
    let err = refused(&PLANS.replace("/search: 5", "/search: -5"));
    let line = PLANS
        .lines()
        .position(|l| l.contains("/search: 5"))
        .unwrap()
        + 1;
    assert_eq!(err.line, Some(line), "{err:?}");
    assert_eq!(err.path, "costs./search");
    assert!(
        matches!(&err.problem, Problem::InvalidValue { field, given, .. } if field == "cost" && given == "-5"),
        "{err:?}"
    );
}

#[test]
fn a_number_too_large_for_a_double_is_called_too_large() {
    // Digits a double can't hold reach the parser as text, with or without quotes: the message
    // says why they are refused, as the other readers of a number do ("which is too large").
    let digits = format!("1{}", "0".repeat(399));
    for (from, to, path) in [
        (
            "capacity: 10",
            format!("capacity: {digits}"),
            "tiers.default.capacity",
        ),
        (
            "capacity: 10",
            format!("capacity: -{digits}"),
            "tiers.default.capacity",
        ),
        (
            "refill_rate: 5",
            format!("refill_rate: -{digits}"),
            "tiers.default.refill_rate",
        ),
        (
            "capacity: 10",
            "capacity: 1e400".to_owned(),
            "tiers.default.capacity",
        ),
        (
            "capacity: 10",
            "capacity: '1e400'".to_owned(),
            "tiers.default.capacity",
        ),
    ] {
        let err = refused(&LESSON.replace(from, &to));
        assert_eq!(err.path, path, "{to}");
        assert!(
            matches!(&err.problem, Problem::InvalidValue { given, .. } if to.trim_end_matches('\'').ends_with(given.as_str())),
            "{to}: {err:?}"
        );
        assert!(
            err.message.contains(", which is too large at line "),
            "{to}: {}",
            err.message
        );
    }
    let err = refused(&LESSON.replace("capacity: 10", "capacity: -1e400"));
    assert!(
        err.message.starts_with(
            "tiers.default.capacity: capacity must be a finite number greater than 0, got \
             \"-1e400\", which is too large"
        ),
        "{}",
        err.message
    );
    // A word stays text; a status is refused as any status other than 429 or 503.
    let err = refused(&LESSON.replace("capacity: 10", "capacity: inf"));
    assert!(
        err.message.contains("got \"inf\" at line"),
        "{}",
        err.message
    );
    let err = refused(&LESSON.replace("status: 429", &format!("status: {digits}")));
    assert_eq!(
        err.problem,
        Problem::InvalidStatus {
            given: digits.clone()
        }
    );
    let err = refused(&LESSON.replace("status: 429", &format!("status: -{digits}")));
    assert_eq!(
        err.problem,
        Problem::InvalidStatus {
            given: format!("-{digits}")
        }
    );
}

#[test]
fn a_key_written_twice_is_refused_at_the_second() {
    let line_of = |text: &str, needle: &str| {
        text.lines()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|l| l.starts_with(needle))
            .unwrap()
            + 1
    };
    let two_defaults = LESSON.replace(
        "  search:",
        "  default:\n    capacity: 99\n    refill_rate: 9\n  search:",
    );
    let two_plans = PLANS.replace(
        "  paid:",
        "  free:\n    capacity: 1\n    refill_rate: 1\n  paid:",
    );
    let two_costs = PLANS.replace("  /search: 5", "  /search: 5\n  /search: 2");
    let two_capacities = LESSON.replace("capacity: 30", "capacity: 30\n    capacity: 9");
    let two_storages = LESSON.replace("key_by:", "storage: memory\nkey_by:");
    for (text, needle, path, name) in [
        (&two_defaults, "  default:", "tiers", "default"),
        (&two_plans, "  free:", "plans", "free"),
        (&two_costs, "  /search: 2", "costs", "/search"),
        (
            &two_capacities,
            "    capacity: 9",
            "tiers.search",
            "capacity",
        ),
        (&two_storages, "storage: memory", "", "storage"),
    ] {
        let err = refused(text);
        assert_eq!(
            err.problem,
            Problem::DuplicateKey { name: name.into() },
            "{name}: {err:?}"
        );
        assert_eq!(err.line, Some(line_of(text, needle)), "{name}: {err:?}");
        assert_eq!(err.path, path, "{name}");
    }
    // In flow style too, at the second key's own column.
    let flow = "  default: {capacity: 10, refill_rate: 5, capacity: 9}";
    let err = refused(&LESSON.replace("  default:\n    capacity: 10\n    refill_rate: 5", flow));
    assert_eq!(
        err.problem,
        Problem::DuplicateKey {
            name: "capacity".into()
        }
    );
    let column = flow.find("capacity: 9").unwrap() + 1;
    assert_eq!((err.line, err.column), (Some(2), Some(column)), "{err:?}");
    // Keys are compared as the policy reads them, as text: in quotes or not, one key.
    let err = refused(&format!("{LESSON}costs:\n  /search: 1\n  \"/search\": 2\n"));
    assert_eq!(
        (err.problem, err.line),
        (
            Problem::DuplicateKey {
                name: "/search".into()
            },
            Some(18)
        )
    );
    // The same name in two different mappings is no repeat.
    assert!(Policy::from_yaml(PLANS).is_ok());
}

#[test]
fn a_leading_zero_is_said_so_not_called_quotes() {
    // The parser reads an integer with a leading zero as text, with no quotes in sight.
    for (written, number) in [("010", "10"), ("08", "8"), ("007", "7"), ("-010", "-10")] {
        let err = refused(&LESSON.replace("capacity: 30", &format!("capacity: {written}")));
        assert_eq!(err.path, "tiers.search.capacity", "{written}");
        assert_eq!(
            err.problem,
            Problem::LeadingZero {
                field: "capacity".into(),
                given: written.into(),
                number: number.into()
            },
            "{written}"
        );
    }
    // In quotes it is text for that reason, whatever its digits; an anchor or a tag before the
    // quotes does not hide them.
    for written in ["\"010\"", "'010'", "&n \"5\"", "!!str '5'"] {
        let err = refused(&LESSON.replace("capacity: 30", &format!("capacity: {written}")));
        assert!(
            matches!(&err.problem, Problem::QuotedNumber { .. }),
            "{written}: {err:?}"
        );
    }
}

#[test]
fn a_byte_order_mark_before_the_text_is_no_part_of_it() {
    let policy = Policy::from_yaml(&format!("\u{feff}{LESSON}")).expect("the lesson's policy");
    assert_eq!(policy.storage, Storage::Redis);
    // Lines keep their numbers.
    let err = refused(&format!(
        "\u{feff}{}",
        LESSON.replace("storage: redis", "storage: disk")
    ));
    assert_eq!(
        (err.line, err.path.as_str()),
        (Some(11), "storage"),
        "{err:?}"
    );
}

#[test]
fn a_value_of_the_wrong_type_says_what_belongs_there() {
    for (from, to, expected) in [
        ("retry_after: true", "retry_after: yes", Expected::Boolean),
        ("retry_after: true", "retry_after: on", Expected::Boolean),
        ("retry_after: true", "retry_after: 1", Expected::Boolean),
        ("status: 429", "status: ~", Expected::Status),
        ("status: 429", "status: true", Expected::Status),
        ("capacity: 30", "capacity: [30]", Expected::Number),
        (
            "  search:\n    capacity: 30\n    refill_rate: 10",
            "  search: 30",
            Expected::Mapping,
        ),
    ] {
        let err = refused(&LESSON.replace(from, to));
        assert!(
            matches!(&err.problem, Problem::InvalidType { expected: Some(e), .. } if *e == expected),
            "{to}: {err:?}"
        );
    }
}

#[test]
fn several_documents_are_named_at_the_second_one() {
    for (text, line) in [
        (format!("{LESSON}---\n{LESSON}"), 16),
        (format!("---\n{LESSON}---\n{LESSON}"), 17),
        (
            format!("# a comment\n---\n{LESSON}--- # again\n{LESSON}"),
            18,
        ),
        (format!("{LESSON}...\n{LESSON}"), 17),
    ] {
        let err = refused(&text);
        assert_eq!(err.problem, Problem::SeveralDocuments, "{err:?}");
        assert_eq!(err.line, Some(line), "{text}");
    }
}
