//! The chosen policy written for nginx, Envoy, the lesson's YAML policy and the Redis script;
//! where a tool cannot write the policy exactly, the export says so (or gives no configuration).

mod replay_support;

use bucketlab::limiter::BucketConfig;
use bucketlab::replay::export::{
    envoy, envoy_fill, exports, nginx, nginx_kept_per_minute, nginx_rate, redis, yaml, Caveat,
    ENGLISH,
};
use bucketlab::replay::KeySpec;
use replay_support::{marks, traffic_words};

fn config(b: f64, r: f64) -> BucketConfig {
    BucketConfig::new(b, r).unwrap()
}

#[test]
fn nginx_counts_the_burst_beyond_the_first_request() {
    let text = nginx(config(20.0, 5.0)).unwrap();
    assert!(text.contains("rate=5r/s;"), "{text}");
    assert!(
        text.contains("limit_req zone=per_client burst=19 nodelay;"),
        "{text}"
    );
    assert!(!text.contains("Note:"), "exact: no note in {text}");
    // B = 1: no burst at all, which nginx writes without `burst` (it refuses `burst=0`).
    let single = nginx(config(1.0, 1.0)).unwrap();
    assert!(single.contains("limit_req zone=per_client;\n"), "{single}");
    assert!(single.contains("B = 1 leaves none."), "{single}");
    assert!(nginx(config(0.5, 1.0))
        .unwrap()
        .contains("limit_req zone=per_client;\n"));
    let rounded = nginx(config(2.5, 1.0)).unwrap();
    assert!(rounded.contains("burst=2 nodelay"), "rounded up: {rounded}");
    assert!(
        rounded.contains("# Note: nginx counts whole requests: B = 2.5 is written as 3.\n"),
        "and said: {rounded}"
    );
}

#[test]
fn nginx_writes_a_rate_per_second_or_per_minute_exactly_when_it_can() {
    assert_eq!(nginx_rate(12.0).unwrap(), ("12r/s".to_owned(), None));
    assert_eq!(nginx_rate(2.5).unwrap(), ("150r/m".to_owned(), None));
    assert_eq!(nginx_rate(0.1).unwrap(), ("6r/m".to_owned(), None));
    assert_eq!(nginx_rate(0.05).unwrap(), ("3r/m".to_owned(), None));
    // Neither per second nor per minute: the nearest per minute, and what nginx makes of it, said.
    let (rate, caveat) = nginx_rate(1.2345).unwrap();
    assert_eq!(rate, "74r/m");
    assert_eq!(
        caveat.unwrap().to_string(),
        "nginx cannot enforce r = 1.2345/s exactly: the rate written, 74r/m, is 1.233/s in nginx"
    );
}

#[test]
fn nginx_keeps_a_rate_per_minute_to_the_thousandth_below() {
    // ngx_http_limit_req_module keeps `rate * 1000 / 60` thousandths of a request per second, in
    // whole numbers: 1r/m is 0.016/s (a request every 62.5 s, not 60), 7r/m 0.116/s, 8r/m
    // 0.133/s; a multiple of 3r/m is exact. Real nginx 1.22 refused a second request 61.04 s
    // after the first at 1r/m, and one 8.607 s after at 7r/m (it needs 8.621 s).
    assert_eq!(nginx_kept_per_minute(1), 0.016);
    assert_eq!(nginx_kept_per_minute(7), 0.116);
    assert_eq!(nginx_kept_per_minute(8), 0.133);
    assert_eq!(nginx_kept_per_minute(150), 2.5);
    for (rate, written, kept) in [(1.0 / 60.0, "1r/m", 0.016), (7.0 / 60.0, "7r/m", 0.116)] {
        let (text, caveat) = nginx_rate(rate).unwrap();
        assert_eq!(text, written);
        assert_eq!(
            caveat,
            Some(Caveat::RateRounded {
                tool: "nginx",
                rate,
                written: written.to_owned(),
                written_rate: kept,
            }),
            "r = {rate}: nginx enforces {kept}/s, slower, so the export must say so"
        );
    }
    // The rate nginx keeps for 1r/m is its slowest, exactly.
    assert_eq!(nginx_rate(0.016).unwrap(), ("1r/m".to_owned(), None));
    assert_eq!(nginx_rate(0.133).unwrap(), ("8r/m".to_owned(), None));
    // Just above 0.016/s: still 1r/m (not 0r/m), said.
    let (text, caveat) = nginx_rate(0.0163).unwrap();
    assert_eq!(text, "1r/m");
    assert!(
        matches!(caveat, Some(Caveat::RateRounded { written_rate, .. }) if written_rate == 0.016)
    );
}

