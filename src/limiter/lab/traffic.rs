//! Traffic patterns for the lab: when requests arrive. The same pattern, quota, duration and seed
//! give the same arrival times, bit for bit, natively and in WebAssembly: the only randomness is a
//! seeded `fastrand` generator, and Poisson gaps come from the core's one sampler
//! ([`crate::limiter::traffic`]), whose logarithm is the pure-Rust `libm`.

use super::{LabField, PasteError, Quota};
use crate::limiter::traffic::exponential_gap;
use crate::limiter::{Field, InvalidValue, Rule};

/// The fastest traffic a pattern may ask for, in requests per second.
pub const MAX_RATE: f64 = 100_000.0;
/// The most arrivals one simulation may have.
pub const MAX_ARRIVALS: usize = 2_000_000;
/// The longest simulation, in seconds.
pub const MAX_DURATION: f64 = 1_000_000.0;
/// The shortest time between two bursts, in seconds.
pub const MIN_EVERY: f64 = 0.001;

/// How requests arrive. Build one with the checked constructors.
#[derive(Debug, Clone, PartialEq)]
pub enum Traffic {
    /// Evenly spaced, `rate` per second, the first at `1 / rate`.
    Steady {
        /// Requests per second.
        rate: f64,
    },
    /// `size` requests at once at t = 0, `every`, `2·every`, …
    Burst {
        /// Requests per burst.
        size: u32,
        /// Seconds between bursts.
        every: f64,
    },
    /// A Poisson process: independent, exponentially distributed gaps with mean `1 / rate`.
    Poisson {
        /// Mean requests per second.
        rate: f64,
    },
    /// A rate rising (or falling) linearly from `from` to `to` requests per second over the run.
    Ramp {
        /// Requests per second at t = 0.
        from: f64,
        /// Requests per second at the end.
        to: f64,
    },
    /// The fixed window's blind spot: `limit` requests in the last tenth of a window and `limit`
    /// more in the first tenth of the next, at every other window boundary.
    WindowEdge,
    /// Times given by the learner, ascending, checked by [`super::parse_timestamps`].
    Pasted(Vec<f64>),
}

fn lab(field: LabField) -> Field {
    Field::Lab(field)
}

impl Traffic {
    /// `rate` requests per second (finite, in `(0, 100 000]`), evenly spaced.
    pub fn steady(rate: f64) -> Result<Self, InvalidValue> {
        let rate = InvalidValue::check(lab(LabField::Rate), rate, Rule::PositiveUpTo(MAX_RATE))?;
        Ok(Traffic::Steady { rate })
    }

    /// Bursts of `size` (whole, 1..=10 000) every `every` seconds (a millisecond, the lab's finest
    /// time, to [`MAX_DURATION`]: a burst every 1e-320 s would be an infinite rate).
    pub fn burst(size: f64, every: f64) -> Result<Self, InvalidValue> {
        let size = InvalidValue::check(lab(LabField::Size), size, Rule::Whole(1, 10_000))?;
        let every = InvalidValue::check(
            lab(LabField::Every),
            every,
            Rule::Between(MIN_EVERY, MAX_DURATION),
        )?;
        Ok(Traffic::Burst {
            size: size as u32,
            every,
        })
    }

    /// Poisson arrivals at a mean `rate` (finite, in `(0, 100 000]`).
    pub fn poisson(rate: f64) -> Result<Self, InvalidValue> {
        let rate = InvalidValue::check(lab(LabField::Rate), rate, Rule::PositiveUpTo(MAX_RATE))?;
        Ok(Traffic::Poisson { rate })
    }

    /// A linear ramp from `from` to `to` requests per second (each finite, in `0..=100 000`, not
    /// both 0).
    pub fn ramp(from: f64, to: f64) -> Result<Self, InvalidValue> {
        let from = InvalidValue::check(lab(LabField::From), from, Rule::UpTo(MAX_RATE))?;
        let to = InvalidValue::check(lab(LabField::To), to, Rule::UpTo(MAX_RATE))?;
        if from == 0.0 && to == 0.0 {
            // A ramp from 0 to 0 sends nothing: name the end that should be raised.
            InvalidValue::check(lab(LabField::To), to, Rule::PositiveUpTo(MAX_RATE))?;
        }
        Ok(Traffic::Ramp { from, to })
    }

