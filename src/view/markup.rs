//! The widget's markup as text: the SVG bucket with its panel, the controls and the timeline,
//! each set once with `innerHTML` and then only updated. Pure functions (no DOM), so the same
//! markup can be rendered natively.
//!
//! The templates are constants with `{}` marks, filled in order by [`render`] with the view's own
//! words, ids and numbers, HTML-escaped. Values a person typed never go through markup.

use super::locale::Locale;
use crate::limiter::number::push_fixed;

/// The widget's frame: the SVG bucket, a place for the controls (`.bl-side`), the response panel
/// and a place for the timeline (`.bl-bottom`). `{}` marks, in order: the language, the id prefix
/// (title, desc and clip ids), the title, the id prefix again (clip), the tokens unit, the idle
/// status and the reset note. The water is a full-height rect inside the clipped bucket, moved
/// down by a transform as the level drops: a transform change updates a paint property and
/// re-records no paint. Drops fall from the spout; the request marker's shape is set per request.
const WIDGET: &str = "<div class=\"bl-widget\" lang=\"{}\">\
<svg class=\"bl-diagram\" viewBox=\"0 0 360 300\" role=\"img\" aria-labelledby=\"{}-title {}-desc\">\
<title id=\"{}-title\">{}</title><desc id=\"{}-desc\"></desc>\
<defs><clipPath id=\"{}-inside\">\
<path d=\"M102 70 L122 272 Q124 278 132 278 L228 278 Q236 278 238 272 L258 70 Z\"/>\
</clipPath></defs>\
<rect class=\"bl-tap\" x=\"146\" y=\"6\" width=\"68\" height=\"18\" rx=\"5\"/>\
<rect class=\"bl-tap\" x=\"172\" y=\"22\" width=\"16\" height=\"16\" rx=\"2\"/>\
<text class=\"bl-label\" x=\"224\" y=\"20\"></text>\
<circle class=\"bl-drop\" cx=\"180\" cy=\"0\" r=\"6\" visibility=\"hidden\"/>\
<circle class=\"bl-drop\" cx=\"180\" cy=\"0\" r=\"6\" visibility=\"hidden\"/>\
<circle class=\"bl-drop\" cx=\"180\" cy=\"0\" r=\"6\" visibility=\"hidden\"/>\
<g clip-path=\"url(#{}-inside)\">\
<rect class=\"bl-fill\" x=\"90\" y=\"70\" width=\"180\" height=\"208\" transform=\"translate(0 208)\"/>\
</g>\
<path class=\"bl-bucket\" d=\"M100 70 L120 272 Q122 282 132 282 L228 282 Q238 282 240 272 L260 70\"/>\
<line class=\"bl-brim\" x1=\"60\" y1=\"70\" x2=\"100\" y2=\"70\"/>\
<text class=\"bl-label\" x=\"8\" y=\"66\"></text>\
<text class=\"bl-counter\" x=\"180\" y=\"204\" text-anchor=\"middle\"></text>\
<text class=\"bl-unit\" x=\"180\" y=\"226\" text-anchor=\"middle\">{}</text>\
<path class=\"bl-request\" visibility=\"hidden\"/>\
</svg>\
<div class=\"bl-side\"></div>\
<div class=\"bl-panel\"><p class=\"bl-status\">{}</p><pre class=\"bl-head\" hidden=\"\"></pre>\
<p class=\"bl-formula\"></p><p class=\"bl-wait\"></p><p class=\"bl-note\">{}</p></div>\
<div class=\"bl-bottom\"></div>\
</div>";

/// The controls. Each field is a `<label>` holding its caption and its control; the groups are
/// `<fieldset>`s around those labels.
const CONTROLS: &str = "<div class=\"bl-controls\">\
<div class=\"bl-row\">\
<button class=\"bl-button bl-send\" type=\"button\">{}</button>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-cost\" type=\"number\" min=\"1\" step=\"1\" value=\"1\" inputmode=\"numeric\"></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-burst-size\" type=\"number\" min=\"1\" max=\"100\" step=\"1\" value=\"5\" inputmode=\"numeric\"></label>\
<button class=\"bl-button bl-burst\" type=\"button\">{}</button>\
</div>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-capacity\" type=\"range\" min=\"1\" max=\"{}\" step=\"1\"><output class=\"bl-out\"></output></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-rate\" type=\"range\" min=\"0\" max=\"{}\" step=\"0.5\"><output class=\"bl-out\"></output></label>\
</fieldset>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span><select class=\"bl-traffic\">\
<option value=\"off\">{}</option><option value=\"steady\">{}</option><option value=\"poisson\">{}</option>\
</select></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-traffic-rate\" type=\"number\" min=\"0.5\" max=\"{}\" step=\"0.5\" value=\"8\"></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-seed\" type=\"number\" min=\"0\" step=\"1\" value=\"42\" inputmode=\"numeric\"></label>\
</fieldset>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<button class=\"bl-button bl-pause\" type=\"button\" aria-pressed=\"false\">{}</button>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span><select class=\"bl-speed\">\
<option value=\"0.25\">0{}25×</option><option value=\"1\">1×</option><option value=\"4\">4×</option>\
</select></label>\
<button class=\"bl-button bl-step-back\" type=\"button\">{}</button>\
<button class=\"bl-button bl-step\" type=\"button\">{}</button>\
<button class=\"bl-button bl-to-live\" type=\"button\" hidden=\"\">{}</button>\
<button class=\"bl-button bl-reset\" type=\"button\">{}</button>\
</fieldset>\
<p class=\"bl-input-error\" role=\"alert\"></p>\
</div>";

