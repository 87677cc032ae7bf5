//! `bucketlab replay` as scripts use it: the `--json` object, files and standard input, gzip,
//! `--top`, `--recommend`, and the errors (exit code 2 for flags, 1 for unreadable input).

mod replay_support;

use bucketlab::replay::{NeverCounts, Policy, Settings, ALGORITHMS};
use replay_support::{bucket, bucketlab, gzip, json, run};
use serde_json::Value;
use std::collections::BTreeSet;

/// A combined log with nginx's `$msec`: four clients at different rates for a minute, then two
/// malformed lines.
fn log() -> String {
    const MINUTE: u64 = 1_699_996_380; // 14/Nov/2023:22:13:00 +0100
    let mut rng = fastrand::Rng::with_seed(5);
    let mut lines = Vec::new();
    for (client, per_second) in [
        ("192.0.2.1", 12),
        ("2001:db8::1", 4),
        ("198.51.100.2", 1),
        ("203.0.113.3", 1),
    ] {
        for second in 0..60u64 {
            for _ in 0..rng.u32(0..=2 * per_second) {
                let ms = rng.u32(0..1000);
                let line = format!(
                    "{client} - - [14/Nov/2023:22:13:{second:02} +0100] \"GET /item?q=\\\"{ms}\\\" HTTP/1.1\" 200 {ms} \"-\" \"bench/1.0\" {}.{ms:03}\n",
                    MINUTE + second
                );
                lines.push((second * 1000 + u64::from(ms), line));
            }
        }
    }
    lines.sort();
    let mut text: String = lines.into_iter().map(|(_, line)| line).collect();
    text.push_str("not a log line\n\n");
    text.push_str(
        "192.0.2.1 - - [14/Nov/2023:22:14:00 +0100] \"GET / HTTP/1.1\" 999x 1 \"-\" \"-\"\n",
    );
    text
}

/// The command's `--json` report, with `extra` flags, on `bytes` written to a file named `*suffix`.
fn on_file(bytes: &[u8], suffix: &str, extra: &[&str]) -> Value {
    let file = tempfile::Builder::new().suffix(suffix).tempfile().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let mut flags = vec!["--json"];
    flags.extend(extra);
    flags.push(file.path().to_str().unwrap());
    json(&bucketlab(&args(&flags), b""))
}

fn keys_of(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

const POLICY: [&str; 4] = ["--capacity", "10", "--refill-rate", "5"];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["replay"];
    all.extend(POLICY);
    all.extend(extra);
    all
}

