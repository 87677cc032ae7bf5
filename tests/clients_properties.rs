//! Property tests of the retrying clients (proptest) and the herd's seeded regression: what each
//! policy promises, read back from the per-attempt events of whole runs.

// The run is parallel arrays (as handed to JavaScript): the loops read several at one index.
#![allow(clippy::needless_range_loop)]

use bucketlab::limiter::clients::{
    simulate, Backoff, Header, Metrics, Policy, Run, Scenario, Settings, ADMITTED, GAVE_UP, RETRIED,
};
use proptest::prelude::*;

fn backoff() -> impl Strategy<Value = Backoff> {
    (0.01f64..2.0, 1.0f64..4.0, 0.0f64..20.0)
        .prop_map(|(base, factor, extra)| Backoff::new(base, factor, base + extra).unwrap())
}

fn policy() -> impl Strategy<Value = Policy> {
    let header = prop_oneof![Just(Header::WholeSeconds), Just(Header::Exact)];
    prop_oneof![
        Just(Policy::Hammer),
        (0.0f64..3.0).prop_map(|wait| Policy::fixed(wait).unwrap()),
        (header, prop::option::of(backoff()))
            .prop_map(|(header, jitter)| Policy::RetryAfter { header, jitter }),
        backoff().prop_map(Policy::Exponential),
        backoff().prop_map(Policy::FullJitter),
        backoff().prop_map(Policy::Decorrelated),
    ]
}

/// Small runs of every shape: together or spread, shared or per-client buckets.
fn settings(policy: impl Strategy<Value = Policy>) -> impl Strategy<Value = Settings> {
    (
        (1u32..40, 1u32..4, prop_oneof![Just(0.0), 0.0f64..3.0]),
        (1u32..8, 0.5f64..20.0, any::<bool>()),
        (policy, 1u32..12, any::<u32>()),
    )
        .prop_map(
            |((clients, successes, spread), (capacity, rate, shared), (policy, max, seed))| {
                Settings {
                    clients,
                    successes,
                    spread,
                    capacity: f64::from(capacity),
                    rate,
                    shared,
                    policy,
                    max_attempts: max,
                    seed,
                }
            },
        )
}

fn run(settings: Settings) -> Run {
    simulate(&Scenario::new(settings).unwrap())
}