#[test]
fn nginx_refuses_a_rate_below_one_a_minute_and_a_bucket_that_never_refills() {
    // The recommendation for a short log: r = 0.001/s is not 1r/m (16 times as fast).
    let slow = exports(config(7.0, 0.001), &KeySpec::Ip);
    assert_eq!(slow[0].id, "nginx");
    assert_eq!(slow[0].text, None, "no nginx configuration for r = 0.001");
    assert_eq!(
        slow[0].caveats[0].to_string(),
        "nginx's slowest rate is 1r/m (0.016/s), faster than the r = 0.001/s \
         replayed; no nginx configuration is given"
    );
    // Slower than 1r/m as nginx keeps it, though 0.0159 a second is 0.954 a minute.
    assert!(matches!(nginx_rate(0.0159), Err(Caveat::TooSlow { .. })));
    let never = exports(config(2.0, 0.0), &KeySpec::Ip);
    assert_eq!(never[0].text, None);
    assert_eq!(never[0].caveats, [Caveat::NoRefill { tool: "nginx" }]);
    assert_eq!(nginx(config(2.0, 0.0)), None);
}

#[test]
fn nginx_refuses_a_rate_that_would_be_written_as_0r_m() {
    // 1e-12/s is 6e-11 a minute: within an absolute 1e-9 of the whole number 0, but no rate.
    for rate in [1e-12, 1e-10, 0.004] {
        assert!(
            matches!(nginx_rate(rate), Err(Caveat::TooSlow { .. })),
            "r = {rate}: {:?}",
            nginx_rate(rate)
        );
    }
    assert_eq!(nginx(config(5.0, 1e-12)), None);
}

#[test]
fn the_redis_command_takes_whole_seconds_from_any_date() {
    // `date +%s.%N` prints "1700000000.N" on BSD and macOS, which the script refuses.
    assert_eq!(
        redis(config(21.0, 4.0), &KeySpec::Ip),
        "# KEYS[1] = the client's bucket, by client address as replayed; ARGV = B r cost now \
         (Unix seconds)\n\
         redis-cli --eval redis/token_bucket.lua \"bucketlab:{203.0.113.9}\" , 21 4 1 \"$(date +%s)\"\n"
    );
}

#[test]
fn the_exports_carry_the_replays_key_or_say_they_cannot() {
    let key = KeySpec::Field("user.id".to_owned());
    let all = exports(config(10.0, 2.0), &key);
    let by_id = |id: &str| all.iter().find(|e| e.id == id).unwrap();
    // The Redis script takes any key: the replay's, as a value to fill in.
    assert_eq!(
        by_id("redis").text.as_deref(),
        Some(
            "# KEYS[1] = the bucket of one field:user.id value, as replayed: set KEY to it; \
             ARGV = B r cost now (Unix seconds)\n\
             redis-cli --eval redis/token_bucket.lua \"bucketlab:{$KEY}\" , 10 2 1 \"$(date +%s)\"\n"
        )
    );
    assert!(by_id("redis").caveats.is_empty());
    // nginx and the YAML policy key by client address: said in the caveats and the text.
    for id in ["nginx", "yaml"] {
        let export = by_id(id);
        assert_eq!(
            export.caveats,
            [Caveat::KeyNotCarried {
                tool: id,
                key: "field:user.id".to_owned()
            }],
            "{id}"
        );
        let text = export.text.as_deref().unwrap();
        assert!(
            text.contains("# Note: the replay was keyed by field:user.id; this configuration"),
            "{id}: {text}"
        );
    }
    let envoy_text = by_id("envoy").text.clone().unwrap();
    assert!(
        envoy_text.starts_with("# One bucket per Envoy instance (a bucket per field:user.id,"),
        "{envoy_text}"
    );
    // Keyed by client address, nothing to say.
    let by_ip = exports(config(10.0, 2.0), &KeySpec::Ip);
    assert!(by_ip.iter().all(|e| e.caveats.is_empty()), "{by_ip:?}");
    // A JSON log keyed by `ip` reports the address field it found (`remote_addr`): that is the
    // client address too, which the exports key by; nothing to say, and the texts say so.
    let by_field = exports(config(10.0, 2.0), &KeySpec::Field("remote_addr".to_owned()));
    assert_eq!(by_field, by_ip, "field:remote_addr exports as ip");
}

