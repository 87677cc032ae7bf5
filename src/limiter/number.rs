//! Number text: reading a decimal literal with exactly Rust's syntax, and writing integers, fixed
//! decimals and JavaScript-style numbers.
//!
//! The wasm module has a size budget, and Rust's float formatting and parsing (`{:.2}`,
//! `str::parse::<f64>`) would bring their general algorithms into it. So the widget writes
//! integers and fixed decimals here with integer arithmetic, and lets JavaScript convert the
//! rest: where a caller needs it, the conversion is a parameter ([`NumberText`], [`DecimalText`]),
//! Rust's own natively and JavaScript's in the browser.

/// How a message writes a number. Natively [`rust_number`]; the wasm boundary passes one that
/// asks JavaScript, so the float formatting machinery stays out of the wasm.
pub type NumberText = fn(f64) -> String;

/// How a number is read from a decimal literal whose syntax [`parse_number`] has checked
/// (`1`, `-2.5`, `.5`, `3.`, `1e-3`): natively [`rust_decimal`]; the wasm boundary passes one that
/// asks JavaScript. Both round correctly, so they agree on every literal.
pub type DecimalText = fn(&str) -> f64;

/// Appends the decimal digits of `n`.
pub fn push_uint(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in digits.iter().skip(start) {
        out.push(char::from(d));
    }
}

/// The decimal digits of `n`.
pub fn uint(n: u64) -> String {
    let mut out = String::new();
    push_uint(&mut out, n);
    out
}

/// Appends the lower-case hexadecimal digits of `n` (no prefix).
pub fn push_hex(out: &mut String, n: u32) {
    let mut started = false;
    for shift in (0..8).rev() {
        let digit = (n >> (shift * 4)) & 0xf;
        if digit != 0 || started || shift == 0 {
            started = true;
            out.push(char::from_digit(digit, 16).unwrap_or('0'));
        }
    }
}

/// Below this every `f64` whole part is written exactly as digits; from it on (2^53, where
/// doubles stop holding every integer) a value is written in exponent form.
const EXACT_WHOLE: f64 = 9_007_199_254_740_992.0;

/// Appends the decimal digits of a whole, finite, non-negative `value`, exactly and without an
/// exponent, however large: `50000000000000000000` for 5·10¹⁹, and for `1e300` the 301 digits of
/// the double nearest 10³⁰⁰ (`1000000000000000052504760255204420248704468581108159154915854115…`).
/// The header fields that carry a count write it so: never capped at `u64::MAX`, never in an
/// exponent form a client would not parse as an integer.
pub fn push_whole(out: &mut String, value: f64) {
    if value < 18_446_744_073_709_551_616.0 {
        return push_uint(out, value as u64);
    }
    // value = mantissa · 2^shift (shift > 0 here): the mantissa's decimal digits, least
    // significant first, doubled `shift` times. f64::MAX has 309 digits.
    let bits = value.to_bits();
    let mut mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let mut digits = [0u8; 309];
    for digit in digits.iter_mut() {
        *digit = (mantissa % 10) as u8;
        mantissa /= 10;
    }
    for _ in 1075..(bits >> 52) {
        let mut carry = 0;
        for digit in digits.iter_mut() {
            let doubled = *digit * 2 + carry;
            carry = doubled / 10;
            *digit = doubled % 10;
        }
    }
    let mut leading = true;
    for &digit in digits.iter().rev() {
        leading &= digit == 0;
        if !leading {
            out.push(char::from(b'0' + digit));
        }
    }
}

/// A nonzero finite `value` below 0.5 in magnitude to 3 significant digits (see
/// [`push_significant`]).
pub fn significant(value: f64) -> String {
    let mut out = String::new();
    push_significant(&mut out, value);
    out
}

