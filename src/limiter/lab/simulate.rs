//! One call runs a trace through several limiters, each with its own fresh state, and returns
//! flat per-request arrays (cheap to hand to JavaScript as typed arrays) plus summary figures.

use super::{Algorithm, Quota, Verdict};

/// Outcome code of a request admitted at once.
pub const ADMITTED: u8 = 0;
/// Outcome code of a request accepted with a delay (leaky-bucket queue).
pub const DELAYED: u8 = 1;
/// Outcome code of a refused request.
pub const DENIED: u8 = 2;

/// One algorithm's results for the whole trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Which limiter.
    pub algorithm: Algorithm,
    /// Per arrival: [`ADMITTED`], [`DELAYED`] or [`DENIED`].
    pub outcomes: Vec<u8>,
    /// Per arrival: seconds until passed on (0 unless delayed; 0 for a denied request too).
    pub delays: Vec<f64>,
    /// Requests admitted at once.
    pub admitted: u32,
    /// Requests accepted with a delay.
    pub delayed: u32,
    /// Requests refused.
    pub denied: u32,
    /// The most requests passed on within any one window's span `[t, t + w)` (`w` the quota's
    /// window, as the limit counts them), counting a delayed request when it leaves the queue.
    pub peak: u32,
    /// Where that span starts (0 when nothing passed).
    pub peak_start: f64,
    /// [`super::Limiter::load`] at each sample time.
    pub samples: Vec<f64>,
}

/// The results of [`simulate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// The trace: arrival times, ascending.
    pub arrivals: Vec<f64>,
    /// Seconds between state samples; sample `i` is at `i · sample_interval`.
    pub sample_interval: f64,
    /// One lane per requested algorithm, in the order asked.
    pub lanes: Vec<Lane>,
}

/// Runs `arrivals` (ascending, in `[0, duration)`) through a fresh limiter of each algorithm,
/// sampling every limiter's load at `samples` evenly spaced times from 0 to `duration` (at least 2).
pub fn simulate(
    algorithms: &[Algorithm],
    quota: Quota,
    arrivals: Vec<f64>,
    duration: f64,
    samples: usize,
) -> Simulation {
    let samples = samples.max(2);
    let sample_interval = duration / (samples - 1) as f64;
    let lanes = algorithms
        .iter()
        .map(|&algorithm| run_lane(algorithm, quota, &arrivals, sample_interval, samples))
        .collect();
    Simulation {
        arrivals,
        sample_interval,
        lanes,
    }
}

fn run_lane(
    algorithm: Algorithm,
    quota: Quota,
    arrivals: &[f64],
    sample_interval: f64,
    sample_count: usize,
) -> Lane {
    let mut limiter = algorithm.build(quota);
    let mut outcomes = Vec::with_capacity(arrivals.len());
    let mut delays = Vec::with_capacity(arrivals.len());
    let mut passed_at = Vec::with_capacity(arrivals.len());
    let mut samples = Vec::with_capacity(sample_count);
    let (mut admitted, mut delayed, mut denied) = (0, 0, 0);
    let sample_time = |i: usize| i as f64 * sample_interval;
    for &now in arrivals {
        // The state just before this arrival is what a sample at or before `now` shows.
        while samples.len() < sample_count && sample_time(samples.len()) <= now {
            samples.push(limiter.load(sample_time(samples.len())));
        }
        let (code, delay) = match limiter.decide(now) {
            Verdict::Admitted => {
                admitted += 1;
                (ADMITTED, 0.0)
            }
            Verdict::Delayed { delay } => {
                delayed += 1;
                (DELAYED, delay)
            }
            Verdict::Denied { .. } => {
                denied += 1;
                (DENIED, 0.0)
            }
        };
        if code != DENIED {
            passed_at.push(now + delay);
        }
        outcomes.push(code);
        delays.push(delay);
    }
    while samples.len() < sample_count {
        samples.push(limiter.load(sample_time(samples.len())));
    }
    let (peak, peak_start) = peak_within(&mut passed_at, quota.window());
    Lane {
        algorithm,
        outcomes,
        delays,
        admitted,
        delayed,
        denied,
        peak,
        peak_start,
        samples,
    }
}

