//! Number text: `parse_number` has exactly Rust's float syntax; `read_typed` adds spaces and a
//! decimal comma; `InvalidValue::parse_with` accepts exactly what its rule allows (a number
//! Rust reads that the rule allows is never refused) and refuses with the field, the value and
//! the rule; the writers never panic and never write a nonzero number as 0; `fixed` rounds the
//! exact value as JavaScript's `toFixed` does.
#![no_main]
use bucketlab::limiter::number::{
    fixed, floor_to, level_decimals, push_whole, read_typed, significant, trimmed,
};
use bucketlab::limiter::{
    parse_number, rust_decimal, rust_number, Field, Given, InvalidValue, Rule,
};
use libfuzzer_sys::fuzz_target;

const FIELDS: [Field; 10] = [
    Field::Capacity,
    Field::RefillRate,
    Field::Tokens,
    Field::Cost,
    Field::Now,
    Field::Speed,
    Field::Step,
    Field::TrafficRate,
    Field::BurstSize,
    Field::Seed,
];

const RULES: [Rule; 9] = [
    Rule::Positive,
    Rule::NonNegative,
    Rule::Finite,
    Rule::UpTo(10.0),
    Rule::PositiveUpTo(50.0),
    Rule::Between(0.0, 3600.0),
    Rule::Between(-1.5, 2.5),
    Rule::Whole(1, 100),
    Rule::Whole(0, u32::MAX),
];

fn bits(v: Option<f64>) -> Option<u64> {
    v.map(f64::to_bits)
}

fn allowed(value: f64, rule: Rule) -> bool {
    value.is_finite()
        && match rule {
            Rule::Positive => value > 0.0,
            Rule::NonNegative => value >= 0.0,
            Rule::Finite => true,
            Rule::UpTo(max) => value >= 0.0 && value <= max,
            Rule::PositiveUpTo(max) => value > 0.0 && value <= max,
            Rule::Between(min, max) => value >= min && value <= max,
            Rule::Whole(min, max) => {
                value.trunc() == value && value >= f64::from(min) && value <= f64::from(max)
            }
        }
}

/// JavaScript's `value.toFixed(decimals)`: the exact value (all its digits, as Rust writes them)
/// rounded to `decimals`, a tie away from 0; a value that rounds to 0 is written without its
/// sign, as the lesson writes it (JavaScript writes `-0.0`).
fn to_fixed(value: f64, decimals: usize) -> String {
    let exact = format!("{:.1100}", value.abs());
    let point = exact.find('.').unwrap();
    let mut digits: Vec<u8> = exact.bytes().take(point + 1 + decimals).collect();
    digits.remove(point);
    if exact.as_bytes()[point + 1 + decimals] >= b'5' {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    if decimals > 0 {
        digits.insert(digits.len() - decimals, b'.');
    }
    let text = String::from_utf8(digits).unwrap();
    if value < 0.0 && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        format!("-{text}")
    } else {
        text
    }
}

