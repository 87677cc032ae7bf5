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
//!   not all, and the curve doesn't say how many. At each rate the curves give a safe bound
//!   (give up the keys with the largest needs while their requests fit in the allowance; `B`
//!   covers the rest) and a lower bound (a key whose need exceeds `B` by `d` loses at least
//!   `d / c_max` requests). The rate whose safe bound allows the fewest requests in a minute is
//!   searched, and with it every rate whose lower bound might allow fewer: passes over the log
//!   replay up to [`CANDIDATES`] policies at once (the rates share them), each narrowing every
//!   rate to the smallest capacity that meets the target, and a rate is dropped once a policy
//!   found at another allows no more than any it could. The result is the fewest `B + 60·r` of
//!   the grid (for a log of 5,000,000 lines and 50,000 keys, still in one further pass).

use super::curve::BurstTracker;
use super::rate_search::{whole_between, RateSearch};
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
        let given = percent;
        // -0 is 0 (`requests:0%`).
        let percent = percent
            .strip_suffix('%')
            .and_then(|p| crate::limiter::parse_number(p, crate::limiter::rust_decimal))
            .filter(|p| !p.is_nan())
            .map(|p| p + 0.0)
            .ok_or_else(|| format!("the percentage must be a number followed by %; {allowed}"))?;
        match kind {
            "keys" if percent > 0.0 && percent <= 100.0 => Ok(Target::Keys(percent)),
            "requests" if (0.0..100.0).contains(&percent) => Ok(Target::Requests(percent)),
            // Quoted as typed: `1e400` overflows to infinity, which is no help to the reader.
            "keys" | "requests" => Err(format!("{given} is out of range; {allowed}")),
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

/// One policy to replay: a capacity at a rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// `r`.
    pub rate: f64,
    /// `B`.
    pub capacity: f64,
}

/// The search for the recommended policy: at the rate whose safe bound lets through the fewest
/// requests in a minute, and at every other rate of the grid where a lower bound says a policy
/// might let through fewer, the smallest whole capacity meeting the target, by replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    target: Target,
    keys: u64,
    requests: u64,
    /// By the fewest requests in a minute they might allow, the bound's rate first.
    rates: Vec<RateSearch>,
}

/// The smallest whole capacity, at least 1, not below `burst` (less the core's rounding slack of
/// `1e-12·B`, so a need of `5.000000000000001` is 5).
fn whole(burst: f64) -> f64 {
    (burst - burst * 1e-12).ceil().max(1.0)
}

/// The largest whole capacity that lets through fewer than `per_minute` requests in a minute at
/// `rate` (a policy strictly better than one allowing `per_minute`).
fn below(per_minute: f64, rate: f64) -> f64 {
    (per_minute - rate * HORIZON - 1e-9).ceil() - 1.0
}

/// The largest whole capacity that lets through at most `per_minute` requests in a minute at
/// `rate` (a policy no worse than one allowing `per_minute`, so that two rates tied keep theirs).
fn at_most(per_minute: f64, rate: f64) -> f64 {
    (per_minute - rate * HORIZON + 1e-9).floor()
}

/// The order of pairs by their first number, largest first.
fn largest_first(a: &(f64, u64), b: &(f64, u64)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
}

