//! The chosen policy written for nginx, Envoy, the lesson's YAML policy and the Redis script.

use bucketlab::limiter::BucketConfig;
use bucketlab::replay::export::{envoy_fill, exports, nginx, nginx_rate, redis, yaml};

fn config(b: f64, r: f64) -> BucketConfig {
    BucketConfig::new(b, r).unwrap()
}

#[test]
fn nginx_counts_the_burst_beyond_the_first_request() {
    let text = nginx(config(20.0, 5.0));
    assert!(text.contains("rate=5r/s;"), "{text}");
    assert!(
        text.contains("limit_req zone=per_client burst=19 nodelay;"),
        "{text}"
    );
    assert!(nginx(config(1.0, 1.0)).contains("burst=0 nodelay"));
    assert!(
        nginx(config(2.5, 1.0)).contains("burst=2 nodelay"),
        "rounded up"
    );
    // Rates that are not whole per second are written per minute.
    assert_eq!(nginx_rate(2.5), "150r/m");
    assert_eq!(nginx_rate(0.1), "6r/m");
    assert_eq!(nginx_rate(0.001), "1r/m", "at least one a minute");
    assert_eq!(nginx_rate(12.0), "12r/s");
}

#[test]
fn envoy_fills_in_steps_of_at_least_50_ms() {
    assert_eq!(envoy_fill(10.0), (10, "1s".to_owned()));
    assert_eq!(envoy_fill(0.5), (1, "2s".to_owned()));
    assert_eq!(envoy_fill(2.5), (1, "0.4s".to_owned()));
    assert_eq!(envoy_fill(40.5), (2, "0.05s".to_owned()));
    let text = bucketlab::replay::export::envoy(config(7.5, 2.0));
    for line in ["max_tokens: 8", "tokens_per_fill: 2", "fill_interval: 1s"] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

#[test]
fn the_yaml_policy_and_the_redis_arguments_carry_b_and_r_exactly() {
    let text = yaml(config(12.0, 0.25));
    assert!(
        text.contains("capacity: 12\n") && text.contains("refill_rate: 0.25\n"),
        "{text}"
    );
    let args = redis(config(12.0, 0.25));
    assert!(args.contains(", 12 0.25 1 "), "{args}");
    let ids: Vec<&str> = exports(config(1.0, 1.0)).iter().map(|e| e.id).collect();
    assert_eq!(ids, ["nginx", "envoy", "yaml", "redis"]);
}

/// The YAML export is a policy the lesson's own parser accepts, with the same bucket.
#[cfg(feature = "config")]
#[test]
fn the_yaml_export_parses_as_the_lessons_policy() {
    use bucketlab::limiter::policy::Policy;
    for (b, r) in [(12.0, 0.25), (1.0, 0.0), (250.0, 1000.0)] {
        let policy = Policy::from_yaml(&yaml(config(b, r))).unwrap();
        assert_eq!(policy.tier("default"), Some(&config(b, r)));
    }
}
