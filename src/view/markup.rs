//! The widget's markup as text: pure functions (no DOM).

/// An SVG `translate(x y)` with two decimals: what the view's moving parts change per frame.
pub fn translate(x: f64, y: f64) -> String {
    let mut out = String::from("translate(");
    crate::limiter::number::push_fixed(&mut out, x, 2);
    out.push(' ');
    crate::limiter::number::push_fixed(&mut out, y, 2);
    out.push(')');
    out
}
