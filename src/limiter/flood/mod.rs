//! A flood against one API, layer by layer: `attackers` IPs and a crowd of legitimate users send
//! requests through switchable defenses (an edge that absorbs a share of the flood, a token bucket
//! per IP, one global token bucket) to an origin that can serve only so many requests per second.
//! One call, [`simulate`], runs it seeded and with explicit time, and measures what the origin
//! went through and what the legitimate users got.
//!
//! ```
//! use bucketlab::limiter::flood::{simulate, Flood, FloodSettings, Layers};
//!
//! // 5 000 IPs, each sending 1 request per second: far under a per-IP limit of 2 per second.
//! let settings = FloodSettings { attackers: 5_000, ..FloodSettings::default() };
//! let run = simulate(&Flood::new(settings)?);
//! assert_eq!(run.summary.attackers_limited, 0, "no single key is ever limited");
//! assert!(f64::from(run.summary.origin_peak) > settings.origin_capacity, "yet the origin is swamped");
//!
//! // One bucket for the whole API keeps the origin under its capacity, at a price.
//! let layers = Layers { global: true, ..settings.layers };
//! let run = simulate(&Flood::new(FloodSettings { layers, ..settings })?);
//! assert!(f64::from(run.summary.origin_peak) <= settings.origin_capacity);
//! assert!(run.summary.users_limited > 0, "legitimate users get 429s too");
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

/// Who sends what, when: the attackers' and the users' arrival times.
mod arrivals;
/// The run through the layers, and its measures.
mod simulate;

pub use simulate::{
    simulate, Bin, FloodRun, Summary, EDGE_DROPPED, GLOBAL_LIMITED, IP_LIMITED, OVERLOADED, SERVED,
};

use super::{BucketConfig, Field, InvalidValue, Rule};

/// The most attacking IPs.
pub const MAX_ATTACKERS: u32 = 10_000;
/// The most legitimate users.
pub const MAX_USERS: u32 = 2_000;
/// The fastest any one sender may go, requests per second.
pub const MAX_SENDER_RATE: f64 = 100.0;
/// The longest run, in seconds.
pub const MAX_DURATION: f64 = 60.0;
/// The largest origin capacity, bucket size or refill rate.
pub const MAX_CAPACITY: f64 = 1_000_000.0;
/// The most requests one run may hold; a faster flood is refused up front, naming its rate.
pub const MAX_REQUESTS: f64 = 1_000_000.0;

/// Fields of the flood's settings, for error messages (named as the JavaScript options are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloodField {
    /// Number of attacking IPs.
    Attackers,
    /// Requests per second from each attacking IP.
    AttackRate,
    /// Second at which the flood starts.
    AttackStart,
    /// Number of legitimate users.
    Users,
    /// Mean requests per second from each legitimate user.
    UserRate,
    /// Length of the run, in seconds.
    Duration,
    /// Requests per second the origin can serve.
    OriginCapacity,
    /// Capacity `B` of each IP's bucket.
    IpCapacity,
    /// Refill rate `r` of each IP's bucket.
    IpRate,
    /// Capacity `B` of the global bucket.
    GlobalCapacity,
    /// Refill rate `r` of the global bucket.
    GlobalRate,
    /// Share of the flood the edge absorbs.
    EdgeShare,
}

impl FloodField {
    /// The name in messages, as the JavaScript options spell it.
    pub fn name(self) -> &'static str {
        match self {
            FloodField::Attackers => "attackers",
            FloodField::AttackRate => "attackRate",
            FloodField::AttackStart => "attackStart",
            FloodField::Users => "users",
            FloodField::UserRate => "userRate",
            FloodField::Duration => "duration",
            FloodField::OriginCapacity => "originCapacity",
            FloodField::IpCapacity => "ipCapacity",
            FloodField::IpRate => "ipRate",
            FloodField::GlobalCapacity => "globalCapacity",
            FloodField::GlobalRate => "globalRate",
            FloodField::EdgeShare => "edgeShare",
        }
    }
}

/// Which defenses stand between the senders and the origin, in the order a request meets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layers {
    /// The edge (a CDN or a scrubbing network) drops a share of the flood before the origin.
    pub edge: bool,
    /// Each IP has its own token bucket.
    pub per_ip: bool,
    /// One token bucket for the whole API.
    pub global: bool,
}

