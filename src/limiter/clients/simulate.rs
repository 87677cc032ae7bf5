//! The client–server run: N clients, each wanting M successful requests, against one shared token
//! bucket (or one bucket each), retrying after every 429 by their policy. One call returns flat
//! per-attempt arrays (cheap to hand to JavaScript as typed arrays) and the run's metrics.

use super::{ClientField, Policy};
use crate::limiter::lab::peak_within;
use crate::limiter::{BucketConfig, Field, InvalidValue, Outcome, Rule, TokenBucket};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Outcome code of an attempt the server admitted.
pub const ADMITTED: u8 = 0;
/// Outcome code of a refused attempt after which the client tries again.
pub const RETRIED: u8 = 1;
/// Outcome code of a refused attempt after which the client gives up (its last allowed attempt).
pub const GAVE_UP: u8 = 2;

/// The most clients in one run.
pub const MAX_CLIENTS: u32 = 500;
/// The most successful requests each client may want.
pub const MAX_SUCCESSES: u32 = 50;
/// The highest limit on attempts per request.
pub const MAX_ATTEMPTS: u32 = 50;
/// The longest span over which clients may start, in seconds.
pub const MAX_SPREAD: f64 = 3_600.0;
/// The largest bucket and the fastest refill, tokens and tokens per second.
pub const MAX_BUCKET: f64 = 10_000.0;
/// The span of the server's peak load, in seconds: 100 ms.
pub const PEAK_SPAN: f64 = 0.1;

/// A run's settings, before they are checked by [`Scenario::new`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// How many clients (1..=500).
    pub clients: u32,
    /// Successful requests each client wants, one after another (1..=50).
    pub successes: u32,
    /// Client `i` starts at `i · spread / clients` seconds: 0 starts them all together.
    pub spread: f64,
    /// The bucket's capacity `B` (whole, 1..=10 000), full at the start.
    pub capacity: f64,
    /// The bucket's refill rate `r`, tokens per second (in `(0, 10 000]`).
    pub rate: f64,
    /// One bucket shared by every client (one API key), or one bucket per client.
    pub shared: bool,
    /// What every client does after a refusal.
    pub policy: Policy,
    /// Attempts allowed per request (1..=50); a client refused that many times in a row gives up.
    pub max_attempts: u32,
    /// The seed of the clients' random draws (jitter only).
    pub seed: u32,
}

/// Settings that passed every check: only these can be simulated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scenario(Settings);

fn check(field: ClientField, value: f64, rule: Rule) -> Result<f64, InvalidValue> {
    InvalidValue::check(Field::Clients(field), value, rule)
}

impl Scenario {
    /// Checks every setting, naming the first one out of range.
    pub fn new(settings: Settings) -> Result<Self, InvalidValue> {
        use ClientField as F;
        let whole = |field, value: u32, max| check(field, f64::from(value), Rule::Whole(1, max));
        whole(F::Clients, settings.clients, MAX_CLIENTS)?;
        whole(F::Successes, settings.successes, MAX_SUCCESSES)?;
        whole(F::MaxAttempts, settings.max_attempts, MAX_ATTEMPTS)?;
        check(F::Spread, settings.spread, Rule::UpTo(MAX_SPREAD))?;
        check(
            F::Capacity,
            settings.capacity,
            Rule::Whole(1, MAX_BUCKET as u32),
        )?;
        check(F::Rate, settings.rate, Rule::PositiveUpTo(MAX_BUCKET))?;
        Ok(Scenario(settings))
    }

    /// The checked settings.
    pub fn settings(&self) -> &Settings {
        &self.0
    }

    fn bucket(&self) -> TokenBucket {
        // Checked above: a whole capacity ≥ 1 and a finite rate > 0 always make a bucket.
        let config = BucketConfig::new(self.0.capacity, self.0.rate)
            .expect("checked settings make a valid bucket");
        TokenBucket::new(config)
    }
}

