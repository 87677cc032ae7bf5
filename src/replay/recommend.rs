//! Choosing a token-bucket policy `(B, r)` that meets a target, from the keys' burst–rate curves,
//! then confirming it by replaying the log through the core's bucket.
//!
//! Targets: `keys:P%` (at least P % of the keys never limited) and `requests:P%` (at most P % of
//! the requests limited). Many policies meet one: a lower rate needs a larger burst. The one
//! recommended lets a client through the fewest requests in a minute, `B + 60·r`, among the
//! rates of the grid, with `B` whole.
//!
//! - `keys:P%` is exact from the curves: a key is never limited iff `B ≥ B_key(r)`, so at each
//!   rate `B` is the smallest whole number above all but the allowed number of keys' needs.
//!   One more pass over the log counts what that policy limits.
//! - `requests:P%` needs simulation: a key whose need exceeds `B` loses some of its requests,
//!   not all, and the curve doesn't say how many. The curves give a safe bound (give up the
//!   keys with the largest needs while their requests fit in the allowance; `B` covers the
//!   rest), which picks the rate; then passes over the log replay [`CANDIDATES`] capacities
//!   below the bound at once, each pass narrowing to the smallest that meets the target.

use super::curve::BurstTracker;
use super::report::Recommendation;
use std::fmt;

/// Seconds over which a policy's allowance `B + r·HORIZON` is compared.
pub const HORIZON: f64 = 60.0;
/// Capacities replayed together in one pass of the search.
pub const CANDIDATES: usize = 16;

/// What the recommended policy must achieve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// At least this percentage of keys never limited (`keys:99%`), in `(0, 100]`.
    Keys(f64),
    /// At most this percentage of requests limited (`requests:0.1%`), in `[0, 100)`.
    Requests(f64),
}

impl Target {
    /// Reads `keys:P%` or `requests:P%`.
    pub fn parse(text: &str) -> Result<Target, String> {
        let allowed = "keys:P% (at least P % of keys never limited, 0 < P ≤ 100) or \
                       requests:P% (at most P % of requests limited, 0 ≤ P < 100)";
        let (kind, percent) = text
            .split_once(':')
            .ok_or_else(|| format!("allowed: {allowed}"))?;
        let percent = percent
            .strip_suffix('%')
            .and_then(|p| crate::limiter::parse_number(p, crate::limiter::rust_decimal))
            .filter(|p| p.is_finite())
            .ok_or_else(|| format!("the percentage must be a number followed by %; {allowed}"))?;
        match kind {
            "keys" if percent > 0.0 && percent <= 100.0 => Ok(Target::Keys(percent)),
            "requests" if (0.0..100.0).contains(&percent) => Ok(Target::Requests(percent)),
            "keys" | "requests" => Err(format!("{percent}% is out of range; {allowed}")),
            _ => Err(format!("allowed: {allowed}")),
        }
    }

    /// How many keys (`keys:`) or requests (`requests:`) may be limited.
    fn allowance(self, keys: u64, requests: u64) -> u64 {
        // The small slack keeps 99 % of 100 keys at 1, not 0.999… rounded down to 0.
        let share = |percent: f64, of: u64| (percent / 100.0 * of as f64 + 1e-9).floor() as u64;
        match self {
            Target::Keys(p) => share(100.0 - p, keys),
            Target::Requests(p) => share(p, requests),
        }
    }

    fn met(self, counts: Counts, keys: u64, requests: u64) -> bool {
        let limited = match self {
            Target::Keys(_) => counts.keys_limited,
            Target::Requests(_) => counts.requests_limited,
        };
        limited <= self.allowance(keys, requests)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Keys(p) => write!(f, "keys:{p}%"),
            Target::Requests(p) => write!(f, "requests:{p}%"),
        }
    }
}

/// What a policy limited in one replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Keys with at least one request refused.
    pub keys_limited: u64,
    /// Requests refused.
    pub requests_limited: u64,
}

/// The search for the recommended capacity at the chosen rate: `hi` meets the target (once its
/// counts are known), `lo` is the largest capacity known not to (0 at first).
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    target: Target,
    rate: f64,
    lo: f64,
    hi: f64,
    hi_counts: Option<Counts>,
    keys: u64,
    requests: u64,
}

