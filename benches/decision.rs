//! Native decision cost: the core's token bucket against the `governor` crate's `check()` on the
//! same arrival trace. `cargo bench --bench decision` prints a table and one `BENCH_JSON` line
//! that `bench/run.mjs` reads.
//!
//! Both limiters get B = 10, r = 5 per second and the same 1,000,000 arrivals (about 8 per second,
//! seeded jitter). Time is explicit for both: the core takes `now` as an argument, governor reads
//! a `FakeRelativeClock` advanced by the same gaps (its advance is part of governor's loop, as
//! reading a clock would be). Each run covers the whole trace with a fresh limiter.
//!
//! Two figures per limiter:
//! - time: the median over the runs, in nanoseconds per decision (noisy on a shared machine);
//! - instructions: counted by Valgrind's cachegrind, which is deterministic. The bench runs itself
//!   under `valgrind --tool=cachegrind` with one pass and with two passes over the trace; the
//!   difference is exactly one pass (trace generation and start-up cancel out), divided by the
//!   number of arrivals.

use bucketlab::limiter::{BucketConfig, TokenBucket};
use governor::clock::FakeRelativeClock;
use governor::{Quota, RateLimiter};
use std::hint::black_box;
use std::num::NonZeroU32;
use std::process::Command;
use std::time::{Duration, Instant};

const ARRIVALS: usize = 1_000_000;
const RUNS: usize = 9;
const CAPACITY: u32 = 10;
const RATE: u32 = 5;
/// The argument that makes the bench decide the trace `n` times and exit (run under Valgrind).
const PASSES_FLAG: &str = "--passes";

/// The arrivals, in each limiter's own time type: the core's `now` in seconds (`f64`), and for
/// governor the gaps its fake clock is advanced by, in whole nanoseconds (mean 125 ms, uniformly
/// jittered ±100 %), so both see exactly the same times. Each loop gets its time in the cheapest
/// form its API takes: the core's `now` is converted here, once (`u64` → `f64` costs about seven
/// instructions without AVX-512), and governor's `Duration::from_nanos` → nanoseconds round trip
/// folds away in its loop.
struct Trace {
    times: Vec<f64>,
    gaps: Vec<u64>,
}

fn trace() -> Trace {
    let mut rng = fastrand::Rng::with_seed(7);
    let gaps: Vec<u64> = (0..ARRIVALS)
        .map(|_| (rng.f64() * 250_000_000.0) as u64)
        .collect();
    let times = gaps
        .iter()
        .scan(0u64, |nanos, &gap| {
            *nanos += gap;
            Some(*nanos as f64 * 1e-9)
        })
        .collect();
    Trace { times, gaps }
}

fn run_core(times: &[f64]) -> (Duration, usize) {
    let config = BucketConfig::new(f64::from(CAPACITY), f64::from(RATE)).expect("valid");
    let mut bucket = TokenBucket::new(config);
    let start = Instant::now();
    let mut admitted = 0;
    for &now in times {
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

/// The limiter a Valgrind run decides with.
#[derive(Clone, Copy)]
enum Limiter {
    Core,
    Governor,
}

impl Limiter {
    fn name(self) -> &'static str {
        match self {
            Limiter::Core => "core",
            Limiter::Governor => "governor",
        }
    }

    fn run(self, trace: &Trace) -> usize {
        match self {
            Limiter::Core => run_core(&trace.times).1,
            Limiter::Governor => run_governor(&trace.gaps).1,
        }
    }
}

/// Instructions executed by this bench deciding the trace `passes` times with `limiter`, as
/// cachegrind counts them (`I refs`). `Err` says why it could not be counted.
fn instructions(limiter: Limiter, passes: u32) -> Result<u64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let output = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(exe)
        .args([PASSES_FLAG, limiter.name(), &passes.to_string()])
        .output()
        .map_err(|e| {
            format!("can't run valgrind ({e}); install it with `apt-get install valgrind`")
        })?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("valgrind failed: {}", stderr.trim()));
    }
    // "==123== I   refs:      1,234,567" (the spacing varies between Valgrind versions).
    stderr
        .lines()
        .find_map(|line| {
            let (_, rest) = line.split_once(" I ")?;
            rest.trim_start().strip_prefix("refs:")
        })
        .and_then(|count| count.trim().replace(',', "").parse().ok())
        .ok_or_else(|| format!("no `I refs` line in valgrind's output: {}", stderr.trim()))
}

/// Instructions per decision: two passes minus one pass, over the number of arrivals.
fn instructions_per_decision(limiter: Limiter) -> Result<f64, String> {
    let one = instructions(limiter, 1)?;
    let two = instructions(limiter, 2)?;
    Ok(two.saturating_sub(one) as f64 / ARRIVALS as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == PASSES_FLAG) {
        // Under Valgrind: decide the trace `passes` times, nothing else.
        let limiter = match args.get(at + 1).map(String::as_str) {
            Some("core") => Limiter::Core,
            Some("governor") => Limiter::Governor,
            other => panic!("{PASSES_FLAG} takes `core` or `governor`, got {other:?}"),
        };
        let passes: u32 = args
            .get(at + 2)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{PASSES_FLAG} {} takes a pass count", limiter.name()));
        let trace = trace();
        for _ in 0..passes {
            black_box(limiter.run(&trace));
        }
        return;
    }

    let trace = trace();
    let (mut core, mut governor) = (Vec::new(), Vec::new());
    let (mut core_admitted, mut governor_admitted) = (0, 0);
    // Alternate the two so drifts of the machine's speed hit both alike; run 0 is a warm-up.
    for run in 0..=RUNS {
        let (t, a) = run_core(&trace.times);
        let (u, b) = run_governor(&trace.gaps);
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

    let counted = instructions_per_decision(Limiter::Core)
        .and_then(|core| Ok((core, instructions_per_decision(Limiter::Governor)?)));
    let (core_ir, governor_ir) = match counted {
        Ok((core_ir, governor_ir)) => {
            println!("instructions per decision (valgrind --tool=cachegrind, same trace):");
            println!("  bucketlab core  {core_ir:>7.2}");
            println!("  governor check  {governor_ir:>7.2}");
            println!("  ratio core / governor = {:.2}", core_ir / governor_ir);
            (format!("{core_ir:.3}"), format!("{governor_ir:.3}"))
        }
        Err(why) => {
            println!("instructions per decision: not counted: {why}");
            ("null".into(), "null".into())
        }
    };
    println!(
        "BENCH_JSON {{\"coreNs\":{core:.3},\"governorNs\":{governor:.3},\"coreAdmitted\":{core_admitted},\"governorAdmitted\":{governor_admitted},\"arrivals\":{ARRIVALS},\"runs\":{RUNS},\"coreInstructions\":{core_ir},\"governorInstructions\":{governor_ir}}}"
    );
}
