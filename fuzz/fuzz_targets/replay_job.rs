//! The replay of an access log as the browser's worker drives it (`replay::job`), on any bytes
//! (plain, gzip, gzip cut short), any format, key and policy: no panic; the same bytes cut into
//! other chunks give the same outcome (differential); the first pass agrees with the command's
//! own reader (`input::decompressed` + `for_each_line` + `Replay`); the report adds up; the
//! busiest key's scenario opens in the diagram; the YAML export reads back as the policy.
#![no_main]
use arbitrary::Arbitrary;
use bucketlab::limiter::policy::Policy as YamlPolicy;
use bucketlab::limiter::{rust_decimal, Scenario};
use bucketlab::replay::input::{decompressed, for_each_line};
use bucketlab::replay::job::{Job, JobError, Next};
use bucketlab::replay::{Format, KeySpec, Policy, Replay, Settings, Target, ALGORITHMS};
use libfuzzer_sys::fuzz_target;
use std::io::Write;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    format: u8,
    key: u8,
    policy: u8,
    target: u8,
    wrap: u8,
    cut: u16,
    splits: Vec<u8>,
    log: &'a [u8],
}

const SIZES: [(f64, f64); 8] = [
    (1.0, 1.0),
    (5.0, 0.5),
    (10.0, 0.0),
    (2.0, 1000.0),
    (0.5, 0.25),
    (100.0, 0.001),
    (1e9, 1e-9),
    (3.0, 7.0),
];

fn settings(input: &Input) -> Option<Settings> {
    let format = match usize::from(input.format % 6) {
        0 => None,
        i => Some(Format::ALL[i - 1]),
    };
    let (key, time_field) = match input.key % 6 {
        0 => (None, None),
        1 => (Some(KeySpec::Ip), None),
        2 => (Some(KeySpec::Field("user".into())), None),
        3 => (Some(KeySpec::Column(3)), None),
        4 => (None, Some("ts".to_owned())),
        _ => (Some(KeySpec::Field("a.b".into())), Some("t".to_owned())),
    };
    let algorithm = ALGORITHMS[usize::from(input.policy) % ALGORITHMS.len()];
    let (capacity, rate) = SIZES[usize::from(input.policy / 5) % SIZES.len()];
    let policy = Policy::new(algorithm, capacity, rate).ok()?;
    let target = match input.target % 7 {
        0 | 1 => None,
        2 => Some(Target::Keys(95.0)),
        3 => Some(Target::Keys(100.0)),
        4 => Some(Target::Requests(0.0)),
        5 => Some(Target::Requests(5.0)),
        _ => Some(Target::Requests(99.9)),
    };
    Some(Settings {
        format,
        key,
        time_field,
        policy,
        target,
    })
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// Every pass of a job over `bytes`, cut into chunks by `sizes` (cycled; empty: one chunk).
fn drive(bytes: &[u8], sizes: &[u8], settings: Settings) -> Job {
    let mut job = Job::new(settings);
    for _ in 0..100 {
        let mut rest = bytes;
        let mut i = 0;
        while !rest.is_empty() {
            let size = match sizes {
                [] => rest.len(),
                _ => usize::from(sizes[i % sizes.len()]).max(1).min(rest.len()),
            };
            i += 1;
            let (chunk, tail) = rest.split_at(size);
            rest = tail;
            if !job.feed(chunk) {
                break;
            }
        }
        if job.end_of_input() == Next::Done {
            return job;
        }
    }
    panic!("more than 100 passes");
}

fn summary(job: &Job) -> String {
    match (job.outcome(), job.error()) {
        (Some(outcome), None) => serde_json::to_string(outcome).unwrap(),
        (None, Some(JobError::Input { .. })) => "input error".to_owned(),
        (None, Some(error)) => serde_json::to_string(error).unwrap(),
        other => panic!("neither an outcome nor an error: {:?}", other.1),
    }
}

fuzz_target!(|input: Input| {
    let Some(settings) = settings(&input) else {
        return;
    };
    let bytes = match input.wrap % 4 {
        0 | 1 => input.log.to_vec(),
        2 => gzip(input.log),
        _ => {
            let mut gz = gzip(input.log);
            gz.truncate(usize::from(input.cut) % (gz.len() + 1));
            gz
        }
    };

    let whole = drive(&bytes, &[], settings.clone());
    let chunked = drive(&bytes, &input.splits, settings.clone());
    assert_eq!(
        summary(&whole),
        summary(&chunked),
        "chunks {:?}",
        input.splits
    );

    // The command's reader: the same first pass.
    let mut replay = Replay::new(settings.clone());
    let read = decompressed(&bytes[..]).and_then(|mut reader| {
        for_each_line(&mut *reader, |line| {
            replay.line(line);
            replay.failure().is_none()
        })
    });
    let first = replay.finish();

    match (whole.outcome(), whole.error()) {
        (Some(outcome), _) => {
            let report = &outcome.report;
            if read.is_ok() {
                let first = first.expect("the command's pass fails where the job's does not");
                assert_eq!(first.report.by_key, report.by_key);
                assert_eq!(
                    (
                        first.report.lines,
                        first.report.requests,
                        first.report.malformed
                    ),
                    (report.lines, report.requests, report.malformed)
                );
            }
            assert!(report.limited <= report.requests);
            assert_eq!(report.keys, report.by_key.len() as u64);
            assert_eq!(
                report.by_key.iter().map(|k| k.requests).sum::<u64>(),
                report.requests
            );
            assert_eq!(
                report.by_key.iter().map(|k| k.limited).sum::<u64>(),
                report.limited
            );
            assert!(report.requests + report.malformed <= report.lines);
            if let Some(trace) = &outcome.trace {
                if let Some(text) = &trace.scenario {
                    let scenario = Scenario::decode(text, rust_decimal)
                        .unwrap_or_else(|e| panic!("the trace's {text:?} is refused: {e}"));
                    scenario
                        .play()
                        .unwrap_or_else(|e| panic!("the trace's {text:?} does not play: {e}"));
                }
            }
            for export in &outcome.exports {
                if let (Some(text), "yaml") = (&export.text, export.id) {
                    let policy = YamlPolicy::from_yaml(text)
                        .unwrap_or_else(|e| panic!("the export {text:?} is refused: {e}"));
                    assert!(policy.tier("default").is_some());
                }
            }
        }
        (None, Some(JobError::Setup { option, why, .. })) => {
            let first = first.expect_err("the command's pass succeeds where the job's fails");
            assert_eq!((first.option, &first.why), (*option, why));
        }
        _ => {}
    }
});