#[test]
fn json_has_exactly_the_documented_fields() {
    let text = log();
    let report = on_file(text.as_bytes(), ".log", &[]);
    assert_eq!(
        keys_of(&report),
        BTreeSet::from([
            "lines",
            "requests",
            "malformed",
            "malformedExamples",
            "keys",
            "limited",
            "byKey"
        ])
    );
    let requests = text.lines().count() as u64 - 3;
    assert_eq!(report["lines"], text.lines().count() as u64);
    assert_eq!(
        (report["requests"].as_u64(), report["malformed"].as_u64()),
        (Some(requests), Some(2))
    );
    let examples = report["malformedExamples"].as_array().unwrap();
    assert_eq!(examples.len(), 2);
    assert_eq!(
        keys_of(&examples[0]),
        BTreeSet::from(["line", "why", "reason"])
    );
    assert_eq!(examples[1]["reason"]["code"], "badStatus");
    assert_eq!(examples[0]["line"], requests + 1);
    assert!(examples[1]["why"]
        .as_str()
        .unwrap()
        .contains("status \"999x\""));
    let by_key = report["byKey"].as_array().unwrap();
    assert_eq!(report["keys"], 4);
    assert_eq!(by_key.len(), 4, "every key without --top");
    assert_eq!(
        keys_of(&by_key[0]),
        BTreeSet::from(["key", "requests", "limited"])
    );
    assert_eq!(by_key[0]["key"], "192.0.2.1", "the busiest first");
    let counts: Vec<u64> = by_key
        .iter()
        .map(|k| k["requests"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert_eq!(counts.iter().sum::<u64>(), requests);
    let limited: u64 = by_key.iter().map(|k| k["limited"].as_u64().unwrap()).sum();
    assert_eq!(report["limited"], limited);
    assert!(
        by_key[0]["limited"].as_u64().unwrap() > 0,
        "12 per second against r = 5"
    );
    assert_eq!(by_key[3]["limited"], 0, "1 per second never meets B = 10");

    let top = on_file(text.as_bytes(), ".log", &["--top", "2"]);
    assert_eq!(top["byKey"].as_array().unwrap()[..], by_key[..2]);
    assert_eq!(top["keys"], 4, "--top shortens the list, not the count");
}

#[test]
fn stdin_and_gzip_give_the_same_report_as_the_file() {
    let text = log();
    let from_file = on_file(text.as_bytes(), ".log", &[]);
    assert_eq!(
        json(&bucketlab(&args(&["--json", "-"]), text.as_bytes())),
        from_file
    );
    let zipped = gzip(text.as_bytes());
    assert_eq!(
        json(&bucketlab(&args(&["--json", "-"]), &zipped)),
        from_file
    );
    assert_eq!(on_file(&zipped, ".log.gz", &[]), from_file);
}

#[test]
#[cfg(unix)]
fn a_path_to_a_pipe_is_kept_for_the_recommendations_passes_as_standard_input_is() {
    // `/dev/stdin` is the pipe the test writes to: a path that reads empty a second time, as
    // `<(zcat log.gz)` does.
    let text = log();
    for target in ["keys:75%", "requests:1%"] {
        let flags = ["--json", "--recommend", target];
        let from_stdin = json(&bucketlab(
            &args(&[&flags[..], &["-"]].concat()),
            text.as_bytes(),
        ));
        let from_pipe = json(&bucketlab(
            &args(&[&flags[..], &["/dev/stdin"]].concat()),
            text.as_bytes(),
        ));
        assert_eq!(from_pipe, from_stdin, "{target}");
        assert!(from_pipe["requests"].as_u64().unwrap() > 100);
    }
    // One pass reads it as it comes.
    assert_eq!(
        json(&bucketlab(
            &args(&["--json", "/dev/stdin"]),
            text.as_bytes()
        )),
        json(&bucketlab(&args(&["--json", "-"]), text.as_bytes())),
    );
}

#[test]
fn a_csvs_first_line_with_an_unread_time_is_counted_not_taken_as_a_header() {
    let report = on_file(
        b"2023-10-10 13:55:36,alice\n1700000000,alice\n1700000001,alice\n",
        ".csv",
        &["--format", "csv"],
    );
    assert_eq!(report["requests"], 2, "{report}");
    assert_eq!(report["malformed"], 1, "{report}");
    assert_eq!(report["malformedExamples"][0]["line"], 1, "{report}");
    // A header naming the columns is still one.
    let named = on_file(
        b"time,user\n1700000000,alice\n",
        ".csv",
        &["--format", "csv"],
    );
    assert_eq!(
        (named["requests"].as_u64(), named["malformed"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn the_recommendation_is_what_replaying_it_limits() {
    let text = log();
    for target in ["keys:75%", "requests:1%"] {
        // From standard input, which is then kept in a temporary file for the further passes.
        let report = json(&bucketlab(
            &args(&["--json", "--recommend", target, "-"]),
            text.as_bytes(),
        ));
        let r = &report["recommendation"];
        assert_eq!(
            keys_of(r),
            BTreeSet::from([
                "capacity",
                "refillRate",
                "target",
                "keysLimited",
                "requestsLimited"
            ])
        );
        assert_eq!(r["target"], target);
        let (capacity, rate) = (
            r["capacity"].as_f64().unwrap(),
            r["refillRate"].as_f64().unwrap(),
        );
        assert_eq!(capacity.fract(), 0.0, "a whole capacity");
        // Replaying that policy limits what the recommendation says.
        let again = json(&bucketlab(
            &[
                "replay",
                "--json",
                "--capacity",
                &capacity.to_string(),
                "--refill-rate",
                &rate.to_string(),
                "-",
            ],
            text.as_bytes(),
        ));
        assert_eq!(again["limited"], r["requestsLimited"], "{target}");
        let keys_limited = again["byKey"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["limited"] != 0)
            .count();
        assert_eq!(r["keysLimited"], keys_limited, "{target}");
        let requests = report["requests"].as_f64().unwrap();
        match target {
            "keys:75%" => assert!(keys_limited <= 1, "at most a quarter of 4 keys"),
            _ => assert!(r["requestsLimited"].as_f64().unwrap() <= 0.01 * requests),
        }
        // And one capacity less would miss the target.
        let less = json(&bucketlab(
            &[
                "replay",
                "--json",
                "--capacity",
                &(capacity - 1.0).max(1.0).to_string(),
                "--refill-rate",
                &rate.to_string(),
                "-",
            ],
            text.as_bytes(),
        ));
        if capacity > 1.0 {
            let missed = match target {
                "keys:75%" => {
                    less["byKey"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|k| k["limited"] != 0)
                        .count()
                        > 1
                }
                _ => less["limited"].as_f64().unwrap() > 0.01 * requests,
            };
            assert!(missed, "{target}: B = {} would do as well", capacity - 1.0);
        }
    }
    let empty = json(&bucketlab(
        &args(&["--json", "--recommend", "keys:99%", "-"]),
        b"",
    ));
    assert_eq!(
        empty["recommendation"],
        Value::Null,
        "nothing to recommend for"
    );
}

/// A replay of JSON lines `log` (standard input) on B = 1, r = 1, keyed by each line's `user`.
fn replay_by_user(log: &str) -> std::process::Output {
    bucketlab(
        &[
            "replay",
            "--capacity",
            "1",
            "--refill-rate",
            "1",
            "--key",
            "field:user",
            "-",
        ],
        log.as_bytes(),
    )
}

#[test]
fn a_key_with_control_characters_is_shown_escaped_never_sent_to_the_terminal() {
    let log = "{\"time\":1700000000,\"user\":\"evil\\u001b[2J\\nfake line\"}\n";
    let output = replay_by_user(log);
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(!table.contains('\u{1b}'), "{table:?}");
    assert!(
        !table.lines().any(|line| line.starts_with("fake line")),
        "{table}"
    );
    assert!(table.contains(r"evil\u{1b}[2J\nfake line"), "{table}");
}

#[test]
fn a_key_or_value_that_would_reorder_the_report_is_shown_escaped() {
    // U+202E shows what follows right to left: "\u{202e}1.0.0.01" would read as 10.0.0.1; U+2028
    // and U+2029 break a line where a terminal or an editor shows them.
    let log = "{\"time\":1700000000,\"user\":\"\\u202e1.0.0.01\"}\n{\"time\":1700000001,\"user\":\"a\\u2028b\\u2029c\\u2066d\"}\n{\"time\":\"\\u202e5\",\"user\":\"x\"}\n";
    let output = replay_by_user(log);
    let report = format!(
        "{}{}",
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    );
    for c in ['\u{202e}', '\u{2028}', '\u{2029}', '\u{2066}'] {
        assert!(!report.contains(c), "{c:?} in {report:?}");
    }
    assert!(report.contains(r"\u{202e}1.0.0.01"), "{report}");
    assert!(report.contains(r"a\u{2028}b\u{2029}c\u{2066}d"), "{report}");
    assert!(
        report.contains(r"\u{202e}5"),
        "the bad time is quoted escaped too: {report}"
    );
}

#[test]
fn the_table_reads_like_a_report() {
    let output = bucketlab(&args(&["--recommend", "keys:99%", "-"]), log().as_bytes());
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "format combined (detected) · key ip",
        "token-bucket with B = 10, r = 5/s",
        "\nmalformed lines:\n",
        ": time: a bracketed field was expected",
        "192.0.2.1",
        "burst needed to never be limited",
        "← --refill-rate",
        "recommendation for keys:99%: B = ",
    ] {
        assert!(
            table.contains(expected),
            "{expected:?} missing from:\n{table}"
        );
    }
}

/// The burst a key needs is rounded up in the table: a capacity copied from it is never short.
#[test]
fn the_table_rounds_a_needed_burst_up() {
    // The row of `--refill-rate 1`: the rate, the median, p95, p99 and the heaviest key's need.
    let row = |log: &[u8], capacity: &str| {
        let output = bucketlab(
            &["replay", "--capacity", capacity, "--refill-rate", "1", "-"],
            log,
        );
        assert!(output.status.success());
        let table = String::from_utf8(output.stdout).unwrap();
        let row = table
            .lines()
            .find(|line| line.ends_with("← --refill-rate"))
            .unwrap_or_else(|| panic!("no --refill-rate row in:\n{table}"))
            .to_owned();
        row.split_whitespace().take(5).collect::<Vec<_>>().join(" ")
    };
    // B(1) = 2 - 0.006 = 1.994: to the nearest hundredth that is 1.99, which refuses a request.
    let log = b"1700000000,a\n1700000000.006,a\n";
    assert_eq!(row(log, "1.99"), "1 2 2 2 2");
    let admitted = json(&bucketlab(
        &[
            "replay",
            "--capacity",
            "2",
            "--refill-rate",
            "1",
            "--json",
            "-",
        ],
        log,
    ));
    assert_eq!(
        admitted["limited"], 0,
        "the capacity the table shows is enough"
    );
    // A need that is a hundredth exactly stays one.
    let exact = b"1700000000,a\n1700000000.5,a\n1700000000.5,a\n";
    assert_eq!(row(exact, "2.5"), "1 2.5 2.5 2.5 2.5");
}

/// The table's curve section (from its heading on) for `log`, replayed with `B = 10`, `r = 5`.
fn curve_table(log: &str) -> String {
    let output = bucketlab(&args(&["-"]), log.as_bytes());
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    let at = table
        .find("burst needed")
        .unwrap_or_else(|| panic!("no curve in:\n{table}"));
    table[at..].to_owned()
}

/// The curve ends on the rate where every column reaches its floor, even one the round rates
/// (1, 2, 5 per decade) skip: a burst of 10, then a request every 1/7 s, needs B = 10 from 8/s.
#[test]
fn the_curve_shows_the_rate_where_the_need_reaches_its_floor() {
    let mut log = "1700000000,a\n".repeat(10);
    for k in 1..=70 {
        log.push_str(&format!("{},a\n", 1_700_000_000.0 + f64::from(k) / 7.0));
    }
    let table = curve_table(&log);
    let rows: Vec<String> = table
        .lines()
        .skip(2)
        .map(|line| {
            line.split_whitespace()
                .take(5)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(rows.contains(&"8 10 10 10 10".to_owned()), "{table}");
    let last_changing = rows.iter().rposition(|row| !row.ends_with(" 10")).unwrap();
    assert!(
        rows[last_changing + 1].starts_with("8 "),
        "the floor's first row follows the last one above it: {table}"
    );
}

/// Requests of the log `log` that a token bucket of `capacity` at `rate` limits.
fn limited(log: &str, capacity: f64, rate: f64) -> u64 {
    let report = run(log.as_bytes(), bucket(capacity, rate)).unwrap().report;
    report.limited
}

/// A request that can never pass (a cost above `B`, or short with `r = 0`) is limited, and also
/// counted apart by reason, in `--json` and in the table, with what to change: no retry helps it.
#[test]
fn a_request_that_can_never_pass_is_counted_apart_from_the_limited() {
    let flags = ["replay", "--capacity", "5", "--refill-rate", "1"];
    let report = json(&bucketlab(
        &[&flags[..], &["--json", "-"]].concat(),
        b"1700000000,a,7\n",
    ));
    assert_eq!(report["limited"], 1, "still limited: {report}");
    assert_eq!(
        report["never"],
        serde_json::json!({ "costExceedsCapacity": 1, "largestCost": 7.0 }),
        "{report}"
    );
    let output = bucketlab(&[&flags[..], &["-"]].concat(), b"1700000000,a,7\n");
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains(
            "  limited                1  (100.00 % of requests)\n  \
             of which 1 can never pass: cost 7 > capacity 5; raise the capacity or split the request\n"
        ),
        "{table}"
    );

    // With r = 0: the two costs above B, and the one that finds the bucket spent.
    let log = b"1700000000,a,7\n1700000000,a,9\n1700000000,a,3\n1700000000,a,3\n1700000001,b,1\n";
    let flags = ["replay", "--capacity", "5", "--refill-rate", "0"];
    let report = json(&bucketlab(&[&flags[..], &["--json", "-"]].concat(), log));
    assert_eq!(report["limited"], 3, "{report}");
    assert_eq!(
        report["never"],
        serde_json::json!({ "costExceedsCapacity": 2, "largestCost": 9.0, "noRefill": 1 }),
        "{report}"
    );
    let output = bucketlab(&[&flags[..], &["-"]].concat(), log);
    let table = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "  of which 2 can never pass: costs up to 9 > capacity 5; raise the capacity or split the requests\n",
        "  of which 1 can never pass: refill rate 0, nothing refills a key's bucket; raise the refill rate\n",
    ] {
        assert!(table.contains(expected), "{expected:?} missing from:\n{table}");
    }
    let report = json(&bucketlab(
        &[
            "replay",
            "--capacity",
            "5",
            "--refill-rate",
            "0",
            "--json",
            "-",
        ],
        b"1700000000,a,3\n1700000000,a,3\n",
    ));
    assert_eq!(
        report["never"],
        serde_json::json!({ "noRefill": 1 }),
        "{report}"
    );
}

/// The library's report counts the same, and says nothing of never when every refusal could
/// pass later: always so for the lab's limiters (requests of cost 1, a whole `B ≥ 1`, `r > 0`).
#[test]
fn the_report_counts_never_by_reason_and_only_for_final_refusals() {
    let log = "1700000000,a,7\n1700000000,a,2\n1700000000,a,4\n1700000000,b,6\n";
    let report = run(log.as_bytes(), bucket(5.0, 1.0)).unwrap().report;
    assert_eq!(report.limited, 3, "{report:?}");
    assert_eq!(
        report.never,
        Some(NeverCounts {
            cost_exceeds_capacity: 2,
            largest_cost: Some(7.0),
            no_refill: 0
        }),
        "{report:?}"
    );
    assert_eq!(report.never.map(|n| n.total()), Some(2));

    let burst = "1700000000,a\n".repeat(4);
    let report = run(burst.as_bytes(), bucket(2.0, 1.0)).unwrap().report;
    assert_eq!((report.limited, report.never), (2, None), "a wait helps");
    for algorithm in ALGORITHMS {
        let settings = Settings {
            policy: Policy::new(algorithm, 2.0, 1.0).unwrap(),
            ..bucket(2.0, 1.0)
        };
        let report = run(burst.as_bytes(), settings).unwrap().report;
        assert_eq!((report.limited, report.never), (2, None), "{algorithm}");
    }
}

/// Unix times with fractions of a second round their gaps (`1700000000.3 − 1700000000.2` is
/// `0.0999999…`); the core lets a request that early in, so the curve must not ask for more.
#[test]
fn the_curve_is_the_same_for_unix_times_as_from_zero() {
    // The worked example's eleventh request, then two more and one ten seconds later.
    let trace = |times: [&str; 4]| {
        let mut log = format!("{},alice,1\n", times[0]).repeat(11);
        for time in &times[1..] {
            log.push_str(&format!("{time},alice,1\n"));
        }
        log
    };
    let zero = trace(["0", "0.2", "0.3", "10"]);
    let unix = trace(["1700000000", "1700000000.2", "1700000000.3", "1700000010"]);
    // The same moments, some in epoch milliseconds: each line is read in its own unit.
    let mixed = trace([
        "1700000000000",
        "1700000000.2",
        "1700000000300",
        "1700000010",
    ]);
    let table = curve_table(&zero);
    assert_eq!(curve_table(&unix), table, "Unix seconds");
    assert_eq!(curve_table(&mixed), table, "milliseconds and seconds");
    for row in [
        "5 11.5 11.5 11.5 11.5",
        "2 12.4",
        "1 12.7",
        "0.5 12.85",
        "0.2 12.94",
    ] {
        assert!(
            table.lines().any(|line| line
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .starts_with(row)),
            "no row {row:?} in:\n{table}"
        );
    }
    // Every row's heaviest need is enough for the core's own replay, and a hundredth less is not.
    for line in table.lines().skip(3) {
        let cells: Vec<f64> = line
            .split_whitespace()
            .take(5)
            .map(|cell| cell.parse().unwrap())
            .collect();
        let (rate, need) = (cells[0], cells[4]);
        for log in [&zero, &unix, &mixed] {
            assert_eq!(limited(log, need, rate), 0, "B = {need}, r = {rate}");
            assert!(
                limited(log, need - 0.01, rate) > 0,
                "B = {need} − 0.01, r = {rate}"
            );
        }
    }
}

/// An asked rate above the grid's top adds its row; the rows still end where the curve settles
/// (10⁵/s credits 0.15 tokens of early arrival at Unix times: measured against it, no row was
/// ever settled, and every rate up to 10 000/s got a row).
#[test]
fn an_asked_rate_above_the_grid_adds_its_row_and_the_rows_still_end_where_they_settle() {
    let mut log = "1700000000,alice,1\n".repeat(11);
    for time in ["1700000000.2", "1700000000.3", "1700000010"] {
        log.push_str(&format!("{time},alice,1\n"));
    }
    log.push_str(&"1700000000,bob,1\n".repeat(3));
    let rows = |rate: &str| {
        let output = bucketlab(
            &["replay", "--capacity", "10", "--refill-rate", rate, "-"],
            log.as_bytes(),
        );
        let table = String::from_utf8(output.stdout).unwrap();
        let at = table.find("burst needed").unwrap();
        table[at..]
            .lines()
            .skip(3)
            .filter_map(|line| line.split_whitespace().next()?.parse::<f64>().ok())
            .collect::<Vec<f64>>()
    };
    let usual = rows("5");
    assert!(usual.last() < Some(&10.0), "settled early: {usual:?}");
    let fast = rows("100000");
    assert_eq!(fast[..fast.len() - 1], usual[..], "{fast:?}");
    assert_eq!(fast.last(), Some(&100_000.0));
}

/// A share that is not 0 is never written as 0.00 %; "the first" only when some are left out.
#[test]
fn the_table_never_rounds_a_share_to_nothing() {
    let mut log = String::from("1700000000,a\n1700000000,a\n");
    for i in 0..29_999 {
        log.push_str(&format!("{}.5,k{i}\n", 1_700_000_001 + i));
    }
    let output = bucketlab(
        &["replay", "--capacity", "1", "--refill-rate", "1", "-"],
        log.as_bytes(),
    );
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("(< 0.01 % of requests)"), "{table}");
    let many: String = (0..7).map(|_| "oops\n").collect::<String>() + "1,a\n2,a\n";
    let output = bucketlab(
        &[
            "replay",
            "--format",
            "csv",
            "--capacity",
            "1",
            "--refill-rate",
            "1",
            "-",
        ],
        format!("1,a\n{many}").as_bytes(),
    );
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("malformed lines (the first 5 of 7):"),
        "{table}"
    );
}

#[test]
fn the_report_names_the_epoch_unit_it_read_and_warns_when_units_mix() {
    let pino: String = (0..40)
        .map(|i| {
            format!(
                "{{\"time\": {}, \"ip\": \"10.0.0.{}\"}}\n",
                1_700_000_000_000_u64 + i * 250,
                i % 3
            )
        })
        .collect();
    let table = |log: &str| {
        let output = bucketlab(&args(&["-"]), log.as_bytes());
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let said = table(&pino);
    assert!(
        said.contains("\n  times: epoch milliseconds (read by size)\n"),
        "{said}"
    );
    assert!(!said.contains("warning"), "{said}");
    let report = on_file(pino.as_bytes(), ".jsonl", &[]);
    assert_eq!(
        report["epochUnits"],
        serde_json::json!([{ "unit": "milliseconds", "requests": 40, "firstLine": 1 }])
    );

    // Seconds, then a line in milliseconds: both read by size, and the report says where.
    let mixed = "1700000000,a\n1700000001,b\n1700000001500,a\n1700000002,b\n";
    let said = table(mixed);
    for expected in [
        "  times: epoch seconds (read by size) from line 1 (3 requests)\n",
        "         epoch milliseconds from line 3 (1 request)\n",
        "  warning: the times mix units",
    ] {
        assert!(
            said.contains(expected),
            "{expected:?} missing from:\n{said}"
        );
    }
    let report = on_file(mixed.as_bytes(), ".csv", &[]);
    assert_eq!(report["epochUnits"][1]["firstLine"], 3);
    assert_eq!(report["limited"], 0, "each line read in its own unit");

    // A log of dates says nothing of units.
    assert!(!table(&log()).contains("times:"));
}

#[test]
fn a_log_of_blank_lines_says_so_beside_its_line_count() {
    for (input, said, lines) in [
        (&b""[..], "no lines to read", "lines                  0"),
        (
            b"\n  \n\n",
            "no format: every line is blank",
            "lines                  3",
        ),
    ] {
        let output = bucketlab(&args(&["-"]), input);
        assert!(output.status.success());
        let table = String::from_utf8(output.stdout).unwrap();
        assert!(table.contains(said) && table.contains(lines), "{table}");
    }
}

/// Runs with `extra` flags and expects exit code 2 and every piece of `message` on stderr.
fn refused(extra: &[&str], message: &[&str]) {
    let output = bucketlab(extra, log().as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
    for piece in message {
        assert!(
            stderr.contains(piece),
            "{extra:?}: {piece:?} missing from {stderr}"
        );
    }
    assert!(output.stdout.is_empty());
}

#[test]
fn bad_flags_name_the_flag_the_value_and_what_is_allowed() {
    // Each case: the flags, `=>`, then the pieces the message must have, separated by ` | `.
    let cases = [
        // Every value quoted as typed, a number the core read (-1) like text it could not (nan).
        "--capacity -1 --refill-rate 5 => '-1' | --capacity | greater than 0, got \"-1\"",
        "--capacity lots --refill-rate 5 => 'lots' | --capacity | B must be a finite number",
        "--capacity 10 --refill-rate -0.5 => '-0.5' | --refill-rate | at least 0, got \"-0.5\"",
        "--capacity 0,0 --refill-rate 5 => '0,0' | --capacity | greater than 0, got \"0,0\"",
        "--capacity 1e400 --refill-rate 5 => '1e400' | --capacity | got \"1e400\", which is too large",
        // A rate that would read as 0 is not taken as 0 (which r allows).
        "--capacity 10 --refill-rate 1e-400 => '1e-400' | --refill-rate | got \"1e-400\", which is too small to tell from 0",
        // Echoed as typed, not in JavaScript's spelling (NaN, Infinity).
        "--capacity 2 --refill-rate nan => 'nan' | --refill-rate | at least 0, got \"nan\"",
        "--capacity inf --refill-rate 1 => 'inf' | --capacity | greater than 0, got \"inf\"",
        "--refill-rate 5 => --capacity",
        "--capacity 1 --refill-rate 1 --algorithm leaky-bucket => 'leaky-bucket' | --algorithm | token-bucket, fixed-window, sliding-log, sliding-counter, gcra",
        "--capacity 1 --refill-rate 1 --format xml => 'xml' | --format | combined, common, json, alb, csv",
        "--capacity 1 --refill-rate 1 --key user => 'user' | --key | ip, field:NAME",
        "--capacity 1 --refill-rate 1 --key column:0 => 'column:0' | --key | from 2 to 64",
        "--capacity 1 --refill-rate 1 --top -3 => '-3' | --top | whole number",
        "--capacity 1 --refill-rate 1 --recommend keys:200% => 'keys:200%' | --recommend | keys:P%",
        "--capacity 1 --refill-rate 1 --recommend most => 'most' | --recommend | requests:P%",
        "--capacity 2.5 --refill-rate 1 --algorithm fixed-window => '2.5' | --capacity | whole number from 1 to 10000",
        "--capacity 5 --refill-rate 0 --algorithm gcra => '0' | --refill-rate | above 0",
        "--capacity 5 --refill-rate 10000 --algorithm sliding-log => '10000' | --refill-rate | window B / r would be 0.0005 s",
        // Flags that only the log can refuse: the format detected is combined.
        "--capacity 1 --refill-rate 1 --key field:user => 'field:user' | --key | combined lines are keyed by ip",
        "--capacity 1 --refill-rate 1 --time-field ts => 'ts' | --time-field | only json lines",
        "--capacity 1 --refill-rate 1 --format json => 'json' | --format | is a JSON object",
        // A web-server format that none of the first lines is in: exit 2 too, not 0 requests.
        "--capacity 1 --refill-rate 1 --format alb => 'alb' | --format | none of the first 16 lines reads as alb; they read as combined",
        "--capacity 1 --refill-rate 1 --format alb --json => 'alb' | --format | they read as combined",
    ];
    for case in cases {
        let (flags, message) = case.split_once(" => ").unwrap();
        let mut args = vec!["replay"];
        args.extend(flags.split(' '));
        args.push("-");
        refused(&args, &message.split(" | ").collect::<Vec<_>>());
    }
}

#[test]
fn a_key_or_time_field_the_log_does_not_have_is_exit_code_2() {
    let csv = "1.0,alice\n2.0,bob\n3.0,alice\n";
    let json = "{\"time\":1,\"ip\":\"::1\"}\n{\"time\":2,\"ip\":\"::2\"}\n";
    for (flags, log, message) in [
        (
            ["--key", "column:5"],
            csv,
            ["'column:5'", "--key", "has a column 5", "at most 2"],
        ),
        (
            ["--time-field", "when"],
            json,
            ["'when'", "--time-field", "\"when\"", "ip, time"],
        ),
        (
            ["--key", "field:user"],
            json,
            ["'field:user'", "--key", "\"user\"", "ip, time"],
        ),
        // CSV named for JSON lines (split at their commas): none reads as CSV, not 0 requests.
        (
            ["--format", "csv"],
            json,
            [
                "'csv'",
                "--format",
                "none of the first 2 lines reads as csv",
                "they read as json",
            ],
        ),
    ] {
        let output = bucketlab(&args(&[flags[0], flags[1], "-"]), log.as_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {stderr}");
        for piece in message {
            assert!(
                stderr.contains(piece),
                "{flags:?}: {piece:?} missing from {stderr}"
            );
        }
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn unreadable_input_is_exit_code_1_and_unknown_text_exit_code_2() {
    let output = bucketlab(&args(&["/no/such/access.log"]), b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such/access.log"));
    let output = bucketlab(&args(&["-"]), b"hello\nworld\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("if it is one of them, name it with --format"));
    // A gzip stream cut short is an error of the input, after what could be read.
    let zipped = gzip(log().as_bytes());
    let output = bucketlab(&args(&["-"]), &zipped[..zipped.len() / 2]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The files of `tests/fixtures/compressed/` (see its README): one log compressed with each tool.
fn compressed_fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/compressed/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_compressions_other_than_gzip_are_refused_by_name() {
    // The log they all hold reads as it is (so the refusals below are the compression's).
    let plain = compressed_fixture("combined.log");
    let report = json(&bucketlab(&args(&["--json", "-"]), &plain));
    assert_eq!(report["requests"], 110);
    for (file, compression) in [
        // One of this file's pieces between `\n`s happens to be UTF-8: it was taken for text and
        // refused for a format's reason ("none of combined, … matches").
        ("combined.log.zst", "zstd"),
        ("combined.log.xz", "xz"),
        ("combined.log.bz2", "bzip2"),
        ("combined.log.lz4", "lz4"),
        ("combined.log.zip", "zip"),
    ] {
        let bytes = compressed_fixture(file);
        // Whatever --format says, and from a file or standard input alike.
        for format in [None, Some("csv"), Some("combined"), Some("json")] {
            let mut flags = Vec::new();
            if let Some(format) = format {
                flags.extend(["--format", format]);
            }
            flags.push("-");
            let output = bucketlab(&args(&flags), &bytes);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{file} {format:?}: {stderr}");
            assert!(
                stderr.contains(&format!(
                    "the log is compressed with {compression}, and gzip is the only compression \
                     read: decompress it first"
                )),
                "{file} {format:?}: {stderr}"
            );
            assert!(
                !stderr.contains("invalid value") && !stderr.contains("--format:"),
                "{file} {format:?}: the format named is not what is wrong: {stderr}"
            );
            assert!(output.stdout.is_empty());
        }
    }
    // Bytes that are no text at all: the file is at fault, not a flag, whatever --format says.
    for format in [None, Some("csv")] {
        let mut flags = Vec::new();
        if let Some(format) = format {
            flags.extend(["--format", format]);
        }
        flags.push("-");
        let output = bucketlab(&args(&flags), b"\xff\xfe\x00\x01\n\xff\xff\n");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{format:?}: {stderr}");
        assert!(
            stderr.starts_with("error: none of the first 2 lines is text (UTF-8)"),
            "{format:?}: {stderr}"
        );
    }
    // gzip is still read, and text that merely starts with "BZh" is still text.
    let report = json(&bucketlab(&args(&["--json", "-"]), &gzip(&plain)));
    assert_eq!(report["requests"], 110);
    let report = json(&bucketlab(
        &args(&["--json", "-"]),
        b"BZh9,alice\n1.0,alice\n2.0,bob\n",
    ));
    assert_eq!(report["requests"], 2);
}

#[test]
fn the_help_says_whole_second_counts_may_be_off_either_way() {
    let output = bucketlab(&["replay", "--help"], b"");
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    assert!(output.status.success(), "{help}");
    assert!(!help.contains("upper bound"), "{help}");
    assert!(
        help.contains("the report says the limited counts may be off either way"),
        "{help}"
    );
    // And it is so: two requests 0.2 s apart, either side of a second's end, with B = 1 and
    // r = 1/s. With milliseconds the second is limited; in whole seconds (as `combined` without
    // `$msec` reads them) they are a second apart and neither is: fewer limited, not more.
    let limited = |times: [&str; 2]| {
        let log = format!("{},alice\n{},alice\n", times[0], times[1]);
        let output = bucketlab(
            &[
                "replay",
                "--capacity",
                "1",
                "--refill-rate",
                "1",
                "--json",
                "-",
            ],
            log.as_bytes(),
        );
        json(&output)["limited"].as_u64().unwrap()
    };
    assert_eq!(limited(["1700000000.9", "1700000001.1"]), 1);
    assert_eq!(limited(["1700000000", "1700000001"]), 0);
}

#[test]
fn top_says_its_largest_value() {
    refused(
        &args(&["--top", "99999999999999999999", "-"]),
        &[
            "'99999999999999999999'",
            "--top",
            &format!("whole number from 0 to {}", usize::MAX),
        ],
    );
    // A target's percentage too large for a double is out of range, not "not a number".
    refused(
        &args(&["--recommend", "keys:1e400%", "-"]),
        &["--recommend", "1e400% is out of range", "0 < P ≤ 100"],
    );
}

#[test]
fn a_rate_of_minus_zero_is_written_as_0_and_a_huge_capacity_as_the_report_writes_numbers() {
    let output = bucketlab(
        &["replay", "--capacity", "3", "--refill-rate", "-0", "-"],
        log().as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("token-bucket with B = 3, r = 0/s"),
        "{stdout}"
    );
    // 1e300 as every number of the report (src/limiter/number.rs, JavaScript's form, as the
    // lesson's page writes it): `1e+300`, not its 301 digits.
    let output = bucketlab(
        &[
            "replay",
            "--capacity",
            "1e300",
            "--refill-rate",
            "1e-300",
            "-",
        ],
        log().as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("token-bucket with B = 1e+300, r = 1e-300/s"),
        "{stdout}"
    );
    assert!(
        stdout.contains("      1e-300 "),
        "the curve's row: {stdout}"
    );
}

/// `--export TOOL` with `flags` on `log()`: exit status, standard output, standard error.
fn exported(flags: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["replay"];
    all.extend(flags);
    all.push("-");
    let out = bucketlab(&all, log().as_bytes());
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn export_prints_the_configuration_the_page_gives_for_the_policy_replayed() {
    use bucketlab::limiter::BucketConfig;
    use bucketlab::replay::export::{exports, EXPORT_IDS};
    use bucketlab::replay::KeySpec;
    let page = |b: f64, r: f64, id: &str| {
        let config = BucketConfig::new(b, r).unwrap();
        exports(config, &KeySpec::Ip)
            .into_iter()
            .find(|e| e.id == id)
            .unwrap()
            .text
            .unwrap()
    };
    for id in EXPORT_IDS {
        let (code, text, _) = exported(&[&POLICY[..], &["--export", id]].concat());
        assert_eq!((code, text), (Some(0), page(10.0, 5.0, id)), "{id}");
    }
    // The policy replayed, as the page's exports: a recommendation is exported by replaying it.
    let recommend = [
        &POLICY[..],
        &["--recommend", "keys:75%", "--export", "yaml"],
    ]
    .concat();
    let (code, text, why) = exported(&recommend);
    assert_eq!((code, text.as_str()), (Some(2), ""));
    assert!(
        why.contains("'--recommend <TARGET>' cannot be used with '--export <TOOL>'"),
        "{why}"
    );
    // An empty log keys the export as asked (the note that nginx keys by address stays).
    let empty = bucketlab(
        &args(&[
            "--format",
            "json",
            "--key",
            "field:user",
            "--export",
            "nginx",
            "-",
        ]),
        b"",
    );
    let text = String::from_utf8(empty.stdout).unwrap();
    assert!(
        text.contains("# Note: the replay was keyed by field:user;"),
        "{text}"
    );
    // A policy the tool cannot write: exit 2, and why.
    let (code, text, why) = exported(&[
        "--capacity",
        "3",
        "--refill-rate",
        "0.001",
        "--export",
        "nginx",
    ]);
    assert_eq!((code, text.as_str()), (Some(2), ""));
    assert!(why.starts_with("bucketlab: --export nginx: B = 3, r = 0.001/s cannot be written: nginx's slowest rate is 1r/m"), "{why}");
    // Another limiter's B and r are not a token bucket's.
    let window = [
        &POLICY[..],
        &["--algorithm", ALGORITHMS[1], "--export", "yaml"],
    ]
    .concat();
    let (code, _, why) = exported(&window);
    assert_eq!(code, Some(2));
    assert!(
        why.contains("it writes a token bucket, not --algorithm"),
        "{why}"
    );
    // Not with --json, which is the report.
    let (code, _, why) = exported(&[&POLICY[..], &["--json", "--export", "nginx"]].concat());
    assert_eq!(code, Some(2));
    assert!(
        why.contains("'--json' cannot be used with '--export <TOOL>'"),
        "{why}"
    );
}
