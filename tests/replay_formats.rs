//! The log parsers, format by format, on lines written the way the servers write them; then what
//! every format shares: detection, malformed lines, CRLF, an overlong line, binary garbage, gzip.

mod replay_support;

use bucketlab::replay::{detect, Format, KeySpec, Line, Parsed, Parser, Remedy, SetupError};
use replay_support::{bucket, gzip, run};

/// What one line gives: `(time, key, cost)`, or why it is malformed.
fn read(parser: &mut Parser, line: &str) -> Result<(f64, String, f64), String> {
    match parser.line(Line::Text(line.as_bytes())) {
        Parsed::Event(e) => Ok((e.time, e.key.into_owned(), e.cost)),
        Parsed::Malformed(why) => Err(why.to_string()),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn parser(format: Format, key: Option<KeySpec>, samples: &[&str]) -> Parser {
    Parser::new(format, key.as_ref(), None, samples).unwrap()
}

// The example of Apache's documentation, then nginx and Apache lines with IPv6 clients, quotes
// escaped both ways (`\"` Apache, `\x22` nginx) and time zones a half or three quarters of an
// hour off, on both sides of UTC.
const APACHE_EXAMPLE: &str = r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)""#;
const COMBINED: [(&str, &str, f64); 4] = [
    (
        r#"2001:db8:85a3::8a2e:370:7334 - - [03/Nov/2023:09:15:02 +0530] "GET /search?q=\"rate limit\" HTTP/1.1" 200 512 "https://example.org/?q=\"x\"" "Mozilla/5.0 (X11; Linux x86_64) \"quoted\" agent""#,
        "2001:db8:85a3::8a2e:370:7334",
        1_698_983_102.0,
    ),
    (
        r#"::1 - alice [31/Dec/2023:23:59:59 -0930] "POST /api/v1/items HTTP/2.0" 201 - "-" "curl/8.5.0 \x22x\x22""#,
        "::1",
        1_704_101_399.0,
    ),
    (
        r#"198.51.100.23 - - [01/Jan/2024:00:00:00 +1400] "GET / HTTP/1.1" 304 0 "-" "Googlebot/2.1 (+http://www.google.com/bot.html)""#,
        "198.51.100.23",
        1_704_016_800.0,
    ),
    (
        r#"fe80::1ff:fe23:4567:890a - - [29/Feb/2024:12:45:00 +1245] "GET /a\\b HTTP/1.1" 404 153 "-" "-" "-""#,
        "fe80::1ff:fe23:4567:890a",
        1_709_164_800.0,
    ),
];

#[test]
fn combined_lines_give_the_client_and_the_second() {
    let mut p = parser(Format::Combined, None, &[]);
    assert_eq!(
        read(&mut p, APACHE_EXAMPLE),
        Ok((971_211_336.0, "127.0.0.1".to_owned(), 1.0))
    );
    for (line, client, time) in COMBINED {
        assert_eq!(
            read(&mut p, line),
            Ok((time, client.to_owned(), 1.0)),
            "{line}"
        );
    }
}

#[test]
fn a_trailing_msec_gives_the_sub_second_time() {
    let mut p = parser(Format::Combined, None, &[]);
    let line = |extra: &str| format!("{APACHE_EXAMPLE} {extra}");
    assert_eq!(
        read(&mut p, &line("971211336.731")).unwrap().0,
        971_211_336.731
    );
    // Fields in between are fine; a number that is not the same second is not $msec.
    assert_eq!(
        read(&mut p, &line("\"10.0.0.1\" 971211336.002")).unwrap().0,
        971_211_336.002
    );
    assert_eq!(
        read(&mut p, &line("0.004")).unwrap().0,
        971_211_336.0,
        "$request_time"
    );
    let mut common = parser(Format::Common, None, &[]);
    let line = r#"192.0.2.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 17 971211336.5"#;
    assert_eq!(
        read(&mut common, line),
        Ok((971_211_336.5, "192.0.2.7".to_owned(), 1.0))
    );
}

#[test]
fn common_lines_stop_after_the_size() {
    let mut p = parser(Format::Common, None, &[]);
    let line =
        r#"203.0.113.9 - bob [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326"#;
    assert_eq!(
        read(&mut p, line),
        Ok((971_211_336.0, "203.0.113.9".to_owned(), 1.0))
    );
    // A combined line is a common one with two more fields; the reverse is not true.
    assert!(read(&mut p, APACHE_EXAMPLE).is_ok());
    let mut combined = parser(Format::Combined, None, &[]);
    assert!(read(&mut combined, line).unwrap_err().contains("referer"));
}

#[test]
fn a_common_line_cut_after_its_status_is_unreadable_not_a_request() {
    // The size is the common format's last field: a line that ends at the status lost it.
    let mut p = parser(Format::Common, None, &[]);
    let got = read(
        &mut p,
        r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /" 200"#,
    )
    .unwrap_err();
    assert!(got.contains("size"), "{got}");
    assert!(read(
        &mut p,
        r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /" 200 -"#
    )
    .is_ok());
}

#[test]
fn broken_log_lines_say_what_is_wrong() {
    let mut p = parser(Format::Combined, None, &[]);
    let cases = [
        (
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0 200 5 "-" "-""#,
            "status",
        ),
        (
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 2000 5 "-" "-""#,
            "status \"2000\"",
        ),
        (
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /" 200 lots "-" "-""#,
            "size \"lots\"",
        ),
        (
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36] "GET /" 200 5 "-" "-""#,
            "time \"10/Oct/2000:13:55:36\"",
        ),
        (
            r#"1.2.3.4 - - [31/Sep/2000:13:55:36 -0700] "GET /" 200 5 "-" "-""#,
            "time \"31/Sep",
        ),
        (
            r#"1.2.3.4 - - 10/Oct/2000:13:55:36 -0700 "GET /" 200 5"#,
            "bracketed",
        ),
        (
            r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /" 200 5 "-" "no end"#,
            "user-agent",
        ),
    ];
    for (line, why) in cases {
        let got = read(&mut p, line).unwrap_err();
        assert!(got.contains(why), "{line}: {got}");
    }
}

