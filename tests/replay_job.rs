//! The replay as the browser's worker drives it (`replay::job`): chunks of any size, plain or
//! gzip, give the command's figures; the busiest key's trace; the sample log; bad input.

mod replay_support;

use bucketlab::limiter::{rust_decimal, BucketConfig, Scenario, TokenBucket, SPAN};
use bucketlab::replay::curve::rate_grid;
use bucketlab::replay::input::{decompressed, for_each_line};
use bucketlab::replay::job::{Job, JobError, Next, Outcome};
use bucketlab::replay::sample::{sample_log, SAMPLE_MALFORMED};
use bucketlab::replay::{Format, Policy, Problem, Remedy, Replay, Settings, SetupError, Target};
use proptest::prelude::*;
use replay_support::{bucketlab, gzip, json};

fn settings(capacity: f64, refill_rate: f64, target: Option<Target>) -> Settings {
    Settings {
        format: None,
        key: None,
        time_field: None,
        policy: Policy::new("token-bucket", capacity, refill_rate).unwrap(),
        target,
    }
}

/// Runs a job over `input` in chunks of `chunk` bytes, every pass; also returns the passes made.
fn drive(input: &[u8], chunk: usize, settings: Settings) -> (Job, usize) {
    let mut job = Job::new(settings);
    let mut passes = 0;
    loop {
        passes += 1;
        for piece in input.chunks(chunk) {
            if !job.feed(piece) {
                break;
            }
        }
        if job.end_of_input() == Next::Done {
            return (job, passes);
        }
    }
}

fn outcome(job: &Job) -> &Outcome {
    job.outcome()
        .unwrap_or_else(|| panic!("failed: {:?}", job.error()))
}

#[test]
fn any_chunking_plain_or_gzip_gives_the_commands_json() {
    let log = sample_log(7, 4000);
    let path = std::env::temp_dir().join(format!("bucketlab-job-{}.log", std::process::id()));
    std::fs::write(&path, &log).unwrap();
    let cli = json(&bucketlab(
        &[
            "replay",
            "--capacity",
            "5",
            "--refill-rate",
            "0.5",
            "--recommend",
            "keys:95%",
            "--json",
            path.to_str().unwrap(),
        ],
        b"",
    ));
    std::fs::remove_file(&path).unwrap();
    let target = Some(Target::parse("keys:95%").unwrap());
    let gz = gzip(log.as_bytes());
    for (input, chunk) in [
        (log.as_bytes(), 1 << 16),
        (log.as_bytes(), 7),
        (&gz[..], 1 << 16),
        (&gz[..], 13),
    ] {
        let (job, passes) = drive(input, chunk, settings(5.0, 0.5, target));
        let report = serde_json::to_value(&outcome(&job).report).unwrap();
        assert_eq!(report, cli, "chunks of {chunk}");
        assert!(passes >= 3, "first pass, the recommendation's, the trace");
    }
    assert!(
        cli["limited"].as_u64().unwrap() > 0,
        "the sample is limited"
    );
    assert!(cli["recommendation"]["capacity"].as_f64().unwrap() >= 1.0);
}

#[test]
fn the_busiest_keys_trace_adds_up_and_plays_in_the_diagram() {
    let log = sample_log(3, 6000);
    let (mut job, _) = drive(log.as_bytes(), 4096, settings(4.0, 0.5, None));
    let out = outcome(&job).clone();
    let busiest = &out.report.by_key[0];
    let trace = out.trace.as_ref().expect("a trace");
    assert_eq!(trace.key, busiest.key);
    assert_eq!(trace.requests, busiest.requests);
    assert_eq!(
        trace.admitted.iter().sum::<u64>(),
        busiest.requests - busiest.limited
    );
    assert_eq!(trace.limited.iter().sum::<u64>(), busiest.limited);
    assert!(trace.admitted.len() <= 240 && !trace.admitted.is_empty());

    let text = trace.scenario.as_deref().expect("a scenario");
    let scenario = Scenario::decode(text, rust_decimal).expect("a valid scenario");
    assert_eq!(scenario.config, BucketConfig::new(4.0, 0.5).unwrap());
    assert!(scenario.steps.len() <= 200 && scenario.end <= 3600.0);
    assert!(trace.scenario_requests > 0 && trace.scenario_requests <= trace.requests);
    scenario.play().expect("it plays");

    // Following another key: a further pass, the rest unchanged.
    let other = out.report.by_key.last().unwrap().clone();
    assert_eq!(job.trace(&other.key), Next::Again);
    for piece in log.as_bytes().chunks(999) {
        job.feed(piece);
    }
    assert_eq!(job.end_of_input(), Next::Done);
    let again = outcome(&job);
    assert_eq!(again.report, out.report);
    let trace = again.trace.as_ref().unwrap();
    assert_eq!(
        (trace.key.as_str(), trace.requests),
        (other.key.as_str(), other.requests)
    );
    assert_eq!(job.trace("no such key"), Next::Done);
}

