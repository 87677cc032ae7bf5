//! Response heads for decisions: the 429, Retry-After rounding and the rate-limit fields.

use bucketlab::limiter::{retry_after_seconds, BucketConfig, ResponseHead, TokenBucket};

#[test]
fn eleven_requests_at_t0_with_b10_r5() {
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let heads: Vec<ResponseHead> = (0..11)
        .map(|_| ResponseHead::for_decision(&config, &bucket.try_acquire(1.0, 0.0).unwrap()))
        .collect();

    let first = &heads[0];
    assert_eq!(first.status_line(), "HTTP/1.1 200 OK");
    assert_eq!(first.header("Retry-After"), None);
    assert_eq!(first.header("X-RateLimit-Limit"), Some("10"));
    assert_eq!(first.header("X-RateLimit-Remaining"), Some("9"));
    assert_eq!(
        first.header("X-RateLimit-Reset"),
        Some("1"),
        "one token short: full in 0.2 s → 1"
    );
    assert_eq!(
        first.header("RateLimit-Policy"),
        Some("\"default\";q=10;w=2")
    );
    assert_eq!(first.header("RateLimit"), Some("\"default\";r=9;t=1"));

    let tenth = &heads[9];
    assert_eq!(tenth.status, 200);
    assert_eq!(tenth.header("X-RateLimit-Remaining"), Some("0"));

    let last = &heads[10];
    assert_eq!(last.status_line(), "HTTP/1.1 429 Too Many Requests");
    assert_eq!(last.header("Retry-After"), Some("1"));
    assert_eq!(last.header("X-RateLimit-Remaining"), Some("0"));
    assert_eq!(last.header("X-RateLimit-Reset"), Some("2"));
    assert_eq!(last.header("RateLimit"), Some("\"default\";r=0;t=1"));
    assert_eq!(
        last.to_text(),
        "HTTP/1.1 429 Too Many Requests\nRetry-After: 1\nX-RateLimit-Limit: 10\n\
         X-RateLimit-Remaining: 0\nX-RateLimit-Reset: 2\nRateLimit-Policy: \"default\";q=10;w=2\n\
         RateLimit: \"default\";r=0;t=1"
    );
}

#[test]
fn retry_after_rounds_up_and_is_at_least_one() {
    assert_eq!(retry_after_seconds(0.2), 1);
    assert_eq!(retry_after_seconds(0.0), 1);
    assert_eq!(retry_after_seconds(1.0), 1);
    assert_eq!(retry_after_seconds(1.000_001), 2);
    assert_eq!(retry_after_seconds(29.5), 30);
}

#[test]
fn full_bucket_reports_zero_waits_and_slow_rates_round_up() {
    let config = BucketConfig::new(3.0, 0.5).unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let zero_cost = bucket.try_acquire(0.0, 0.0).unwrap();
    let head = ResponseHead::for_decision(&config, &zero_cost);
    assert_eq!(head.header("X-RateLimit-Reset"), Some("0"));
    assert_eq!(head.header("RateLimit"), Some("\"default\";r=3;t=0"));
    assert_eq!(head.header("RateLimit-Policy"), Some("\"default\";q=3;w=6"));

    let half = bucket.try_acquire(2.5, 0.0).unwrap(); // 0.5 left: next whole token in 1 s
    let head = ResponseHead::for_decision(&config, &half);
    assert_eq!(head.header("RateLimit"), Some("\"default\";r=0;t=1"));
    let denied = bucket.try_acquire(2.0, 0.0).unwrap(); // needs 1.5 more at 0.5/s: 3 s
    let head = ResponseHead::for_decision(&config, &denied);
    assert_eq!(head.header("Retry-After"), Some("3"));
}

#[test]
fn never_admissible_requests_get_a_429_without_retry_after() {
    let config = BucketConfig::new(2.0, 0.0).unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let never = bucket.try_acquire(3.0, 0.0).unwrap();
    let head = ResponseHead::for_decision(&config, &never);
    assert_eq!(head.status, 429);
    assert_eq!(head.header("Retry-After"), None);
    assert_eq!(
        head.header("X-RateLimit-Reset"),
        None,
        "r = 0: no reset time exists"
    );
    assert_eq!(head.header("RateLimit"), Some("\"default\";r=2"));
}

#[test]
fn a_whole_token_short_by_rounding_counts_as_whole_in_the_headers() {
    // 0.3 − 0.2 is 0.09999999999999998 s: at 20 tokens/s that refills 1.9999999999999996 tokens,
    // which the bucket admits a request of 1 against (its rounding slack), leaving
    // 0.9999999999999996. The headers say 1 left, as the decision does, not 0.
    let config = BucketConfig::new(5.0, 20.0)
        .and_then(|c| c.with_initial_tokens(0.0))
        .unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.2).unwrap();
    let decision = bucket.try_acquire(1.0, 0.3).unwrap();
    assert!(decision.is_admitted());
    assert!(
        decision.tokens < 1.0,
        "the float itself is short: {}",
        decision.tokens
    );
    let head = ResponseHead::for_decision(&config, &decision);
    assert_eq!(head.header("X-RateLimit-Remaining"), Some("1"));
    assert_eq!(head.header("RateLimit"), Some("\"default\";r=1;t=1"));
    assert_eq!(
        head.header("X-RateLimit-Reset"),
        Some("1"),
        "4 tokens at 20/s: 0.2 s → 1"
    );
}

