//! The strip chart of the last 20 seconds: the token level as a line, admitted requests as
//! circles and denied ones as diamonds. Three paths, rewritten per frame; no element churn.

use super::dom::{self, set, svg, text};
use super::locale::Locale;
use crate::limiter::{History, Kind};
use std::fmt::Write;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// Seconds of history the chart shows.
pub const SPAN: f64 = 20.0;
const WIDTH: f64 = 480.0;
/// Vertical band of the level line.
const LEVEL_TOP: f64 = 8.0;
const LEVEL_BOTTOM: f64 = 64.0;
/// Row of request markers.
const MARKS_Y: f64 = 78.0;

/// Handles to the chart's changing parts.
pub struct Timeline {
    level: Element,
    admitted: Element,
    denied: Element,
}

impl Timeline {
    /// Builds the chart inside `parent`.
    pub fn build(parent: &Element, l: &Locale) -> Result<Timeline, JsValue> {
        let id = dom::unique_id("bl-tl");
        let chart = svg(
            parent,
            "svg",
            &[
                ("class", "bl-timeline"),
                ("viewBox", "0 0 480 104"),
                ("role", "img"),
                ("aria-labelledby", &format!("{id}-title {id}-desc")),
            ],
        )?;
        text(
            &svg(&chart, "title", &[("id", &format!("{id}-title"))])?,
            l.timeline_title,
        );
        text(
            &svg(&chart, "desc", &[("id", &format!("{id}-desc"))])?,
            l.timeline_desc,
        );
        svg(
            &chart,
            "line",
            &[
                ("class", "bl-tl-axis"),
                ("x1", "0"),
                ("x2", "480"),
                ("y1", "64"),
                ("y2", "64"),
            ],
        )?;
        let level = svg(&chart, "path", &[("class", "bl-tl-level")])?;
        let admitted = svg(&chart, "path", &[("class", "bl-tl-admitted")])?;
        let denied = svg(&chart, "path", &[("class", "bl-tl-denied")])?;
        let past = svg(
            &chart,
            "text",
            &[("class", "bl-tl-tick"), ("x", "2"), ("y", "100")],
        )?;
        text(&past, l.timeline_past);
        let now = svg(
            &chart,
            "text",
            &[
                ("class", "bl-tl-tick"),
                ("x", "478"),
                ("y", "100"),
                ("text-anchor", "end"),
            ],
        )?;
        text(&now, l.timeline_now);
        Ok(Timeline {
            level,
            admitted,
            denied,
        })
    }

    /// Draws `history` as it stands at lesson time `now`, for a bucket of `capacity`.
    pub fn draw(&self, history: &History, now: f64, capacity: f64) {
        let x = |t: f64| WIDTH * (1.0 - (now - t) / SPAN);
        let scale = history
            .events()
            .map(|e| e.capacity)
            .fold(capacity, f64::max);
        let y = |tokens: f64| {
            LEVEL_BOTTOM - (tokens / scale).clamp(0.0, 1.0) * (LEVEL_BOTTOM - LEVEL_TOP)
        };

        let mut line = String::new();
        for (i, (t, tokens)) in history.level_line(now).into_iter().enumerate() {
            let _ = write!(
                line,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { "L" },
                x(t).max(-1.0),
                y(tokens)
            );
        }
        set(&self.level, "d", &line);

        let (mut ok, mut deny) = (String::new(), String::new());
        for event in history
            .events()
            .filter(|e| e.at > now - SPAN && e.at <= now)
        {
            let cx = x(event.at);
            match event.kind {
                Kind::Admitted => {
                    let _ = write!(ok, "M{:.1} {MARKS_Y}m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0", cx);
                }
                Kind::Denied => {
                    let _ = write!(deny, "M{:.1} {}l5 5l-5 5l-5-5Z", cx, MARKS_Y - 5.0);
                }
                Kind::Reconfigured => {}
            }
        }
        set(&self.admitted, "d", &ok);
        set(&self.denied, "d", &deny);
    }
}