/// A run's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Every attempt the server saw.
    pub attempts: u32,
    /// Attempts it admitted.
    pub successes: u32,
    /// Attempts per success: 1 is no wasted work (infinite when nothing succeeded).
    pub attempts_per_success: f64,
    /// The share of attempts answered 429, from 0 to 1.
    pub denied_share: f64,
    /// Clients that gave up before their last success.
    pub gave_up: u32,
    /// Seconds from the start (t = 0) until a client's last success: median, 95th percentile
    /// (nearest rank) and longest, over the clients that finished (NaN when none did).
    pub finish_p50: f64,
    /// See [`Metrics::finish_p50`].
    pub finish_p95: f64,
    /// See [`Metrics::finish_p50`].
    pub finish_max: f64,
    /// The most attempts within any span `[t, t + 0.1 s)` at the server, and that `t`.
    pub peak: u32,
    /// Where [`Metrics::peak`]'s span starts.
    pub peak_start: f64,
    /// The same for retries only (first attempts of each request left out): the biggest wave.
    pub peak_retries: u32,
}

/// The results of [`simulate`]: one entry per attempt, in the order the server saw them.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// When each attempt reached the server, ascending.
    pub times: Vec<f64>,
    /// Which client sent it (0-based).
    pub clients: Vec<u16>,
    /// [`ADMITTED`], [`RETRIED`] or [`GAVE_UP`].
    pub outcomes: Vec<u8>,
    /// Whether it retried a refused request (false for a request's first attempt).
    pub retries: Vec<bool>,
    /// The exact `Retry-After` the server gave with a refusal, in seconds; NaN when admitted.
    pub retry_after: Vec<f64>,
    /// When that client attempts next (a retry, or its next request after a success), NaN when
    /// it never does (done or gave up).
    pub next: Vec<f64>,
    /// Per client: when its last success came, NaN if it gave up.
    pub finish: Vec<f64>,
    /// The figures.
    pub metrics: Metrics,
}

/// One client's state between attempts.
struct Client {
    rng: fastrand::Rng,
    wanted: u32,
    tries: u32,
    previous: f64,
}

/// The next attempt of one client: earliest time first, then first scheduled.
#[derive(PartialEq)]
struct Due {
    at: f64,
    order: u64,
    client: u16,
}

impl Eq for Due {}

impl Ord for Due {
    fn cmp(&self, other: &Self) -> Ordering {
        self.at
            .total_cmp(&other.at)
            .then(self.order.cmp(&other.order))
    }
}

impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The generator of client `index` for `seed`: each client draws from its own stream, so its
/// waits don't depend on the order the server happens to see the others.
pub fn client_rng(seed: u32, index: u32) -> fastrand::Rng {
    fastrand::Rng::with_seed((u64::from(seed) << 16) | u64::from(index))
}