/// Whole seconds announced by a head: `Retry-After`, `X-RateLimit-Reset` and the `t` of `RateLimit`.
fn waits(head: &ResponseHead) -> (Option<&str>, Option<&str>, Option<&str>) {
    let next_token = head
        .header("RateLimit")
        .and_then(|value| value.split(";t=").nth(1));
    (
        head.header("Retry-After"),
        head.header("X-RateLimit-Reset"),
        next_token,
    )
}

#[test]
fn every_wait_covers_the_lag_when_now_is_behind_the_last_refill() {
    // Another app server, 3 s ahead, drained the shared bucket at t = 100; this one asks at 97.
    // Nothing drips in before 100, so the next token comes at 100.2 (3.2 s from now) and the
    // bucket is full at 102 (5 s from now): Retry-After, `t` and Reset all count the lag.
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let mut bucket = TokenBucket::started_at(config, 100.0).unwrap();
    for _ in 0..10 {
        assert!(bucket.try_acquire(1.0, 100.0).unwrap().is_admitted());
    }
    let denied = bucket.try_acquire(1.0, 97.0).unwrap();
    assert_eq!(denied.lag, 3.0, "{denied:?}");
    let head = ResponseHead::for_decision(&config, &denied);
    assert_eq!(
        waits(&head),
        (Some("4"), Some("5"), Some("4")),
        "{}",
        head.to_text()
    );
    // A client that comes back after `t` or Reset seconds finds what they promised.
    assert!(bucket.try_acquire(1.0, 97.0 + 4.0).unwrap().is_admitted());
    let mut bucket = TokenBucket::started_at(config, 100.0).unwrap();
    bucket.try_acquire(10.0, 100.0).unwrap();
    assert_eq!(
        bucket.tokens_at(97.0 + 5.0).unwrap(),
        10.0,
        "full after Reset"
    );
}

#[test]
fn an_admitted_request_behind_the_last_refill_counts_the_lag_too() {
    // 200 responses carry no Retry-After: `t` and Reset are all the client has.
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    let mut bucket = TokenBucket::started_at(config, 100.0).unwrap();
    bucket.try_acquire(5.0, 100.0).unwrap();
    let admitted = bucket.try_acquire(1.0, 97.5).unwrap();
    assert!(admitted.is_admitted());
    // 4 left; the 5th whole token at 100.2 (2.7 s), full at 101.2 (3.7 s).
    let head = ResponseHead::for_decision(&config, &admitted);
    assert_eq!(
        waits(&head),
        (None, Some("4"), Some("3")),
        "{}",
        head.to_text()
    );
}

#[test]
fn counts_beyond_u64_are_written_with_all_their_digits_never_capped() {
    // A wait of 0.5 / 1e-20 = 5·10¹⁹ s: ⌈wait⌉ exactly, not u64::MAX (≈1.8·10¹⁹), which would
    // tell the client to come back before it may.
    let config = BucketConfig::new(5.0, 1e-20)
        .unwrap()
        .with_initial_tokens(0.5)
        .unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let head = ResponseHead::for_decision(&config, &bucket.try_acquire(1.0, 0.0).unwrap());
    assert_eq!(head.header("Retry-After"), Some("50000000000000000000"));
    assert_eq!(
        head.header("X-RateLimit-Reset"),
        Some("450000000000000000000")
    );
    assert_eq!(
        head.header("RateLimit-Policy"),
        Some("\"default\";q=5;w=500000000000000000000")
    );
    assert_eq!(
        head.header("RateLimit"),
        Some("\"default\";r=0;t=50000000000000000000")
    );

    // B = 1e300: ⌊B⌋ is the double's own integer, all 301 digits, no exponent.
    let config = BucketConfig::new(1e300, 1e300).unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let head = ResponseHead::for_decision(&config, &bucket.try_acquire(1.0, 0.0).unwrap());
    let limit = head.header("X-RateLimit-Limit").unwrap();
    assert_eq!(limit.len(), 301);
    assert!(limit.starts_with("10000000000000000525047602552044202487044685811081591549158541"));
    assert!(limit.bytes().all(|b| b.is_ascii_digit()));
    assert_eq!(limit.parse::<f64>(), Ok(1e300), "the digits read back as B");
    assert_eq!(
        head.header("X-RateLimit-Remaining"),
        Some(limit),
        "1e300 − 1 is 1e300"
    );
    assert_eq!(
        head.header("RateLimit-Policy"),
        Some(format!("\"default\";q={limit};w=1").as_str())
    );

    // A wait that overflows a double (1 / 5e-324) has no honest integer: the fields are left out,
    // as with r = 0, never capped.
    let config = BucketConfig::new(5.0, 5e-324)
        .unwrap()
        .with_initial_tokens(0.0)
        .unwrap();
    let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
    let decision = bucket.try_acquire(1.0, 0.0).unwrap();
    let head = ResponseHead::for_decision(&config, &decision);
    assert_eq!(head.status, 429);
    assert_eq!(head.header("Retry-After"), None);
    assert_eq!(head.header("X-RateLimit-Reset"), None);
    assert_eq!(head.header("RateLimit"), Some("\"default\";r=0"));
}
