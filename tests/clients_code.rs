//! The lesson's Rust retry loop (lesson/code/clients/retry.rs) against the simulation's policy
//! "Retry-After plus full jitter": the same seed gives the same waits, so a client written from the
//! lesson's code behaves as the simulated ones do.

#[path = "../lesson/code/clients/retry.rs"]
mod retry;

use bucketlab::limiter::clients::{
    client_rng, simulate, Backoff, Header, Policy, Scenario, Settings, ADMITTED, GAVE_UP,
};
use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
use std::cell::{Cell, RefCell};

/// One client, three successes, from a bucket of 1 refilled every 2 s: every request after the
/// first is refused a few times.
fn settings(factor: f64, seed: u32) -> Settings {
    Settings {
        clients: 1,
        successes: 3,
        spread: 0.0,
        capacity: 1.0,
        rate: 0.5,
        shared: true,
        policy: Policy::RetryAfter {
            header: Header::Exact,
            jitter: Some(Backoff::new(0.25, factor, 4.0).unwrap()),
        },
        max_attempts: 6,
        seed,
    }
}

#[test]
fn the_lesson_wait_is_the_simulated_wait_bit_for_bit() {
    for (factor, seed) in [(2.0, 1), (2.0, 77), (3.0, 5)] {
        let ours = retry::Backoff {
            base: 0.25,
            factor,
            cap: 4.0,
            max_attempts: 6,
        };
        let policy = settings(factor, seed).policy;
        let (mut a, mut b) = (client_rng(seed, 0), client_rng(seed, 0));
        for k in 0..8 {
            let told = 0.1 + f64::from(k) * 0.7;
            let lesson = ours.wait(k, told, &mut a);
            let simulated = policy.wait(k, told, 0.0, &mut b);
            assert_eq!(
                lesson.to_bits(),
                simulated.to_bits(),
                "factor {factor}, seed {seed}, k {k}: {lesson} vs {simulated}"
            );
        }
    }
}

#[test]
fn the_lesson_loop_retries_when_the_simulated_client_does() {
    for (factor, seed) in [(2.0, 1), (2.0, 77), (3.0, 5)] {
        let sim = simulate(&Scenario::new(settings(factor, seed)).unwrap());
        assert!(
            sim.outcomes.iter().filter(|&&o| o != ADMITTED).count() >= 2,
            "factor {factor}, seed {seed}: the case must retry"
        );
        let backoff = retry::Backoff {
            base: 0.25,
            factor,
            cap: 4.0,
            max_attempts: 6,
        };
        let bucket = RefCell::new(TokenBucket::new(BucketConfig::new(1.0, 0.5).unwrap()));
        let now = Cell::new(0.0);
        let times = RefCell::new(Vec::new());
        let mut rng = client_rng(seed, 0);
        for _ in 0..3 {
            let result = retry::with_retries(
                &backoff,
                &mut rng,
                || {
                    times.borrow_mut().push(now.get());
                    match bucket
                        .borrow_mut()
                        .try_acquire(1.0, now.get())
                        .unwrap()
                        .outcome
                    {
                        Outcome::Denied { retry_after } => retry::Answer::TooMany { retry_after },
                        _ => retry::Answer::Done(()),
                    }
                },
                |wait| now.set(now.get() + wait.as_secs_f64()),
            );
            assert!(result.is_ok(), "factor {factor}, seed {seed}: gave up");
        }
        let times = times.into_inner();
        assert_eq!(
            times.len(),
            sim.times.len(),
            "factor {factor}, seed {seed}: attempts"
        );
        assert!(sim.outcomes.iter().all(|&o| o != GAVE_UP));
        for (i, (&ours, &simulated)) in times.iter().zip(&sim.times).enumerate() {
            // The loop sleeps a Duration, whole nanoseconds: the simulation's times, to the nanosecond.
            assert!(
                (ours - simulated).abs() <= 1e-9 * (i + 1) as f64,
                "factor {factor}, seed {seed}, attempt {i}: {ours} vs {simulated}"
            );
        }
    }
}

#[test]
fn retry_after_reads_seconds_and_http_dates() {
    use std::time::{Duration, SystemTime};
    // Wed, 21 Oct 2015 07:28:00 GMT
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
    let date = "Wed, 21 Oct 2015 07:28:00 GMT";
    let cases = [
        (Some("3"), now, 3.0),
        (Some(" 120 "), now, 120.0),
        (Some(date), now - Duration::from_millis(2_500), 2.5),
        (Some(date), now + Duration::from_secs(5), 0.0),
        (Some("soon"), now, 1.0),
        (Some("-1"), now, 1.0),
        // RFC 9110's delay-seconds is digits only: no sign, no point, no exponent.
        (Some("+5"), now, 1.0),
        (Some("5.0"), now, 1.0),
        (Some("1e3"), now, 1.0),
        (None, now, 1.0),
        // However many digits: what the project's server sends for a wait past 2³² or 2⁶⁴ s
        // (docs/semantics.md), as the JavaScript and Python samples read it.
        (Some("4294967296"), now, 4_294_967_296.0),
        (Some("50000000000000000000"), now, 5e19),
    ];
    for (value, at, wait) in cases {
        assert_eq!(retry::retry_after_seconds(value, at), wait, "{value:?}");
    }
    let nines = "9".repeat(400);
    assert_eq!(
        retry::retry_after_seconds(Some(&nines), now),
        f64::INFINITY,
        "400 nines"
    );
}

#[test]
fn a_wait_too_long_for_a_duration_sleeps_the_longest_one() {
    let backoff = retry::Backoff {
        base: 1.0,
        factor: 2.0,
        cap: 30.0,
        max_attempts: 2,
    };
    for retry_after in [5e19, f64::INFINITY] {
        let mut slept = Vec::new();
        let mut answers = vec![
            retry::Answer::Done(()),
            retry::Answer::TooMany { retry_after },
        ];
        let result = retry::with_retries(
            &backoff,
            &mut fastrand::Rng::with_seed(1),
            || answers.pop().unwrap(),
            |wait| slept.push(wait),
        );
        assert_eq!(result, Ok(()), "retry_after {retry_after}");
        assert_eq!(
            slept,
            [std::time::Duration::MAX],
            "retry_after {retry_after}"
        );
    }
}
