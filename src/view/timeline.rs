//! The strip chart of the last 20 seconds: the token level as a line, admitted requests as
//! circles and denied ones as diamonds.
//!
//! The three paths are rewritten, "now" at the same x, [`TRACK_HZ`] times a wall-clock second while
//! lesson time runs (see [`track_due`]), a lower rate than the bucket's every frame: a 20 s chart
//! moves 2.5 % of its width between two steps. Each step costs the browser a re-layering of the
//! page (about 1.5 ms with 20 charts; whether the paths move by a `transform` or by their data,
//! as now, with no transform to keep); at 2 a second those frames stay under 5 % of a 60 Hz
//! page's, so they do not set its p95 frame time (BENCHMARKS.md). A new request, a paused clock or
//! a past moment draws at once. The level line is drawn ahead into the future (rising to the
//! capacity, then flat) and a clip hides what is right of "now".
//!
//! The chart is also a slider (`role="slider"`) over lesson time, from 20 s ago to now: dragging
//! on it or using the arrow keys, Page Up/Down and Home/End picks a past moment, which the
//! widget replays through the core; a playhead marks it: a line, and under it, over the labels'
//! row, how long before "now" the moment is ("−2.5 s", like the row's "−20 s").

use super::dom::{self, set};
use super::locale::{fill, Locale};
use super::markup::translate;
use crate::limiter::number::push_fixed;
use crate::limiter::{History, Kind, Session, SPAN};
use std::cell::Cell;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// The chart's width in SVG units: [`SPAN`] seconds of history, then a marker's half-width.
const WIDTH: f64 = 480.0;
/// Vertical band of the level line.
const LEVEL_TOP: f64 = 8.0;
const LEVEL_BOTTOM: f64 = 64.0;
// Request markers sit on two rows, admitted ones at y = 72 and denied ones at y = 83 (written into
// the marker paths below), so a burst at one instant shows both.

/// Where "now" is drawn: a marker's half-width in from the right edge, so a request sent now
/// shows whole (at the edge itself the clip cut it in half). The labels sit under the markers'
/// two rows, at y = 108 of the 114-unit-high chart, clear of them even at their largest size.
const NOW_X: f64 = WIDTH - 6.0;
/// Pixels per second of lesson time.
const PX_PER_SECOND: f64 = NOW_X / SPAN;
/// How far in from either side of the chart the middle of the playhead's label may go, so the
/// label stays whole: half its width at its largest (about 88 units for "−20.0 s" at 22 px).
const MARK_EDGE: f64 = 46.0;
/// How near either side the label's middle comes before the row's label there ("−20 s", "now",
/// "agora") gives way to it: `MARK_NEAR` with the row's larger type on a narrow chart (18 and
/// 22 px: half the label and that label reach about 100 units), `MARK_CLOSE` with its smaller
/// (11 and 13 px: about 62). widget.css and bucket-lab.css pick by the chart's width.
const MARK_NEAR: f64 = 112.0;
const MARK_CLOSE: f64 = 68.0;
/// How far past "now" the level line is drawn (the clip hides it), so its slope reaches the
/// chart's right edge.
const AHEAD: f64 = 60.0;
/// How many times a wall-clock second the chart moves while lesson time runs.
const TRACK_HZ: f64 = 2.0;
/// Slack on the track's period, half a 60 Hz frame: a frame that comes a hair early still moves
/// it, so the steps stay 30 frames apart instead of slipping to 31.
const FRAME_SLACK: f64 = 1.0 / 120.0;

/// Handles to the chart's changing parts.
pub struct Timeline {
    locale: &'static Locale,
    /// The slider around the chart.
    pub scrub: Element,
    /// The playhead: its line and its label.
    head: Element,
    mark: Element,
    level: Element,
    admitted: Element,
    denied: Element,
    /// What the paths were last drawn for: history revision, lesson time at [`NOW_X`].
    drawn: Cell<Option<(u64, f64)>>,
    /// The wall time the chart last moved.
    moved: Cell<Option<f64>>,
    /// Whether the next draw writes the slider's value exactly, at once (it is being read).
    read: Cell<bool>,
    /// The whole lesson second of the value last written while time ran live.
    second: Cell<Option<f64>>,
    /// Whether the slider reaches back to lesson time 0 (a played scenario, watched from its
    /// first moment), not only the last [`SPAN`] seconds.
    pub whole: Cell<bool>,
}