/// Appends a nonzero finite `value` below 0.5 in magnitude, which would round to 0 at the
/// decimals asked for, to 3 significant digits as JavaScript writes
/// `Number(value.toPrecision(3))`: `0.0004`, `0.000123`, and from below 10⁻⁶ on in exponent form,
/// `1e-7`, `1.23e-20`, `5e-324`. A nonzero value is never written as 0.
pub fn push_significant(out: &mut String, value: f64) {
    // The first four digits of the exact decimal value (every double's expansion ends, and 40
    // digits tell one from the doubles beside it), rounded to three as `toPrecision` rounds: to
    // the nearest, a tie up. Scaling by 10 until three digits show would round at each step
    // (0.05225, a hair under 0.05225 exactly, came out 0.0523). Only the native build writes
    // with this (the widget's wasm asks JavaScript), so float formatting costs the module nothing.
    let exact = format!("{:.40e}", value.abs());
    let (mantissa, power) = exact.split_once('e').unwrap_or((&exact, "0"));
    // The first digit's place: 10^-exponent.
    let mut exponent = -power.parse::<i64>().unwrap_or(0);
    let first4 = mantissa.bytes().filter(u8::is_ascii_digit).take(4);
    let mut digits = (first4.fold(0, |n, d| n * 10 + u64::from(d - b'0')) + 5) / 10;
    if digits >= 1000 {
        digits /= 10;
        exponent -= 1;
    }
    // (0, which a caller must not pass, would otherwise loop here.)
    while digits > 0 && digits.is_multiple_of(10) {
        digits /= 10;
    }
    if value < 0.0 {
        out.push('-');
    }
    if exponent <= 6 {
        out.push_str("0.");
        for _ in 1..exponent {
            out.push('0');
        }
        push_uint(out, digits);
    } else {
        let mut text = String::new();
        push_uint(&mut text, digits);
        for (i, digit) in text.chars().enumerate() {
            if i == 1 {
                out.push('.');
            }
            out.push(digit);
        }
        out.push_str("e-");
        push_uint(out, exponent as u64);
    }
}

/// Appends `value` rounded half away from zero to exactly `decimals` decimals (at most 12), with
/// `.` as the decimal point, from the double's exact value as JavaScript's `toFixed` rounds it
/// (`0.725` to 2 decimals is `0.72`: it is 0.72499999999999997…). From 2^53 on it is written as
/// JavaScript writes large numbers, `9.00719925474099e+15` (15 significant digits, `decimals` not
/// applying), so that a value is never shown as another one. Non-finite values are written as
/// `0`; `-0` as `0`.
pub fn push_fixed(out: &mut String, value: f64, decimals: u32) {
    if value.is_finite() && value.abs() >= EXACT_WHOLE {
        return push_exponent(out, value);
    }
    let decimals = decimals.min(12);
    let scale = 10u64.pow(decimals);
    let magnitude = if value.is_finite() { value.abs() } else { 0.0 };
    // The whole part and the fraction apart, so that the whole part's digits stay exact.
    let whole = magnitude.trunc();
    let fraction = magnitude - whole;
    let product = fraction * scale as f64;
    let mut rounded = product.round();
    // The product is rounded already: one that came out a tie (0.725 · 100 is 72.5) goes down
    // when its exact value is below it, as its rounding error tells, computed exactly (Dekker's
    // two-product: each factor split into halves of 26 bits, whose products doubles hold).
    let halves = |x: f64| {
        let c = x * 134_217_729.0;
        let high = c - (c - x);
        (high, x - high)
    };
    let ((f1, f2), (s1, s2)) = (halves(fraction), halves(scale as f64));
    let error = ((f1 * s1 - product) + f1 * s2 + f2 * s1) + f2 * s2;
    if rounded - product == 0.5 && error < 0.0 {
        rounded -= 1.0;
    }
    let (mut whole, mut frac) = (whole as u64, rounded as u64);
    if frac == scale {
        whole += 1;
        frac = 0;
    }
    if value < 0.0 && (whole != 0 || frac != 0) {
        out.push('-');
    }
    push_uint(out, whole);
    if decimals > 0 {
        out.push('.');
        let mut div = scale / 10;
        while div > 0 {
            out.push(char::from(b'0' + (frac / div % 10) as u8));
            div /= 10;
        }
    }
}

