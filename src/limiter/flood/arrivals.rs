//! When each sender's requests arrive. Attacking IPs send evenly spaced requests, each from its own
//! random phase (so together they are a smooth wall, and each one stays exactly at its rate);
//! users send as independent Poisson processes. One seeded `fastrand` generator draws everything,
//! in a fixed order, and the gaps come from the core's one sampler, so a seed gives the same
//! requests to the bit natively and in WebAssembly.

use super::FloodSettings;
use crate::limiter::traffic::exponential_gap;

/// Every request of the run as `(time, sender)`, in time order (ties by sender). Senders
/// `0..attackers` are the attacking IPs; the users follow.
pub(super) fn arrivals(s: &FloodSettings) -> Vec<(f64, u32)> {
    let mut rng = fastrand::Rng::with_seed(u64::from(s.seed));
    let mut requests = Vec::new();
    let interval = 1.0 / s.attack_rate;
    for sender in 0..s.attackers {
        let first = s.attack_start + rng.f64() * interval;
        // start + k · interval rather than a running sum, so rounding does not drift.
        let times = (0..)
            .map(|k| first + f64::from(k) * interval)
            .take_while(|&t| t < s.duration);
        requests.extend(times.map(|t| (t, sender)));
    }
    for user in 0..s.users {
        let sender = s.attackers + user;
        let mut t = 0.0;
        loop {
            t += exponential_gap(&mut rng, s.user_rate);
            if t >= s.duration {
                break;
            }
            requests.push((t, sender));
        }
    }
    requests.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    requests
}