impl Timeline {
    /// Finds the chart in the widget's markup under `parent`; `l` words its slider's value.
    pub fn attach(parent: &Element, l: &'static Locale) -> Result<Timeline, JsValue> {
        let [scrub, head, mark, level, admitted, denied] = dom::find_each(
            parent,
            [
                ".bl-scrub",
                ".bl-tl-head",
                ".bl-tl-moment",
                ".bl-tl-level",
                ".bl-tl-admitted",
                ".bl-tl-denied",
            ],
        )?;
        Ok(Timeline {
            locale: l,
            scrub,
            head,
            mark,
            level,
            admitted,
            denied,
            drawn: Cell::new(None),
            moved: Cell::new(None),
            read: Cell::new(false),
            second: Cell::new(None),
            whole: Cell::new(false),
        })
    }

    /// Wall seconds from `wall` until the track is due to move again (0: now).
    pub fn next_move_in(&self, wall: f64) -> f64 {
        match self.moved.get() {
            Some(last) if wall >= last => (1.0 / TRACK_HZ - (wall - last)).max(0.0),
            _ => 0.0,
        }
    }

    /// Draws the `live` session's history as it stands at lesson time `now` (wall time `wall`), or
    /// `chart`'s, ending at its time, if given ([`Timeline::chart_end`]); `shown` is the past
    /// moment being shown (a playhead), if any. While time stands still it
    /// draws at once and writes the slider's value to the tenth of a second; while time runs, the
    /// track and the value (whole seconds) move only when [`track_due`] says so. `moment` gives
    /// the moment on screen's level (the counter's, [`super::markup::level`]) and, if any, a
    /// recent request's outcome, for the slider's spoken value (asked only when it is written).
    pub fn draw(
        &self,
        live: &Session,
        now: f64,
        shown: Option<f64>,
        chart: Option<(f64, &Session)>,
        wall: f64,
        moment: &dyn Fn() -> ((f64, usize), Option<String>),
    ) {
        let follow = chart.is_some();
        let (chart, end) = chart.map_or((live, now), |(end, past)| (past, end));
        let (history, exact) = (chart.history(), live.is_paused());
        let drawn = self.drawn.get();
        // A new request or another session's history (`follow`) draws at once.
        let changed = follow || drawn.is_none_or(|(revision, _)| revision != history.revision());
        let read = self.read.replace(false);
        // After a still draw, the first running one is due at once (`moved` is cleared).
        if !exact && shown.is_none() && !changed && !read {
            if !track_due(self.moved.get(), wall) {
                return;
            }
            self.moved.set(Some(wall));
        } else {
            self.moved.set(None);
        }
        if changed || drawn.is_none_or(|(_, origin)| origin != end) {
            self.redraw(history, end, chart.config().capacity());
            if follow {
                // Another session's history: the live chart is drawn afresh after it.
                self.drawn.set(None);
            }
        }
        match shown {
            Some(at) => {
                let x = x_of(at, end);
                set(&self.head, "transform", &translate(x, 0.0));
                // The label, centred under the line, stays whole inside the chart, and the row's
                // label it comes near gives way (widget.css).
                let mid = x.clamp(MARK_EDGE, WIDTH - MARK_EDGE);
                let mut dx = String::new();
                push_fixed(&mut dx, mid - x, 2);
                set(&self.mark, "x", &dx);
                // A chart that ends at the moment shown (`follow`) has edges 20 s before it and at
                // it, not before now and now: both row labels give way, and the mark alone says when.
                let near = match mid.min(WIDTH - mid) {
                    _ if follow => "past",
                    edge if edge >= MARK_NEAR => "",
                    edge if mid < WIDTH / 2.0 => {
                        ["start", "start-close"][(edge < MARK_CLOSE) as usize]
                    }
                    edge => ["end", "end-close"][(edge < MARK_CLOSE) as usize],
                };
                set(&self.head, "data-near", near);
                set(&self.head, "visibility", "visible");
            }
            None => set(&self.head, "visibility", "hidden"),
        }
        self.show_value(now, shown, exact, read, moment);
    }

    /// Makes the next draw write the slider's value to the tenth of a second at once: focus
    /// landed on it, or the reader went back to live, and a screen reader reads it now.
    pub fn mark_read(&self) {
        self.read.set(true);
    }

