//! The flood's layers keep their promises: no IP's bucket ever lets more through than `B + r·t`
//! over any span `t`, the global bucket never more than `B + r·T` in all, the origin never serves
//! more than its capacity in a second; and the same seed gives the same run.

use bucketlab::limiter::flood::{
    simulate, Flood, FloodRun, FloodSettings, Layers, GLOBAL_LIMITED, IP_LIMITED, SERVED,
};

fn run(settings: FloodSettings) -> FloodRun {
    simulate(&Flood::new(settings).expect("valid settings"))
}

fn all_layers() -> Layers {
    Layers {
        edge: true,
        per_ip: true,
        global: true,
    }
}

/// The largest `count(admitted in [a_i, a_j]) − rate · (a_j − a_i)` over every span of `times`
/// (ascending): a token bucket of `B`, `r` keeps it at most `B`. One pass, not every pair.
fn worst_excess(times: &[f64], rate: f64) -> f64 {
    let mut best_start = f64::NEG_INFINITY; // max over i ≤ j of (rate · a_i − i)
    let mut worst = f64::NEG_INFINITY;
    for (j, &t) in times.iter().enumerate() {
        best_start = best_start.max(rate * t - j as f64);
        worst = worst.max(j as f64 + 1.0 - rate * t + best_start);
    }
    worst
}

/// Times of the requests of `run` for which `keep(sender, fate)` holds.
fn times_where(run: &FloodRun, keep: impl Fn(u32, u8) -> bool) -> Vec<f64> {
    (0..run.times.len())
        .filter(|&i| keep(run.senders[i], run.fates[i]))
        .map(|i| run.times[i])
        .collect()
}

/// Requests that got past the per-IP layer: refused further on, or reaching the origin.
fn past_ip(fate: u8) -> bool {
    fate >= GLOBAL_LIMITED
}

#[test]
fn no_ip_ever_gets_more_than_its_bucket_allows() {
    // One abusive client far over its limit, then a crowd of IPs bursting well over theirs.
    for (attackers, attack_rate) in [(1, 50.0), (300, 5.0), (40, 100.0)] {
        let settings = FloodSettings {
            attackers,
            attack_rate,
            ip_capacity: 7.0,
            ip_rate: 1.5,
            layers: all_layers(),
            edge_share: 0.3,
            ..FloodSettings::default()
        };
        let run = run(settings);
        let senders = attackers + settings.users;
        for sender in 0..senders {
            let passed = times_where(&run, |s, fate| s == sender && past_ip(fate));
            let excess = worst_excess(&passed, settings.ip_rate);
            assert!(
                excess <= settings.ip_capacity + 1e-9,
                "sender {sender} of {attackers} at {attack_rate}/s: {excess} over r·t, B = 7"
            );
        }
        assert!(
            run.summary.attackers_limited > 0,
            "the limit did refuse some"
        );
        assert!(
            f64::from(run.summary.max_ip_passed) <= 7.0 + 1.5 * settings.duration,
            "{}",
            run.summary.max_ip_passed
        );
    }
}

#[test]
fn the_global_bucket_admits_at_most_b_plus_r_t() {
    for attackers in [100, 2_000, 10_000] {
        let settings = FloodSettings {
            attackers,
            attack_rate: 1.0,
            global_capacity: 300.0,
            global_rate: 500.0,
            layers: Layers {
                global: true,
                ..Layers::default()
            },
            ..FloodSettings::default()
        };
        let run = run(settings);
        let bound = 300.0 + 500.0 * settings.duration;
        let admitted = run.summary.global_admitted;
        assert!(
            f64::from(admitted) <= bound,
            "{attackers} IPs: {admitted} > {bound}"
        );
        let through = times_where(&run, |_, fate| fate > GLOBAL_LIMITED);
        assert_eq!(through.len() as u32, admitted);
        let excess = worst_excess(&through, 500.0);
        assert!(
            excess <= 300.0 + 1e-9,
            "{attackers} IPs: {excess} over r·t in some span"
        );
    }
}

#[test]
fn the_origin_never_serves_more_than_its_capacity_in_a_second() {
    let settings = FloodSettings {
        attackers: 10_000,
        layers: Layers::default(),
        ..FloodSettings::default()
    };
    let run = run(settings);
    for (second, bin) in run.bins.iter().enumerate() {
        assert!(
            f64::from(bin.served) <= settings.origin_capacity,
            "second {second}: {bin:?}"
        );
        let served = times_where(&run, |_, fate| fate == SERVED)
            .iter()
            .filter(|&&t| t as usize == second)
            .count();
        assert_eq!(served as u32, bin.served, "second {second}");
    }
}

#[test]
fn the_same_seed_gives_the_same_run_and_another_seed_another() {
    let settings = FloodSettings {
        attackers: 3_000,
        layers: all_layers(),
        ..FloodSettings::default()
    };
    let a = run(settings);
    assert_eq!(a, run(settings), "bit for bit");
    let b = run(FloodSettings {
        seed: 2,
        ..settings
    });
    assert_ne!(a.times, b.times);
    assert_eq!(a.fates.iter().filter(|&&f| f == IP_LIMITED).count(), 0);
}

#[test]
fn every_request_is_counted_once() {
    let run = run(FloodSettings {
        attackers: 10_000,
        attack_rate: 3.0,
        layers: all_layers(),
        ..FloodSettings::default()
    });
    let s = run.summary;
    let ended = s.edge_dropped + s.ip_limited + s.global_limited + s.overloaded + s.served;
    assert_eq!(ended, s.flood_requests + s.user_requests);
    assert_eq!(run.times.len() as u32, ended);
    assert!(run.times.windows(2).all(|w| w[0] <= w[1]), "in time order");
}
