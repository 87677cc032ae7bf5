//! The flood's wasm boundary: one function, `simulateFlood(options)`, built into the lab's module.
//! The whole run happens inside wasm in one call; what comes back is per second (typed arrays)
//! and for the whole run, not one value per request.
//!
//! ```js
//! const run = simulateFlood({
//!   attackers: 10000, attackRate: 1,               // each IP under its limit of 2 per second
//!   layers: { edge: false, perIp: true, global: true },
//!   seed: 1,                                      // every other option has the lesson's default
//! });
//! run.summary.originPeak      // 1000: the global bucket keeps the origin at its capacity
//! run.summary.usersLimited    // but most users got a 429
//! ```

use super::convert::describe;
use super::convert::{field, object, optional, read_object, to_js};
use crate::limiter::flood::{
    self, Bin, Flood, FloodField, FloodRun, FloodSettings, Layers, MAX_ATTACKERS, MAX_CAPACITY,
    MAX_DURATION, MAX_SENDER_RATE, MAX_USERS,
};
use crate::limiter::{Field, Rule};
use js_sys::Uint32Array;
use wasm_bindgen::prelude::*;

const OPTION_KEYS: [&str; 14] = [
    "attackers",
    "attackRate",
    "attackStart",
    "users",
    "userRate",
    "duration",
    "originCapacity",
    "ipCapacity",
    "ipRate",
    "globalCapacity",
    "globalRate",
    "edgeShare",
    "layers",
    "seed",
];
const LAYER_KEYS: [&str; 3] = ["edge", "perIp", "global"];

/// Runs the flood. Every option but `layers` is a number and may be left out (the lesson's
/// default then). Returns `{ duration, originCapacity, users, ipCapacity, ipRate, globalCapacity,
/// globalRate (the settings used), seconds: { sent, edgeDropped, ipLimited,
/// globalLimited, origin, served, userSent, userLimited, userFailed } (Uint32Array, one entry per
/// second), summary: { floodRequests, userRequests, edgeDropped, ipLimited, globalLimited,
/// globalAdmitted, overloaded, served, originPeak, originMean, secondsOverCapacity,
/// attackersLimited, maxIpPassed, usersLimited, usersFailed, userLimitedShare, userFailedShare,
/// userServedShare } }`. Throws an `Error` naming the option, the value and what is allowed.
#[wasm_bindgen(js_name = simulateFlood)]
pub fn simulate_flood(options: &JsValue) -> Result<JsValue, JsError> {
    let options = read_object("options", options, &OPTION_KEYS)?;
    let d = FloodSettings::default();
    let get = |key: &str| field("options", &options, key);
    let setting = |name: FloodField, rule: Rule, default: f64| {
        optional(
            "options",
            &options,
            name.name(),
            Field::Flood(name),
            rule,
            default,
        )
    };
    let positive = Rule::PositiveUpTo(MAX_CAPACITY);
    let duration = setting(
        FloodField::Duration,
        Rule::Whole(1, MAX_DURATION as u32),
        d.duration,
    )?;
    let settings = FloodSettings {
        attackers: setting(
            FloodField::Attackers,
            Rule::Whole(1, MAX_ATTACKERS),
            d.attackers.into(),
        )? as u32,
        attack_rate: setting(
            FloodField::AttackRate,
            Rule::PositiveUpTo(MAX_SENDER_RATE),
            d.attack_rate,
        )?,
        attack_start: setting(
            FloodField::AttackStart,
            Rule::UpTo(duration),
            d.attack_start,
        )?,
        users: setting(FloodField::Users, Rule::Whole(1, MAX_USERS), d.users.into())? as u32,
        user_rate: setting(
            FloodField::UserRate,
            Rule::PositiveUpTo(MAX_SENDER_RATE),
            d.user_rate,
        )?,
        duration,
        origin_capacity: setting(FloodField::OriginCapacity, positive, d.origin_capacity)?,
        ip_capacity: setting(FloodField::IpCapacity, positive, d.ip_capacity)?,
        ip_rate: setting(FloodField::IpRate, positive, d.ip_rate)?,
        global_capacity: setting(FloodField::GlobalCapacity, positive, d.global_capacity)?,
        global_rate: setting(FloodField::GlobalRate, positive, d.global_rate)?,
        edge_share: setting(FloodField::EdgeShare, Rule::UpTo(1.0), d.edge_share)?,
        layers: layers(&get("layers")?, d.layers)?,
        seed: optional(
            "options",
            &options,
            "seed",
            Field::Seed,
            Rule::Whole(0, u32::MAX),
            d.seed.into(),
        )? as u32,
    };
    let flood = Flood::new(settings).map_err(to_js)?;
    Ok(to_object(&flood::simulate(&flood), &settings).into())
}

