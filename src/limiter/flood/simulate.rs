//! The run: every request meets the layers in order (edge, its IP's bucket, the global bucket) and
//! then the origin, which serves at most `origin_capacity` requests in each second and lets the rest
//! fail. Per request it records what stopped it; per second and for the whole run, what the origin
//! saw and what the legitimate users got.

use super::arrivals::arrivals;
use super::Flood;
use crate::limiter::TokenBucket;

/// Fate of a flood request the edge absorbed.
pub const EDGE_DROPPED: u8 = 0;
/// Fate of a request its IP's bucket refused (429).
pub const IP_LIMITED: u8 = 1;
/// Fate of a request the global bucket refused (429).
pub const GLOBAL_LIMITED: u8 = 2;
/// Fate of a request that reached an origin already serving all it can this second (a timeout).
pub const OVERLOADED: u8 = 3;
/// Fate of a request the origin served.
pub const SERVED: u8 = 4;

/// One second of the run: how many requests ended each way in it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bin {
    /// Requests sent (flood and users).
    pub sent: u32,
    /// Flood requests the edge absorbed.
    pub edge_dropped: u32,
    /// Requests refused by their IP's bucket.
    pub ip_limited: u32,
    /// Requests refused by the global bucket.
    pub global_limited: u32,
    /// Requests that reached the origin: its load.
    pub origin: u32,
    /// Requests the origin served.
    pub served: u32,
    /// Users' requests sent.
    pub user_sent: u32,
    /// Users' requests refused with a 429 (by either bucket).
    pub user_limited: u32,
    /// Users' requests that reached an overloaded origin and failed.
    pub user_failed: u32,
}

/// The whole run's measures.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Summary {
    /// Requests sent by the attacking IPs.
    pub flood_requests: u32,
    /// Requests sent by the users.
    pub user_requests: u32,
    /// Flood requests the edge absorbed.
    pub edge_dropped: u32,
    /// Requests refused by their IP's bucket.
    pub ip_limited: u32,
    /// Requests refused by the global bucket.
    pub global_limited: u32,
    /// Requests admitted by the global bucket (0 when it is off).
    pub global_admitted: u32,
    /// Requests that reached the origin while it was full, and failed.
    pub overloaded: u32,
    /// Requests served.
    pub served: u32,
    /// The most requests that reached the origin in one second.
    pub origin_peak: u32,
    /// Requests that reached the origin per second, on average over the run.
    pub origin_mean: f64,
    /// Seconds in which more requests reached the origin than it could serve.
    pub seconds_over_capacity: u32,
    /// Attacking IPs refused at least once by their own bucket.
    pub attackers_limited: u32,
    /// The most requests one IP got past the per-IP layer (all of them when it is off).
    pub max_ip_passed: u32,
    /// Users refused (429) at least once.
    pub users_limited: u32,
    /// Users with at least one request failed at an overloaded origin.
    pub users_failed: u32,
    /// Share of the users' requests refused with a 429, from 0 to 1.
    pub user_limited_share: f64,
    /// Share of the users' requests that failed at an overloaded origin.
    pub user_failed_share: f64,
    /// Share of the users' requests served.
    pub user_served_share: f64,
}

/// A run: every request (time, sender, fate) in time order, the seconds, and the measures.
#[derive(Debug, Clone, PartialEq)]
pub struct FloodRun {
    /// Arrival times, seconds, ascending.
    pub times: Vec<f64>,
    /// Who sent each request: `0..attackers` are attacking IPs, then the users.
    pub senders: Vec<u32>,
    /// What happened to each request: [`EDGE_DROPPED`], [`IP_LIMITED`], [`GLOBAL_LIMITED`],
    /// [`OVERLOADED`] or [`SERVED`].
    pub fates: Vec<u8>,
    /// One entry per second of the run.
    pub bins: Vec<Bin>,
    /// The measures of the whole run.
    pub summary: Summary,
}

