//! The search for the smallest whole capacity that meets a target at one refill rate, by
//! replaying candidate capacities: `hi` meets the target (once its counts are known), `lo` is
//! the largest capacity known not to (or a lower bound less one).

use super::recommend::Counts;

/// Whether a whole capacity lies strictly between the whole numbers `lo` and `hi` (every double
/// from 2^53 up is whole, and the next one up may be 2 or more away).
pub(crate) fn whole_between(lo: f64, hi: f64) -> bool {
    hi - lo > 1.0 && hi > lo.next_up()
}

/// One rate's search.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RateSearch {
    /// `r`.
    pub rate: f64,
    lo: f64,
    hi: f64,
    hi_counts: Option<Counts>,
    /// Whether `hi` is a ceiling (a larger capacity would not beat a policy already found): if
    /// no capacity up to it meets the target, the rate is given up rather than searched above.
    capped: bool,
    given_up: bool,
}

impl RateSearch {
    /// A search at `rate` between `lo` (known or bound not to meet) and `hi`.
    pub fn new(rate: f64, lo: f64, hi: f64, capped: bool) -> RateSearch {
        RateSearch {
            rate,
            lo,
            hi,
            hi_counts: None,
            capped,
            given_up: capped && hi <= lo,
        }
    }

    /// Whether the search is over (found, or given up).
    pub fn done(&self) -> bool {
        self.given_up || (self.hi_counts.is_some() && !whole_between(self.lo, self.hi))
    }

    /// The smallest capacity known to meet the target, and its counts (final once [`done`]).
    ///
    /// [`done`]: RateSearch::done
    pub fn met(&self) -> Option<(f64, Counts)> {
        self.hi_counts
            .filter(|_| !self.given_up)
            .map(|counts| (self.hi, counts))
    }

    /// Lowers the ceiling to `most`, when that is below `hi`: a capacity above `most` would not
    /// beat a policy found at another rate.
    pub fn cap(&mut self, most: f64) {
        if most >= self.hi || self.given_up {
            return;
        }
        self.hi = most;
        self.hi_counts = None;
        self.capped = true;
        self.given_up = self.hi <= self.lo;
    }

    /// Up to `slots` capacities to replay next, ascending; empty once [`RateSearch::done`].
    pub fn candidates(&self, slots: usize) -> Vec<f64> {
        if self.done() || slots == 0 {
            return Vec::new();
        }
        let gap = self.hi - self.lo;
        let inside = ((gap - 1.0) as usize).min(slots - 1);
        // Above 2^53 two doubles are 2 or more apart: a step rounds back to `lo` or `hi`, which
        // is no candidate (replaying it again would never end the search).
        let mut capacities: Vec<f64> = (1..=inside)
            .map(|i| self.lo + (gap * i as f64 / (inside + 1) as f64).round())
            .filter(|&b| b > self.lo && b < self.hi)
            .collect();
        capacities.dedup();
        if self.hi_counts.is_none() {
            capacities.push(self.hi);
        }
        capacities
    }

    /// Takes what a pass found for `results` (capacities from [`RateSearch::candidates`] and
    /// their counts); `meets` says whether counts meet the target.
    ///
    /// `hi` only ever moves to a capacity seen to meet the target. When none of the pass did,
    /// they all lie below the known-good `hi` (which a later pass does not replay again): the
    /// answer is above the largest of them. Should an uncapped `hi` itself fail (a bound from the
    /// curves that its construction makes safe), the search moves on above it rather than report
    /// a miss; a capped one is given up.
    pub fn narrow(&mut self, results: &[(f64, Counts)], meets: impl Fn(Counts) -> bool) {
        if let Some(&(capacity, counts)) = results.iter().find(|(_, c)| meets(*c)) {
            self.hi = capacity;
            self.hi_counts = Some(counts);
            self.lo = results
                .iter()
                .filter(|&&(b, c)| b < capacity && !meets(c))
                .fold(self.lo, |lo, &(b, _)| lo.max(b));
            return;
        }
        self.lo = results.iter().fold(self.lo, |lo, &(b, _)| lo.max(b));
        if self.lo >= self.hi {
            if self.capped {
                self.given_up = true;
            } else {
                self.hi = (2.0 * self.lo).max(self.lo + 1.0);
                self.hi_counts = None;
            }
        }
    }
}