#[test]
fn a_long_trace_is_cut_to_what_a_scenario_holds() {
    // One key, 5000 requests 0.1 s apart (500 s): more actions than a scenario may have.
    let log: String = (0..5000)
        .map(|i| format!("{}.{},k\n", 1_700_000_000 + i / 10, i % 10))
        .collect();
    let (job, _) = drive(log.as_bytes(), 1 << 12, settings(10.0, 5.0, None));
    let trace = outcome(&job).trace.clone().unwrap();
    let text = trace
        .scenario
        .clone()
        .unwrap_or_else(|| panic!("{trace:?}"));
    assert!(text.len() <= 2000);
    let scenario = Scenario::decode(&text, rust_decimal).unwrap();
    assert!(scenario.steps.len() <= 200);
    assert_eq!(trace.scenario_requests, scenario.steps.len() as u64);
    assert!(trace.scenario_requests < 5000);
    // Within the diagram's timeline (20 s before its end, which is then lesson time), so the
    // reader can scrub back to its first request.
    assert!(scenario.end <= SPAN, "end: {}", scenario.end);
    assert!(
        scenario.steps.iter().all(|(at, _)| *at < SPAN),
        "{:?}",
        scenario.steps.last()
    );
    assert_eq!(
        trace.scenario_requests, 200,
        "the 200 requests of its first 20 s"
    );
    // Bars of whole seconds cover the 500 s.
    let covered = trace.bar_seconds * trace.admitted.len() as f64;
    assert!(
        (500.0..500.0 + trace.bar_seconds).contains(&covered),
        "{covered}"
    );
}

#[test]
fn a_request_costing_more_than_b_stays_in_the_scenario_and_is_refused_for_good() {
    // alice's second request costs 20 with B = 10: the diagram gets all five, and says "never".
    let log =
        "time,key,cost\n2026-01-01T00:00:00.000Z,alice,1\n2026-01-01T00:00:00.100Z,alice,20\n\
               2026-01-01T00:00:00.200Z,alice,1\n2026-01-01T00:00:00.300Z,alice,0\n\
               2026-01-01T00:00:00.400Z,alice,1.5\n";
    let (job, _) = drive(log.as_bytes(), 1 << 12, settings(10.0, 5.0, None));
    let trace = outcome(&job).trace.clone().unwrap();
    assert_eq!((trace.requests, trace.scenario_requests), (5, 5));
    let text = trace.scenario.unwrap();
    assert_eq!(
        text,
        "1_10_5_10_1.4_0s1,1_0.1s20,1_0.2s1,1_0.3s0,1_0.4s1.5,1"
    );
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    assert!(played.last_shot().unwrap().decision.is_admitted());
    let never = played.at(0.1, 0.0).unwrap();
    assert!(matches!(
        never.last_shot().unwrap().decision.outcome,
        bucketlab::limiter::Outcome::Never(_)
    ));
}

#[test]
fn the_sample_is_seeded_and_reports_its_malformed_lines() {
    assert_eq!(sample_log(1, 1200), sample_log(1, 1200));
    assert_ne!(sample_log(1, 1200), sample_log(2, 1200));
    let log = sample_log(1, 1200);
    assert_eq!(log.lines().count(), 1200);
    let (job, _) = drive(log.as_bytes(), 1 << 16, settings(5.0, 1.0, None));
    let report = &outcome(&job).report;
    assert_eq!(outcome(&job).format, Some("combined"));
    assert_eq!(report.malformed, 2);
    let lines: Vec<u64> = report.malformed_examples.iter().map(|m| m.line).collect();
    assert_eq!(lines, SAMPLE_MALFORMED);
    assert_eq!(report.requests, 1198);
    assert!(report.keys > 50, "a crowd of clients: {}", report.keys);
}