/// Runs the scenario to the end: every client finishes or gives up.
pub fn simulate(scenario: &Scenario) -> Run {
    let s = *scenario.settings();
    let n = s.clients as usize;
    let mut shared = scenario.bucket();
    let mut own: Vec<TokenBucket> = if s.shared {
        Vec::new()
    } else {
        (0..n).map(|_| scenario.bucket()).collect()
    };
    let mut clients: Vec<Client> = (0..s.clients)
        .map(|i| Client {
            rng: client_rng(s.seed, i),
            wanted: s.successes,
            tries: 0,
            previous: 0.0,
        })
        .collect();
    let mut queue = BinaryHeap::with_capacity(n);
    let mut order = 0u64;
    for i in 0..n {
        let at = i as f64 * s.spread / n as f64;
        queue.push(Reverse(Due {
            at,
            order,
            client: i as u16,
        }));
        order += 1;
    }
    let expected = n * s.successes as usize * 2;
    let mut run = Run {
        times: Vec::with_capacity(expected),
        clients: Vec::with_capacity(expected),
        outcomes: Vec::with_capacity(expected),
        retries: Vec::with_capacity(expected),
        retry_after: Vec::with_capacity(expected),
        next: Vec::with_capacity(expected),
        finish: vec![f64::NAN; n],
        metrics: empty_metrics(),
    };
    while let Some(Reverse(due)) = queue.pop() {
        let index = usize::from(due.client);
        let now = due.at;
        let bucket = if s.shared {
            &mut shared
        } else {
            &mut own[index]
        };
        let client = &mut clients[index];
        client.tries += 1;
        run.retries.push(client.tries > 1);
        let outcome = bucket.try_acquire(1.0, now).map(|d| d.outcome);
        let told = match outcome {
            Ok(Outcome::Denied { retry_after }) => retry_after,
            _ => f64::NAN,
        };
        let (code, next) = match outcome {
            Ok(Outcome::Admitted) => {
                client.wanted -= 1;
                client.tries = 0;
                client.previous = 0.0;
                if client.wanted == 0 {
                    run.finish[index] = now;
                    (ADMITTED, f64::NAN)
                } else {
                    (ADMITTED, now)
                }
            }
            Ok(Outcome::Denied { retry_after }) if client.tries < s.max_attempts => {
                let wait = s.policy.wait(
                    client.tries - 1,
                    retry_after,
                    client.previous,
                    &mut client.rng,
                );
                client.previous = wait;
                (RETRIED, now + wait)
            }
            // The last allowed attempt refused (or, impossibly with cost 1 ≤ B and r > 0, a
            // request that could never pass): the client stops.
            _ => (GAVE_UP, f64::NAN),
        };
        if !next.is_nan() {
            queue.push(Reverse(Due {
                at: next,
                order,
                client: due.client,
            }));
            order += 1;
        }
        run.times.push(now);
        run.clients.push(due.client);
        run.outcomes.push(code);
        run.retry_after.push(told);
        run.next.push(next);
    }
    run.metrics = metrics(&run);
    run
}

fn empty_metrics() -> Metrics {
    Metrics {
        attempts: 0,
        successes: 0,
        attempts_per_success: f64::NAN,
        denied_share: 0.0,
        gave_up: 0,
        finish_p50: f64::NAN,
        finish_p95: f64::NAN,
        finish_max: f64::NAN,
        peak: 0,
        peak_start: 0.0,
        peak_retries: 0,
    }
}

/// The figures of a finished run.
fn metrics(run: &Run) -> Metrics {
    let attempts = run.outcomes.len() as u32;
    let successes = run.outcomes.iter().filter(|&&o| o == ADMITTED).count() as u32;
    let gave_up = run.outcomes.iter().filter(|&&o| o == GAVE_UP).count() as u32;
    let mut finished: Vec<f64> = run.finish.iter().copied().filter(|t| !t.is_nan()).collect();
    finished.sort_by(f64::total_cmp);
    let rank = |p: f64| -> f64 {
        if finished.is_empty() {
            return f64::NAN;
        }
        let at = (p * finished.len() as f64).ceil() as usize;
        finished[at.clamp(1, finished.len()) - 1]
    };
    let mut times = run.times.clone();
    let (peak, peak_start) = peak_within(&mut times, PEAK_SPAN);
    let mut retry_times: Vec<f64> = run
        .times
        .iter()
        .zip(&run.retries)
        .filter(|(_, &retry)| retry)
        .map(|(&t, _)| t)
        .collect();
    let (peak_retries, _) = peak_within(&mut retry_times, PEAK_SPAN);
    Metrics {
        attempts,
        successes,
        attempts_per_success: f64::from(attempts) / f64::from(successes),
        denied_share: if attempts == 0 {
            0.0
        } else {
            f64::from(attempts - successes) / f64::from(attempts)
        },
        gave_up,
        finish_p50: rank(0.5),
        finish_p95: rank(0.95),
        finish_max: finished.last().copied().unwrap_or(f64::NAN),
        peak,
        peak_start,
        peak_retries,
    }
}