/// A run's settings, before [`Flood::new`] checks them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloodSettings {
    /// Attacking IPs (1..=10 000).
    pub attackers: u32,
    /// Requests per second from each attacking IP, evenly spaced (in `(0, 100]`).
    pub attack_rate: f64,
    /// When the flood starts, in seconds (from 0 to `duration`).
    pub attack_start: f64,
    /// Legitimate users (1..=2 000), each its own IP.
    pub users: u32,
    /// Mean requests per second from each user, as a Poisson process (in `(0, 100]`).
    pub user_rate: f64,
    /// Length of the run, in seconds (whole, 1..=60).
    pub duration: f64,
    /// Requests the origin serves per second; beyond that, requests fail (time out).
    pub origin_capacity: f64,
    /// `B` of each IP's bucket.
    pub ip_capacity: f64,
    /// `r` of each IP's bucket, tokens per second.
    pub ip_rate: f64,
    /// `B` of the global bucket.
    pub global_capacity: f64,
    /// `r` of the global bucket, tokens per second.
    pub global_rate: f64,
    /// Share of the flood's requests the edge drops, from 0 to 1.
    pub edge_share: f64,
    /// The layers switched on.
    pub layers: Layers,
    /// Seed of the random draws (the attackers' phases, the users' Poisson arrivals).
    pub seed: u32,
}

impl Default for FloodSettings {
    /// The lesson's scenario: 100 attacking IPs at 1 request per second each (a per-IP bucket
    /// allows 2 per second), 200 users at 0.5 per second, an origin that serves 1 000 per second,
    /// a global bucket of 200 refilled at 800 per second (at most 1 000 in any second), an edge that absorbs 90 % of the flood.
    fn default() -> Self {
        FloodSettings {
            attackers: 100,
            attack_rate: 1.0,
            attack_start: 2.0,
            users: 200,
            user_rate: 0.5,
            duration: 12.0,
            origin_capacity: 1_000.0,
            ip_capacity: 20.0,
            ip_rate: 2.0,
            global_capacity: 200.0,
            global_rate: 800.0,
            edge_share: 0.9,
            layers: Layers {
                edge: false,
                per_ip: true,
                global: false,
            },
            seed: 1,
        }
    }
}

/// Settings that passed every check: only these can be simulated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flood {
    settings: FloodSettings,
    ip_bucket: BucketConfig,
    global_bucket: BucketConfig,
}

fn check(field: FloodField, value: f64, rule: Rule) -> Result<f64, InvalidValue> {
    InvalidValue::check(Field::Flood(field), value, rule)
}

impl Flood {
    /// Checks every setting, naming the first one out of range. A flood with more than 1 000 000
    /// requests is refused by its `attackRate`, with the fastest rate that fits.
    pub fn new(settings: FloodSettings) -> Result<Self, InvalidValue> {
        use FloodField as F;
        let s = settings;
        check(
            F::Attackers,
            s.attackers.into(),
            Rule::Whole(1, MAX_ATTACKERS),
        )?;
        check(F::Users, s.users.into(), Rule::Whole(1, MAX_USERS))?;
        check(F::Duration, s.duration, Rule::Whole(1, MAX_DURATION as u32))?;
        check(F::AttackStart, s.attack_start, Rule::UpTo(s.duration))?;
        let sender = Rule::PositiveUpTo(MAX_SENDER_RATE);
        check(F::AttackRate, s.attack_rate, sender)?;
        check(F::UserRate, s.user_rate, sender)?;
        let positive = Rule::PositiveUpTo(MAX_CAPACITY);
        check(F::OriginCapacity, s.origin_capacity, positive)?;
        let ip = [
            check(F::IpCapacity, s.ip_capacity, positive)?,
            check(F::IpRate, s.ip_rate, positive)?,
        ];
        let global = [
            check(F::GlobalCapacity, s.global_capacity, positive)?,
            check(F::GlobalRate, s.global_rate, positive)?,
        ];
        check(F::EdgeShare, s.edge_share, Rule::UpTo(1.0))?;
        // Expected requests: the users' (10 % headroom for Poisson's spread), then the flood's.
        let user_seconds = f64::from(s.users) * s.duration * 1.1;
        if user_seconds * s.user_rate > MAX_REQUESTS {
            let fastest = (MAX_REQUESTS / user_seconds * 1000.0).floor() / 1000.0;
            check(F::UserRate, s.user_rate, Rule::PositiveUpTo(fastest))?;
        }
        let users = user_seconds * s.user_rate;
        let flood_seconds = (s.duration - s.attack_start).max(0.0);
        let per_rate = f64::from(s.attackers) * flood_seconds;
        if per_rate > 0.0 && per_rate * s.attack_rate + users > MAX_REQUESTS {
            let fastest = ((MAX_REQUESTS - users).max(0.0) / per_rate * 1000.0).floor() / 1000.0;
            check(F::AttackRate, s.attack_rate, Rule::PositiveUpTo(fastest))?;
        }
        let bucket = |[capacity, rate]: [f64; 2]| {
            BucketConfig::new(capacity, rate).expect("checked as positive and finite above")
        };
        Ok(Flood {
            settings,
            ip_bucket: bucket(ip),
            global_bucket: bucket(global),
        })
    }

    /// The checked settings.
    pub fn settings(&self) -> &FloodSettings {
        &self.settings
    }

    /// Each IP's bucket.
    pub fn ip_bucket(&self) -> BucketConfig {
        self.ip_bucket
    }

    /// The global bucket.
    pub fn global_bucket(&self) -> BucketConfig {
        self.global_bucket
    }
}