#[test]
fn bad_input_ends_with_a_clear_error() {
    // Binary garbage (a log compressed with zstd, say): not text, whatever the format, detected
    // or named, rather than every line malformed.
    let mut rng = fastrand::Rng::with_seed(9);
    let garbage: Vec<u8> = (0..50_000).map(|_| rng.u8(..)).collect();
    for format in [None, Some(Format::Combined), Some(Format::Json)] {
        let mut named = settings(5.0, 1.0, None);
        named.format = format;
        let (job, _) = drive(&garbage, 4096, named);
        match job.error() {
            Some(JobError::Setup {
                option,
                value,
                why,
                remedy,
            }) => {
                assert_eq!((*option, *remedy), ("format", None));
                assert_eq!(value.as_deref(), format.map(Format::name));
                assert_eq!(why.code(), "notText");
                let why = why.to_string();
                assert!(why.contains("lines is text (UTF-8)"), "{why}");
                // The remedy is the front end's to word: a page has a menu, not `--format`.
                assert!(!why.contains("--"), "{why}");
            }
            other => panic!("expected a format error, got {other:?}"),
        }
    }
    // Text that is no log: no format matches.
    let words = "lorem ipsum dolor\n".repeat(40);
    let (job, _) = drive(words.as_bytes(), 4096, settings(5.0, 1.0, None));
    match job.error() {
        Some(JobError::Setup {
            option,
            why,
            remedy,
            ..
        }) => {
            assert_eq!((*option, *remedy), ("format", Some(Remedy::NameFormat)));
            let why = why.to_string();
            assert!(why.contains("none of combined"), "{why}");
        }
        other => panic!("expected a format error, got {other:?}"),
    }
    // A key the log does not have: the same setup error as the command's, naming the option.
    let csv = b"1.0,alice\n2.0,bob\n";
    let mut by_column = settings(5.0, 1.0, None);
    by_column.key = Some(bucketlab::replay::KeySpec::Column(5));
    let (job, passes) = drive(csv, 4096, by_column);
    match job.error() {
        Some(JobError::Setup {
            option,
            value,
            why,
            remedy: None,
        }) => {
            assert_eq!((*option, value.as_deref()), ("key", Some("column:5")));
            assert!(why.to_string().contains("at most 2"), "{why}");
        }
        other => panic!("expected a key error, got {other:?}"),
    }
    assert_eq!(passes, 1);
    // As the page gets it: the reason as a code and its values, for the page to word.
    assert_eq!(
        serde_json::to_value(job.error()).unwrap(),
        serde_json::json!({
            "kind": "setup",
            "option": "key",
            "value": "column:5",
            "why": { "code": "noColumnTwoOnly", "lines": 2, "column": 5, "widest": 2 },
            "remedy": null
        })
    );
    // Garbage that starts like gzip: the stream is refused.
    let mut fake = vec![0x1f, 0x8b];
    fake.extend_from_slice(&garbage);
    let (job, _) = drive(&fake, 4096, settings(5.0, 1.0, None));
    assert!(
        matches!(job.error(), Some(JobError::Input { .. })),
        "{:?}",
        job.error()
    );
    // Empty: a finished job with nothing in it.
    let (job, passes) = drive(b"", 10, settings(5.0, 1.0, None));
    let out = outcome(&job);
    assert_eq!((out.report.lines, out.report.requests, passes), (0, 0, 1));
    assert!(out.trace.is_none() && out.format.is_none());
}

#[test]
fn a_reader_that_stops_at_a_setup_error_gets_it_not_a_cut_gzip_stream() {
    // `feed` says false once the first pass failed, and the worker stops reading: the gzip
    // stream is then unfinished, which is no error of the log's. Found by fuzzing
    // (fuzz/fuzz_targets/replay_job.rs: the same bytes in other chunks gave "input").
    let log: String = (0..400)
        .map(|i| format!("{{\"when\": {i}, \"remote_addr\": \"10.0.0.{}\"}}\n", i % 7))
        .collect();
    let gz = gzip(log.as_bytes());
    let mut job = Job::new(settings(5.0, 1.0, None));
    for chunk in gz.chunks(49) {
        if !job.feed(chunk) {
            break;
        }
    }
    assert_eq!(job.end_of_input(), Next::Done);
    match job.error() {
        Some(JobError::Setup { option, .. }) => assert_eq!(*option, "time-field"),
        other => panic!("expected the time field named, got {other:?}"),
    }
}