#[test]
fn envoy_fills_exactly_in_steps_of_at_least_50_ms_when_it_can() {
    let fill = |r| {
        let (tokens, interval, caveat) = envoy_fill(r, 100).unwrap();
        assert_eq!(caveat, None, "r = {r}: exact");
        (tokens, interval)
    };
    assert_eq!(fill(10.0), (10, "1s".to_owned()));
    assert_eq!(fill(0.5), (1, "2s".to_owned()));
    assert_eq!(fill(2.5), (1, "0.4s".to_owned()));
    assert_eq!(fill(40.5), (81, "2s".to_owned()));
    assert_eq!(fill(0.3), (3, "10s".to_owned()));
    assert_eq!(fill(0.001), (1, "1000s".to_owned()));
    let text = envoy(config(7.5, 2.0)).unwrap();
    for line in [
        "max_tokens: 8",
        "tokens_per_fill: 2",
        "fill_interval: 1s",
        "# Note: Envoy counts whole requests: B = 7.5 is written as 8.",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

#[test]
fn envoy_never_fills_more_than_its_bucket_holds() {
    // Envoy drops what does not fit in max_tokens: a fill above it would refill slower.
    let fill = |r, max| {
        let (tokens, interval, caveat) = envoy_fill(r, max).unwrap();
        assert!(
            tokens <= max,
            "r = {r}, max_tokens {max}: {tokens} per fill"
        );
        let written = caveat.map(|c| match c {
            Caveat::RateRounded { written_rate, .. } => written_rate,
            other => panic!("{other:?}"),
        });
        (tokens, interval, written)
    };
    assert_eq!(
        fill(10.0, 5),
        (1, "0.1s".to_owned(), None),
        "exact in smaller fills"
    );
    assert_eq!(fill(1.5, 1), (1, "0.667s".to_owned(), Some(1000.0 / 667.0)));
    assert_eq!(
        fill(1000.0, 10),
        (10, "0.05s".to_owned(), Some(200.0)),
        "as fast as 10 tokens go"
    );
    let text = envoy(config(1.0, 1.5)).unwrap();
    assert!(
        text.contains("max_tokens: 1\n") && text.contains("tokens_per_fill: 1\n"),
        "{text}"
    );
}

#[test]
fn envoy_says_when_its_fill_is_not_the_rate_and_refuses_r_0() {
    let (tokens, interval, caveat) = envoy_fill(10.0 * std::f64::consts::PI, 100).unwrap();
    assert_eq!((tokens, interval.as_str()), (2, "0.05s"));
    assert!(
        matches!(caveat, Some(Caveat::RateRounded { written_rate, .. }) if written_rate == 40.0),
        "{caveat:?}"
    );
    // Envoy's token_bucket.proto: tokens_per_fill must be above 0.
    let never = exports(config(2.0, 0.0), &KeySpec::Ip);
    assert_eq!(never[1].id, "envoy");
    assert_eq!(never[1].text, None);
    assert_eq!(
        never[1].caveats[0].to_string(),
        "Envoy always refills a bucket, so it cannot enforce r = 0 (a bucket that never \
         refills); no Envoy configuration is given"
    );
    assert!(!envoy(config(2.0, 0.001))
        .unwrap()
        .contains("tokens_per_fill: 0"));
}

#[test]
fn the_yaml_policy_and_the_redis_arguments_carry_b_and_r_exactly() {
    let text = yaml(config(12.0, 0.25));
    assert!(
        text.contains("capacity: 12\n") && text.contains("refill_rate: 0.25\n"),
        "{text}"
    );
    let args = redis(config(12.0, 0.25), &KeySpec::Ip);
    assert!(args.contains(", 12 0.25 1 "), "{args}");
    let all = exports(config(1.0, 1.0), &KeySpec::Ip);
    let ids: Vec<&str> = all.iter().map(|e| e.id).collect();
    assert_eq!(ids, ["nginx", "envoy", "yaml", "redis"]);
    assert!(all.iter().all(|e| e.text.is_some() && e.caveats.is_empty()));
    // r = 0 is a policy the YAML and the script hold exactly.
    let never = exports(config(2.0, 0.0), &KeySpec::Ip);
    assert!(never[2].text.is_some() && never[3].text.is_some());
}

/// A caveat is a code and its values: the page's English is the command's, and the Portuguese
/// names the same values.
#[test]
fn every_caveat_is_worded_alike_by_the_export_and_the_page() {
    let english = traffic_words("en", &["exports", "caveats"]);
    let portuguese = traffic_words("pt-BR", &["exports", "caveats"]);
    assert_eq!(english.len(), ENGLISH.len());
    for (code, sentence) in ENGLISH {
        assert_eq!(english[code], *sentence, "{code}");
        assert_eq!(
            marks(portuguese[code].as_str().unwrap()),
            marks(sentence),
            "{code} in Portuguese"
        );
    }
    let caveat =
        serde_json::to_value(&exports(config(2.5, 1.2345), &KeySpec::Ip)[0].caveats).unwrap();
    assert_eq!(
        caveat,
        serde_json::json!([
            { "code": "rateRounded", "tool": "nginx", "rate": 1.2345, "written": "74r/m",
              "writtenRate": 1.233 },
            { "code": "capacityRounded", "tool": "nginx", "capacity": 2.5, "written": 3 }
        ])
    );
}

/// The YAML export is a policy the lesson's own parser accepts, with the same bucket.
#[cfg(feature = "config")]
#[test]
fn the_yaml_export_parses_as_the_lessons_policy() {
    use bucketlab::limiter::policy::Policy;
    for (b, r) in [(12.0, 0.25), (1.0, 0.0), (250.0, 1000.0)] {
        let policy = Policy::from_yaml(&yaml(config(b, r))).unwrap();
        assert_eq!(policy.tier("default"), Some(&config(b, r)));
    }
}

/// Each nginx export, as the page's Copy button gives it, in the `http` block of a configuration
/// that real nginx checks (`nginx -t`; Debian's nginx-light, from `scripts/setup.sh --test`).
#[test]
fn each_nginx_export_is_a_configuration_real_nginx_accepts() {
    let binary = ["nginx", "/usr/sbin/nginx"]
        .into_iter()
        .find(|b| std::process::Command::new(b).arg("-v").output().is_ok())
        .expect("nginx, which scripts/setup.sh --test installs (Debian's nginx-light)");
    let dir = std::env::temp_dir().join(format!("bucketlab-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policies = [
        (1.0, 1.0),
        (0.5, 1.0),
        (1.0, 0.25),
        (3.0, 1.5),
        (20.0, 5.0),
        (2.5, 1.0),
    ];
    let more = [(5.0, 74.0 / 60.0), (10.0, 0.016), (4.0, 1e4)];
    for (b, r) in policies.into_iter().chain(more) {
        let export = nginx(config(b, r)).unwrap_or_else(|| panic!("B = {b}, r = {r}: an export"));
        let d = dir.display();
        let conf = format!(
            "pid {d}/nginx.pid;\nevents {{}}\nhttp {{\n    access_log off;\n    \
             client_body_temp_path {d}/body;\n    proxy_temp_path {d}/proxy;\n    \
             fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n    \
             scgi_temp_path {d}/scgi;\n{export}}}\n"
        );
        std::fs::write(dir.join("nginx.conf"), &conf).unwrap();
        let out = std::process::Command::new(binary)
            .args(["-t", "-q", "-p"])
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "B = {b}, r = {r}: nginx -t refused\n{conf}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