/// At one rate, the keys' needs `(B_key(r), requests)` largest first: the safe bound (a capacity
/// that meets the target) and a lower bound (one below it cannot).
fn bounds(target: Target, needs: &[(f64, u64)], allowance: u64, max_cost: f64) -> (f64, f64) {
    // Give up the keys with the largest needs while the allowance lasts; `B` covers the rest.
    let mut spent = 0;
    let weight = |n: u64| match target {
        Target::Keys(_) => 1,
        Target::Requests(_) => n,
    };
    let upper = needs
        .iter()
        .find(|&&(_, n)| {
            spent += weight(n);
            spent > allowance
        })
        .map_or(1.0, |&(burst, _)| whole(burst));
    if let Target::Keys(_) = target {
        // Exact: a key is never limited iff `B ≥ B_key(r)`.
        return (upper, upper);
    }
    // A key whose need exceeds `B` by `d` has at least `d / max_cost` requests refused: what a
    // bucket of `B` admits from any stretch needs at most `B`, so the refused ones of the stretch
    // that needs `B_key(r)` cost `d` at least. The smallest `B` whose refusals so counted fit in
    // the allowance is a lower bound (the slack keeps it one, whatever the rounding).
    let cost = max_cost.max(f64::MIN_POSITIVE);
    let refused = |b: f64| -> u64 {
        needs
            .iter()
            .take_while(|&&(need, _)| need > b)
            .map(|&(need, n)| (((need - b) / cost) - 1e-6).ceil().clamp(0.0, n as f64) as u64)
            .sum()
    };
    let (mut lo, mut hi) = (0.0, upper); // refused(lo) too many (or lo = 0), refused(hi) fits
    while whole_between(lo, hi) {
        let mid = ((lo + hi) / 2.0).floor();
        if mid <= lo || mid >= hi {
            break;
        }
        if refused(mid) <= allowance {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (upper, hi.min(upper))
}

impl Search {
    /// The rates and their starting ranges from the keys' curves; `keys` gives each key's
    /// request count and tracker over `rates`, `max_cost` the costliest request. `None` when there
    /// are no requests.
    pub fn start(
        target: Target,
        rates: &[f64],
        keys: &[(u64, &BurstTracker)],
        max_cost: f64,
    ) -> Option<Search> {
        let requests: u64 = keys.iter().map(|(n, _)| n).sum();
        if requests == 0 {
            return None;
        }
        let key_count = keys.len() as u64;
        let allowance = target.allowance(key_count, requests);
        let mut needs = Vec::with_capacity(keys.len());
        // (rate, safe bound, lower bound) at each rate.
        let mut found = Vec::with_capacity(rates.len());
        for (i, &rate) in rates.iter().enumerate() {
            needs.clear();
            needs.extend(keys.iter().map(|(n, tracker)| (tracker.burst(i), *n)));
            needs.sort_unstable_by(largest_first);
            let (upper, lower) = bounds(target, &needs, allowance, max_cost);
            found.push((rate, upper, lower));
        }
        let per_minute = |rate: f64, capacity: f64| capacity + rate * HORIZON;
        let &(rate, upper, lower) = found
            .iter()
            .min_by(|a, b| per_minute(a.0, a.1).total_cmp(&per_minute(b.0, b.1)))?;
        let best = per_minute(rate, upper);
        let mut searches = vec![RateSearch::new(rate, lower - 1.0, upper, false)];
        // The other rates whose lower bound might let fewer through, fewest first: sorted as
        // the needs are (largest first, by the negated allowance), which keeps the wasm module
        // to one sort.
        let mut others: Vec<(f64, u64)> = found
            .iter()
            .enumerate()
            .filter(|&(_, &(r, _, low))| r != rate && per_minute(r, low) < best)
            .map(|(i, &(r, _, low))| (-per_minute(r, low), i as u64))
            .collect();
        others.sort_unstable_by(largest_first);
        searches.extend(others.into_iter().map(|(_, i)| {
            let (r, _, low) = found[i as usize];
            RateSearch::new(r, low - 1.0, below(best, r), true)
        }));
        Some(Search {
            target,
            keys: key_count,
            requests,
            rates: searches,
        })
    }

    /// The policies to replay in the next pass (at most [`CANDIDATES`]); empty once the search
    /// is over. The rates the bounds rank first get their share first.
    pub fn candidates(&self) -> Vec<Candidate> {
        let open: Vec<&RateSearch> = self.rates.iter().filter(|s| !s.done()).collect();
        let share = (CANDIDATES / open.len().max(1)).max(4);
        let mut all = Vec::new();
        for search in open {
            let slots = share.min(CANDIDATES - all.len());
            all.extend(
                search
                    .candidates(slots)
                    .into_iter()
                    .map(|capacity| Candidate {
                        rate: search.rate,
                        capacity,
                    }),
            );
        }
        all
    }

    /// Takes the counts of a pass over `candidates` (from [`Search::candidates`]), then caps
    /// every rate's search at what would be no worse than the best policy found at another rate.
    pub fn narrow(&mut self, candidates: &[Candidate], counts: &[Counts]) {
        let (target, keys, requests) = (self.target, self.keys, self.requests);
        let meets = |c: Counts| target.met(c, keys, requests);
        for search in &mut self.rates {
            let results: Vec<(f64, Counts)> = candidates
                .iter()
                .zip(counts)
                .filter(|(c, _)| c.rate == search.rate)
                .map(|(c, n)| (c.capacity, *n))
                .collect();
            if !results.is_empty() {
                search.narrow(&results, meets);
            }
        }
        let met: Vec<(f64, f64)> = self
            .rates
            .iter()
            .filter_map(|s| s.met().map(|(b, _)| (s.rate, b + s.rate * HORIZON)))
            .collect();
        for search in &mut self.rates {
            let best_elsewhere = met
                .iter()
                .filter(|(rate, _)| *rate != search.rate)
                .map(|&(_, per_minute)| per_minute)
                .fold(f64::INFINITY, f64::min);
            if best_elsewhere.is_finite() {
                search.cap(at_most(best_elsewhere, search.rate));
            }
        }
    }

    /// The policy found, once [`Search::candidates`] is empty: the fewest requests in a minute,
    /// the lower rate on a tie.
    pub fn result(&self) -> Option<Recommendation> {
        if self.rates.iter().any(|s| !s.done()) {
            return None;
        }
        let (rate, capacity, counts) = self
            .rates
            .iter()
            .filter_map(|s| s.met().map(|(b, counts)| (s.rate, b, counts)))
            .min_by(|a, b| {
                (a.1 + a.0 * HORIZON)
                    .total_cmp(&(b.1 + b.0 * HORIZON))
                    .then(a.0.total_cmp(&b.0))
            })?;
        Some(Recommendation {
            capacity,
            refill_rate: rate,
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
            keys: 1,
            requests: 100,
            rates: vec![RateSearch::new(1.0, 0.0, 100.0, false)],
        }
    }

    /// Runs `search` to its end with `limited` giving what each policy limits; returns the
    /// result and the passes made.
    fn run(mut search: Search, limited: impl Fn(Candidate) -> Counts) -> (Recommendation, usize) {
        let mut passes = 0;
        while !search.candidates().is_empty() {
            let candidates = search.candidates();
            assert!(candidates.len() <= CANDIDATES, "{candidates:?}");
            let counts: Vec<Counts> = candidates.iter().map(|&c| limited(c)).collect();
            search.narrow(&candidates, &counts);
            passes += 1;
            assert!(passes < 20, "no end");
        }
        (
            search.result().expect("a result once the search is over"),
            passes,
        )
    }

    #[test]
    fn a_lower_rate_with_a_larger_burst_wins_when_it_lets_fewer_through_in_a_minute() {
        // The reviewer's log: the bound picks r = 0.08 with B = 4 (8.8 a minute), while r = 0.06
        // meets the target from B = 5 (8.6 a minute). The lower bound at 0.06 is 4.
        let search = Search {
            target: Target::Requests(1.0),
            keys: 1,
            requests: 100,
            rates: vec![
                RateSearch::new(0.08, 0.0, 4.0, false),
                RateSearch::new(0.06, 3.0, below(8.8, 0.06), true),
            ],
        };
        let limited = |c: Candidate| Counts {
            keys_limited: 1,
            requests_limited: match c.rate {
                0.08 if c.capacity >= 4.0 => 1,
                0.06 if c.capacity >= 5.0 => 1,
                _ => 2,
            },
        };
        let (found, passes) = run(search, limited);
        assert_eq!(
            (found.capacity, found.refill_rate),
            (5.0, 0.06),
            "{found:?}"
        );
        assert_eq!(passes, 1, "both rates in one pass");
        assert_eq!(below(8.8, 0.06), 5.0);
        assert_eq!(below(9.0, 0.05), 5.0, "6 + 3 = 9 is no better");
    }

    /// Runs a search from `lo = 0`, `hi = 100` where exactly the capacities from `threshold` up
    /// meet the target; returns the capacity found, its counts and the passes made.
    fn search_with_threshold(threshold: f64) -> (f64, Counts, usize) {
        let limited = |c: Candidate| Counts {
            keys_limited: 1,
            requests_limited: if c.capacity < threshold { 11 } else { 10 },
        };
        let (found, passes) = run(ten_percent_search(), limited);
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
        // Pretend each capacity below 37 limits (37 − B) requests too many.
        let limited = |c: Candidate| Counts {
            keys_limited: u64::from(c.capacity < 100.0),
            requests_limited: if c.capacity < 37.0 {
                10 + (37.0 - c.capacity) as u64
            } else {
                10
            },
        };
        let (found, passes) = run(ten_percent_search(), limited);
        assert_eq!(found.capacity, 37.0);
        assert!(passes <= 3, "{passes} passes");
    }
}