#[test]
fn a_gzip_stream_cut_inside_a_line_is_cut_there_as_the_command_reads_it() {
    // The command's reader stops at the cut: the unfinished line is no line. The job took it for
    // a 16th line, which made the sample full: the chosen format was refused over 16 lines (the
    // command says 15), and that setup error hid the cut stream. Found by fuzzing
    // (fuzz/fuzz_targets/replay_job.rs).
    let mut log: String = (0..15)
        .map(|i| format!("{{\"time\": {i}, \"ip\": \"10.0.0.{i}\"}}\n"))
        .collect();
    // A last line that compresses badly, so that cutting the stream cuts it.
    let mut noise = 7u64;
    for _ in 0..3000 {
        noise = noise
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        log.push(char::from(b'a' + (noise >> 59) as u8));
    }
    log.push('\n');
    let gz = gzip(log.as_bytes());
    let cut = &gz[..gz.len() - 1000];
    let settings = Settings {
        format: Some(Format::Combined),
        ..settings(5.0, 1.0, None)
    };

    let mut replay = Replay::new(settings.clone());
    let read = decompressed(cut).and_then(|mut reader| {
        for_each_line(&mut *reader, |line| {
            replay.line(line);
            replay.failure().is_none()
        })
    });
    assert!(read.is_err(), "the command reads a cut stream");
    match replay.finish() {
        Err(SetupError {
            why: Problem::NotFormat { lines, .. },
            ..
        }) => assert_eq!(lines, 15),
        other => panic!("expected the format refused over 15 lines, got {other:?}"),
    }
    for chunk in [cut.len(), 100, 7] {
        let (job, _) = drive(cut, chunk, settings.clone());
        assert!(
            matches!(job.error(), Some(JobError::Input { .. })),
            "chunks of {chunk}: {:?}",
            job.error()
        );
    }
}

#[test]
fn a_csv_header_alone_is_csv_with_no_requests() {
    for log in [&b"time,key\n"[..], b"\ntime,client,cost\n\n", b"time,key"] {
        let (job, _) = drive(log, 3, settings(5.0, 1.0, None));
        let found = outcome(&job);
        let text = String::from_utf8_lossy(log);
        assert_eq!(found.format, Some("csv"), "{text:?}");
        let report = &found.report;
        assert_eq!((report.requests, report.malformed), (0, 0), "{text:?}");
    }
    // One word, or a column left empty, names no columns: still no format.
    for log in [&b"hello\n"[..], b"time,\n"] {
        let (job, _) = drive(log, 4096, settings(5.0, 1.0, None));
        assert!(
            matches!(
                job.error(),
                Some(JobError::Setup {
                    option: "format",
                    ..
                })
            ),
            "{:?}: {:?}",
            String::from_utf8_lossy(log),
            job.error()
        );
    }
}

/// Keys limited and requests limited by a token bucket of `capacity` at `rate` per key, each
/// starting full, over `log` (`(time, key)` in file order).
fn limited_by(log: &[(f64, usize)], capacity: f64, rate: f64) -> (u64, u64) {
    let config = BucketConfig::new(capacity, rate).unwrap();
    let mut buckets: Vec<(TokenBucket, bool)> = Vec::new();
    let mut requests = 0;
    for &(time, key) in log {
        if buckets.len() <= key {
            buckets.resize_with(key + 1, || (TokenBucket::new(config), false));
        }
        let (bucket, limited) = &mut buckets[key];
        if !bucket.try_acquire(1.0, time).unwrap().is_admitted() {
            *limited = true;
            requests += 1;
        }
    }
    (buckets.iter().filter(|(_, l)| *l).count() as u64, requests)
}