/// `layers`: `{ edge, perIp, global }`, each true or false; a layer left out keeps its default.
fn layers(value: &JsValue, default: Layers) -> Result<Layers, JsError> {
    if value.is_undefined() {
        return Ok(default);
    }
    let layers = read_object("layers", value, &LAYER_KEYS)?;
    let flag = |key: &str, default: bool| -> Result<bool, JsError> {
        let value = field("layers", &layers, key)?;
        if value.is_undefined() {
            return Ok(default);
        }
        value.as_bool().ok_or_else(|| {
            JsError::new(&format!(
                "layers.{key} must be true (switched on) or false, got {}",
                describe(&value)
            ))
        })
    };
    Ok(Layers {
        edge: flag("edge", default.edge)?,
        per_ip: flag("perIp", default.per_ip)?,
        global: flag("global", default.global)?,
    })
}

/// The run as the object `simulateFlood` returns (see there).
fn to_object(run: &FloodRun, settings: &FloodSettings) -> js_sys::Object {
    let series = |f: fn(&Bin) -> u32| -> JsValue {
        let values: Vec<u32> = run.bins.iter().map(f).collect();
        Uint32Array::from(&values[..]).into()
    };
    let seconds = object(&[
        ("sent", series(|b| b.sent)),
        ("edgeDropped", series(|b| b.edge_dropped)),
        ("ipLimited", series(|b| b.ip_limited)),
        ("globalLimited", series(|b| b.global_limited)),
        ("origin", series(|b| b.origin)),
        ("served", series(|b| b.served)),
        ("userSent", series(|b| b.user_sent)),
        ("userLimited", series(|b| b.user_limited)),
        ("userFailed", series(|b| b.user_failed)),
    ]);
    let s = &run.summary;
    let summary = object(&[
        ("floodRequests", s.flood_requests.into()),
        ("userRequests", s.user_requests.into()),
        ("edgeDropped", s.edge_dropped.into()),
        ("ipLimited", s.ip_limited.into()),
        ("globalLimited", s.global_limited.into()),
        ("globalAdmitted", s.global_admitted.into()),
        ("overloaded", s.overloaded.into()),
        ("served", s.served.into()),
        ("originPeak", s.origin_peak.into()),
        ("originMean", s.origin_mean.into()),
        ("secondsOverCapacity", s.seconds_over_capacity.into()),
        ("attackersLimited", s.attackers_limited.into()),
        ("maxIpPassed", s.max_ip_passed.into()),
        ("usersLimited", s.users_limited.into()),
        ("usersFailed", s.users_failed.into()),
        ("userLimitedShare", s.user_limited_share.into()),
        ("userFailedShare", s.user_failed_share.into()),
        ("userServedShare", s.user_served_share.into()),
    ]);
    object(&[
        ("duration", settings.duration.into()),
        ("originCapacity", settings.origin_capacity.into()),
        ("users", settings.users.into()),
        ("ipCapacity", settings.ip_capacity.into()),
        ("ipRate", settings.ip_rate.into()),
        ("globalCapacity", settings.global_capacity.into()),
        ("globalRate", settings.global_rate.into()),
        ("seconds", seconds.into()),
        ("summary", summary.into()),
    ])
}