/// Per attempt: how many refusals in a row its client had just before it (k of the next wait).
fn refusals_before(run: &Run, clients: u32) -> Vec<u32> {
    let mut streak = vec![0u32; clients as usize];
    let mut out = Vec::with_capacity(run.times.len());
    for (i, &client) in run.clients.iter().enumerate() {
        let c = usize::from(client);
        out.push(streak[c]);
        streak[c] = if run.outcomes[i] == ADMITTED {
            0
        } else {
            streak[c] + 1
        };
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_hammer_never_waits(s in settings(Just(Policy::Hammer))) {
        let run = run(s);
        for i in 0..run.times.len() {
            if run.outcomes[i] == RETRIED {
                prop_assert_eq!(run.next[i], run.times[i], "attempt {}", i);
            }
        }
    }

    #[test]
    fn honouring_retry_after_never_retries_early(
        s in settings((prop_oneof![Just(Header::WholeSeconds), Just(Header::Exact)],
            prop::option::of(backoff()))
            .prop_map(|(header, jitter)| Policy::RetryAfter { header, jitter }))
    ) {
        let run = run(s);
        let Policy::RetryAfter { header, .. } = s.policy else { unreachable!() };
        for i in 0..run.times.len() {
            if run.outcomes[i] != RETRIED {
                continue;
            }
            let told = run.retry_after[i];
            let earliest = match header {
                Header::WholeSeconds => told.ceil().max(1.0),
                Header::Exact => told,
            };
            prop_assert!(run.next[i] >= run.times[i] + earliest,
                "attempt {i} at {}: told {told}, came back at {}", run.times[i], run.next[i]);
        }
    }

    #[test]
    fn full_jitter_waits_between_zero_and_the_exponential_ceiling(
        s in settings((0.01f64..2.0, 0.0f64..20.0)
            .prop_map(|(base, extra)| Policy::FullJitter(Backoff::new(base, 2.0, base + extra).unwrap())))
    ) {
        let run = run(s);
        let Policy::FullJitter(b) = s.policy else { unreachable!() };
        let streaks = refusals_before(&run, s.clients);
        for i in 0..run.times.len() {
            if run.outcomes[i] != RETRIED {
                continue;
            }
            let k = streaks[i];
            let ceiling = b.cap().min(b.base() * 2f64.powi(k as i32));
            let wait = run.next[i] - run.times[i];
            // `next` is `now + wait` rounded once: allow that rounding.
            let slack = 4.0 * f64::EPSILON * run.next[i].abs().max(1.0);
            prop_assert!((-slack..=ceiling + slack).contains(&wait),
                "attempt {i}, k = {k}: waited {wait}, ceiling {ceiling}");
        }
    }

    #[test]
    fn no_client_exceeds_max_attempts(s in settings(policy())) {
        let run = run(s);
        let streaks = refusals_before(&run, s.clients);
        let mut done = vec![false; s.clients as usize];
        for i in 0..run.times.len() {
            let c = usize::from(run.clients[i]);
            prop_assert!(!done[c], "client {c} came back after giving up");
            prop_assert!(streaks[i] < s.max_attempts, "attempt {i}: {} refusals before it", streaks[i]);
            if run.outcomes[i] == GAVE_UP {
                prop_assert_eq!(streaks[i] + 1, s.max_attempts, "gave up early at attempt {}", i);
                done[c] = true;
            }
        }
        let mut successes = vec![0u32; s.clients as usize];
        for (&o, &c) in run.outcomes.iter().zip(&run.clients) {
            successes[usize::from(c)] += u32::from(o == ADMITTED);
        }
        for (c, &got) in successes.iter().enumerate() {
            prop_assert!(got == s.successes || done[c], "client {c}: {got} successes, not given up");
        }
    }

    #[test]
    fn a_shared_bucket_admits_at_most_b_plus_rt_in_any_window(
        s in settings(policy()).prop_map(|s| Settings { shared: true, ..s })
    ) {
        let run = run(s);
        let admitted: Vec<f64> = run.times.iter().zip(&run.outcomes)
            .filter(|&(_, &o)| o == ADMITTED).map(|(&t, _)| t).collect();
        for i in 0..admitted.len() {
            for j in i..admitted.len() {
                let span = admitted[j] - admitted[i];
                let bound = s.capacity + s.rate * span + 1e-9 * (1.0 + admitted[j]);
                prop_assert!((j - i + 1) as f64 <= bound,
                    "{} admitted in [{}, {}], bound {bound}", j - i + 1, admitted[i], admitted[j]);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_run(s in settings(policy())) {
        let (a, b) = (run(s), run(s));
        prop_assert_eq!(a.times.len(), b.times.len());
        prop_assert!(a.times.iter().zip(&b.times).all(|(x, y)| x.to_bits() == y.to_bits()));
        prop_assert!(a.next.iter().zip(&b.next).all(|(x, y)| x.to_bits() == y.to_bits()));
        prop_assert_eq!(a.outcomes, b.outcomes);
    }
}

/// The herd preset's shape: 100 clients, one success each, a bucket of 10 refilled at 10/s, every
/// client honouring Retry-After (whole seconds as sent, or the exact wait), with or without a
/// jittered backoff on top.
fn herd(header: Header, spread: f64, jitter: bool) -> Settings {
    Settings {
        clients: 100,
        successes: 1,
        spread,
        capacity: 10.0,
        rate: 10.0,
        shared: true,
        policy: Policy::RetryAfter {
            header,
            jitter: jitter.then(|| Backoff::new(1.0, 2.0, 30.0).unwrap()),
        },
        max_attempts: 50,
        seed: 7,
    }
}

/// The herd's ratio of `peak` (a metric) without jitter to with it, for clients reading `header`
/// and starting over `spread` seconds; at least four. (It was five while the peak counted the
/// clients of two instants 0.1 s apart as one 100 ms wave, 1.2 − 1.1 being under 0.1 in a double:
/// 159 without jitter then, 90 now, against 20 with it when they start over 1 s.) Returns both
/// runs.
fn jitter_cuts_the_peak(
    header: Header,
    spread: f64,
    peak: fn(&Metrics) -> u32,
    what: &str,
) -> (Run, Run) {
    let (plain, jittered) = (
        run(herd(header, spread, false)),
        run(herd(header, spread, true)),
    );
    let (a, b) = (peak(&plain.metrics), peak(&jittered.metrics));
    let ratio = f64::from(a) / f64::from(b);
    eprintln!(
        "{header:?}, spread {spread} s: {what} {a} without jitter, {b} with: ratio {ratio:.2}"
    );
    assert!(
        ratio >= 4.0,
        "{header:?}, {what}: {a} without jitter, {b} with: ratio {ratio}"
    );
    (plain, jittered)
}

#[test]
fn without_jitter_the_herd_peaks_at_least_four_times_higher() {
    // Starting together, the first wave is the same for both; the retries show the herd.
    for (header, wasted) in [(Header::WholeSeconds, 1.5), (Header::Exact, 2.0)] {
        let (plain, jittered) =
            jitter_cuts_the_peak(header, 0.0, |m| m.peak_retries, "peak retries per 100 ms");
        assert!(
            plain.metrics.attempts_per_success > wasted * jittered.metrics.attempts_per_success,
            "{header:?}: wasted work: {} vs {} attempts per success",
            plain.metrics.attempts_per_success,
            jittered.metrics.attempts_per_success
        );
    }
    // Exact waits, clients starting over one second: the first attempts alone reach ~10 per
    // 100 ms. (With whole seconds the first attempts set the peak and jitter cannot lower it.)
    jitter_cuts_the_peak(Header::Exact, 1.0, |m| m.peak, "peak attempts per 100 ms");
}

#[test]
fn whole_second_herd_retries_in_waves_on_the_second() {
    // The lesson's herd: each refused client is told `Retry-After: 1`, so every retry lands on a
    // whole second, all of that second's retries at once; each wave gets that second's tokens.
    let herd = run(herd(Header::WholeSeconds, 0.0, false));
    let retry_times: Vec<f64> = (0..herd.times.len())
        .filter(|&i| herd.retries[i])
        .map(|i| herd.times[i])
        .collect();
    assert!(
        retry_times.iter().all(|t| t.fract() == 0.0),
        "{retry_times:?}"
    );
    let wave = |second: f64| retry_times.iter().filter(|&&t| t == second).count();
    assert_eq!([wave(1.0), wave(2.0), wave(3.0)], [90, 80, 70]);
    assert_eq!(herd.metrics.peak_retries, 90);
}

#[test]
fn bad_settings_are_refused_by_name_value_and_range() {
    let refused = |change: fn(&mut Settings)| {
        let mut settings = herd(Header::WholeSeconds, 0.0, false);
        change(&mut settings);
        Scenario::new(settings).unwrap_err().to_string()
    };
    type Change = fn(&mut Settings);
    let cases: [(Change, &str); 4] = [
        (
            |s| s.clients = 501,
            "clients must be a whole number from 1 to 500, got 501",
        ),
        (
            |s| s.spread = -1.0,
            "spread must be a finite number from 0 to 3600, got -1",
        ),
        (
            |s| s.max_attempts = 0,
            "maxAttempts must be a whole number from 1 to 50, got 0",
        ),
        (
            |s| s.rate = f64::NAN,
            "rate must be a finite number greater than 0 and at most 10000, got NaN",
        ),
    ];
    for (change, message) in cases {
        assert_eq!(refused(change), message);
    }
    assert_eq!(
        Backoff::new(1.0, 11.0, 5.0).unwrap_err().to_string(),
        "policy.factor must be a finite number from 1 to 10, got 11"
    );
}