/// `magnitude / 10^power` rounded to a whole number, for `power` from 0 on: divided by powers of
/// ten that doubles hold exactly (up to 10^22), so that the digits come out right where a
/// computed 10^294 would be a few units off in the last place.
fn shifted(magnitude: f64, power: i32) -> u64 {
    let mut scaled = magnitude;
    let mut power = power;
    while power > 22 {
        scaled /= 1e22;
        power -= 22;
    }
    (scaled / 10f64.powi(power)).round() as u64
}

/// Appends a finite `value` of at least 2^53 in magnitude as JavaScript writes large numbers
/// (`1e+308`, `-1.5e+20`), to 15 significant digits: all that a double holds for sure, and
/// without Rust's float formatting, which would add its general algorithm to the wasm.
fn push_exponent(out: &mut String, value: f64) {
    const DIGITS: i32 = 15;
    let magnitude = value.abs();
    // log10(2) ≈ 78913 / 2^18: the decimal exponent from the binary one, or one less.
    let binary = ((magnitude.to_bits() >> 52) as i32) - 1023;
    let mut exponent = (binary * 78913) >> 18;
    let mut digits = shifted(magnitude, exponent - (DIGITS - 1));
    if digits >= 10u64.pow(DIGITS as u32) {
        exponent += 1;
        digits = shifted(magnitude, exponent - (DIGITS - 1));
    }
    while digits.is_multiple_of(10) {
        digits /= 10;
    }
    let mut text = String::new();
    push_uint(&mut text, digits);
    if value < 0.0 {
        out.push('-');
    }
    // No slicing of `text`: its panic path would bring string formatting into the wasm.
    for (i, digit) in text.chars().enumerate() {
        if i == 1 {
            out.push('.');
        }
        out.push(digit);
    }
    out.push_str("e+");
    push_uint(out, exponent as u64);
}

/// `value` floored to `decimals` decimals (1 to 3), with a hair of slack for rounding
/// (`3.9999999` reads `4`): the level a counter shows, which reaches the capacity only when the
/// bucket is full. Never overflows: from 2^53 on a double has no fraction and is its own floor
/// (`value · 10` would be infinite above `f64::MAX / 10`, and a full bucket of 10³⁰⁸ would read 0).
pub fn floor_to(value: f64, decimals: u32) -> f64 {
    if value.abs() >= EXACT_WHOLE {
        return value;
    }
    let scale = match decimals {
        0 | 1 => 10.0,
        2 => 100.0,
        _ => 1000.0,
    };
    ((value * scale) + 1e-6).floor() / scale
}

/// The decimals a bucket of `capacity` shows its level with: the capacity's own, from 1 to 3
/// (`5` and `2.5` → 1, `0.05` and `2.55` → 2, `0.0004` → 3), so that a full bucket reads as full.
pub fn level_decimals(capacity: f64) -> u32 {
    let mut scaled = capacity;
    for decimals in 1..3 {
        scaled *= 10.0;
        // Within the floor's slack of a whole number, 1 or more (`0.05 · 100` is
        // 5.000000000000001; `1e-20 · 10` is near 0, not whole). From 2^53 on every double is
        // whole; an infinite product (near f64::MAX) is not, and falls through to 3, which
        // `push_fixed` ignores at that size.
        let fraction = scaled - scaled.floor();
        if scaled > 0.5 && fraction.min(1.0 - fraction) < 1e-6 {
            return decimals;
        }
    }
    3
}

/// `value` with exactly `decimals` decimals (see [`push_fixed`]).
pub fn fixed(value: f64, decimals: u32) -> String {
    let mut out = String::new();
    push_fixed(&mut out, value, decimals);
    out
}

