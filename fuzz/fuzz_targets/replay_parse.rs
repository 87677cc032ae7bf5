//! One log line at a time through each format's parser (chosen or detected from the first
//! lines): no panic; a request has a time from 1970 to the year 5138, a finite cost of at least
//! 0 and a key; an unreadable line has a reason with an English sentence.
#![no_main]
use bucketlab::replay::{detect, Format, KeySpec, Line, Parsed, Parser, Unreadable};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, log)) = data.split_first() else {
        return;
    };
    let lines: Vec<&[u8]> = log.split(|&b| b == b'\n').collect();
    let samples: Vec<&str> = lines
        .iter()
        .take(16)
        .filter_map(|l| std::str::from_utf8(l).ok())
        .filter(|l| !l.trim().is_empty())
        .collect();
    let format = match usize::from(selector % 6) {
        0 => match detect(&samples) {
            Some(format) => format,
            None => return,
        },
        i => Format::ALL[i - 1],
    };
    let key = match (selector / 6) % 4 {
        0 => None,
        1 => Some(KeySpec::Ip),
        2 => Some(KeySpec::Field("user".to_owned())),
        _ => Some(KeySpec::Column(3)),
    };
    let time_field = (selector >= 128 && format == Format::Json).then_some("time");
    let Ok(mut parser) = Parser::new(format, key.as_ref(), time_field, &samples) else {
        return;
    };
    for bytes in lines {
        match parser.line(Line::Text(bytes)) {
            Parsed::Event(event) => {
                assert!(
                    (0.0..1e11).contains(&event.time),
                    "time {} from {:?}",
                    event.time,
                    String::from_utf8_lossy(bytes)
                );
                assert!(
                    event.cost.is_finite() && event.cost >= 0.0,
                    "cost {}",
                    event.cost
                );
                assert!(!event.key.is_empty() || format == Format::Json, "empty key");
            }
            Parsed::Malformed(why) => {
                let code = why.code();
                assert!(
                    Unreadable::english(code).is_some(),
                    "no sentence for {code}"
                );
                let _ = why.to_string();
            }
            Parsed::Blank | Parsed::Header => {}
        }
    }
});