    /// Learner-given times (see [`super::parse_timestamps`] for text, [`super::check_timestamps`]
    /// for numbers).
    pub fn pasted(times: Vec<f64>) -> Self {
        Traffic::Pasted(times)
    }

    /// Expected requests per second on average over `duration`, to refuse runs that are too long
    /// before generating them.
    fn mean_rate(&self, quota: Quota, duration: f64) -> f64 {
        match *self {
            Traffic::Steady { rate } | Traffic::Poisson { rate } => rate,
            Traffic::Burst { size, every } => f64::from(size) / every.min(duration),
            Traffic::Ramp { from, to } => (from + to) / 2.0,
            Traffic::WindowEdge => f64::from(quota.limit()) / quota.window(),
            Traffic::Pasted(_) => 0.0,
        }
    }

    /// The arrival times in `[0, duration)`, ascending. `duration` must be finite, > 0, at most
    /// 1 000 000 s, and short enough for at most 2 000 000 arrivals (a Poisson run may stop at that
    /// cap; a longer one is refused up front).
    pub fn arrivals(&self, quota: Quota, duration: f64, seed: u64) -> Result<Vec<f64>, LabError> {
        let duration = check_duration(duration)?;
        let rate = self.mean_rate(quota, duration);
        // 10 % headroom for Poisson's randomness; the limit is the round figure a refusal names.
        let max_duration = round_bound(MAX_ARRIVALS as f64 / (rate * 1.1));
        if rate > 0.0 && duration > max_duration {
            let max = Rule::PositiveUpTo(max_duration);
            InvalidValue::check(lab(LabField::Duration), duration, max)?;
        }
        let mut times = Vec::new();
        match *self {
            Traffic::Steady { rate } => {
                // k / rate rather than a running sum, so rounding does not drift.
                times.extend(
                    (1..)
                        .map(|k| f64::from(k) / rate)
                        .take_while(|&t| t < duration)
                        .take(MAX_ARRIVALS),
                );
            }
            Traffic::Burst { size, every } => {
                for k in (0..)
                    .map(|k| f64::from(k) * every)
                    .take_while(|&t| t < duration)
                {
                    times.extend(std::iter::repeat_n(k, size as usize));
                }
            }
            Traffic::Poisson { rate } => {
                let mut rng = fastrand::Rng::with_seed(seed);
                let mut t = 0.0;
                loop {
                    t += exponential_gap(&mut rng, rate);
                    if t >= duration || times.len() == MAX_ARRIVALS {
                        break;
                    }
                    times.push(t);
                }
            }
            Traffic::Ramp { from, to } => {
                // The k-th arrival is where the expected count ∫ rate reaches k:
                // from·t + a·t² = k with a = (to − from) / (2·duration), solved without
                // cancellation as t = 2k / (from + √(from² + 4ak)).
                let a = (to - from) / (2.0 * duration);
                times.extend(
                    (1..)
                        .map(|k| {
                            let k = f64::from(k);
                            2.0 * k / (from + (from * from + 4.0 * a * k).sqrt())
                        })
                        // For a duration so short that `a` overflows, t comes out 0 for every k:
                        // the run has no arrivals (the count is capped as well, to be safe).
                        .take_while(|&t| t.is_finite() && t > 0.0 && t < duration)
                        .take(MAX_ARRIVALS),
                );
            }
            Traffic::WindowEdge => {
                let (limit, w) = (quota.limit(), quota.window());
                // At least the first attack whole (its last request comes before 1.1·w): cut
                // short, the run would show half an attack or none, and no double at the edge.
                // The bound as the neighbouring one is put, to the millisecond, rounded up.
                let min = ((1.1 * w * 1000.0) - 1e-6).ceil() / 1000.0;
                InvalidValue::check(
                    lab(LabField::Duration),
                    duration,
                    Rule::Between(min, MAX_DURATION),
                )?;
                let tenth = w / 10.0;
                let mut boundary = w;
                while boundary - tenth < duration {
                    let spread = |i: u32| tenth * f64::from(i) / f64::from(limit);
                    times.extend((0..limit).map(|i| boundary - tenth + spread(i)));
                    times.extend((0..limit).map(|i| boundary + spread(i)));
                    boundary += 2.0 * w;
                }
                times.retain(|&t| t < duration);
            }
            Traffic::Pasted(ref given) => {
                if let Some(&late) = given.iter().find(|&&t| t >= duration) {
                    return Err(LabError::Pasted(PasteError::beyond(given, late, duration)));
                }
                times.clone_from(given);
            }
        }
        Ok(times)
    }
}

