//! What each layer adds, measured as the lesson states it: a per-IP bucket stops one abusive client
//! but not a flood of IPs each under its limit; a global bucket protects the origin and refuses
//! legitimate users too; an edge that absorbs most of the flood spares both.

use bucketlab::limiter::flood::{simulate, Flood, FloodSettings, Layers, Summary};

fn summary(settings: FloodSettings) -> Summary {
    simulate(&Flood::new(settings).expect("valid settings")).summary
}

fn flood(attackers: u32, edge: bool, per_ip: bool, global: bool) -> FloodSettings {
    FloodSettings {
        attackers,
        layers: Layers {
            edge,
            per_ip,
            global,
        },
        ..FloodSettings::default()
    }
}

#[test]
fn one_abusive_client_is_stopped_by_its_own_bucket() {
    let abuser = FloodSettings {
        attackers: 1,
        attack_rate: 50.0,
        ..flood(1, false, true, false)
    };
    let limited = summary(abuser);
    assert_eq!(limited.attackers_limited, 1);
    let bound = abuser.ip_capacity + abuser.ip_rate * (abuser.duration - abuser.attack_start);
    assert!(f64::from(limited.max_ip_passed) <= bound, "{limited:?}");
    assert!(
        limited.ip_limited > 400,
        "most of its 500 requests refused: {limited:?}"
    );
    assert_eq!(limited.users_limited, 0, "nobody else is touched");
    let open = summary(FloodSettings {
        layers: Layers::default(),
        ..abuser
    });
    assert_eq!(
        open.max_ip_passed, 500,
        "without the bucket all of it passes"
    );
}

#[test]
fn a_flood_of_ips_under_their_limit_is_not_stopped_by_per_ip_buckets() {
    let small = summary(flood(100, false, true, false));
    let large = summary(flood(10_000, false, true, false));
    for s in [small, large] {
        assert_eq!(s.attackers_limited, 0, "no key is ever limited: {s:?}");
        assert_eq!(s.ip_limited, 0);
    }
    let capacity = FloodSettings::default().origin_capacity;
    assert!(f64::from(small.origin_peak) < capacity, "{small:?}");
    assert!(
        f64::from(large.origin_peak) > 10.0 * capacity * 0.9,
        "{large:?}"
    );
    assert!(large.seconds_over_capacity >= 9);
    assert!(
        large.user_failed_share > 0.5,
        "users' requests time out: {large:?}"
    );
    assert_eq!(
        large,
        summary(flood(10_000, false, false, false)),
        "the per-IP layer changes nothing"
    );
}

#[test]
fn the_global_bucket_protects_the_origin_and_refuses_users_too() {
    let settings = flood(10_000, false, true, true);
    let s = summary(settings);
    assert!(
        f64::from(s.origin_peak) <= settings.origin_capacity,
        "{s:?}"
    );
    assert_eq!(s.seconds_over_capacity, 0);
    assert_eq!(s.users_failed, 0, "no timeouts any more");
    assert!(
        s.user_limited_share > 0.5,
        "but most users' requests get 429s: {s:?}"
    );
    assert!(s.users_limited > settings.users * 9 / 10);
    // With no flood, the same global bucket refuses nobody.
    let calm = summary(flood(1, false, true, true));
    assert_eq!(calm.users_limited, 0, "{calm:?}");
}

#[test]
fn the_edge_absorbs_most_of_the_flood_before_the_origin() {
    let without = summary(flood(10_000, false, true, false));
    let with = summary(flood(10_000, true, true, false));
    let share = FloodSettings::default().edge_share;
    let expected = f64::from(without.flood_requests) * share;
    assert!(
        (f64::from(with.edge_dropped) - expected).abs() <= 1.0,
        "{with:?}"
    );
    assert!(with.origin_peak * 5 < without.origin_peak, "{with:?}");
    assert!(with.user_failed_share < without.user_failed_share / 5.0);
    // Alone, it leaves the origin a little over capacity; with the global bucket the origin is
    // safe, and users get fewer 429s than under the global bucket without the edge.
    assert!(with.seconds_over_capacity > 0, "{with:?}");
    let both = summary(flood(10_000, true, true, true));
    let global_only = summary(flood(10_000, false, true, true));
    assert_eq!(both.seconds_over_capacity, 0);
    assert!(
        both.user_limited_share < global_only.user_limited_share,
        "{both:?}"
    );
    assert_eq!(with.users_limited, 0, "the edge alone refuses no user");
}

#[test]
fn the_origin_load_grows_with_the_number_of_ips() {
    let peaks: Vec<u32> = [1, 10, 100, 1_000, 10_000]
        .map(|n| summary(flood(n, false, true, false)).origin_peak)
        .to_vec();
    assert!(peaks.windows(2).all(|w| w[0] <= w[1]), "{peaks:?}");
}

#[test]
fn bad_settings_name_the_field_the_value_and_the_rule() {
    let refused = |settings: FloodSettings| Flood::new(settings).unwrap_err().js_message();
    let base = FloodSettings::default();
    assert_eq!(
        refused(FloodSettings {
            attackers: 0,
            ..base
        }),
        "attackers must be a whole number from 1 to 10000, got 0"
    );
    assert_eq!(
        refused(FloodSettings {
            edge_share: 1.5,
            ..base
        }),
        "edgeShare must be a finite number from 0 to 1, got 1.5"
    );
    assert_eq!(
        refused(FloodSettings {
            global_rate: f64::NAN,
            ..base
        }),
        "globalRate must be a finite number greater than 0 and at most 1000000, got NaN"
    );
    assert_eq!(
        refused(FloodSettings {
            attack_start: 13.0,
            ..base
        }),
        "attackStart must be a finite number from 0 to 12, got 13"
    );
    assert_eq!(
        refused(FloodSettings {
            attackers: 10_000,
            attack_rate: 100.0,
            ..base
        }),
        "attackRate must be a finite number greater than 0 and at most 9.986, got 100"
    );
}
