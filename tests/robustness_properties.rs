//! No panics on any input (proptest, 10,000 cases each): config parsing and checking, the core's
//! API with arbitrary `f64` (NaN, ±∞, −0, subnormals, huge), the lesson clock and the automatic
//! traffic, and the lab's simulation inputs, pasted text included. Each property also checks that
//! what was accepted is within the rule and that what was refused names its field.

use bucketlab::limiter::lab::{
    check_duration, parse_timestamps_before, simulate, Algorithm, Quota, Traffic,
};
use bucketlab::limiter::{
    Arrivals, BucketConfig, Field, Given, InvalidValue, Pattern, Rule, SimClock, TokenBucket,
};
use proptest::prelude::*;

const CASES: u32 = 10_000;

/// Any `f64` a caller could pass: proptest's full range (normal, subnormal, ±0, ±∞, NaN), the
/// named special values, and ordinary small numbers (so that some calls get past the checks).
fn any_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        2 => any::<f64>(),
        1 => prop::sample::select(vec![
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, f64::MIN_POSITIVE,
            5e-324, -5e-324, 1e308, -1e308, f64::MAX, f64::MIN, f64::EPSILON, 1.0, -1.0,
        ]),
        3 => -2.0f64..50.0,
        1 => (0u32..60).prop_map(f64::from),
    ]
}

/// Text as typed into an attribute, a URL or a field: number-like strings, markup, mixed junk.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ 0-9.,eE+-]{0,12}",
        "(-?[0-9]{0,3}[.,]?[0-9]{0,3}(e-?[0-9]{1,3})?|inf|-inf|NaN|Infinity|infinity|nan|0x10|1_000)",
        any::<f64>().prop_map(|v| v.to_string()),
        "\\PC{0,30}",
        Just("<img src=x onerror=\"window.__pwned=1\">".to_owned()),
        Just("javascript:alert(1)".to_owned()),
    ]
}

fn any_field() -> impl Strategy<Value = Field> {
    prop::sample::select(vec![
        Field::Capacity,
        Field::RefillRate,
        Field::Tokens,
        Field::Cost,
        Field::Now,
        Field::Speed,
        Field::Step,
        Field::TrafficRate,
        Field::BurstSize,
        Field::Seed,
    ])
}

fn any_rule() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Positive),
        Just(Rule::NonNegative),
        Just(Rule::Finite),
        any_number().prop_map(Rule::UpTo),
        any_number().prop_map(Rule::PositiveUpTo),
        (any_number(), any_number()).prop_map(|(a, b)| Rule::Between(a, b)),
        (any::<u32>(), any::<u32>()).prop_map(|(a, b)| Rule::Whole(a.min(b), a.max(b))),
    ]
}

/// Whether `value` satisfies `rule`, written out independently of `InvalidValue::check`.
fn allowed(value: f64, rule: Rule) -> bool {
    value.is_finite()
        && match rule {
            Rule::Positive => value > 0.0,
            Rule::NonNegative => value >= 0.0,
            Rule::Finite => true,
            Rule::UpTo(max) => value >= 0.0 && value <= max,
            Rule::PositiveUpTo(max) => value > 0.0 && value <= max,
            Rule::Between(min, max) => value >= min && value <= max,
            Rule::Whole(min, max) => {
                value.trunc() == value && value >= f64::from(min) && value <= f64::from(max)
            }
        }
}

/// A refusal's message names the field and says what was given.
fn check_message(err: &InvalidValue, field: Field) -> Result<(), TestCaseError> {
    prop_assert_eq!(err.field, field);
    let message = err.to_string();
    prop_assert!(message.starts_with(field.name()), "{}", message);
    prop_assert!(
        message.contains(" must be ") && message.contains(", "),
        "{}",
        message
    );
    let js = err.js_message();
    prop_assert!(js.starts_with(field.js_name()), "{}", js);
    // A quoted text is cut, so a huge value can't make a huge message.
    prop_assert!(
        message.chars().count() < 250,
        "{} chars",
        message.chars().count()
    );
    Ok(())
}

/// The lab's traffic from arbitrary settings: one of each kind.
fn any_traffic() -> impl Strategy<Value = Result<Traffic, InvalidValue>> {
    prop_oneof![
        any_number().prop_map(Traffic::steady),
        any_number().prop_map(Traffic::poisson),
        (any_number(), any_number()).prop_map(|(size, every)| Traffic::burst(size, every)),
        (any_number(), any_number()).prop_map(|(from, to)| Traffic::ramp(from, to)),
        Just(Ok(Traffic::WindowEdge)),
    ]
}