/// The most times in any span `[t, t + span)`, and the first such `t`: two pointers over the
/// sorted times (already sorted unless the arrivals were not). A time within the lab's slack of a
/// span's end is past it, as the algorithms decide: a queue leaking every 0.1 s sends at
/// `3.3000000000000003` and `4.3`, one second apart but for the rounding, and counts ten.
pub fn peak_within(times: &mut [f64], span: f64) -> (u32, f64) {
    if !times.is_sorted() {
        times.sort_by(f64::total_cmp);
    }
    let (mut best, mut best_start, mut first) = (0, 0.0, 0);
    for (last, &t) in times.iter().enumerate() {
        while times[first] + span <= t + super::time_slack(t) {
            first += 1;
        }
        let count = last - first + 1;
        if count > best {
            best = count;
            best_start = times[first];
        }
    }
    (best as u32, best_start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::lab::Traffic;

    #[test]
    fn the_queue_in_bursts_of_25_never_sends_more_than_its_rate() {
        // The lab's "Bursts of 25, twice a second": the queue leaks every 0.1 s, 10 a second.
        let quota = Quota::new(10, 1.0).unwrap();
        let arrivals = Traffic::burst(25.0, 0.5)
            .unwrap()
            .arrivals(quota, 5.0, 0)
            .unwrap();
        let sim = simulate(&[Algorithm::LeakyQueue], quota, arrivals, 5.0, 11);
        assert_eq!(sim.lanes[0].peak, 10);
    }

    #[test]
    fn peak_counts_half_open_spans() {
        assert_eq!(peak_within(&mut [], 1.0), (0, 0.0));
        assert_eq!(peak_within(&mut [0.0, 0.5, 1.0, 1.2, 1.4], 1.0), (4, 0.5));
        assert_eq!(peak_within(&mut [3.0, 0.0, 0.1], 1.0), (2, 0.0));
        // Eleven sends of a queue leaking every 0.1 s from 3.3, as f64 has them: the first a hair
        // above 3.3, so the eleventh, at 4.3, falls a hair inside its second; it is the next one's.
        let mut leaked: Vec<f64> = (0..=10).map(|k| 3.3 + f64::from(k) * 0.1).collect();
        leaked[0] = 3.3000000000000003;
        leaked[10] = 4.3;
        assert!(
            leaked[10] < leaked[0] + 1.0,
            "the rounding the case is about"
        );
        assert_eq!(peak_within(&mut leaked, 1.0), (10, 3.3000000000000003));
    }

    #[test]
    fn the_peak_is_counted_over_the_quotas_window() {
        // "100 a minute" attacked on its edge: the fixed window lets 2 × 100 through within one
        // window's span, the log never more than 100. Counted over one second instead, both
        // would read 17 and the boundary's double would not show.
        let quota = Quota::new(100, 60.0).unwrap();
        let arrivals = Traffic::WindowEdge.arrivals(quota, 150.0, 0).unwrap();
        let algorithms = [Algorithm::FixedWindow, Algorithm::SlidingLog];
        let sim = simulate(&algorithms, quota, arrivals, 150.0, 11);
        assert_eq!(sim.lanes[0].peak, 200);
        assert_eq!(sim.lanes[0].peak_start, 54.0);
        assert_eq!(sim.lanes[1].peak, 100);
    }

    #[test]
    fn lanes_count_every_arrival_once_and_sample_the_load() {
        let quota = Quota::new(5, 1.0).unwrap();
        let arrivals = Traffic::burst(8.0, 1.0)
            .unwrap()
            .arrivals(quota, 3.0, 0)
            .unwrap();
        let sim = simulate(&Algorithm::ALL, quota, arrivals, 3.0, 7);
        assert_eq!(sim.sample_interval, 0.5);
        for lane in &sim.lanes {
            let name = lane.algorithm.name();
            assert_eq!(lane.admitted + lane.delayed + lane.denied, 24, "{name}");
            assert_eq!(lane.outcomes.len(), 24, "{name}");
            assert_eq!(lane.samples.len(), 7, "{name}");
            assert_eq!(
                lane.samples[0], 0.0,
                "{name}: nothing used before the first request"
            );
        }
        let lane = |a: Algorithm| sim.lanes.iter().find(|l| l.algorithm == a).unwrap();
        let queue = lane(Algorithm::LeakyQueue);
        // At t = 0 one goes through at once and five wait; at t = 1 and 2 the server is still
        // busy with the previous second's last request, so all five accepted wait.
        assert_eq!((queue.admitted, queue.delayed, queue.denied), (1, 15, 8));
        assert_eq!(queue.peak, 5, "the queue's output never beats the rate");
        assert_eq!(lane(Algorithm::FixedWindow).admitted, 15);
        assert_eq!(lane(Algorithm::TokenBucket).admitted, 15);
        let bucket = lane(Algorithm::TokenBucket);
        assert_eq!(bucket.samples[1], 2.5, "at 0.5 s: 5 used, 2.5 refilled");
        assert_eq!(
            bucket.samples[2], 0.0,
            "full again at 1 s, before the next burst"
        );
    }
}
