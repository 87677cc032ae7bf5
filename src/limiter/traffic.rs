//! Automatic traffic: arrival times at a steady rate or as a seeded Poisson process, and the one
//! sampler of Poisson gaps that the lab's traffic uses too.

use super::error::{Field, InvalidValue, Rule};

/// How requests arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Evenly spaced, `1 / rate` seconds apart.
    Steady,
    /// Random, exponential gaps with mean `1 / rate` (a Poisson process), from a seed.
    Poisson,
}

/// The fastest automatic traffic the lesson generates, in requests per second.
pub const MAX_TRAFFIC_RATE: f64 = 50.0;

/// An endless stream of arrival times; the same seed gives the same stream on every platform.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrivals {
    pattern: Pattern,
    rate: f64,
    seed: u64,
    next: f64,
    rng: fastrand::Rng,
}

impl Arrivals {
    /// Arrivals at `rate` per second (finite, in `(0, 50]`) from time `start` on.
    pub fn new(pattern: Pattern, rate: f64, seed: u64, start: f64) -> Result<Self, InvalidValue> {
        let rate = InvalidValue::check(
            Field::TrafficRate,
            rate,
            Rule::PositiveUpTo(MAX_TRAFFIC_RATE),
        )?;
        let start = InvalidValue::check(Field::Now, start, Rule::Finite)?;
        let mut arrivals = Arrivals {
            pattern,
            rate,
            seed,
            next: start,
            rng: fastrand::Rng::with_seed(seed),
        };
        arrivals.next = start + arrivals.gap();
        Ok(arrivals)
    }

    /// What it was started with: pattern, rate and seed.
    pub fn settings(&self) -> (Pattern, f64, u64) {
        (self.pattern, self.rate, self.seed)
    }

    /// Removes and returns the next arrival if it is at or before `until`.
    pub fn next_until(&mut self, until: f64) -> Option<f64> {
        (self.next <= until).then(|| {
            let at = self.next;
            self.next += self.gap();
            at
        })
    }

    fn gap(&mut self) -> f64 {
        match self.pattern {
            Pattern::Steady => 1.0 / self.rate,
            Pattern::Poisson => exponential_gap(&mut self.rng, self.rate),
        }
    }
}

/// The gap before the next arrival of a Poisson process of `rate` per second: an exponential
/// draw with mean `1 / rate`, by the inverse CDF (`1 − u` is in `(0, 1]`, so the logarithm is
/// finite). The logarithm is the pure-Rust `libm`'s rather than the platform's maths library,
/// whose last bit may differ, so a seed gives the same times to the bit natively and in wasm.
pub(crate) fn exponential_gap(rng: &mut fastrand::Rng, rate: f64) -> f64 {
    -libm::log(1.0 - rng.f64()) / rate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(arrivals: &mut Arrivals, until: f64) -> Vec<f64> {
        std::iter::from_fn(|| arrivals.next_until(until)).collect()
    }

    #[test]
    fn steady_traffic_is_evenly_spaced() {
        let mut a = Arrivals::new(Pattern::Steady, 4.0, 0, 10.0).unwrap();
        assert_eq!(take(&mut a, 11.0), vec![10.25, 10.5, 10.75, 11.0]);
        assert_eq!(take(&mut a, 11.1), Vec::<f64>::new());
    }

    #[test]
    fn poisson_traffic_repeats_for_a_seed_and_averages_its_rate() {
        let mut a = Arrivals::new(Pattern::Poisson, 5.0, 42, 0.0).unwrap();
        let mut b = Arrivals::new(Pattern::Poisson, 5.0, 42, 0.0).unwrap();
        let first = take(&mut a, 2_000.0);
        assert_eq!(first, take(&mut b, 2_000.0));
        let per_second = first.len() as f64 / 2_000.0;
        assert!((per_second - 5.0).abs() < 0.25, "mean rate {per_second}");
        assert!(first.windows(2).all(|w| w[0] <= w[1]));
        let mut c = Arrivals::new(Pattern::Poisson, 5.0, 43, 0.0).unwrap();
        assert_ne!(
            first[..10],
            take(&mut c, 2_000.0)[..10],
            "another seed, another stream"
        );
    }

    #[test]
    fn rates_are_checked() {
        assert!(Arrivals::new(Pattern::Steady, 0.0, 0, 0.0).is_err());
        let err = Arrivals::new(Pattern::Steady, 51.0, 0, 0.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "traffic_rate must be a finite number greater than 0 and at most 50, got 51"
        );
        assert!(Arrivals::new(Pattern::Poisson, f64::NAN, 0, 0.0).is_err());
    }
}