    /// The slider's range (20 s ago, or 0, to now), value and spoken value, to the tenth of a
    /// second, with the moment's tokens (and a recent outcome) from `moment`. While time runs
    /// live the value is rewritten once a lesson second (a screen reader would speak every
    /// change), and not at all while the slider has focus, except when `read`: then it is
    /// written at once, exact.
    fn show_value(
        &self,
        now: f64,
        shown: Option<f64>,
        exact: bool,
        read: bool,
        moment: &dyn Fn() -> ((f64, usize), Option<String>),
    ) {
        let l = self.locale;
        let decimals = 1;
        let round = |t: f64| ((t * 10.0) + 1e-6).floor() / 10.0;
        if exact || shown.is_some() || read {
            self.second.set(None);
        } else {
            // A screen reader speaks every change of a focused slider's value: while it has focus,
            // the live value stays as focus (or the last key) wrote it, rather than a sentence
            // each second; the widget's live region still says each decision.
            if dom::has_focus(&self.scrub) {
                return;
            }
            let second = now.floor();
            if self.second.get() == Some(second) {
                return;
            }
            self.second.set(Some(second));
        }
        let at = shown.unwrap_or(now);
        let mut value = String::new();
        push_fixed(&mut value, round(at), decimals);
        let mut max = String::new();
        push_fixed(&mut max, round(now), decimals);
        let mut min = String::new();
        push_fixed(&mut min, round(self.start(now)), decimals);
        set(&self.scrub, "aria-valuemin", &min);
        set(&self.scrub, "aria-valuemax", &max);
        set(&self.scrub, "aria-valuenow", &value);
        let t = l.fixed(round(at), decimals as usize);
        let ((level, places), recent) = moment();
        let n = l.fixed(level, places);
        let mut o = String::new();
        if let Some(recent) = recent {
            o.push(' ');
            o.push_str(&recent);
        }
        // A past moment less than a tenth of a second before now is said to be a tenth before.
        let d = l.fixed((round(now) - round(at)).max(0.1), decimals as usize);
        let values = [("t", &*t), ("d", &d), ("n", &n), ("o", &o)];
        let text = match shown {
            Some(at) if now - at > 1e-9 => {
                dom::text(&self.mark, &fill(l.scrub_mark, &values));
                fill(l.scrub_past, &values)
            }
            _ => fill(l.scrub_live, &values),
        };
        set(&self.scrub, "aria-valuetext", &text);
    }

    /// Where the chart ends when the moment shown is `at` (none: live) at lesson time `now`: at
    /// `now`, or, for a moment older than the chart's [`SPAN`] (in a played scenario), at that
    /// moment, drawn from the session held there, the playhead at the right edge.
    pub fn chart_end(at: Option<f64>, now: f64) -> Option<f64> {
        at.filter(|at| *at < now - SPAN)
    }

