//! What the replay tests share: running a log held in memory through a replay, and the command.
#![allow(dead_code)] // each test file uses its own part

use bucketlab::replay::input::{decompressed, for_each_line};
use bucketlab::replay::{Finished, Policy, Replay, Settings, SetupError};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Settings with the format and key detected and a token bucket of `B`, `r`.
pub fn bucket(capacity: f64, refill_rate: f64) -> Settings {
    Settings {
        format: None,
        key: None,
        time_field: None,
        policy: Policy::new("token-bucket", capacity, refill_rate).unwrap(),
        target: None,
    }
}

/// A first pass over `log` (plain or gzip) with `settings`, as the command runs it.
pub fn run(log: &[u8], settings: Settings) -> Result<Finished, SetupError> {
    let mut replay = Replay::new(settings);
    let mut reader = decompressed(log).expect("reading memory");
    for_each_line(&mut *reader, |line| {
        replay.line(line);
        replay.failure().is_none()
    })
    .expect("reading memory");
    replay.finish()
}

/// `log` compressed with gzip.
pub fn gzip(log: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(log).unwrap();
    encoder.finish().unwrap()
}

/// Runs `bucketlab` with `args`, `stdin` on its standard input.
pub fn bucketlab(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bucketlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the built command runs");
    let mut input = child.stdin.take().unwrap();
    // A command that fails on its flags may exit before reading: a broken pipe is fine then.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// The command's `--json` output, parsed.
pub fn json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// The table at `path` (`["errors", "why"]`) of `locales/<lang>/traffic.json`: the page's words.
pub fn traffic_words(lang: &str, path: &[&str]) -> Map<String, Value> {
    let file = format!("{}/locales/{lang}/traffic.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let tables: Value = serde_json::from_str(&text).unwrap();
    path.iter()
        .fold(&tables, |table, key| &table[*key])
        .as_object()
        .unwrap_or_else(|| panic!("{file} has no {}", path.join(".")))
        .clone()
}

/// The `{name}` marks of a sentence.
pub fn marks(sentence: &str) -> BTreeSet<String> {
    sentence
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name.to_owned()))
        .collect()
}
