//! Native decision cost: the core's token bucket against the `governor` crate's `check()` on the
//! same arrival trace. `cargo bench --bench decision` prints a table and one `BENCH_JSON` line
//! that `bench/run.mjs` reads.
//!
//! Both limiters get B = 10, r = 5 per second and the same 1,000,000 arrivals (about 8 per second,
//! seeded jitter). Time is explicit for both: the core takes `now` as an argument, governor reads
//! a `FakeRelativeClock` advanced by the same gaps (its advance is part of governor's loop, as
//! reading a clock would be). Each run covers the whole trace with a fresh limiter; the figure is
//! the median over the runs, in nanoseconds per decision.

use bucketlab::limiter::{BucketConfig, TokenBucket};
use governor::clock::FakeRelativeClock;
use governor::{Quota, RateLimiter};
use std::hint::black_box;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

const ARRIVALS: usize = 1_000_000;
const RUNS: usize = 9;
const CAPACITY: u32 = 10;
const RATE: u32 = 5;

/// Gaps between arrivals in whole nanoseconds (so both limiters see exactly the same times):
/// mean 125 ms, uniformly jittered ±100 %.
fn trace() -> Vec<u64> {
    let mut rng = fastrand::Rng::with_seed(7);
    (0..ARRIVALS)
        .map(|_| (rng.f64() * 250_000_000.0) as u64)
        .collect()
}

fn run_core(gaps: &[u64]) -> (Duration, usize) {
    let config = BucketConfig::new(f64::from(CAPACITY), f64::from(RATE)).expect("valid");
    let mut bucket = TokenBucket::new(config);
    let start = Instant::now();
    let mut nanos = 0u64;
    let mut admitted = 0;
    for &gap in gaps {
        nanos += gap;
        let now = nanos as f64 * 1e-9;
        if let Ok(decision) = bucket.try_acquire(1.0, black_box(now)) {
            admitted += usize::from(decision.is_admitted());
        }
    }
    (start.elapsed(), admitted)
}

fn run_governor(gaps: &[u64]) -> (Duration, usize) {
    let clock = FakeRelativeClock::default();
    let quota = Quota::per_second(NonZeroU32::new(RATE).expect("non-zero"))
        .allow_burst(NonZeroU32::new(CAPACITY).expect("non-zero"));
    let limiter = RateLimiter::direct_with_clock(quota, clock.clone());
    let start = Instant::now();
    let mut admitted = 0;
    for &gap in gaps {
        clock.advance(Duration::from_nanos(black_box(gap)));
        admitted += usize::from(limiter.check().is_ok());
    }
    (start.elapsed(), admitted)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let gaps = trace();
    let (mut core, mut governor) = (Vec::new(), Vec::new());
    let (mut core_admitted, mut governor_admitted) = (0, 0);
    // Alternate the two so drifts of the machine's speed hit both alike; run 0 is a warm-up.
    for run in 0..=RUNS {
        let (t, a) = run_core(&gaps);
        let (u, b) = run_governor(&gaps);
        if run > 0 {
            core.push(t.as_nanos() as f64 / ARRIVALS as f64);
            governor.push(u.as_nanos() as f64 / ARRIVALS as f64);
        }
        (core_admitted, governor_admitted) = (a, b);
    }
    let (core, governor) = (median(core), median(governor));
    println!(
        "decision cost, {ARRIVALS} arrivals, B = {CAPACITY}, r = {RATE}/s, median of {RUNS} runs:"
    );
    println!("  bucketlab core  {core:>7.2} ns/decision  admitted {core_admitted}");
    println!("  governor check  {governor:>7.2} ns/decision  admitted {governor_admitted}");
    println!("  ratio core / governor = {:.2}", core / governor);
    println!(
        "BENCH_JSON {{\"coreNs\":{core:.3},\"governorNs\":{governor:.3},\"coreAdmitted\":{core_admitted},\"governorAdmitted\":{governor_admitted},\"arrivals\":{ARRIVALS},\"runs\":{RUNS}}}"
    );
}