const ALB: [&str; 3] = [
    r#"https 2024-03-10T02:30:01.504021Z app/my-lb/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET https://api.example.com:443/v1/things?id=\"7\" HTTP/1.1" "curl/8.5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "api.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 0 2024-03-10T02:30:00.123456Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd"#,
    r#"h2 2024-03-10T02:30:02.000000Z app/my-lb/50dc6c495c0c9188 [2600:1f18:4a3:6902::7]:54321 10.0.0.1:80 0.001 0.002 0.000 429 429 0 57 "POST https://api.example.com:443/v1/login HTTP/2.0" "Mozilla/5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe355" "api.example.com" "-" 1 - "forward" "-" "-" "10.0.0.1:80" "429" "-" "-""#,
    r#"http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354""#,
];

#[test]
fn alb_entries_give_the_client_address_and_the_arrival() {
    let mut p = parser(Format::Alb, None, &[]);
    // request_creation_time when there is one, the response time when it is `-` or absent.
    assert_eq!(
        read(&mut p, ALB[0]),
        Ok((1_710_037_800.123456, "192.168.131.39".to_owned(), 1.0))
    );
    assert_eq!(
        read(&mut p, ALB[1]),
        Ok((1_710_037_802.0, "2600:1f18:4a3:6902::7".to_owned(), 1.0))
    );
    assert_eq!(
        read(&mut p, ALB[2]),
        Ok((1_530_570_180.186641, "192.168.131.39".to_owned(), 1.0))
    );
    let bad_time = ALB[0].replace("2024-03-10T02:30:00.123456Z", "yesterday");
    assert!(read(&mut p, &bad_time)
        .unwrap_err()
        .contains("request_creation_time \"yesterday\""));
    assert!(read(&mut p, "ftp 2024-03-10T02:30:01Z x 1.2.3.4:5")
        .unwrap_err()
        .contains("type \"ftp\""));
    assert!(read(&mut p, "http 2024-03-10T02:30:01Z x 1.2.3.4")
        .unwrap_err()
        .contains("ip:port"));
}

const JSON: [&str; 5] = [
    r#"{"time": 1710037800.25, "remote_addr": "192.0.2.1", "request": "GET / HTTP/1.1", "status": 200}"#,
    r#"{"remote_addr":"2001:db8::2","time":"2024-03-10T08:00:00.5+05:30","ua":"say \"hi\""}"#,
    r#"{"time": "1710037801.75", "remote_addr": "192.0.2.1", "user": {"id": 42}}"#,
    r#"{"time": "2023-11-05T01:30:00-04:00", "remote_addr": "192.0.2.3", "user": {"id": "u-7"}}"#,
    r#"{"time": 1710037802, "remote_addr": "192.0.2.4", "user": {"id": true}}"#,
];

