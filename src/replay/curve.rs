//! The exact burst–rate curve: for one key's requests and a refill rate `r`, the smallest capacity
//! `B` with which a token bucket starting full admits every one of them,
//!
//! `B(r) = max over i ≤ j of (c_i + … + c_j) − r·(t_j − t_i)`,
//!
//! the most the requests of any stretch of the trace take beyond what refills meanwhile.
//!
//! It takes one pass per `r` and one number of state: the deficit `D` (what a bucket of unlimited
//! size would lack from full) after each request, `D_j = c_j + max(0, D_{j−1} − r·(t_j − t_{j−1}))`;
//! `B(r)` is the largest `D_j`. Times that go backwards count as the latest time seen, as in the
//! core's bucket, so the curve is exact for the trace the bucket actually sees.
//!
//! The curve is the core's need, not only the formula's: the bucket admits a request that is early
//! by at most its time slack (`max(1 ns, 4 ulp(now))`, worth `r` times that in tokens) and owes
//! what it was short, so request `j` needs `max(c_j, D_j − r·slack(t_j))`, the deficit staying
//! uncredited. Without that credit, a log with Unix times (where `0.3 − 0.2` after 1.7·10⁹ is
//! `0.0999999…`) asked for a hundredth more than the core's own replay does. The core's other
//! slack, `10⁻¹²·B` tokens, is not credited: it covers the rounding by which this sum and the
//! bucket's own may differ, so a capacity of `B(r)` is never short.

use crate::limiter::time_slack;

/// Mantissas of the rate grid, per decade (round numbers people write in configurations).
const MANTISSAS: [f64; 10] = [1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0];
/// Decades of the grid: 0.001 to 10 000 requests per second.
const DECADES: std::ops::RangeInclusive<i32> = -3..=3;

/// The grid's highest rate, tokens per second.
pub const TOP_RATE: f64 = 10_000.0;

/// The rates the curve is computed at, ascending: `1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8` times each
/// power of ten from 0.001 to 1 000, then 10 000 (71 rates), plus `extra` if it is positive,
/// finite and not already there.
pub fn rate_grid(extra: Option<f64>) -> Vec<f64> {
    let mut rates: Vec<f64> = DECADES
        .flat_map(|exponent| {
            MANTISSAS.into_iter().map(move |m| {
                // Dividing by an exact power of ten gives the closest double to 0.00125, which
                // prints as written; multiplying by 0.001 would not.
                if exponent < 0 {
                    m / 10f64.powi(-exponent)
                } else {
                    m * 10f64.powi(exponent)
                }
            })
        })
        .chain([TOP_RATE])
        .collect();
    if let Some(rate) = extra.filter(|r| r.is_finite() && *r > 0.0) {
        if let Err(at) = rates.binary_search_by(|r| r.total_cmp(&rate)) {
            rates.insert(at, rate);
        }
    }
    rates
}

/// One key's curve at every rate of a grid, built one request at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct BurstTracker {
    /// The latest time seen (the bucket's clock never goes back).
    latest: f64,
    /// Per rate: the current deficit `D`. Kept apart from the peaks so the update below is a
    /// plain loop over arrays, which the compiler turns into SIMD.
    deficits: Box<[f64]>,
    /// Per rate: the largest deficit so far, `B(r)`.
    peaks: Box<[f64]>,
}

impl BurstTracker {
    /// A key with no requests yet, for a grid of `rates` rates.
    pub fn new(rates: usize) -> Self {
        BurstTracker {
            latest: f64::NEG_INFINITY,
            deficits: vec![0.0; rates].into_boxed_slice(),
            peaks: vec![0.0; rates].into_boxed_slice(),
        }
    }

    /// Adds a request of `cost` at `time`; `rates` is the grid this tracker was made for.
    #[inline]
    pub fn add(&mut self, rates: &[f64], time: f64, cost: f64) {
        let elapsed = if time > self.latest && self.latest.is_finite() {
            time - self.latest
        } else {
            0.0
        };
        self.latest = self.latest.max(time);
        // The core measures the slack at the time it is given, even one before the latest.
        let slack = time_slack(time);
        let n = rates.len().min(self.deficits.len());
        let (deficits, peaks, rates) = (&mut self.deficits[..n], &mut self.peaks[..n], &rates[..n]);
        for i in 0..n {
            let left = deficits[i] - rates[i] * elapsed;
            let deficit = cost + if left > 0.0 { left } else { 0.0 };
            deficits[i] = deficit;
            // What the bucket lets in early is credited here, never more than the request's cost:
            // a bucket smaller than one request refuses it however early it comes.
            let credited = deficit - rates[i] * slack;
            let need = if credited > cost { credited } else { cost };
            peaks[i] = if need > peaks[i] { need } else { peaks[i] };
        }
    }

    /// `B(r)` at the grid's `i`-th rate, so far.
    pub fn burst(&self, i: usize) -> f64 {
        self.peaks[i]
    }

    /// `B(r)` at each rate of the grid, so far.
    pub fn bursts(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.peaks.iter().copied()
    }
}

/// `B(r)` for a whole trace of `(time, cost)` requests in arrival order.
pub fn burst_needed(trace: &[(f64, f64)], rate: f64) -> f64 {
    let mut tracker = BurstTracker::new(1);
    for &(time, cost) in trace {
        tracker.add(&[rate], time, cost);
    }
    tracker.burst(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_round_and_takes_the_asked_rate() {
        let grid = rate_grid(None);
        assert_eq!(grid.len(), 71);
        assert_eq!((grid[0], grid[1], grid[70]), (0.001, 0.00125, 10_000.0));
        assert!(grid.contains(&2.5) && grid.contains(&600.0));
        assert!(grid.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(rate_grid(Some(7.0)).len(), 72);
        assert_eq!(rate_grid(Some(2.5)).len(), 71, "already there");
        assert_eq!(
            rate_grid(Some(0.0)).len(),
            71,
            "rate 0 is not a point of the curve"
        );
    }

    #[test]
    fn the_worked_example() {
        // Ten requests at once then one every 0.2 s: at r = 5 a bucket of 10 is just enough.
        let mut trace = vec![(0.0, 1.0); 10];
        trace.extend((1..=5).map(|i| (f64::from(i) * 0.2, 1.0)));
        // Less what the core lets a request in early: 1 ns of refill at these times.
        assert!((burst_needed(&trace, 5.0) - (10.0 - 5e-9)).abs() < 1e-12);
        assert!((burst_needed(&trace, 1.0) - (14.0 - 1e-9)).abs() < 1e-12);
        // Time going back counts as no time at all (less the 1 ns the core lets a request be
        // early, 10⁻⁷ tokens at this rate).
        assert_eq!(
            burst_needed(&[(5.0, 1.0), (1.0, 1.0)], 100.0),
            2.0 - 100.0 * 1e-9
        );
        assert_eq!(burst_needed(&[], 1.0), 0.0);
    }
}
