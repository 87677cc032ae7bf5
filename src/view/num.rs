//! Fixed-point number text for the view: SVG coordinates and the numbers the lesson shows.
//!
//! Rust's float formatting (`{:.2}`) pulls its general shortest/exact algorithms into the wasm;
//! the view only ever needs a few decimals of values far below 2^53, which integer arithmetic
//! does exactly as well in a fraction of the code.

/// Appends `value` rounded half away from zero to exactly `decimals` decimals (at most 6), with
/// `.` as the decimal point. Non-finite values are written as `0`; `-0` as `0`.
pub fn push_fixed(out: &mut String, value: f64, decimals: u32) {
    let decimals = decimals.min(6);
    let scale = 10u64.pow(decimals);
    let scaled = if value.is_finite() {
        (value.abs() * scale as f64).round().min(9.0e15)
    } else {
        0.0
    };
    let n = scaled as u64;
    if value < 0.0 && n != 0 {
        out.push('-');
    }
    push_int(out, n / scale);
    if decimals > 0 {
        out.push('.');
        let frac = n % scale;
        let mut div = scale / 10;
        while div > 0 {
            out.push(char::from(b'0' + (frac / div % 10) as u8));
            div /= 10;
        }
    }
}

/// `value` with exactly `decimals` decimals (see [`push_fixed`]).
pub fn fixed(value: f64, decimals: u32) -> String {
    let mut out = String::new();
    push_fixed(&mut out, value, decimals);
    out
}

/// An SVG `translate(x y)` with two decimals: what the view's moving parts change per frame.
pub fn translate(x: f64, y: f64) -> String {
    let mut out = String::from("translate(");
    push_fixed(&mut out, x, 2);
    out.push(' ');
    push_fixed(&mut out, y, 2);
    out.push(')');
    out
}

/// `value` with at most `decimals` decimals: trailing zeros and a bare point dropped.
pub fn trimmed(value: f64, decimals: u32) -> String {
    let mut text = fixed(value, decimals);
    if text.contains('.') {
        let keep = text.trim_end_matches('0').trim_end_matches('.').len();
        text.truncate(keep);
    }
    if text == "-0" {
        text.remove(0);
    }
    text
}

pub use crate::limiter::digits::{push_uint as push_int, uint as int};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_rounds_like_the_format_macro_on_exact_halves_away_from_zero() {
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(278.0, 2), "278.00");
        assert_eq!(fixed(12.345, 1), "12.3");
        assert_eq!(fixed(0.25, 1), "0.3");
        assert_eq!(fixed(-1.5, 0), "-2");
        assert_eq!(fixed(-0.01, 1), "0.0");
        assert_eq!(fixed(1e300, 1), "900000000000000.0");
        assert_eq!(fixed(f64::NAN, 1), "0.0");
        assert_eq!(fixed(1.23456, 6), "1.234560");
    }

    #[test]
    fn trimmed_drops_trailing_zeros() {
        assert_eq!(trimmed(10.0, 3), "10");
        assert_eq!(trimmed(0.2, 3), "0.2");
        assert_eq!(trimmed(0.1 + 0.2, 3), "0.3");
        assert_eq!(trimmed(-0.0001, 3), "0");
        assert_eq!(trimmed(1234.5678, 2), "1234.57");
    }

    #[test]
    fn integers() {
        assert_eq!(int(0), "0");
        assert_eq!(int(u64::MAX), "18446744073709551615");
    }
}