#[test]
fn json_lines_take_named_fields() {
    let mut p = parser(Format::Json, None, &JSON);
    assert_eq!(p.time_field(), Some("time"), "found in the first line");
    assert_eq!(
        p.key(),
        KeySpec::Field("remote_addr".to_owned()),
        "ip means remote_addr here"
    );
    let got: Vec<_> = JSON.iter().map(|l| read(&mut p, l).unwrap()).collect();
    let expected = [
        (1_710_037_800.25, "192.0.2.1"),
        (1_710_037_800.5, "2001:db8::2"),
        (1_710_037_801.75, "192.0.2.1"),
        (1_699_162_200.0, "192.0.2.3"),
        (1_710_037_802.0, "192.0.2.4"),
    ];
    for (g, (time, key)) in got.iter().zip(expected) {
        assert_eq!((g.0, g.1.as_str()), (time, key));
    }
    // A nested field as the key; a number as JSON writes it. A boolean is refused, as null and
    // arrays are: a key is a string or a number.
    let mut by_user = parser(Format::Json, Some(KeySpec::Field("user.id".into())), &JSON);
    assert_eq!(read(&mut by_user, JSON[2]).unwrap().1, "42");
    assert_eq!(read(&mut by_user, JSON[3]).unwrap().1, "u-7");
    assert_eq!(
        read(&mut by_user, JSON[4]).unwrap_err(),
        "key field \"user.id\" is a boolean, not a string or a number"
    );
    assert!(read(&mut by_user, JSON[0])
        .unwrap_err()
        .contains("no key field \"user.id\""));
}