/// Checks a simulation length: finite, > 0, at most 1 000 000 s.
pub fn check_duration(duration: f64) -> Result<f64, InvalidValue> {
    InvalidValue::check(
        lab(LabField::Duration),
        duration,
        Rule::PositiveUpTo(MAX_DURATION),
    )
}

/// `bound` rounded down to two significant digits, so that the limit a refusal names reads as a
/// round figure (360 s, 180000 s, 1.8 s) rather than the headroom's quotient (363.636 s). Under a
/// second it is rounded down to the millisecond instead, as the durations are, and an infinite
/// rate's bound stays 0, so that every duration is refused (the checked traffics can't reach one:
/// a burst comes at most once a millisecond).
fn round_bound(bound: f64) -> f64 {
    if !(bound >= 1.0 && bound.is_finite()) {
        return (bound * 1000.0).floor() / 1000.0;
    }
    // Powers of ten up to 10^5 are exact: every bound a refusal can name is at most MAX_DURATION.
    let digits = bound.log10().floor() as i32 - 1;
    if digits >= 0 {
        let step = 10f64.powi(digits);
        (bound / step).floor() * step
    } else {
        // Divided, not multiplied by 0.1: 18 / 10 is the double nearest 1.8.
        (bound * 10.0).floor() / 10.0
    }
}

/// Why a trace could not be made: a bad setting or a bad pasted time.
#[derive(Debug, Clone, PartialEq)]
pub enum LabError {
    /// A setting outside its rule.
    Value(InvalidValue),
    /// A pasted time that is not usable.
    Pasted(PasteError),
}

impl From<InvalidValue> for LabError {
    fn from(err: InvalidValue) -> Self {
        LabError::Value(err)
    }
}

impl From<PasteError> for LabError {
    fn from(err: PasteError) -> Self {
        LabError::Pasted(err)
    }
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LabError::Value(err) => write!(f, "{}", err.js_message()),
            LabError::Pasted(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for LabError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn quota() -> Quota {
        Quota::new(10, 1.0).unwrap()
    }

    #[test]
    fn a_window_edge_run_holds_at_least_its_first_attack_whole() {
        for (w, min) in [(1.0, 1.1), (3.0, 3.3), (0.37, 0.407), (60.0, 66.0)] {
            let quota = Quota::new(10, w).unwrap();
            let edge = Traffic::WindowEdge.arrivals(quota, min, 0).unwrap();
            assert_eq!(edge.len(), 20, "w = {w}: both halves of the first attack");
            let Err(LabError::Value(err)) = Traffic::WindowEdge.arrivals(quota, min - 0.001, 0)
            else {
                panic!("w = {w}: a run of {} s is refused", min - 0.001);
            };
            assert_eq!(err.rule, Rule::Between(min, MAX_DURATION), "w = {w}");
        }
    }

    #[test]
    fn steady_and_burst_are_exact() {
        let steady = Traffic::steady(4.0)
            .unwrap()
            .arrivals(quota(), 1.0, 0)
            .unwrap();
        assert_eq!(steady, vec![0.25, 0.5, 0.75]);
        let burst = Traffic::burst(3.0, 2.0)
            .unwrap()
            .arrivals(quota(), 5.0, 0)
            .unwrap();
        assert_eq!(burst, vec![0.0, 0.0, 0.0, 2.0, 2.0, 2.0, 4.0, 4.0, 4.0]);
    }

    #[test]
    fn a_ramp_speeds_up_as_its_rate_rises() {
        let ramp = Traffic::ramp(0.0, 20.0)
            .unwrap()
            .arrivals(quota(), 10.0, 0)
            .unwrap();
        // ∫₀¹⁰ 2t dt = 100 expected arrivals; the k-th at √k.
        assert_eq!(ramp.len(), 99);
        assert!((ramp[3] - 2.0).abs() < 1e-12, "{}", ramp[3]);
        let gaps: Vec<f64> = ramp.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.windows(2).all(|g| g[1] < g[0]), "gaps shrink");
        let flat = Traffic::ramp(5.0, 5.0)
            .unwrap()
            .arrivals(quota(), 1.0, 0)
            .unwrap();
        assert_eq!(flat, vec![0.2, 0.4, 0.6, 0.8]);
    }