    /// The lesson time under a pointer at `client_x`, for a chart ending at lesson time `end`
    /// when it is lesson time `now`.
    pub fn time_at(&self, client_x: f64, end: f64, now: f64) -> f64 {
        let rect = self.scrub.get_bounding_client_rect();
        let fraction = if rect.width() > 0.0 {
            ((client_x - rect.left()) / rect.width()).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let before_end = ((NOW_X - fraction * WIDTH) / PX_PER_SECOND).max(0.0);
        (end - before_end).max(self.start(now))
    }

    /// The earliest moment the slider reaches at lesson time `now`: what the chart shows
    /// ([`scrub_start`]), or 0 for a played scenario.
    pub fn start(&self, now: f64) -> f64 {
        if self.whole.get() {
            0.0
        } else {
            scrub_start(now)
        }
    }

    /// Rewrites the three paths with `now` at [`NOW_X`].
    fn redraw(&self, history: &History, now: f64, capacity: f64) {
        let [line, ok, deny] = paths(history, now, now + AHEAD, capacity);
        set(&self.level, "d", &line);
        set(&self.admitted, "d", &ok);
        set(&self.denied, "d", &deny);
        self.drawn.set(Some((history.revision(), now)));
    }
}

/// Whether the track, last moved at wall time `last` (never: `None`), moves again at wall time
/// `wall` while lesson time runs: [`TRACK_HZ`] times a second, and at once if the wall clock went
/// backwards.
fn track_due(last: Option<f64>, wall: f64) -> bool {
    last.is_none_or(|last| wall < last || wall - last >= 1.0 / TRACK_HZ - FRAME_SLACK)
}

/// The earliest moment the slider reaches when it is lesson time `now`: what the chart shows.
pub fn scrub_start(now: f64) -> f64 {
    (now - SPAN).max(0.0)
}

/// The moments a script may seek to at lesson time `now`, in whole milliseconds inside the exact
/// range (`start`, what [`Timeline::start`] gives, to `now`): bounds that read well in an error.
pub fn seek_range(start: f64, now: f64) -> (f64, f64) {
    let earliest = (start * 1000.0).ceil() / 1000.0;
    let latest = (now * 1000.0).floor() / 1000.0;
    (earliest.min(latest), latest)
}

/// The chart's x for lesson time `at` when "now" is `now`.
fn x_of(at: f64, now: f64) -> f64 {
    NOW_X - (now - at) * PX_PER_SECOND
}

/// `history` as SVG path data, with `now` at [`NOW_X`]: the token level line up to `until`, scaled
/// to the largest capacity on the chart, then a circle per admitted request and a diamond per
/// denied one.
fn paths(history: &History, now: f64, until: f64, capacity: f64) -> [String; 3] {
    let x = |t: f64| x_of(t, now);
    let scale = history
        .events()
        .map(|e| e.capacity)
        .fold(capacity, f64::max);
    let y =
        |tokens: f64| LEVEL_BOTTOM - (tokens / scale).clamp(0.0, 1.0) * (LEVEL_BOTTOM - LEVEL_TOP);

    let mut line = String::new();
    for (i, (t, tokens)) in history.level_line(until).into_iter().enumerate() {
        line.push(if i == 0 { 'M' } else { 'L' });
        // Older than the chart's span: pinned just left of the window, which the clip hides.
        push_fixed(&mut line, x(t).max(NOW_X - WIDTH - 1.0), 1);
        line.push(' ');
        push_fixed(&mut line, y(tokens), 1);
    }

    let (mut ok, mut deny) = (String::new(), String::new());
    for event in history.events() {
        let cx = x(event.at);
        match event.kind {
            Kind::Admitted => {
                ok.push('M');
                push_fixed(&mut ok, cx, 1);
                ok.push_str(" 72m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0");
            }
            Kind::Denied => {
                deny.push('M');
                push_fixed(&mut deny, cx, 1);
                deny.push_str(" 78l5 5l-5 5l-5-5Z");
            }
            Kind::Reconfigured => {}
        }
    }
    [line, ok, deny]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::BucketConfig;

    #[test]
    fn the_seek_range_is_in_whole_milliseconds_inside_the_exact_one() {
        assert_eq!(seek_range(0.0, 0.2054000000003725), (0.0, 0.205));
        assert_eq!(seek_range(12.3456, 32.3456), (12.346, 32.345));
        assert_eq!(seek_range(0.0, 0.0004), (0.0, 0.0));
        let (earliest, latest) = seek_range(scrub_start(25.0001), 25.0001);
        assert!(earliest >= scrub_start(25.0001) && latest <= 25.0001);
    }

    #[test]
    fn the_running_track_moves_twice_a_second_on_60_hz_frames() {
        let mut last = None;
        let mut moves = Vec::new();
        // Two seconds of 60 Hz frames (1/60 s is not exact in binary: slack absorbs it).
        for frame in 0..120 {
            let wall = 10.0 + f64::from(frame) / 60.0;
            if track_due(last, wall) {
                last = Some(wall);
                moves.push(frame);
            }
        }
        assert_eq!(moves, [0, 30, 60, 90]);
    }

    #[test]
    fn the_track_moves_at_once_after_a_pause_or_a_clock_going_back() {
        assert!(track_due(None, 0.0), "first draw");
        assert!(!track_due(Some(5.0), 5.4), "0.4 s later: not yet");
        assert!(track_due(Some(5.0), 5.5), "half a second later");
        assert!(
            track_due(Some(5.0), 60.0),
            "long after (the clock was paused)"
        );
        assert!(track_due(Some(5.0), 4.0), "the wall clock went back");
    }

    #[test]
    fn requests_are_marked_where_they_happened_and_the_line_follows_the_level() {
        // B = 2, r = 1, full at t = 0; three requests at t = 1: two admitted, one denied.
        let mut session = Session::new(BucketConfig::new(2.0, 1.0).unwrap(), 0.0);
        session.send(1.0, 3, 1.0).unwrap();
        // "Now" is t = 2, at x = 474, so t = 1 is 23.7 units (1 s) left of it.
        let [line, ok, deny] = paths(session.history(), 2.0, 2.0, 2.0);
        assert_eq!(
            ok,
            "M450.3 72m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0M450.3 72m-4 0a4 4 0 1 0 8 0a4 4 0 1 0-8 0"
        );
        assert_eq!(deny, "M450.3 78l5 5l-5 5l-5-5Z");
        // Full (y = 8) from t = 0 to 1, down to empty (y = 64), half refilled (y = 36) at t = 2.
        assert_eq!(
            line,
            "M426.6 8.0L450.3 8.0L450.3 36.0L450.3 64.0L450.3 64.0L474.0 36.0"
        );
        // Older than the chart's 20 s: pinned just left of its window, where the clip hides it.
        let [line, _, _] = paths(session.history(), 40.0, 40.0, 2.0);
        assert!(line.starts_with("M-7.0 8.0L-7.0 8.0L"), "{line}");
    }
}
