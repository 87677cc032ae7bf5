//! A pass that replays the log through several token buckets per key at once, to count what each
//! policy would limit: the recommendation's confirmation and search.

use super::format::{Parsed, Parser};
use super::lines::Line;
use super::pass::key_slot;
use super::recommend::{Candidate, Counts, CANDIDATES};
use crate::limiter::{BucketConfig, InvalidValue, TokenBucket};
use hashbrown::HashMap;

struct KeyBuckets {
    buckets: Vec<TokenBucket>,
    /// Bit `i`: the `i`-th capacity refused at least one of this key's requests.
    limited: u32,
}

/// Replays one log through a token bucket per key for each of up to [`CANDIDATES`] policies.
pub struct PolicyCheck {
    parser: Parser,
    configs: Vec<BucketConfig>,
    keys: HashMap<Box<str>, KeyBuckets>,
    requests_limited: Vec<u64>,
}

impl PolicyCheck {
    /// A pass with `parser` (fresh, from the first pass) over buckets of `candidates`.
    pub fn new(parser: Parser, candidates: &[Candidate]) -> Result<Self, InvalidValue> {
        let configs = candidates
            .iter()
            .take(CANDIDATES)
            .map(|c| BucketConfig::new(c.capacity, c.rate))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PolicyCheck {
            parser,
            requests_limited: vec![0; configs.len()],
            configs,
            keys: HashMap::new(),
        })
    }

    /// Reads the next line (malformed lines were reported by the first pass and are skipped).
    pub fn line(&mut self, line: Line<'_>) {
        let Parsed::Event(event) = self.parser.line(line) else {
            return;
        };
        let configs = &self.configs;
        let state = key_slot(&mut self.keys, event.key, || KeyBuckets {
            buckets: configs.iter().map(|&c| TokenBucket::new(c)).collect(),
            limited: 0,
        });
        for (i, bucket) in state.buckets.iter_mut().enumerate() {
            let admitted = bucket
                .try_acquire(event.cost, event.time)
                .is_ok_and(|d| d.is_admitted());
            if !admitted {
                state.limited |= 1 << i;
                self.requests_limited[i] += 1;
            }
        }
    }

    /// What each capacity limited, in the order given.
    pub fn finish(self) -> Vec<Counts> {
        (0..self.configs.len())
            .map(|i| Counts {
                keys_limited: self
                    .keys
                    .values()
                    .filter(|k| k.limited & (1 << i) != 0)
                    .count() as u64,
                requests_limited: self.requests_limited[i],
            })
            .collect()
    }
}
