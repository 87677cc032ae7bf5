//! How an API key becomes the Redis key of its bucket: a pattern with one `*`, the API key's place.
//!
//! In a Redis Cluster every key one script touches must hash to one slot, and Redis hashes only the
//! part of a key between the first `{` and the next `}` when there is one (the hash tag). A pattern
//! such as `bucketlab:{*}` makes the API key the tag: everything stored for one client, the bucket
//! today and any key added next to it later, lands in the same slot, while different clients
//! spread over the masters. A cluster store refuses a pattern without that tag when it starts, so a
//! change of pattern can't silently split a client's keys across slots.

use std::fmt;

/// The Redis key of each API key's bucket: `prefix` + API key + `suffix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPattern {
    prefix: String,
    suffix: String,
}

/// The pattern every store uses unless told otherwise: the API key is the hash tag.
pub const DEFAULT_KEY_PATTERN: &str = "bucketlab:{*}";

impl Default for KeyPattern {
    fn default() -> Self {
        KeyPattern::parse(DEFAULT_KEY_PATTERN).expect("the default pattern has one `*`")
    }
}

impl KeyPattern {
    /// A pattern with exactly one `*`, which the API key replaces (`bucketlab:{*}`).
    pub fn parse(text: &str) -> Result<Self, KeyPatternError> {
        let mut parts = text.split('*');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(prefix), Some(suffix), None) => Ok(KeyPattern {
                prefix: prefix.to_owned(),
                suffix: suffix.to_owned(),
            }),
            _ => Err(KeyPatternError {
                pattern: text.to_owned(),
                rule: "exactly one `*`, the API key's place (like \"bucketlab:{*}\")",
            }),
        }
    }

    /// The Redis key of `api_key`'s bucket.
    pub fn key(&self, api_key: &str) -> String {
        [self.prefix.as_str(), api_key, self.suffix.as_str()].concat()
    }

    /// Whether the API key is inside the key's hash tag: the first `{` comes before the `*` and
    /// the first `}` after that `{` comes after it. The API key may then end the tag early (if it
    /// contains `}`), which changes its slot but still keeps each of its keys in one.
    pub fn tags_the_api_key(&self) -> bool {
        self.prefix
            .find('{')
            .is_some_and(|open| !self.prefix[open..].contains('}') && self.suffix.contains('}'))
    }

    /// This pattern, if the API key is its hash tag, as a cluster store requires (see the module's
    /// documentation: the script touches one key, but a client's later keys must share its slot).
    pub fn for_cluster(self) -> Result<Self, KeyPatternError> {
        if self.tags_the_api_key() {
            Ok(self)
        } else {
            Err(KeyPatternError {
                pattern: format!("{}*{}", self.prefix, self.suffix),
                rule: "the `*` inside a hash tag for a Redis Cluster (like \"bucketlab:{*}\"), \
                       so that each client's keys hash to one slot",
            })
        }
    }
}

/// A key pattern that can't be used: the pattern and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPatternError {
    pattern: String,
    rule: &'static str,
}

impl KeyPatternError {
    /// The message with the setting's name as the caller knows it (`--key-pattern` for a flag).
    pub fn message_with(&self, name: &str) -> String {
        format!("{name} must have {}, got {:?}", self.rule, self.pattern)
    }
}

impl fmt::Display for KeyPatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_with("key-pattern"))
    }
}

impl std::error::Error for KeyPatternError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_key_takes_the_stars_place() {
        let pattern = KeyPattern::default();
        assert_eq!(pattern.key("alice"), "bucketlab:{alice}");
        assert_eq!(
            KeyPattern::parse("rl:*:bucket").unwrap().key("bob"),
            "rl:bob:bucket"
        );
    }

    #[test]
    fn a_pattern_needs_exactly_one_star() {
        for text in ["bucketlab:", "bucketlab:{*}:*", ""] {
            let error = KeyPattern::parse(text).unwrap_err().to_string();
            assert!(
                error.starts_with("key-pattern must have exactly one `*`")
                    && error.ends_with(&format!("got {text:?}")),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn a_cluster_pattern_must_put_the_api_key_in_the_hash_tag() {
        for ok in ["bucketlab:{*}", "{*}", "rl:{user:*}:bucket", "{*:tokens}"] {
            assert!(KeyPattern::parse(ok).unwrap().for_cluster().is_ok(), "{ok}");
        }
        for refused in [
            "bucketlab:*",     // no tag: the whole key is hashed
            "{bucketlab}:*",   // a tag without the API key: every client in one slot
            "bucketlab:*:{x}", // the tag comes after the API key
            "bucketlab:{*",    // never closed
        ] {
            let error = KeyPattern::parse(refused)
                .unwrap()
                .for_cluster()
                .unwrap_err()
                .to_string();
            assert_eq!(
                error,
                format!(
                    "key-pattern must have the `*` inside a hash tag for a Redis Cluster \
                     (like \"bucketlab:{{*}}\"), so that each client's keys hash to one slot, \
                     got {refused:?}"
                )
            );
        }
        // A `}` before the first `{` does not matter: Redis reads the first `{`, then the first
        // `}` after it.
        assert!(KeyPattern::parse("bucketlab:}{*}")
            .unwrap()
            .tags_the_api_key());
    }
}