/// Small CSV logs: up to 4 keys, bursts of requests at the same time and gaps up to 3 s.
fn small_logs() -> impl Strategy<Value = Vec<(f64, usize)>> {
    let gap = prop_oneof![2 => Just(0.0), 2 => (0u32..12).prop_map(|q| f64::from(q) / 4.0)];
    prop::collection::vec((gap, 0usize..4), 1..120).prop_map(|steps| {
        let mut now = 1_000.0;
        steps
            .into_iter()
            .map(|(gap, key)| {
                now += gap;
                (now, key)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// At the rate it chose, the recommendation meets its target and is the smallest whole
    /// capacity that does, as trying every capacity from 1 up finds.
    #[test]
    fn the_recommendation_is_the_smallest_capacity_meeting_its_target(
        log in small_logs(),
        target in prop_oneof![
            (0u32..=30).prop_map(|p| format!("requests:{p}%")),
            (50u32..=100).prop_map(|p| format!("keys:{p}%")),
        ],
    ) {
        let text: String = log.iter().map(|(t, k)| format!("{t},k{k}\n")).collect();
        let (job, _) = drive(text.as_bytes(), 1 << 16, settings(1.0, 1.0, Some(Target::parse(&target).unwrap())));
        let report = &outcome(&job).report;
        let found = report.recommendation.clone().flatten().expect("a recommendation");
        let (requests, keys) = (report.requests as f64, report.keys as f64);
        let percent: f64 = target.split_once(':').unwrap().1.trim_end_matches('%').parse().unwrap();
        let meets = |(keys_limited, requests_limited): (u64, u64)| match target.starts_with("keys") {
            true => keys_limited as f64 <= ((100.0 - percent) / 100.0 * keys + 1e-9).floor(),
            false => requests_limited as f64 <= (percent / 100.0 * requests + 1e-9).floor(),
        };
        let rate = found.refill_rate;
        let replayed = limited_by(&log, found.capacity, rate);
        prop_assert_eq!(replayed, (found.keys_limited, found.requests_limited));
        prop_assert!(meets(replayed), "B = {} at r = {} limits {:?}", found.capacity, rate, replayed);
        let smallest = (1..).map(f64::from).find(|&b| meets(limited_by(&log, b, rate))).unwrap();
        prop_assert_eq!(found.capacity, smallest, "at r = {}", rate);
    }

    /// Of the policies meeting "at most P % of requests limited", with `r` on the grid and `B`
    /// whole, none lets a client through fewer requests in a minute (`B + 60 r`) than the one
    /// recommended, as trying every rate of the grid finds (README, `--recommend`).
    #[test]
    fn the_recommendation_lets_the_fewest_requests_through_in_a_minute(
        log in small_logs(),
        percent in 0u32..=30,
    ) {
        let text: String = log.iter().map(|(t, k)| format!("{t},k{k}\n")).collect();
        let target = Target::Requests(f64::from(percent));
        let (job, _) = drive(text.as_bytes(), 1 << 16, settings(1.0, 1.0, Some(target)));
        let found = outcome(&job).report.recommendation.clone().flatten().expect("a recommendation");
        let allowed = (f64::from(percent) / 100.0 * log.len() as f64 + 1e-9).floor() as u64;
        // At each rate, the smallest whole capacity meeting the target (what a bucket refuses
        // falls as it grows; one as large as the log refuses nothing).
        let smallest = |rate: f64| {
            let (mut lo, mut hi) = (0.0, log.len() as f64);
            while hi - lo > 1.0 {
                let mid = ((lo + hi) / 2.0_f64).floor();
                if limited_by(&log, mid, rate).1 <= allowed { hi = mid } else { lo = mid }
            }
            hi
        };
        let per_minute = |b: f64, r: f64| b + 60.0 * r;
        let fewest = rate_grid(Some(1.0))
            .into_iter()
            .map(|r| (per_minute(smallest(r), r), r))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
        let recommended = per_minute(found.capacity, found.refill_rate);
        prop_assert!(
            recommended <= fewest.0 + 1e-9,
            "recommended B = {}, r = {} ({recommended} a minute); r = {} allows {}",
            found.capacity, found.refill_rate, fewest.1, fewest.0
        );
    }
}

/// Costs past 2^53, where two doubles are 2 or more apart: the search for a whole capacity
/// still ends (it once replayed the same two capacities for ever), with a capacity that
/// admits them.
#[test]
fn a_recommendation_for_costs_beyond_two_to_the_53_ends() {
    for cost in ["1e16", "3e17", "1e300"] {
        let text = format!(
            "time,key,cost\n1700000000.1,a,{cost}\n1700000001.1,a,1\n1700000002.1,b,{cost}\n"
        );
        for target in ["keys:100%", "requests:0%", "requests:50%"] {
            let (job, passes) = drive(
                text.as_bytes(),
                1 << 16,
                settings(5.0, 1.0, Some(Target::parse(target).unwrap())),
            );
            assert!(passes < 2000, "{cost} {target}: {passes} passes");
            let found = outcome(&job).report.recommendation.clone().flatten();
            // Every request admitted: a capacity that holds the costliest.
            if target != "requests:50%" {
                let found = found.unwrap_or_else(|| panic!("{cost} {target}: no recommendation"));
                assert!(
                    found.capacity >= cost.parse::<f64>().unwrap() * (1.0 - 1e-12),
                    "{cost} {target}: {found:?}"
                );
            }
        }
    }
}