fn any_algorithms() -> impl Strategy<Value = Vec<Algorithm>> {
    prop::sample::subsequence(
        vec![
            Algorithm::FixedWindow,
            Algorithm::SlidingLog,
            Algorithm::SlidingCounter,
            Algorithm::TokenBucket,
            Algorithm::LeakyMeter,
            Algorithm::LeakyQueue,
            Algorithm::Gcra,
        ],
        0..=7,
    )
}

/// Pasted traffic: lines of numbers (some out of order, negative, huge, with commas) and junk.
fn any_paste() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => (0.0f64..20.0).prop_map(|t| format!("{t:.3}")),
            1 => (0.0f64..20.0).prop_map(|t| format!("{t:.2}").replace('.', ",")),
            1 => any_text(),
            1 => Just(String::new()),
        ],
        0..40,
    )
    .prop_map(|lines| lines.join("\n"))
}

/// Caps the work of one case: a run with more arrivals than this is generated but not simulated.
const SIMULATED_ARRIVALS: usize = 300;

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    /// `InvalidValue::parse` and `check`: any text, any number, any rule.
    #[test]
    fn parsing_and_checking_never_panic(field in any_field(), text in any_text(), value in any_number(), rule in any_rule()) {
        match InvalidValue::parse(field, &text, rule) {
            Ok(parsed) => prop_assert!(allowed(parsed, rule), "{:?} accepted {} under {:?}", text, parsed, rule),
            Err(err) => {
                check_message(&err, field)?;
                if let Given::Text(given) = &err.given {
                    prop_assert_eq!(given, &text);
                }
            }
        }
        match InvalidValue::check(field, value, rule) {
            Ok(checked) => {
                prop_assert!(allowed(value, rule));
                prop_assert_eq!(checked.to_bits(), value.to_bits(), "returned unchanged, not clamped");
            }
            Err(err) => {
                prop_assert!(!allowed(value, rule), "{} refused under {:?}", value, rule);
                check_message(&err, field)?;
            }
        }
    }

    /// `BucketConfig::new` and `with_initial_tokens`: accepted values come back unchanged,
    /// refused ones are named.
    #[test]
    fn bucket_configs_never_panic(capacity in any_number(), rate in any_number(), tokens in any_number()) {
        match BucketConfig::new(capacity, rate) {
            Ok(config) => {
                prop_assert!(allowed(capacity, Rule::Positive) && allowed(rate, Rule::NonNegative));
                prop_assert_eq!((config.capacity(), config.refill_rate()), (capacity, rate));
                match config.with_initial_tokens(tokens) {
                    Ok(filled) => prop_assert_eq!(filled.initial_tokens(), tokens),
                    Err(err) => {
                        prop_assert!(!allowed(tokens, Rule::UpTo(capacity)));
                        check_message(&err, Field::Tokens)?;
                    }
                }
            }
            Err(err) => {
                let field = if allowed(capacity, Rule::Positive) { Field::RefillRate } else { Field::Capacity };
                check_message(&err, field)?;
            }
        }
    }

    /// The bucket with arbitrary costs and times: every answer is an error naming the field or a
    /// decision with 0 ≤ tokens ≤ B and a finite, non-negative wait (or none).
    #[test]
    fn the_bucket_never_panics(
        capacity in any_number(), rate in any_number(), start in any_number(),
        calls in prop::collection::vec((any_number(), any_number(), any_number(), 0u8..4), 1..12),
    ) {
        let config = BucketConfig::new(capacity, rate).unwrap_or_else(|_| BucketConfig::new(10.0, 5.0).unwrap());
        let mut bucket = match TokenBucket::started_at(config, start) {
            Ok(bucket) => bucket,
            Err(err) => { check_message(&err, Field::Now)?; TokenBucket::new(config) }
        };
        for (cost, now, other, op) in calls {
            let b = bucket.config().capacity();
            match op {
                0 | 1 => match bucket.try_acquire(cost, now) {
                    Ok(d) => {
                        prop_assert!(d.tokens >= 0.0 && d.tokens <= b, "tokens {} outside [0, {}]", d.tokens, b);
                        prop_assert!(d.available >= 0.0 && d.available <= b);
                        if let Some(wait) = d.retry_after() {
                            prop_assert!(wait >= 0.0 && !wait.is_nan(), "retry_after {}", wait);
                        }
                        let headers = bucketlab::limiter::ResponseHead::for_decision(bucket.config(), &d);
                        prop_assert!(!headers.to_text().is_empty());
                    }
                    Err(err) => prop_assert!(err.field == Field::Cost || err.field == Field::Now),
                },
                2 => match bucket.tokens_at(now) {
                    Ok(tokens) => prop_assert!((0.0..=b).contains(&tokens)),
                    Err(err) => check_message(&err, Field::Now)?,
                },
                _ => {
                    if let Ok(next) = BucketConfig::new(cost, other) {
                        if bucket.reconfigure(next, now).is_ok() {
                            prop_assert!(bucket.tokens_at(now).unwrap() <= next.capacity());
                        }
                    }
                }
            }
        }
        let _ = bucketlab::limiter::retry_after_seconds(start);
    }

    /// The lesson clock and the automatic traffic with arbitrary speeds, steps, rates and seeds.
    #[test]
    fn the_clock_and_the_traffic_never_panic(
        speed in any_number(), step in any_number(), wall in any_number(),
        rate in any_number(), seed in any::<u64>(), poisson in any::<bool>(), until in any_number(),
    ) {
        let mut clock = SimClock::new(0.0);
        if let Err(err) = clock.set_speed(speed, wall) { check_message(&err, Field::Speed)?; }
        if let Err(err) = clock.step(step) { check_message(&err, Field::Step)?; }
        let now = clock.now(wall.abs().min(1e6));
        prop_assert!(!now.is_nan());
        let pattern = if poisson { Pattern::Poisson } else { Pattern::Steady };
        match Arrivals::new(pattern, rate, seed, 0.0) {
            Ok(mut arrivals) => {
                // At most a few hundred arrivals per case: the cost stays small.
                let until = if until.is_finite() { until.clamp(0.0, 200.0 / rate.max(1e-9)).min(1e6) } else { 0.0 };
                let mut last = f64::NEG_INFINITY;
                while let Some(at) = arrivals.next_until(until) {
                    prop_assert!(at >= last && at <= until, "arrival {} after {}", at, last);
                    last = at;
                }
            }
            Err(err) => check_message(&err, Field::TrafficRate)?,
        }
    }

    /// The lab: any limit and window, any traffic settings, duration, seed, sample count and
    /// algorithms, and pasted text; whatever passes validation simulates without panicking.
    #[test]
    fn the_lab_never_panics(
        limit in prop_oneof![0u32..40, any::<u32>()], window in any_number(),
        traffic in any_traffic(), duration in any_number(), seed in any::<u64>(),
        samples in 0usize..300, algorithms in any_algorithms(), paste in any_paste(), pasted in any::<bool>(),
    ) {
        let Ok(quota) = Quota::new(limit, window) else { return Ok(()) };
        let traffic = if pasted {
            match parse_timestamps_before(&paste, duration.abs()) {
                Ok(times) => {
                    prop_assert!(times.windows(2).all(|w| w[0] <= w[1]) && times.iter().all(|t| t.is_finite() && *t >= 0.0));
                    Traffic::pasted(times)
                }
                Err(err) => { prop_assert!(!err.to_string().is_empty()); return Ok(()) }
            }
        } else {
            match traffic { Ok(traffic) => traffic, Err(_) => return Ok(()) }
        };
        if check_duration(duration).is_err() {
            prop_assert!(traffic.arrivals(quota, duration, seed).is_err());
            return Ok(());
        }
        // Long legal runs (up to 2,000,000 arrivals) are the benchmark's job; here a short one,
        // at most a few hundred arrivals.
        let peak_rate = match traffic {
            Traffic::Steady { rate } | Traffic::Poisson { rate } => rate * 2.0,
            Traffic::Burst { size, every } => f64::from(size) / every.min(duration),
            Traffic::Ramp { from, to } => from.max(to),
            Traffic::WindowEdge => 2.0 * f64::from(quota.limit()) / quota.window(),
            Traffic::Pasted(_) => 0.0,
        };
        let duration = duration.min(60.0).min(300.0 / peak_rate.max(1e-9));
        let Ok(arrivals) = traffic.arrivals(quota, duration, seed) else { return Ok(()) };
        prop_assert!(arrivals.iter().all(|t| t.is_finite() && *t >= 0.0 && *t < duration));
        if arrivals.len() > SIMULATED_ARRIVALS { return Ok(()) }
        let count = arrivals.len();
        let run = simulate(&algorithms, quota, arrivals, duration, samples);
        prop_assert_eq!(run.lanes.len(), algorithms.len());
        for lane in &run.lanes {
            prop_assert_eq!(lane.admitted + lane.delayed + lane.denied, count as u32);
            prop_assert_eq!(lane.samples.len(), samples.max(2));
            prop_assert!(lane.samples.iter().all(|s| s.is_finite()));
        }
    }
}
