//! Times a log cannot mean: outside 1970 to the year 5138 (the range every epoch unit reads
//! right in) or with a UTC offset beyond ±14:00. Each is a malformed line naming the value and
//! the range, never a request (one far ahead would stop its key's clock there).

mod replay_support;

use replay_support::{bucket, run};

/// The malformed lines' reasons (`why`) and the requests replayed, for `log`.
fn read(log: &str) -> (Vec<String>, u64) {
    let report = run(log.as_bytes(), bucket(1.0, 1.0)).unwrap().report;
    let why = report
        .malformed_examples
        .into_iter()
        .map(|m| m.why)
        .collect();
    (why, report.requests)
}

const RANGE: &str = "is out of range: times run from 1970 to the year 5138 (an epoch number \
                     below 1e20, in s, ms, µs or ns by size)";
/// A date's range, not an epoch number's: epoch second 1e11 is 5138-11-16 09:46:40 UTC.
const DATE_RANGE: &str =
    "is out of range: dates run from 1970-01-01 00:00:00 UTC to before 5138-11-16 09:46:40 UTC";

#[test]
fn an_epoch_number_past_the_year_5138_in_nanoseconds_is_malformed() {
    let (why, requests) = read("time,key\n99999999999999999999999999999,a\n1700000000,a\n");
    assert_eq!(requests, 1);
    assert_eq!(
        why,
        [format!("time \"99999999999999999999999999999\" {RANGE}")]
    );
    // Just below 1e20 (99999999999999999999 is 1e20 as a double): nanoseconds, the year 5138.
    let (why, requests) = read("time,key\n99999999999999900000,a\n");
    assert_eq!((why.len(), requests), (0, 1), "{why:?}");
    // A JSON number too, named as the line writes it (serde_json would say 1e+25 and 1.7e+20),
    // and its field named, as a negative number's is; a string of digits the same.
    let (why, _) = read(
        "{\"time\": 1e25, \"ip\": \"a\"}\n\
         {\"ip\": \"a\", \"time\": 170000000000000000000}\n\
         {\"time\": \"100000000000000000000\", \"ip\": \"a\"}\n\
         {\"time\": 1, \"ip\": \"a\"}\n",
    );
    assert_eq!(
        why,
        [
            format!("time field \"time\": 1e25 {RANGE}"),
            format!("time field \"time\": 170000000000000000000 {RANGE}"),
            format!("time field \"time\": \"100000000000000000000\" {RANGE}"),
        ]
    );
}

#[test]
fn a_json_time_past_a_double_is_out_of_range_not_a_line_that_is_not_json() {
    // serde_json refuses a number past an f64's range as it parses the line, which is JSON all
    // the same: the time field's number is out of range, quoted as the line writes it. A
    // negative one is no epoch time, as -1 is.
    let (why, requests) = read(
        "{\"time\": 1e400, \"ip\": \"a\"}\n\
         {\"ip\": \"a\", \"time\":1E+400}\n\
         {\"time\": 1e99999999999999999999, \"ip\": \"a\"}\n\
         {\"time\": -1e400, \"ip\": \"a\"}\n\
         {\"time\": 1, \"ip\": \"a\"}\n",
    );
    assert_eq!(requests, 1);
    assert_eq!(
        why,
        [
            format!("time field \"time\": 1e400 {RANGE}"),
            format!("time field \"time\": 1E+400 {RANGE}"),
            format!("time field \"time\": 1e99999999999999999999 {RANGE}"),
            "time field \"time\": -1e400 is not an epoch time (0 or more and below 1e20: s, ms, \
             µs or ns since 1970)"
                .to_owned(),
        ]
    );
    // Such a number in a member the replay does not read leaves the line not JSON, as
    // serde_json says it (the replay reads the line's members through serde_json).
    let (why, requests) =
        read("{\"time\": 1, \"ip\": \"a\", \"bytes\": 1e400}\n{\"time\": 1, \"ip\": \"a\"}\n");
    assert_eq!(requests, 1);
    assert_eq!(why, ["not JSON: number out of range at line 1 column 37"]);
}

#[test]
fn a_date_before_1970_or_from_5138_11_16_is_malformed_naming_a_dates_range() {
    let line = |date: &str| format!("10.0.0.1 - - [{date}] \"GET / HTTP/1.1\" 200 1\n");
    let log = [
        "10/Oct/1960:13:55:36 -0700",
        "10/Oct/2000:13:55:36 -0700",
        "10/Oct/6000:13:55:36 +0000",
        "31/Dec/9999:23:59:59 +0000",
        "16/Nov/5138:09:46:39 +0000",
        "16/Nov/5138:09:46:40 +0000",
    ]
    .map(line)
    .concat();
    let (why, requests) = read(&log);
    assert_eq!(requests, 2, "the last second before 1e11 is a time");
    assert_eq!(
        why,
        [
            format!("time \"10/Oct/1960:13:55:36 -0700\" {DATE_RANGE}"),
            format!("time \"10/Oct/6000:13:55:36 +0000\" {DATE_RANGE}"),
            format!("time \"31/Dec/9999:23:59:59 +0000\" {DATE_RANGE}"),
            format!("time \"16/Nov/5138:09:46:40 +0000\" {DATE_RANGE}"),
        ]
    );
    let (why, requests) = read("time,key\n1960-01-01T00:00:00Z,a\n2000-01-01T00:00:00Z,a\n");
    assert_eq!(requests, 1);
    assert_eq!(why, [format!("time \"1960-01-01T00:00:00Z\" {DATE_RANGE}")]);
}

#[test]
fn an_offset_beyond_14_hours_is_malformed() {
    let log = "10.0.0.1 - - [10/Oct/2000:13:55:36 +2500] \"GET / HTTP/1.1\" 200 1\n\
               10.0.0.1 - - [10/Oct/2000:13:55:36 +1400] \"GET / HTTP/1.1\" 200 1\n\
               10.0.0.1 - - [10/Oct/2000:13:55:36 -1401] \"GET / HTTP/1.1\" 200 1\n";
    let (why, requests) = read(log);
    assert_eq!(requests, 1, "+14:00 is Kiribati's");
    assert_eq!(
        why,
        [
            "time \"10/Oct/2000:13:55:36 +2500\" has the UTC offset +25:00; offsets run from \
             -14:00 to +14:00",
            "time \"10/Oct/2000:13:55:36 -1401\" has the UTC offset -14:01; offsets run from \
             -14:00 to +14:00",
        ]
    );
    let (why, _) = read("{\"time\": \"2000-10-10T20:55:36+15:00\", \"ip\": \"a\"}\n");
    assert_eq!(
        why,
        ["time \"2000-10-10T20:55:36+15:00\" has the UTC offset +15:00; offsets run from -14:00 \
          to +14:00"]
    );
}