/// The timeline, inside the slider that scrubs lesson time. `{}` marks, in order: the slider's
/// name, the id prefix four times, the title, the id prefix, the description, the clip's id
/// twice, the two tick labels. The track (the `<g>` holding the three paths) slides inside the
/// clipped window; the playhead line marks the moment shown while scrubbing.
const TIMELINE: &str = "<div class=\"bl-scrub\" role=\"slider\" tabindex=\"0\" aria-label=\"{}\" \
aria-describedby=\"{}-desc\" aria-valuemin=\"0\" aria-valuemax=\"0\" aria-valuenow=\"0\">\
<svg class=\"bl-timeline\" viewBox=\"0 0 480 104\" role=\"img\" \
aria-labelledby=\"{}-title {}-desc\">\
<title id=\"{}-title\">{}</title><desc id=\"{}-desc\">{}</desc>\
<line class=\"bl-tl-axis\" x1=\"0\" x2=\"480\" y1=\"64\" y2=\"64\"/>\
<clipPath id=\"{}\"><rect x=\"0\" y=\"0\" width=\"480\" height=\"90\"/></clipPath>\
<g clip-path=\"url(#{})\"><g>\
<path class=\"bl-tl-level\"/><path class=\"bl-tl-admitted\"/><path class=\"bl-tl-denied\"/>\
</g></g>\
<text class=\"bl-tl-tick\" x=\"2\" y=\"100\">{}</text>\
<line class=\"bl-tl-head\" x1=\"0\" x2=\"0\" y1=\"0\" y2=\"90\" visibility=\"hidden\"/>\
<text class=\"bl-tl-tick\" x=\"478\" y=\"100\" text-anchor=\"end\">{}</text>\
</svg></div>";

/// The widget's frame in language `l`; `id` prefixes its SVG ids (unique on the page).
pub fn widget(l: &Locale, id: &str) -> String {
    render(
        WIDGET,
        &[
            l.lang,
            id,
            id,
            id,
            l.svg_title,
            id,
            id,
            id,
            l.tokens_unit,
            l.idle,
            l.reset_note,
        ],
    )
}

/// The controls in language `l`, with the sliders' and the traffic rate's largest values.
pub fn controls(l: &Locale, capacity_max: &str, rate_max: &str, traffic_max: &str) -> String {
    let decimal = l.decimal.encode_utf8(&mut [0; 4]).to_owned();
    render(
        CONTROLS,
        &[
            l.send,
            l.cost,
            l.burst_size,
            l.burst,
            l.bucket_legend,
            l.capacity,
            capacity_max,
            l.rate,
            rate_max,
            l.traffic_legend,
            l.traffic_mode,
            l.traffic_off,
            l.traffic_steady,
            l.traffic_poisson,
            l.traffic_rate,
            traffic_max,
            l.seed,
            l.time_legend,
            l.pause,
            l.speed,
            &decimal,
            l.step_back,
            l.step,
            l.live,
            l.reset,
        ],
    )
}

/// The timeline in language `l`; `id` prefixes its title and description ids, `clip_id` is its
/// clip path's id.
pub fn timeline(l: &Locale, id: &str, clip_id: &str) -> String {
    render(
        TIMELINE,
        &[
            l.scrub_label,
            id,
            id,
            id,
            id,
            l.timeline_title,
            id,
            l.timeline_desc,
            clip_id,
            clip_id,
            l.timeline_past,
            l.timeline_now,
        ],
    )
}

/// `template` with each `{}` replaced, in order, by the next of `values`, escaped for text and
/// attribute values.
pub fn render(template: &str, values: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut values = values.iter();
    // Split on the `{` alone (a char search, lighter in the wasm than a string search); every
    // piece after the first starts with the mark's `}`.
    for (i, piece) in template.split('{').enumerate() {
        let piece = if i == 0 {
            piece
        } else {
            for c in values.next().copied().unwrap_or("").chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '"' => out.push_str("&quot;"),
                    c => out.push(c),
                }
            }
            piece.strip_prefix('}').unwrap_or(piece)
        };
        out.push_str(piece);
    }
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

#[cfg(test)]
mod tests {
    use super::super::locale::{EN, PT_BR};
    use super::*;

    /// The number of `{}` marks in `template`.
    fn marks(template: &str) -> usize {
        template.matches("{}").count()
    }

    #[test]
    fn values_are_escaped_and_filled_in_order() {
        assert_eq!(
            render("<p title=\"{}\">{}</p>", &["a\"b", "<i>&"]),
            "<p title=\"a&quot;b\">&lt;i&gt;&amp;</p>"
        );
    }

    #[test]
    fn every_mark_gets_a_value() {
        let widget = widget(&EN, "bl0");
        assert_eq!(marks(WIDGET), 11);
        assert!(widget.contains("lang=\"en\""), "{widget}");
        assert!(widget.contains("<title id=\"bl0-title\">Token bucket</title>"));
        assert!(!widget.contains("{}"));
        assert_eq!(marks(CONTROLS), 25);
        let controls = controls(&PT_BR, "50", "20", "50");
        assert!(
            controls.contains(">0,25×<"),
            "the language's decimal separator"
        );
        assert!(!controls.contains("{}"));
        assert_eq!(marks(TIMELINE), 12);
        assert!(!timeline(&EN, "t", "c").contains("{}"));
    }

    #[test]
    fn translate_writes_two_decimals() {
        assert_eq!(translate(0.0, 208.0), "translate(0.00 208.00)");
        assert_eq!(translate(-1.005, 2.5), "translate(-1.00 2.50)");
    }
}