/// `value` with at most `decimals` decimals: trailing zeros and a bare point dropped. A nonzero
/// value that this would write as 0 is written by `small` instead, to 3 significant digits
/// (`0.0004`, `1e-20`: natively [`significant`]; the widget's wasm asks JavaScript), so a rate
/// of 10⁻²⁰ never reads as "r = 0", which in the lesson means "never refills".
pub fn trimmed(value: f64, decimals: u32, small: NumberText) -> String {
    let mut text = fixed(value, decimals);
    // Finite and below 0.5, so no exponent form: written as 0 when it has no digit but zeros.
    if value != 0.0 && value.abs() < 0.5 && !text.bytes().any(|b| b > b'0') {
        return small(value);
    }
    // An exponent form has no trailing zeros to drop (`1e+20` must keep its `0`).
    if text.contains('.') && !text.contains('e') {
        let keep = text.trim_end_matches('0').trim_end_matches('.').len();
        text.truncate(keep);
    }
    if text == "-0" {
        text.remove(0);
    }
    text
}

/// A number as JavaScript prints it for the values that differ from Rust (`Infinity`), so that a
/// message quotes what the caller typed.
pub fn rust_number(value: f64) -> String {
    if value == f64::INFINITY {
        "Infinity".to_owned()
    } else if value == f64::NEG_INFINITY {
        "-Infinity".to_owned()
    } else if value != 0.0 && !(1e-7..1e21).contains(&value.abs()) {
        // JavaScript's form for very large and very small numbers (`1e+308`, `5e-324`); `{}`
        // would write all 309 digits.
        let text = format!("{value:e}");
        match text.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => {
                format!("{mantissa}e+{exponent}")
            }
            _ => text,
        }
    } else {
        format!("{value}")
    }
}

/// Rust's own reading of a decimal literal.
pub fn rust_decimal(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

/// `text` as a number, with exactly the syntax of Rust's `str::parse::<f64>` (an optional sign,
/// then `inf`, `infinity` or `nan` in any case, or digits with at most one `.` and an optional
/// exponent; no spaces), converted by `decimal`; `None` when it is not a number.
pub fn parse_number(text: &str, decimal: DecimalText) -> Option<f64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let special = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        Some(f64::INFINITY)
    } else if body.eq_ignore_ascii_case("nan") {
        Some(f64::NAN)
    } else {
        None
    };
    if let Some(value) = special {
        return Some(if negative { -value } else { value });
    }
    // The syntax read byte by byte: `at` moves past what each part accepts.
    let bytes = body.as_bytes();
    let mut at = 0;
    let digits = |at: &mut usize| {
        let from = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - from
    };
    let mut mantissa = digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        mantissa += digits(&mut at);
    }
    if mantissa == 0 {
        return None;
    }
    if bytes.get(at).is_some_and(|b| b.eq_ignore_ascii_case(&b'e')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return None;
        }
    }
    (at == bytes.len()).then(|| decimal(text))
}

