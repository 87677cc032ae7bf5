//! What the times of a log can't tell the replay, said in its report: requests earlier than their
//! key's latest (logs of several servers joined, not sorted) and whole-second times.

mod replay_support;

use replay_support::{bucketlab, json};
use serde_json::{json, Value};

/// The command with `B = 10, r = 2` and `extra` flags, on `log` given on standard input.
fn replay(log: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "replay",
        "--capacity",
        "10",
        "--refill-rate",
        "2",
        "--top",
        "0",
    ];
    args.extend(extra);
    args.push("-");
    bucketlab(&args, log.as_bytes())
}

fn report(log: &str) -> Value {
    report_of(log, &[])
}

fn report_of(log: &str, extra: &[&str]) -> Value {
    let mut args = vec!["--json"];
    args.extend(extra);
    json(&replay(log, &args))
}

fn table(log: &str) -> String {
    let output = replay(log, &[]);
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// Two servers' logs of one client, each in time order, as `cat a.csv b.csv` joins them: 3
/// requests a second for 20 s, every other one on each server.
fn two_servers() -> (String, String) {
    let times = (0..60).map(|i| 1_700_000_000.0 + f64::from(i) / 3.0 + 0.01);
    let lines: Vec<String> = times.map(|t| format!("{t:.3},alice\n")).collect();
    let node = |first: usize| -> String { lines.iter().skip(first).step_by(2).cloned().collect() };
    let joined = node(0) + &node(1);
    (lines.concat(), joined)
}

#[test]
fn times_going_back_are_counted_with_the_first_line_and_the_largest_step() {
    let (sorted, joined) = two_servers();
    assert_eq!(report(&sorted).get("backwards"), None, "in order");
    let back = report(&joined);
    // The second server's lines, but its last, come before the first's last time (at 19.333 s):
    // by 19 s at most (its first, at 0.333 s).
    assert_eq!(back["backwards"]["requests"], 29, "{back}");
    assert_eq!(back["backwards"]["firstLine"], 31, "{back}");
    let step = back["backwards"]["largestStep"].as_f64().unwrap();
    assert!((step - 19.0).abs() < 1e-6, "{step}");
    // Piled up at the latest time, the second half is mostly refused: the warning's point.
    assert!(back["limited"].as_u64() > report(&sorted)["limited"].as_u64());

    let said = table(&joined);
    for piece in [
        "warning: 29 requests came earlier than their key's latest time (the first on line\n",
        "31, the largest step back 19 s)",
        "sort the log by time",
    ] {
        assert!(said.contains(piece), "{piece:?} missing from:\n{said}");
    }
    assert!(!table(&sorted).contains("warning"));
}

#[test]
fn one_request_going_back_is_said_in_the_singular() {
    let said = table("1700000005.5,alice\n1700000001.25,alice\n1700000006.5,alice\n");
    let warning =
        "  warning: 1 request came earlier than its key's latest time (line 2, 4.25 s\n           \
                   earlier); it was replayed at that latest time, which piles requests up and\n";
    assert!(said.contains(warning), "{warning:?} missing from:\n{said}");
    assert!(!said.contains("their key"), "{said}");
}

#[test]
fn only_a_keys_own_times_count_as_going_back() {
    // Two clients interleaved, each in order: the log as a whole goes back, no key does.
    let log = "1700000005,a\n1700000001,b\n1700000006,a\n1700000002,b\n";
    assert_eq!(report(log).get("backwards"), None);
}

#[test]
fn whole_second_times_are_said_to_make_the_limited_counts_uncertain_and_the_burst_larger() {
    // One client exactly every 200 ms, logged in the stock combined format: 1 s resolution.
    let even: String = (0..50)
        .map(|i| {
            format!(
                "10.0.0.1 - - [14/Nov/2023:22:13:{:02} +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"\n",
                i / 5
            )
        })
        .collect();
    let whole = report(&even);
    assert_eq!(whole["wholeSecondTimes"], json!(true), "{whole}");
    let said = table(&even);
    assert!(
        said.contains("note: the times are whole seconds (1 s resolution)")
            && said.contains("may be off\n        either way"),
        "{said}"
    );
    // The recommendation's B, and the B that covers times a second off (r = 1.25 needs 2 more).
    let output = replay(&even, &["--recommend", "keys:100%"]);
    let said = String::from_utf8(output.stdout).unwrap();
    let recommended = report_of(&even, &["--recommend", "keys:100%"]);
    let (b, r) = (
        recommended["recommendation"]["capacity"].as_f64().unwrap(),
        recommended["recommendation"]["refillRate"]
            .as_f64()
            .unwrap(),
    );
    let covers = format!(
        "  with whole-second times a client may need up to r × 1 s more burst than\n  replayed: B = {} covers that",
        (b + r).ceil()
    );
    assert!(said.contains(&covers), "{covers:?} missing from:\n{said}");
    // With $msec, the same requests have their sub-second times: nothing to say.
    let msec: String = (0..50)
        .map(|i| {
            format!(
                "10.0.0.1 - - [14/Nov/2023:22:13:{:02} +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\" {}.{:03}\n",
                i / 5,
                1_699_999_980 + i / 5,
                (i % 5) * 200 + 1
            )
        })
        .collect();
    let precise = report(&msec);
    assert_eq!(precise.get("wholeSecondTimes"), None, "{precise}");
    assert!(!table(&msec).contains("whole seconds"));
    let precise = replay(&msec, &["--recommend", "keys:100%"]);
    assert!(!String::from_utf8(precise.stdout)
        .unwrap()
        .contains("whole-second"));
}