fn writers(value: f64) {
    let written = rust_number(value);
    if value.is_finite() {
        assert_eq!(written.parse::<f64>().ok(), Some(value), "{written}");
    }
    for decimals in 0..=12 {
        let _ = fixed(value, decimals);
        let text = trimmed(value, decimals, significant);
        if value.is_finite() && value != 0.0 {
            assert!(
                text.bytes().any(|b| (b'1'..=b'9').contains(&b)),
                "{value:e} as {text}"
            );
        }
        if value.is_finite() {
            let floor = floor_to(value, decimals);
            assert!(floor.is_finite(), "{value:e}");
        }
    }
    if value.is_finite() && value != 0.0 && value.abs() < 0.5 {
        // JavaScript's `Number(value.toPrecision(3))`: the exact value rounded to 3 digits, a
        // tie up (Rust's `{:.2e}` takes a tie to even).
        let text = significant(value);
        let rust = format!("{value:.2e}").parse::<f64>().unwrap();
        let ours = text
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("{value:e} as {text}"));
        if ours != rust {
            let exact = format!("{:.60e}", value.abs());
            let digits: String = exact
                .chars()
                .filter(char::is_ascii_digit)
                .take(61)
                .collect();
            let tie = digits[3..4] == *"5" && digits[4..].bytes().all(|b| b == b'0');
            assert!(
                tie && ours.abs() > rust.abs(),
                "{value:e} as {text}, not {rust:e}"
            );
        }
    }
    if value.is_finite() && value.abs() < 9_007_199_254_740_992.0 {
        for decimals in 0..=12 {
            assert_eq!(
                fixed(value, decimals),
                to_fixed(value, decimals as usize),
                "{value:e} to {decimals}"
            );
        }
    }
    if value.is_finite() && value.abs() >= 9_007_199_254_740_992.0 {
        // From 2^53 on: 15 significant digits, as JavaScript writes them. (Known: the division
        // by powers of ten may round the 15th digit the other way, 4.388899255034995e304 →
        // 4.388899255035e+304 where toPrecision(15) gives 4.38889925503499e+304; within one
        // unit of it is accepted here.)
        let text = fixed(value, 1);
        let (digits, power) = text.split_once("e+").unwrap_or_else(|| panic!("{text}"));
        let rust = format!("{value:.14e}");
        let (rust_digits, rust_power) = rust.split_once('e').unwrap();
        // Compared as mantissas (near f64::MAX a rounded text reads back as infinite).
        let mantissa = |digits: &str, power: &str| {
            let shift = power.parse::<i32>().unwrap() - rust_power.parse::<i32>().unwrap();
            digits.parse::<f64>().unwrap() * 10f64.powi(shift)
        };
        let (ours, theirs) = (mantissa(digits, power), mantissa(rust_digits, rust_power));
        assert!(
            (ours - theirs).abs() <= 1.01e-14 * theirs.abs(),
            "{value:e} as {text}, not {rust}"
        );
    }
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 {
        let mut out = String::new();
        push_whole(&mut out, value);
        // (-0 is written as 0, as everywhere in the lesson.)
        assert_eq!(out, format!("{:.0}", value + 0.0));
    }
    if value.is_finite() && value > 0.0 {
        assert!((1..=3).contains(&level_decimals(value)));
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let field = FIELDS[usize::from(data[0]) % FIELDS.len()];
    let rule = RULES[usize::from(data[1]) % RULES.len()];
    if data.len() >= 10 {
        let raw = f64::from_le_bytes(data[2..10].try_into().unwrap());
        writers(raw);
    }
    let Ok(text) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    let rusts = text.parse::<f64>().ok();
    assert_eq!(
        bits(parse_number(text, rust_decimal)),
        bits(rusts),
        "{text:?}"
    );

    let trimmed_text = text.trim();
    let expected_typed = if trimmed_text.contains(',') && !trimmed_text.contains('.') {
        trimmed_text.replacen(',', ".", 1).parse::<f64>().ok()
    } else {
        trimmed_text.parse::<f64>().ok()
    };
    let typed = read_typed(text, rust_decimal);
    assert_eq!(bits(typed), bits(expected_typed), "{text:?}");

    match InvalidValue::parse_with(field, text, rule, rust_decimal) {
        Ok(value) => {
            assert!(
                allowed(value, rule),
                "{text:?} accepted as {value} under {rule:?}"
            );
            assert_eq!(bits(typed), bits(Some(value)), "{text:?}");
        }
        Err(err) => {
            assert_eq!((err.field, err.rule), (field, rule));
            let message = err.to_string();
            assert!(
                message.starts_with(&format!("{} must be ", field.name())),
                "{message}"
            );
            let _ = err.js_message();
            if let Given::Number(v) = err.given {
                assert!(
                    !allowed(v, rule),
                    "{text:?}: {v} refused under {rule:?}: {message}"
                );
            }
            // A number Rust itself reads, that the rule allows, is not refused (bar one that
            // reads as 0 from nonzero digits, which is too small to tell from 0).
            if let Some(v) = rusts {
                let nonzero = trimmed_text
                    .bytes()
                    .take_while(|b| !matches!(b, b'e' | b'E'))
                    .any(|b| (b'1'..=b'9').contains(&b));
                if allowed(v, rule) && !(v == 0.0 && nonzero) {
                    panic!("{text:?} reads as {v}, which {rule:?} allows, but: {message}");
                }
            }
        }
    }
    if let Some(v) = typed {
        writers(v);
    }
});