/// A number as a person types it (an attribute, a URL parameter, a form field): [`parse_number`]'s
/// syntax around surrounding spaces, with a decimal comma (`2,5`, as written in Portuguese)
/// accepted as well as a point.
pub fn read_typed(text: &str, decimal: DecimalText) -> Option<f64> {
    let trimmed = text.trim();
    if trimmed.contains(',') && !trimmed.contains('.') {
        parse_number(&trimmed.replacen(',', ".", 1), decimal)
    } else {
        parse_number(trimmed, decimal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_digits_match_the_format_macro() {
        for n in [0, 7, 10, 429, 1_000_000, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(uint(n), n.to_string());
        }
    }

    #[test]
    fn hex_digits_match_the_format_macro() {
        for n in [0, 9, 0x1f, 0x7f, 0x9f, 0xfeff, u32::MAX] {
            let mut out = String::new();
            push_hex(&mut out, n);
            assert_eq!(out, format!("{n:x}"));
        }
    }

    #[test]
    fn fixed_rounds_like_the_format_macro_on_exact_halves_away_from_zero() {
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(278.0, 2), "278.00");
        assert_eq!(fixed(12.345, 1), "12.3");
        assert_eq!(fixed(0.25, 1), "0.3");
        assert_eq!(fixed(-1.5, 0), "-2");
        assert_eq!(fixed(-0.01, 1), "0.0");
        assert_eq!(fixed(f64::NAN, 1), "0.0");
        assert_eq!(fixed(1.23456, 6), "1.234560");
    }

    #[test]
    fn large_values_are_written_truthfully_never_capped() {
        assert_eq!(fixed(1e13, 1), "10000000000000.0");
        assert_eq!(trimmed(1e13, 3, significant), "10000000000000");
        assert_eq!(fixed(9_007_199_254_740_991.0, 0), "9007199254740991");
        assert_eq!(fixed(4_503_599_627_370_495.5, 1), "4503599627370495.5");
        assert_eq!(fixed(2f64.powi(53), 1), "9.00719925474099e+15");
        assert_eq!(fixed(1e300, 1), "1e+300");
        assert_eq!(trimmed(1e308, 3, significant), "1e+308");
        assert_eq!(trimmed(1e20, 3, significant), "1e+20");
        assert_eq!(fixed(-1.5e20, 1), "-1.5e+20");
        assert_eq!(fixed(f64::MAX, 1), "1.79769313486232e+308");
        assert_eq!(fixed(123_456_789_012_345_678.0, 2), "1.23456789012346e+17");
        // Every power of ten and a few odd values: the same 15 digits as Rust's own formatting.
        for exponent in 16..=308 {
            for mantissa in [1.0, 2.5, 9.99, 7.123_456_789_012_34] {
                let value: f64 = format!("{mantissa}e{exponent}").parse().unwrap();
                if value.is_infinite() {
                    continue;
                }
                let rust = format!("{value:.14e}");
                let (digits, power) = rust.split_once('e').unwrap();
                let digits = digits.trim_end_matches('0').trim_end_matches('.');
                assert_eq!(fixed(value, 1), format!("{digits}e+{power}"), "{value:e}");
            }
        }
    }

    #[test]
    fn fixed_rounds_the_exact_value_as_javascripts_to_fixed() {
        // `value.toFixed(decimals)` as node v20.20.2 wrote it: the double's exact value rounded,
        // a tie away from zero. A product in doubles rounded first (0.725 · 100 is 72.5, 0.725
        // being 0.72499999999999997…), and a value a hair below a tie came out a unit up.
        for (value, decimals, node) in [
            (0.725, 2, "0.72"),
            (-0.6275, 3, "-0.627"),
            (0.671926225, 8, "0.67192622"),
            (0.245222553115, 11, "0.24522255311"),
            (-0.16845, 4, "-0.1684"),
            (0.81765, 4, "0.8176"),
            (0.5474999999999999, 3, "0.547"),
            (1.005, 2, "1.00"),
            (8.345, 2, "8.35"),
            (0.5, 0, "1"),
            (2.5, 0, "3"),
            (-2.5, 0, "-3"),
            (1.25, 1, "1.3"),
            (-1.25, 1, "-1.3"),
            (0.125, 2, "0.13"),
            (0.49999999999999994, 0, "0"),
            (1.4999999999999998, 0, "1"),
            (1.0000000000000002e-10, 12, "0.000000000100"),
            (1e-7, 12, "0.000000100000"),
            (5e-324, 12, "0.000000000000"),
            (4503599627370495.5, 0, "4503599627370496"),
            (4503599627370495.5, 1, "4503599627370495.5"),
            (9007199254740991.0, 2, "9007199254740991.00"),
        ] {
            assert_eq!(fixed(value, decimals), node, "{value:e} to {decimals}");
        }
    }

    #[test]
    fn a_level_floored_never_overflows() {
        assert_eq!(floor_to(7.46, 1), 7.4);
        assert_eq!(floor_to(3.999_999_9, 1), 4.0);
        assert_eq!(floor_to(0.0, 1), 0.0);
        assert_eq!(floor_to(0.05, 1), 0.0);
        assert_eq!(floor_to(0.05, 2), 0.05);
        assert_eq!(floor_to(0.049_999_999, 2), 0.05);
        assert_eq!(floor_to(0.0489, 2), 0.04);
        assert_eq!(floor_to(2.5559, 3), 2.555);
        assert_eq!(floor_to(5e-324, 3), 0.0);
        assert_eq!(floor_to(1e15 + 0.25, 1), 1e15 + 0.2);
        for value in [2f64.powi(53), 1e300, 1e308, f64::MAX] {
            for decimals in 1..=3 {
                assert_eq!(floor_to(value, decimals), value, "{value:e}");
            }
        }
    }

    #[test]
    fn a_level_has_the_capacitys_decimals() {
        for (capacity, decimals) in [
            (5.0, 1),
            (2.5, 1),
            (1000.0, 1),
            (0.05, 2),
            (2.55, 2),
            (0.1 + 0.2, 1),
            (0.125, 3),
            (0.0004, 3),
            (1.0 / 3.0, 3),
            (1e-20, 3),
            (1e300, 1),
        ] {
            assert_eq!(level_decimals(capacity), decimals, "{capacity:e}");
        }
        // Near f64::MAX the product is infinite: 3, which a number that large is written without.
        for capacity in [1e308, f64::MAX] {
            assert_eq!(level_decimals(capacity), 3, "{capacity:e}");
            assert_eq!(fixed(capacity, 3), fixed(capacity, 1), "{capacity:e}");
        }
    }

    #[test]
    fn trimmed_drops_trailing_zeros() {
        assert_eq!(trimmed(10.0, 3, significant), "10");
        assert_eq!(trimmed(0.2, 3, significant), "0.2");
        assert_eq!(trimmed(0.1 + 0.2, 3, significant), "0.3");
        assert_eq!(trimmed(-0.0, 3, significant), "0");
        assert_eq!(trimmed(1234.5678, 2, significant), "1234.57");
    }

    #[test]
    fn a_nonzero_value_is_never_written_as_zero() {
        // What would round to 0 gets 3 significant digits, as JavaScript's
        // `String(Number(v.toPrecision(3)))` writes them.
        assert_eq!(trimmed(0.0004, 3, significant), "0.0004");
        assert_eq!(trimmed(0.00012345, 3, significant), "0.000123");
        assert_eq!(trimmed(0.0004999, 3, significant), "0.0005");
        assert_eq!(trimmed(-0.0001, 3, significant), "-0.0001");
        assert_eq!(trimmed(0.000001, 3, significant), "0.000001");
        assert_eq!(trimmed(9.996e-7, 3, significant), "0.000001");
        assert_eq!(trimmed(1e-7, 3, significant), "1e-7");
        assert_eq!(trimmed(1.2345e-20, 3, significant), "1.23e-20");
        assert_eq!(trimmed(1e-300, 3, significant), "1e-300");
        // (JavaScript writes this double back as its shortest form, `5e-324`; both are true.)
        assert_eq!(trimmed(5e-324, 3, significant), "4.94e-324");
        assert_eq!(trimmed(4e-7, 0, significant), "4e-7");
        // What does not round to 0 keeps its decimals.
        assert_eq!(trimmed(0.0005, 3, significant), "0.001");
        assert_eq!(trimmed(0.0123, 3, significant), "0.012");
        assert_eq!(trimmed(0.0, 3, significant), "0");
        for value in [3e-4, 1.5e-5, 7.77e-9, 2.5e-100, 1e-308, 9.99e-200] {
            let js = format!("{:.2e}", value).parse::<f64>().unwrap();
            assert_eq!(
                trimmed(value, 3, significant).parse::<f64>(),
                Ok(js),
                "{value:e}"
            );
        }
        // More than 6 decimals when asked (the formula's comparison may need them).
        assert_eq!(trimmed(0.999_999_6, 12, significant), "0.9999996");
    }

    #[test]
    fn three_significant_digits_round_the_exact_value_as_javascript_does() {
        // `toPrecision(3)` rounds the double's exact value (a tie up); scaling it by 10 step by
        // step rounded at each step, and 1 in 85 values came out a unit off in the last digit.
        // Found by fuzzing (fuzz/fuzz_targets/number_text.rs); the values are V8's.
        for (value, js) in [
            (0.05225, "0.0522"),
            (-0.05225, "-0.0522"),
            (0.1025, "0.102"),
            (1.005e-2, "0.01"),
            (1.015e-5, "0.0000101"),
            (1.025e-7, "1.02e-7"),
            (1.005e-10, "1.01e-10"),
            (0.3125, "0.313"),
            (0.03125, "0.0313"),
            (0.0009996, "0.001"),
        ] {
            assert_eq!(significant(value), js, "{value:e}");
        }
        assert_eq!(trimmed(0.05225, 0, significant), "0.0522");
    }

    #[test]
    fn whole_numbers_beyond_u64_keep_every_digit() {
        let whole = |value: f64| {
            let mut out = String::new();
            push_whole(&mut out, value);
            out
        };
        assert_eq!(whole(0.0), "0");
        assert_eq!(whole(18_446_744_073_709_549_568.0), "18446744073709549568");
        assert_eq!(whole(2f64.powi(64)), "18446744073709551616");
        assert_eq!(whole(5e19), "50000000000000000000");
        assert_eq!(whole(1e22), "10000000000000000000000");
        assert_eq!(whole(1e23), "99999999999999991611392");
        assert_eq!(whole(f64::MAX).len(), 309);
        for value in [1e20, 1.5e30, 1e300, f64::MAX, 2f64.powi(1000)] {
            assert_eq!(whole(value), format!("{value:.0}"));
        }
    }

    #[test]
    fn number_syntax_is_exactly_rusts() {
        let long = "9".repeat(400);
        let texts = [
            "1",
            "-1",
            "+1",
            "1.",
            ".5",
            "-.5",
            "+.5",
            "1.5e3",
            "1E3",
            "1e+3",
            "1e-3",
            "1.e2",
            "007",
            "inf",
            "-inf",
            "+Infinity",
            "INF",
            "nan",
            "NaN",
            "-nan",
            "infinit",
            "",
            ".",
            "-",
            "+",
            "e3",
            "1e",
            "1e+",
            "1.2.3",
            "1,5",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "--1",
            "+-1",
            "1e3.5",
            "١",
            "Infinityx",
            &long,
            "1e400",
            "-1e-400",
            "0.1000000000000000055511151231257827",
            "2.2250738585072011e-308",
        ];
        // A decimal reader that can't be mistaken for Rust's: proves which path each text took.
        let marked = |_: &str| 12345.0;
        for text in texts {
            let ours = parse_number(text, rust_decimal);
            let rusts = text.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), rusts.map(f64::to_bits), "{text:?}");
            let special = rusts.is_some_and(|v| v.is_nan() || v.is_infinite())
                && !text.contains(|c: char| c.is_ascii_digit());
            let expected = rusts.map(|v| if special { v } else { 12345.0 });
            assert_eq!(
                parse_number(text, marked).map(f64::to_bits),
                expected.map(f64::to_bits),
                "{text:?}"
            );
        }
    }

    #[test]
    fn typed_numbers_may_have_spaces_around_and_a_decimal_comma() {
        assert_eq!(read_typed(" 2,5 ", rust_decimal), Some(2.5));
        assert_eq!(read_typed("2.5", rust_decimal), Some(2.5));
        assert_eq!(
            read_typed("1,5.0", rust_decimal),
            None,
            "a comma and a point"
        );
        assert_eq!(read_typed("1,2,3", rust_decimal), None);
        assert_eq!(read_typed("", rust_decimal), None);
    }

    #[test]
    fn huge_and_tiny_numbers_are_written_like_javascript() {
        assert_eq!(rust_number(1e308), "1e+308");
        assert_eq!(rust_number(-3.5e254), "-3.5e+254");
        assert_eq!(rust_number(5e-324), "5e-324");
        assert_eq!(rust_number(1e21), "1e+21");
        assert_eq!(rust_number(123456.5), "123456.5");
        assert_eq!(rust_number(0.000001), "0.000001");
        assert_eq!(rust_number(-0.0), "-0");
    }
}