/// The smallest whole capacity, at least 1, not below `burst` (less the core's rounding slack of
/// `1e-12·B`, so a need of `5.000000000000001` is 5).
fn whole(burst: f64) -> f64 {
    (burst - burst * 1e-12).ceil().max(1.0)
}

impl Search {
    /// Picks the rate and the starting range from the keys' curves; `keys` gives each key's
    /// request count and tracker over `rates`. `None` when there are no requests.
    pub fn start(target: Target, rates: &[f64], keys: &[(u64, &BurstTracker)]) -> Option<Search> {
        let requests: u64 = keys.iter().map(|(n, _)| n).sum();
        if requests == 0 {
            return None;
        }
        let key_count = keys.len() as u64;
        let allowance = target.allowance(key_count, requests);
        let weight = |n: u64| match target {
            Target::Keys(_) => 1,
            Target::Requests(_) => n,
        };
        let mut needs = Vec::with_capacity(keys.len());
        let mut best: Option<(f64, f64, f64)> = None; // (allowance in a minute, rate, capacity)
        for (i, &rate) in rates.iter().enumerate() {
            needs.clear();
            needs.extend(
                keys.iter()
                    .map(|(n, tracker)| (tracker.burst(i), weight(*n))),
            );
            needs.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
            // Give up the keys with the largest needs while the allowance lasts.
            let mut spent = 0;
            let capacity = needs
                .iter()
                .find(|&&(_, w)| {
                    spent += w;
                    spent > allowance
                })
                .map_or(1.0, |&(burst, _)| whole(burst));
            let per_minute = capacity + rate * HORIZON;
            if best.is_none_or(|(b, _, _)| per_minute < b) {
                best = Some((per_minute, rate, capacity));
            }
        }
        let (_, rate, hi) = best?;
        Some(Search {
            target,
            rate,
            // For keys the curve is exact: one capacity less limits too many keys.
            lo: match target {
                Target::Keys(_) => hi - 1.0,
                Target::Requests(_) => 0.0,
            },
            hi,
            hi_counts: None,
            keys: key_count,
            requests,
        })
    }

    /// The rate chosen.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Capacities to replay in the next pass, ascending; empty once the search is over.
    pub fn candidates(&self) -> Vec<f64> {
        if self.hi_counts.is_some() && self.hi - self.lo <= 1.0 {
            return Vec::new();
        }
        let gap = self.hi - self.lo;
        let inside = ((gap - 1.0) as usize).min(CANDIDATES - 1);
        let mut capacities: Vec<f64> = (1..=inside)
            .map(|i| self.lo + (gap * i as f64 / (inside + 1) as f64).round())
            .collect();
        capacities.dedup();
        if self.hi_counts.is_none() {
            capacities.push(self.hi);
        }
        capacities
    }

    /// Takes the counts of a pass over `capacities` (from [`Search::candidates`]).
    ///
    /// `hi` only ever moves to a capacity seen to meet the target. When none of the pass did, they
    /// all lie below the known-good `hi` (which a later pass does not replay again): the answer is
    /// above the largest of them. Should the first pass find the bound itself failing, which its
    /// construction rules out, the search moves on above it rather than report a miss.
    pub fn narrow(&mut self, capacities: &[f64], counts: &[Counts]) {
        let (target, keys, requests) = (self.target, self.keys, self.requests);
        let met = |c: Counts| target.met(c, keys, requests);
        let results: Vec<(f64, Counts)> = capacities
            .iter()
            .copied()
            .zip(counts.iter().copied())
            .collect();
        if let Some(&(capacity, counts)) = results.iter().find(|(_, c)| met(*c)) {
            self.hi = capacity;
            self.hi_counts = Some(counts);
            self.lo = results
                .iter()
                .filter(|&&(b, c)| b < capacity && !met(c))
                .fold(self.lo, |lo, &(b, _)| lo.max(b));
            return;
        }
        self.lo = results.iter().fold(self.lo, |lo, &(b, _)| lo.max(b));
        if self.lo >= self.hi {
            self.hi = (2.0 * self.lo).max(self.lo + 1.0);
            self.hi_counts = None;
        }
    }