#[test]
fn json_time_fields_are_named_or_found_and_checked() {
    let ecs = r#"{"@timestamp":"2024-03-10T02:30:00.123456Z","client":{"ip":"10.1.2.3"}}"#;
    let mut p = parser(Format::Json, None, &[ecs]);
    assert_eq!(
        read(&mut p, ecs),
        Ok((1_710_037_800.123456, "10.1.2.3".to_owned(), 1.0))
    );
    // nginx's `$time_local` in a JSON log: the web server's time, as in its text log.
    let nginx = r#"{"time_local": "10/Oct/2000:13:55:36 -0700", "ip": "192.0.2.1"}"#;
    let mut p = Parser::new(Format::Json, None, Some("time_local"), &[nginx]).unwrap();
    assert_eq!(
        read(&mut p, nginx),
        Ok((971_211_336.0, "192.0.2.1".to_owned(), 1.0))
    );
    let custom = r#"{"when": 12.5, "ip": "::1"}"#;
    let mut p = Parser::new(Format::Json, None, Some("when"), &[custom]).unwrap();
    assert_eq!(read(&mut p, custom), Ok((12.5, "::1".to_owned(), 1.0)));
    for (line, why) in [
        (
            r#"{"when": "soon", "ip": "::1"}"#,
            "neither an epoch time (digits with an optional fraction, in s, ms, µs or ns by size), an RFC 3339 date and time nor a web server's",
        ),
        (r#"{"when": -4, "ip": "::1"}"#, "not an epoch time"),
        (r#"{"when": [1], "ip": "::1"}"#, "is an array"),
        (r#"{"ip": "::1"}"#, "no time field \"when\""),
        (r#"{"when": 1, "ip": null}"#, "key field \"ip\" is null"),
        (r#"[{"when": 1}]"#, "an array is not an object"),
        (r#"{"when": 1, "ip": "::1""#, "not JSON"),
    ] {
        let got = read(&mut p, line).unwrap_err();
        assert!(got.contains(why), "{line}: {got}");
    }
    // The first object that has a usual name decides (a first line of another shape is common).
    let started = r#"{"event": "started", "version": 3}"#;
    let p = Parser::new(Format::Json, None, None, &[started, ecs]).unwrap();
    assert_eq!(p.time_field(), Some("@timestamp"));
    assert_eq!(p.key(), KeySpec::Field("client.ip".to_owned()));
    let nameless = r#"{"t": 1, "addr": "::1"}"#;
    let err = Parser::new(Format::Json, None, None, &[nameless]).unwrap_err();
    assert_eq!((err.option, err.value), ("time-field", None));
    let err = Parser::new(Format::Json, None, Some("t"), &[nameless]).unwrap_err();
    assert_eq!((err.option, err.value.as_deref()), ("key", Some("ip")));
    assert_eq!(err.remedy, Some(Remedy::NameKeyField));
    assert_eq!(
        err.to_string(),
        format!(
            "key \"ip\": {}; name the field with --key field:NAME",
            err.why
        )
    );
}

#[test]
fn csv_lines_take_time_key_and_cost() {
    let lines = [
        "time,client,cost",
        "1710037800.5,alice,2",
        "2024-03-10T02:30:00Z,\"bob, the builder\",0.5",
        "1710037801,carol",
        "1710037802,\"dave \"\"d\"\"\",1",
    ];
    let mut p = parser(Format::Csv, None, &lines);
    assert_eq!(p.line(Line::Text(lines[0].as_bytes())), Parsed::Header);
    let got: Vec<_> = lines[1..]
        .iter()
        .map(|l| read(&mut p, l).unwrap())
        .collect();
    assert_eq!(
        got,
        [
            (1_710_037_800.5, "alice".to_owned(), 2.0),
            (1_710_037_800.0, "bob, the builder".to_owned(), 0.5),
            (1_710_037_801.0, "carol".to_owned(), 1.0),
            (1_710_037_802.0, "dave \"d\"".to_owned(), 1.0),
        ]
    );
    for (line, why) in [
        (
            "1710037800,alice,-1",
            "cost must be a finite number of at least 0, got \"-1\"",
        ),
        // Quoted as written, whether the core read a number or not.
        ("1710037800,alice,-1.50", "got \"-1.50\""),
        ("1710037800,alice,nan", "got \"nan\""),
        ("1710037800,alice,lots", "got \"lots\""),
        ("1710037800,,1", "the key (column 2) is empty"),
        ("1710037800", "no column 2"),
        ("time,alice", "time \"time\" is neither an epoch time"),
    ] {
        let got = read(&mut p, line).unwrap_err();
        assert!(got.contains(why), "{line}: {got}");
    }
    // Another column as the key: then every request costs 1.
    let mut by_path = parser(Format::Csv, Some(KeySpec::Column(3)), &[]);
    assert_eq!(
        read(&mut by_path, "5,alice,/login"),
        Ok((5.0, "/login".to_owned(), 1.0))
    );
}

#[test]
fn keys_and_time_fields_must_fit_the_format() {
    let refused = |format, key: Option<KeySpec>, time: Option<&str>| -> SetupError {
        Parser::new(format, key.as_ref(), time, &[]).unwrap_err()
    };
    let e = refused(Format::Combined, Some(KeySpec::Field("user".into())), None);
    assert_eq!((e.option, e.value.as_deref()), ("key", Some("field:user")));
    assert_eq!(
        e.why.to_string(),
        "combined lines are keyed by ip, the client address"
    );
    let e = refused(Format::Csv, Some(KeySpec::Ip), None);
    assert!(e.why.to_string().contains("column:N"), "{}", e.why);
    let e = refused(Format::Json, Some(KeySpec::Column(2)), None);
    assert!(e.why.to_string().contains("field:NAME"), "{}", e.why);
    let e = refused(Format::Alb, None, Some("time"));
    assert_eq!((e.option, e.value.as_deref()), ("time-field", Some("time")));
    assert_eq!(
        KeySpec::parse("column:1").unwrap_err().to_string(),
        "column:N needs a whole number from 2 to 64 (column 1 is the time)"
    );
    assert!(KeySpec::parse("user")
        .unwrap_err()
        .to_string()
        .contains("ip, field:NAME"));
    assert!(KeySpec::parse("field:").is_err());
}

#[test]
fn a_named_field_or_column_that_no_first_line_has_is_refused() {
    let csv = ["time,client", "1.5,alice", "2,bob"];
    let e = Parser::new(Format::Csv, Some(&KeySpec::Column(5)), None, &csv).unwrap_err();
    assert_eq!((e.option, e.value.as_deref()), ("key", Some("column:5")));
    assert_eq!(
        e.why.to_string(),
        "none of the first 3 lines has a column 5; they have at most 2, so the key can be column:2"
    );
    let wide = ["1,a,b,c", "2,a"];
    let e = Parser::new(Format::Csv, Some(&KeySpec::Column(9)), None, &wide).unwrap_err();
    assert!(
        e.why.to_string().ends_with("column:2 to column:4"),
        "{}",
        e.why
    );
    assert!(Parser::new(Format::Csv, Some(&KeySpec::Column(4)), None, &wide).is_ok());
    // A one-column log read as CSV has no key at all: the format is what does not fit.
    let e = Parser::new(Format::Csv, None, None, &["1", "2"]).unwrap_err();
    assert_eq!((e.option, e.value.as_deref()), ("format", Some("csv")));
    assert!(
        e.why
            .to_string()
            .contains("none of the first 2 lines has a second column"),
        "{}",
        e.why
    );

    let json = [
        r#"{"time": 1, "ip": "::1"}"#,
        r#"{"time": 2, "ip": "::2", "path": "/"}"#,
    ];
    let e = Parser::new(Format::Json, None, Some("when"), &json).unwrap_err();
    assert_eq!((e.option, e.value.as_deref()), ("time-field", Some("when")));
    assert_eq!(
        e.why.to_string(),
        "none of the first JSON lines has a field \"when\"; they have ip, time, path"
    );
    let user = KeySpec::Field("user".into());
    let e = Parser::new(Format::Json, Some(&user), None, &json).unwrap_err();
    assert_eq!((e.option, e.value.as_deref()), ("key", Some("field:user")));
    assert!(
        e.why.to_string().contains("has a field \"user\""),
        "{}",
        e.why
    );
    // One line having it is enough (the others are malformed lines, as usual).
    let path = KeySpec::Field("path".into());
    assert!(Parser::new(Format::Json, Some(&path), None, &json).is_ok());
}

#[test]
fn epoch_milliseconds_and_finer_replay_like_seconds() {
    // pino writes `"time": 1700000000250`; the same requests in seconds, µs and ns, in JSON
    // (number and string) and CSV, are limited alike.
    let mut rng = fastrand::Rng::with_seed(5);
    let mut ms = 1_700_000_000_000_u64;
    let requests: Vec<(u64, u32)> = (0..400)
        .map(|_| {
            ms += rng.u64(0..600);
            (ms, rng.u32(1..4))
        })
        .collect();
    let limited = |line: &dyn Fn(u64, u32) -> String| {
        let log: String = requests.iter().map(|&(t, k)| line(t, k) + "\n").collect();
        let report = run(log.as_bytes(), bucket(3.0, 1.0)).unwrap().report;
        assert_eq!((report.requests, report.malformed), (400, 0), "{log:.80}");
        report.limited
    };
    let seconds = limited(&|t, k| {
        format!(
            r#"{{"time": {}.{:03}, "ip": "10.0.0.{k}"}}"#,
            t / 1000,
            t % 1000
        )
    });
    assert!(seconds > 0, "the log is limited in seconds");
    for (unit, line) in [
        (
            "json ms",
            &(|t, k| format!(r#"{{"time": {t}, "ip": "10.0.0.{k}"}}"#))
                as &dyn Fn(u64, u32) -> String,
        ),
        ("json µs text", &|t, k| {
            format!(r#"{{"time": "{t}000", "ip": "10.0.0.{k}"}}"#)
        }),
        ("json ns", &|t, k| {
            format!(r#"{{"time": {t}000000, "ip": "10.0.0.{k}"}}"#)
        }),
        ("csv ms", &|t, k| format!("{t},10.0.0.{k}")),
        ("csv µs", &|t, k| format!("{t}000,10.0.0.{k}")),
    ] {
        assert_eq!(limited(line), seconds, "{unit}");
    }
}

/// `(unit, requests, first line)` of each epoch unit `log`'s report says it read.
fn epoch_units(log: &str) -> Vec<(&'static str, u64, u64)> {
    let report = run(log.as_bytes(), bucket(3.0, 1.0)).unwrap().report;
    report
        .epoch_units
        .iter()
        .map(|u| (u.unit.name(), u.requests, u.first_line))
        .collect()
}

#[test]
fn the_report_says_which_epoch_unit_it_read() {
    // pino's milliseconds, read by size: the report says so.
    let pino =
        "{\"time\": 1700000000250, \"ip\": \"a\"}\n{\"time\": 1700000000900, \"ip\": \"b\"}\n";
    assert_eq!(epoch_units(pino), [("milliseconds", 2, 1)]);
    // A relative clock in milliseconds is small: read as seconds, which the report shows.
    assert_eq!(
        epoch_units("time,key\n0,a\n250,a\n900,b\n"),
        [("seconds", 3, 2)]
    );
    // Dates, and nginx's $msec (confirmed by [time] as seconds), are not read by size.
    assert_eq!(epoch_units("2024-03-10T02:30:00Z,a\n"), []);
    assert_eq!(epoch_units(&log(5, "\n")), []);
    let dated = "{\"time\": \"2024-03-10T02:30:00Z\", \"ip\": \"a\"}\n{\"time\": \"1710037801000000\", \"ip\": \"a\"}\n";
    assert_eq!(epoch_units(dated), [("microseconds", 1, 2)]);
    // Mixed units: each read by its size, every unit reported with its first line, in line order
    // (malformed lines between do not count).
    let mixed =
        "1700000000,a\n1700000001,b\noops\n1700000001500,a\n1700000002,b\n1700000003000000,c\n";
    assert_eq!(
        epoch_units(mixed),
        [
            ("seconds", 3, 1),
            ("milliseconds", 1, 4),
            ("microseconds", 1, 6)
        ]
    );
}

#[test]
fn the_format_is_detected_from_the_first_lines() {
    let combined: Vec<&str> = COMBINED.iter().map(|c| c.0).collect();
    assert_eq!(detect(&combined), Some(Format::Combined));
    let common = r#"192.0.2.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 17"#;
    assert_eq!(
        detect(&[common, APACHE_EXAMPLE, common]),
        Some(Format::Common),
        "most lines"
    );
    // A combined log whose first lines include one with its user-agent cut short is still
    // combined (every combined line is also a common one), so that line is malformed.
    let cut =
        r#"203.0.113.9 - - [10/Oct/2000:13:55:37 -0700] "GET /a HTTP/1.1" 200 2326 "-" "curl/8"#;
    let mut lines = combined.clone();
    lines.insert(2, cut);
    assert_eq!(
        detect(&lines),
        Some(Format::Combined),
        "most lines are combined"
    );
    let text = format!("{}\n", lines.join("\n"));
    let report = run(text.as_bytes(), bucket(5.0, 1.0)).unwrap().report;
    assert_eq!((report.requests, report.malformed), (4, 1));
    assert_eq!(report.malformed_examples[0].line, 3);
    assert_eq!(
        report.malformed_examples[0].why,
        "user-agent: a quoted field is not closed"
    );
    assert_eq!(detect(&ALB), Some(Format::Alb));
    assert_eq!(detect(&JSON), Some(Format::Json));
    assert_eq!(detect(&["time,key", "1,a", "2,b"]), Some(Format::Csv));
    assert_eq!(detect(&["hello", "world"]), None);
    assert_eq!(detect(&[]), None);
    // The names --format takes are the formats' own, each once.
    let mut names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.sort_unstable();
    let mut listed = Format::NAMES.to_vec();
    listed.sort_unstable();
    assert_eq!(names, listed);
}

/// Times written without their UTC offset (Python's naive `isoformat()`): the log is still read
/// as what it is, and each such line is refused for the missing offset, not the log for no format.
#[test]
fn a_time_without_its_utc_offset_is_named_as_such_in_csv_and_json() {
    let csv = "time,key\n2024-05-01T12:00:00,a\n2024-05-01 12:00:01.5,b\n";
    assert_eq!(detect(&csv.lines().collect::<Vec<_>>()), Some(Format::Csv));
    let report = run(csv.as_bytes(), bucket(5.0, 1.0)).unwrap().report;
    assert_eq!((report.requests, report.malformed), (0, 2));
    assert_eq!(
        report.malformed_examples[1].why,
        "time \"2024-05-01 12:00:01.5\" has no UTC offset, so the moment it names is unknown: end \
         it with Z for UTC or with the server's offset (2000-10-10T20:55:36Z, \
         2000-10-10T13:55:36-07:00)"
    );
    let json = "{\"ts\": \"2024-05-01T12:00:00\", \"ip\": \"a\"}\n";
    let report = run(json.as_bytes(), bucket(5.0, 1.0)).unwrap().report;
    assert!(
        report.malformed_examples[0]
            .why
            .starts_with("time field \"ts\": \"2024-05-01T12:00:00\" has no UTC offset"),
        "{:?}",
        report.malformed_examples
    );
    // With the offset, the same lines are requests.
    let fixed = csv.replace(":00,", ":00Z,").replace(".5,", ".5+00:00,");
    assert_eq!(
        run(fixed.as_bytes(), bucket(5.0, 1.0))
            .unwrap()
            .report
            .requests,
        2
    );
}

/// A combined log of `n` requests from three clients, one per 0.1 s.
fn log(n: usize, ending: &str) -> String {
    (0..n)
        .map(|i| {
            let client = ["192.0.2.1", "2001:db8::9", "198.51.100.7"][i % 3];
            format!(
                r#"{client} - - [10/Oct/2000:13:55:{:02} -0700] "GET /{i} HTTP/1.1" 200 5 "-" "t" 971211{:03}.{}{ending}"#,
                36 + i / 10,
                336 + i / 10,
                i % 10
            )
        })
        .collect()
}

#[test]
fn malformed_lines_are_counted_and_the_first_five_quoted() {
    let mut text = log(30, "\n");
    text.insert_str(0, "\n   \n");
    for bad in [
        "oops",
        "",
        "{\"json\": 1}",
        "a b",
        "",
        "x - - [now] \"GET\" 200 1",
        "last",
    ] {
        text.push_str(bad);
        text.push('\n');
    }
    let finished = run(text.as_bytes(), bucket(5.0, 1.0)).unwrap();
    let report = &finished.report;
    assert_eq!(
        (report.lines, report.requests, report.malformed),
        (39, 30, 5)
    );
    let lines: Vec<u64> = report.malformed_examples.iter().map(|m| m.line).collect();
    assert_eq!(
        lines,
        [33, 35, 36, 38, 39],
        "blank lines are skipped, never malformed"
    );
    assert!(
        report.malformed_examples[0].why.contains("ident"),
        "{:?}",
        report.malformed_examples
    );
    assert!(report.malformed_examples[3].why.contains("time \"now\""));
    assert_eq!(finished.parser.unwrap().format(), Format::Combined);
}

/// A byte order mark (PowerShell's `Out-File -Encoding utf8` writes one) is not part of the first
/// line in any format: the first request is read, not dropped as malformed.
#[test]
fn a_byte_order_mark_reads_like_none_in_every_format() {
    let combined = log(3, "\n");
    let logs = [
        combined.as_str(),
        "127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 1\n127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 1\n",
        "{\"time\":1700000000,\"ip\":\"a\"}\n{\"time\":1700000000,\"ip\":\"a\"}\n",
        &format!("{}\n{}\n", ALB[0], ALB[1]),
        "1700000000,a\n1700000000,a\n",
    ];
    for text in logs {
        let plain = run(text.as_bytes(), bucket(1.0, 1.0)).unwrap();
        let marked = run(format!("\u{feff}{text}").as_bytes(), bucket(1.0, 1.0)).unwrap();
        assert_eq!(marked.report, plain.report, "{text}");
        assert_eq!(
            marked.parser.map(|p| p.format()),
            plain.parser.map(|p| p.format())
        );
        assert_eq!(plain.report.malformed, 0, "{text}");
    }
}

#[test]
fn crlf_endings_read_like_lf() {
    let lf = run(log(40, "\n").as_bytes(), bucket(2.0, 1.0))
        .unwrap()
        .report;
    let crlf = run(log(40, "\r\n").as_bytes(), bucket(2.0, 1.0))
        .unwrap()
        .report;
    assert_eq!(lf, crlf);
    assert_eq!((lf.requests, lf.malformed, lf.keys), (40, 0, 3));
    assert!(
        lf.limited > 0,
        "the curve of limits depends on the sub-second times"
    );
    let csv = run(b"time,key\r\n1,a\r\n1.5,a\r\n", bucket(1.0, 1.0))
        .unwrap()
        .report;
    assert_eq!(
        (csv.requests, csv.limited, csv.by_key[0].key.as_str()),
        (2, 1, "a")
    );
}

#[test]
fn a_ten_megabyte_line_is_one_malformed_line() {
    let huge = format!(
        "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /{} HTTP/1.1\" 200 5 \"-\" \"t\"\n",
        "a".repeat(10 << 20)
    );
    let text = log(10, "\n") + &huge + &log(10, "\n");
    let report = run(text.as_bytes(), bucket(5.0, 1.0)).unwrap().report;
    assert_eq!(
        (report.lines, report.requests, report.malformed),
        (21, 20, 1)
    );
    let why = &report.malformed_examples[0].why;
    assert!(
        why.contains(&format!("{} bytes long", huge.len() - 1)),
        "{why}"
    );
    // Alone in a file, with no newline at its end, too.
    let alone = run(&huge.as_bytes()[..huge.len() - 1], bucket(5.0, 1.0)).unwrap_err();
    assert_eq!(alone.option, "format", "nothing to detect a format from");
}

#[test]
fn binary_garbage_is_malformed_never_fatal() {
    let mut rng = fastrand::Rng::with_seed(16);
    let mut text = log(60, "\n").into_bytes();
    let mut garbage_lines = 0;
    for _ in 0..25 {
        let mut junk: Vec<u8> = (0..rng.usize(1..300)).map(|_| rng.u8(..)).collect();
        junk.retain(|&b| b != b'\n');
        if junk.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        junk.push(b'\n');
        text.extend_from_slice(&junk);
        garbage_lines += 1;
        // Keep some valid lines between the junk.
        text.extend_from_slice(log(2, "\n").as_bytes());
    }
    let report = run(&text, bucket(5.0, 1.0)).unwrap().report;
    assert_eq!(report.requests, 60 + 2 * garbage_lines);
    assert_eq!(report.malformed, garbage_lines);
    // Garbage first: detection goes by the lines that do parse.
    let mut first = b"\x00\x01\xff\xfe\n\x7fELF\x02\x01\n".to_vec();
    first.extend_from_slice(log(20, "\n").as_bytes());
    let report = run(&first, bucket(5.0, 1.0)).unwrap().report;
    assert_eq!((report.requests, report.malformed), (20, 2));
    assert!(
        report.malformed_examples[0].why.contains("not UTF-8"),
        "{:?}",
        report.malformed_examples
    );
    // Only garbage: no format matches, which is a setting to give, not a crash.
    let err = run(b"\x00\x01\x02\n\xff\xfe\n", bucket(5.0, 1.0)).unwrap_err();
    assert_eq!(err.option, "format");
}

#[test]
fn gzip_input_reads_like_the_plain_text() {
    let plain = log(90, "\n");
    let expected = run(plain.as_bytes(), bucket(3.0, 2.0)).unwrap().report;
    assert_eq!(
        run(&gzip(plain.as_bytes()), bucket(3.0, 2.0))
            .unwrap()
            .report,
        expected
    );
    // Two gzip members in a row, as `cat a.gz b.gz` makes them.
    let (a, b) = plain.split_at(plain.len() / 3 + 17);
    let mut members = gzip(a.as_bytes());
    members.extend(gzip(b.as_bytes()));
    assert_eq!(run(&members, bucket(3.0, 2.0)).unwrap().report, expected);
    // And gzip of JSON lines, detected after decompression.
    let json = JSON.join("\n");
    let report = run(&gzip(json.as_bytes()), bucket(3.0, 2.0))
        .unwrap()
        .report;
    assert_eq!((report.requests, report.keys), (5, 4));
}

/// A CSV key is read trimmed, as its cost is (`1700000000, a` is a's); a quote opened in a field
/// and never closed makes the line malformed instead of swallowing the columns after it.
#[test]
fn csv_keys_are_trimmed_and_an_unclosed_quote_is_malformed() {
    let mut p = parser(Format::Csv, None, &["1700000000.1,a,1"]);
    assert_eq!(
        read(&mut p, "1700000000.5, a ,4"),
        Ok((1_700_000_000.5, "a".to_owned(), 4.0))
    );
    // Quoted, its spaces are part of it.
    assert_eq!(
        read(&mut p, "1700000000.6,\"a \",1"),
        Ok((1_700_000_000.6, "a ".to_owned(), 1.0))
    );
    assert_eq!(
        read(&mut p, "1700000000.9,\"b,1"),
        Err("a quote is opened and never closed".to_owned())
    );
}