/// Runs the flood. The same settings give the same run, bit for bit, on every platform.
pub fn simulate(flood: &Flood) -> FloodRun {
    let s = flood.settings();
    let layers = s.layers;
    let requests = arrivals(s);
    let senders_total = (s.attackers + s.users) as usize;
    let mut ip_buckets = vec![TokenBucket::new(flood.ip_bucket()); senders_total];
    let mut global = TokenBucket::new(flood.global_bucket());
    let mut passed_ip = vec![0u32; senders_total];
    let mut limited = vec![false; senders_total];
    let mut ip_refused = vec![false; senders_total];
    let mut failed = vec![false; senders_total];
    let mut bins = vec![Bin::default(); s.duration as usize];
    let mut summary = Summary::default();
    // The edge drops exactly `edge_share` of the flood, spread evenly over it: a running remainder
    // (no random draw, so the share is the same at every scale).
    let mut edge_debt = 0.0;
    let last_bin = bins.len() - 1;
    let mut fates = Vec::with_capacity(requests.len());
    for &(time, sender) in &requests {
        let is_user = sender >= s.attackers;
        let bin = &mut bins[(time as usize).min(last_bin)];
        let admitted = |bucket: &mut TokenBucket| {
            bucket
                .try_acquire(1.0, time)
                .expect("a cost of 1 at a finite time")
                .is_admitted()
        };
        let mut edge_drops = false;
        if layers.edge && !is_user {
            edge_debt += s.edge_share;
            edge_drops = edge_debt >= 1.0;
            if edge_drops {
                edge_debt -= 1.0;
            }
        }
        let fate = if edge_drops {
            EDGE_DROPPED
        } else if layers.per_ip && !admitted(&mut ip_buckets[sender as usize]) {
            IP_LIMITED
        } else if layers.global && !admitted(&mut global) {
            passed_ip[sender as usize] += 1;
            GLOBAL_LIMITED
        } else {
            passed_ip[sender as usize] += 1;
            summary.global_admitted += u32::from(layers.global);
            bin.origin += 1;
            if f64::from(bin.served) + 1.0 <= s.origin_capacity {
                bin.served += 1;
                SERVED
            } else {
                OVERLOADED
            }
        };
        bin.sent += 1;
        match fate {
            EDGE_DROPPED => bin.edge_dropped += 1,
            IP_LIMITED => bin.ip_limited += 1,
            GLOBAL_LIMITED => bin.global_limited += 1,
            _ => {}
        }
        let limited_now = fate == IP_LIMITED || fate == GLOBAL_LIMITED;
        limited[sender as usize] |= limited_now;
        ip_refused[sender as usize] |= fate == IP_LIMITED;
        failed[sender as usize] |= fate == OVERLOADED;
        if is_user {
            bin.user_sent += 1;
            bin.user_limited += u32::from(limited_now);
            bin.user_failed += u32::from(fate == OVERLOADED);
        }
        fates.push(fate);
    }
    let attackers = s.attackers as usize;
    for bin in &bins {
        summary.user_requests += bin.user_sent;
        summary.edge_dropped += bin.edge_dropped;
        summary.ip_limited += bin.ip_limited;
        summary.global_limited += bin.global_limited;
        summary.served += bin.served;
        summary.overloaded += bin.origin - bin.served;
        summary.origin_peak = summary.origin_peak.max(bin.origin);
        summary.seconds_over_capacity += u32::from(f64::from(bin.origin) > s.origin_capacity);
    }
    summary.flood_requests = requests.len() as u32 - summary.user_requests;
    let reached: u32 = bins.iter().map(|b| b.origin).sum();
    summary.origin_mean = f64::from(reached) / s.duration;
    let count = |flags: &[bool]| flags.iter().filter(|&&f| f).count() as u32;
    summary.attackers_limited = count(&ip_refused[..attackers]);
    summary.max_ip_passed = passed_ip.iter().copied().max().unwrap_or(0);
    summary.users_limited = count(&limited[attackers..]);
    summary.users_failed = count(&failed[attackers..]);
    if summary.user_requests > 0 {
        let share = |n: u32| f64::from(n) / f64::from(summary.user_requests);
        let user = |f: fn(&Bin) -> u32| bins.iter().map(f).sum::<u32>();
        summary.user_limited_share = share(user(|b| b.user_limited));
        summary.user_failed_share = share(user(|b| b.user_failed));
        summary.user_served_share = share(user(|b| b.user_sent - b.user_limited - b.user_failed));
    }
    FloodRun {
        times: requests.iter().map(|r| r.0).collect(),
        senders: requests.iter().map(|r| r.1).collect(),
        fates,
        bins,
        summary,
    }
}
