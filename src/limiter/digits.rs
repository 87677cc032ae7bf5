//! Decimal digits of whole numbers, written without `core::fmt`: the core's messages and headers
//! reach the wasm module, where the formatting machinery would cost kilobytes for a few integers.

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
}
