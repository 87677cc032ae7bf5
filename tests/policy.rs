//! The YAML policy of the Config tab: what it accepts, and errors that name line, path and rule.

use bucketlab::policy::{KeyBy, Policy, PolicyError, Problem, Storage};

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
fn a_refused_value_does_not_leak_into_the_next_parse() {
    let _ = refused(&LESSON.replace("capacity: 10", "capacity: 0"));
    let err = refused(&LESSON.replace("storage: redis", "storage: disk"));
    assert!(
        matches!(err.problem, Problem::UnknownVariant { .. }),
        "{err:?}"
    );
}