    #[test]
    fn the_window_edge_attack_sends_a_limit_on_each_side_of_a_boundary() {
        let times = Traffic::WindowEdge.arrivals(quota(), 2.5, 0).unwrap();
        assert_eq!(times.len(), 20);
        assert!(
            times[..10].iter().all(|&t| (0.9..1.0).contains(&t)),
            "{times:?}"
        );
        assert!(
            times[10..].iter().all(|&t| (1.0..1.1).contains(&t)),
            "{times:?}"
        );
        let longer = Traffic::WindowEdge.arrivals(quota(), 4.0, 0).unwrap();
        assert_eq!(longer.len(), 40, "again at t = 3");
    }

    #[test]
    fn poisson_depends_on_the_seed_only() {
        let poisson = Traffic::poisson(50.0).unwrap();
        let a = poisson.arrivals(quota(), 100.0, 7).unwrap();
        assert_eq!(a, poisson.arrivals(quota(), 100.0, 7).unwrap());
        assert_ne!(a, poisson.arrivals(quota(), 100.0, 8).unwrap());
        assert!((a.len() as f64 / 100.0 - 50.0).abs() < 3.0, "{}", a.len());
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_run_too_long_for_its_rate_names_a_round_limit_that_it_accepts() {
        // The limit: 2,000,000 arrivals at the rate and 10 % more, rounded down to two digits.
        for (rate, max) in [
            (10.0, 180_000.0),
            (11.0, 160_000.0),
            (1000.0, 1800.0),
            (5000.0, 360.0),
            (1e5, 18.0),
        ] {
            let steady = Traffic::steady(rate).unwrap();
            let Err(LabError::Value(err)) = steady.arrivals(quota(), max + 1.0, 0) else {
                panic!("rate {rate}: a run of {} s is refused", max + 1.0);
            };
            assert_eq!(err.rule, Rule::PositiveUpTo(max), "rate {rate}");
            let arrivals = steady.arrivals(quota(), max, 0).unwrap();
            assert!(arrivals.len() <= MAX_ARRIVALS, "rate {rate}");
        }
        assert_eq!(round_bound(1.8181), 1.8);
        assert_eq!(round_bound(0.018181), 0.018);
        assert_eq!(round_bound(0.0181818), 0.018);
        assert_eq!(round_bound(99.9), 99.0);
    }

    #[test]
    fn a_burst_more_often_than_a_millisecond_is_refused_by_its_every() {
        // size / every would overflow to infinity (a loop until memory ran out, once).
        for every in [1e-320, 1e-300, 0.000_999] {
            let err = Traffic::burst(1.0, every).unwrap_err();
            assert_eq!(
                err.rule,
                Rule::Between(0.001, MAX_DURATION),
                "every {every}"
            );
        }
        let burst = Traffic::burst(10_000.0, 0.001).unwrap();
        let Err(LabError::Value(err)) = burst.arrivals(quota(), 1.0, 0) else {
            panic!("10,000 requests a millisecond for a second are too many");
        };
        assert_eq!(err.rule, Rule::PositiveUpTo(0.181));
        assert_eq!(round_bound(0.0), 0.0, "no duration fits an infinite rate");
    }

    #[test]
    fn bad_settings_are_named() {
        let msg = |r: Result<Traffic, InvalidValue>| r.unwrap_err().js_message();
        assert_eq!(
            msg(Traffic::steady(0.0)),
            "traffic.rate must be a finite number greater than 0 and at most 100000, got 0"
        );
        assert_eq!(
            msg(Traffic::burst(2.5, 1.0)),
            "traffic.size must be a whole number from 1 to 10000, got 2.5"
        );
        assert_eq!(
            msg(Traffic::ramp(0.0, 0.0)),
            "traffic.to must be a finite number greater than 0 and at most 100000, got 0"
        );
        let too_long = Traffic::steady(1000.0)
            .unwrap()
            .arrivals(quota(), 10_000.0, 0);
        assert_eq!(
            too_long.unwrap_err().to_string(),
            "duration must be a finite number greater than 0 and at most 1800, got 10000"
        );
    }
}