    /// The policy found, once [`Search::candidates`] is empty.
    pub fn result(&self) -> Option<Recommendation> {
        let counts = self.hi_counts.filter(|_| self.candidates().is_empty())?;
        Some(Recommendation {
            capacity: self.hi,
            refill_rate: self.rate,
            target: self.target.to_string(),
            keys_limited: counts.keys_limited,
            requests_limited: counts.requests_limited,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_read_and_print_back() {
        assert_eq!(Target::parse("keys:99%"), Ok(Target::Keys(99.0)));
        assert_eq!(Target::parse("requests:0.1%"), Ok(Target::Requests(0.1)));
        assert_eq!(Target::Keys(99.5).to_string(), "keys:99.5%");
        assert_eq!(Target::Requests(0.1).to_string(), "requests:0.1%");
        for bad in [
            "keys:99",
            "keys:0%",
            "keys:101%",
            "requests:100%",
            "users:5%",
            "keys:x%",
            "",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn allowances_round_down_without_losing_exact_shares() {
        assert_eq!(Target::Keys(99.0).allowance(100, 0), 1);
        assert_eq!(Target::Keys(99.0).allowance(99, 0), 0);
        assert_eq!(Target::Requests(0.1).allowance(0, 1000), 1);
        assert_eq!(Target::Keys(100.0).allowance(7, 0), 0);
    }

    #[test]
    fn whole_capacities_forgive_rounding_only() {
        assert_eq!(whole(5.000000000000001), 5.0);
        assert_eq!(whole(5.01), 6.0);
        assert_eq!(whole(0.0), 1.0);
    }

    /// A search for "at most 10 % of 100 requests limited" from `lo = 0`, `hi = 100`.
    fn ten_percent_search() -> Search {
        Search {
            target: Target::Requests(10.0),
            rate: 1.0,
            lo: 0.0,
            hi: 100.0,
            hi_counts: None,
            keys: 1,
            requests: 100,
        }
    }

    /// Runs a search from `lo = 0`, `hi = 100` where exactly the capacities from `threshold` up
    /// meet the target; returns the capacity found, its counts and the passes made.
    fn search_with_threshold(threshold: f64) -> (f64, Counts, usize) {
        let mut search = ten_percent_search();
        let limited = |b: f64| Counts {
            keys_limited: 1,
            requests_limited: if b < threshold { 11 } else { 10 },
        };
        let mut passes = 0;
        while !search.candidates().is_empty() {
            let capacities = search.candidates();
            assert!(capacities.len() <= CANDIDATES, "{capacities:?}");
            let counts: Vec<Counts> = capacities.iter().map(|&b| limited(b)).collect();
            search.narrow(&capacities, &counts);
            passes += 1;
            assert!(passes < 20, "threshold {threshold}: no end");
        }
        let found = search.result().expect("a result once the search is over");
        let counts = Counts {
            keys_limited: found.keys_limited,
            requests_limited: found.requests_limited,
        };
        (found.capacity, counts, passes)
    }

    #[test]
    fn the_search_finds_every_threshold_even_the_bound_itself() {
        // The first pass replays 6, 13, …, 94, 100; a threshold just above one of them leaves
        // every capacity of the second pass failing, with the answer the `hi` already known.
        for threshold in 1..=100 {
            let threshold = f64::from(threshold);
            let (capacity, counts, passes) = search_with_threshold(threshold);
            assert_eq!(capacity, threshold, "{passes} passes");
            assert_eq!(counts.requests_limited, 10, "threshold {threshold}");
        }
        assert_eq!(search_with_threshold(100.0).0, 100.0, "the bound itself");
    }

    #[test]
    fn a_failing_bound_moves_the_search_above_it_rather_than_report_a_miss() {
        let (capacity, counts, _) = search_with_threshold(150.0);
        assert_eq!((capacity, counts.requests_limited), (150.0, 10));
    }

    #[test]
    fn the_search_narrows_to_the_smallest_passing_capacity() {
        let mut search = ten_percent_search();
        // Pretend each capacity below 37 limits (37 − B) requests too many.
        let limited = |b: f64| Counts {
            keys_limited: u64::from(b < 100.0),
            requests_limited: if b < 37.0 { 10 + (37.0 - b) as u64 } else { 10 },
        };
        let mut passes = 0;
        while !search.candidates().is_empty() {
            let capacities = search.candidates();
            assert!(capacities.len() <= CANDIDATES);
            let counts: Vec<Counts> = capacities.iter().map(|&b| limited(b)).collect();
            search.narrow(&capacities, &counts);
            passes += 1;
        }
        assert_eq!(search.result().unwrap().capacity, 37.0);
        assert!(passes <= 3, "{passes} passes");
    }
}
