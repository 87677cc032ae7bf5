//! The annotated SVG bucket and the response panel: found in the build-time markup, then updated
//! by attribute and text.

use super::dom::{self, set, text};
use super::locale::{fill, Locale};
use super::markup::{self, translate};
use crate::limiter::number::push_fixed;
use crate::limiter::{
    retry_after_text, settled, BucketConfig, Decision, Never, Outcome, ResponseHead, Session, Shot,
    FLIGHT_SECONDS,
};
use std::cell::Cell;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// Drops fall at most this many times a (lesson) second, so they stay readable.
const MAX_DRIP_RATE: f64 = 3.0;
/// The markup's drops (`.bl-drop`): at most this many fall at once.
const DROPS: f64 = 3.0;
/// About how long one drop takes from the tap to the floor, in wall seconds: as many drops fall at
/// once as keep each fall near this (one at r = 1/s, three at 3/s), so that one drop stays one
/// token without streaking. Below one drop a wall second, the one drop falls for its whole period.
const FALL_SECONDS: f64 = 1.0;
/// The request markers, drawn around x = 0 on the request lane (y = 112).
const CIRCLE: &str = "M0 112m-9 0a9 9 0 1 0 18 0a9 9 0 1 0-18 0";
const DIAMOND: &str = "M0 102l10 10l-10 10l-10-10Z";

/// Handles to the parts of the widget that change.
pub struct Diagram {
    locale: &'static Locale,
    /// The bucket's `<svg>`: its `data-drip`, `data-drops`, `--bl-drip` and `--bl-fall` drive the
    /// drops' CSS animation.
    svg: Element,
    /// The drops' period last set on `--bl-drip`, in wall seconds.
    drip_period: Cell<f64>,
    fill: Element,
    counter: Element,
    capacity_label: Element,
    rate_label: Element,
    desc: Element,
    request: Element,
    status: Element,
    head: Element,
    formula: Element,
    wait: Element,
    countdown: Element,
    /// The outcome (status and countdown) and the response panel under it, and the height the two
    /// are held at together while a past moment is shown (0: none).
    outcome: Element,
    panel: Element,
    held: Cell<f64>,
}

impl Diagram {
    /// Finds the bucket and the panel in the widget's markup under `root`.
    pub fn attach(root: &Element, locale: &'static Locale) -> Result<Diagram, JsValue> {
        let [svg, fill, counter, capacity_label, rate_label, desc, request, status, head, formula, wait, countdown, outcome, panel] =
            dom::find_each(
                root,
                [
                    ".bl-diagram",
                    ".bl-fill",
                    ".bl-counter",
                    ".bl-brim + .bl-label",
                    ".bl-tap + .bl-label",
                    "desc",
                    ".bl-request",
                    ".bl-status",
                    ".bl-head",
                    ".bl-formula",
                    ".bl-wait",
                    ".bl-countdown",
                    ".bl-outcome",
                    ".bl-panel",
                ],
            )?;
        Ok(Diagram {
            locale,
            svg,
            drip_period: Cell::new(f64::NAN),
            fill,
            counter,
            capacity_label,
            rate_label,
            desc,
            request,
            status,
            head,
            formula,
            wait,
            countdown,
            outcome,
            panel,
            held: Cell::new(0.0),
        })
    }

    /// While a past moment is shown (`hold`), the outcome and the panel keep the tallest height
    /// they have had together since the travel began: a shorter moment (before the first request,
    /// say) would pull the timeline and the controls under them up, away from the pointer dragging
    /// it or the button being clicked again. The panel takes up what the outcome leaves, so a
    /// longer status over a shorter response moves nothing either. Back at the live moment
    /// (`!hold`) the panel follows its content again.
    pub fn hold_height(&self, hold: bool) {
        let was = self.held.replace(0.0);
        if was > 0.0 || hold {
            dom::set_style(&self.panel, "min-height", "");
        }
        if !hold {
            return;
        }
        let (outcome, panel) = (
            self.outcome.get_bounding_client_rect(),
            self.panel.get_bounding_client_rect(),
        );
        // Not laid out (the hero shows no panel): nothing to hold.
        if panel.height() == 0.0 {
            return;
        }
        // Up to the next tenth of a pixel: never the hair shorter that would still shift the rest.
        let tenth = |px: f64| (px * 10.0).ceil() / 10.0;
        let held = tenth(panel.bottom() - outcome.top()).max(was);
        self.held.set(held);
        let mut px = String::new();
        push_fixed(&mut px, tenth(held - (panel.top() - outcome.top())), 1);
        px.push_str("px");
        dom::set_style(&self.panel, "min-height", &px);
    }

    /// Writes the labels that depend on the configuration, and sizes the counter so that it fits
    /// between the bucket's walls at its widest (`1000.0 / 1000` is smaller than `5.0 / 5`).
    pub fn configure(&self, config: &BucketConfig) {
        let [capacity_label, rate_label, desc] = markup::labels(self.locale, config);
        text(&self.capacity_label, &capacity_label);
        text(&self.rate_label, &rate_label);
        text(&self.desc, &desc);
        let widest = markup::counter(self.locale, config.capacity(), config.capacity());
        let mut size = String::new();
        if let Some(px) = markup::counter_font_size(&widest) {
            push_fixed(&mut size, px, 0);
            size.push_str("px");
        }
        // An empty value removes the property: the stylesheet's size.
        dom::set_style(&self.counter, "font-size", &size);
    }

    /// Draws the bucket at lesson time `now` holding `tokens`; `last` is the latest request and
    /// `retry` what it would get if sent again now; `pace` is how many lesson seconds pass in a
    /// wall-clock second while lesson time runs (`None`: it stands still). The water moves by its
    /// `y` ([`markup::water_top`]); the drops fall by a CSS animation (widget.css) that this only
    /// starts, stops and times.
    pub fn draw(
        &self,
        config: &BucketConfig,
        now: f64,
        tokens: f64,
        last: Option<&Shot>,
        retry: Retry,
        pace: Option<f64>,
    ) {
        let capacity = config.capacity();
        set(&self.fill, "y", &markup::water_top(tokens, capacity));
        let l = self.locale;
        text(&self.counter, &markup::counter(l, tokens, capacity));
        self.draw_countdown(retry);
        self.draw_drops(tokens < capacity, config.refill_rate(), pace);
        self.draw_request(now, last);
    }

    /// Stops the falling drops while nobody can see them (the widget off screen, the tab hidden):
    /// their CSS animation would have the page restyled every frame for nothing. The next draw
    /// on screen starts them again.
    pub fn rest_drops(&self) {
        if self.svg.get_attribute("data-drip").as_deref() == Some("on") {
            let _ = self.svg.remove_attribute("data-drip");
        }
    }

    /// The drops from the spout while the bucket refills: `r` a lesson second (at most
    /// [`MAX_DRIP_RATE`]), held in place while lesson time stands still, none when full.
    fn draw_drops(&self, refilling: bool, rate: f64, pace: Option<f64>) {
        let drip_rate = rate.min(MAX_DRIP_RATE);
        if !refilling || drip_rate <= 0.0 {
            if self.svg.has_attribute("data-drip") {
                let _ = self.svg.remove_attribute("data-drip");
            }
            return;
        }
        let Some(pace) = pace else {
            set(&self.svg, "data-drip", "paused");
            return;
        };
        let period = drip_period(drip_rate, pace);
        if self.drip_period.get() != period {
            self.drip_period.set(period);
            let falling = drops_falling(period);
            for (name, seconds) in [("--bl-drip", period), ("--bl-fall", falling * period)] {
                let mut value = String::new();
                push_fixed(&mut value, seconds, 3);
                value.push('s');
                dom::set_style(&self.svg, name, &value);
            }
            let mut count = String::new();
            push_fixed(&mut count, falling, 0);
            set(&self.svg, "data-drops", &count);
        }
        set(&self.svg, "data-drip", "on");
    }

    /// The request marker: a circle that enters the bucket when admitted, a diamond that bounces
    /// off the rim when denied (shape and colour both differ). The shape is drawn around x = 0
    /// and moved along the lane by `transform`.
    fn draw_request(&self, now: f64, last: Option<&Shot>) {
        let Some(shot) = last.filter(|s| now - s.at < FLIGHT_SECONDS && now >= s.at) else {
            set(&self.request, "visibility", "hidden");
            return;
        };
        let p = (now - shot.at) / FLIGHT_SECONDS;
        let (x, d, class) = if shot.decision.is_admitted() {
            (20.0 + p * 140.0, CIRCLE, "bl-request bl-request--ok")
        } else {
            // Out to the rim and back.
            let x = 20.0 + (1.0 - (2.0 * p - 1.0).abs()) * 80.0;
            (x, DIAMOND, "bl-request bl-request--deny")
        };
        set(&self.request, "d", d);
        set(&self.request, "class", class);
        set(&self.request, "transform", &translate(x, 0.0));
        set(&self.request, "visibility", "visible");
    }

    /// The countdown after a refusal: the seconds left, rounded up to a tenth with a hair of
    /// slack for rounding (lesson times are sums of floats), then that the wait is over; nothing
    /// after an admitted request. Once `B` or `r` changed since the refusal, the line says that
    /// its wait is the bucket's as it is now (which the status line, the refusal's, is not), and
    /// also when the same request can now never pass. (While lesson time stands still,
    /// widget.css adds the countdown's `data-paused` words: the wait does not run down then.)
    fn draw_countdown(&self, retry: Retry) {
        let l = self.locale;
        let line = match retry {
            // A wait too long for a double (r = 1e-320) has no end to count down to: the status
            // says it is too long to tell.
            Retry::Nothing | Retry::Never { changed: false } => String::new(),
            Retry::Wait { left, .. } if left.is_infinite() => String::new(),
            Retry::Wait { left, changed } => fill(
                if changed {
                    l.countdown_changed
                } else {
                    l.countdown
                },
                &[("s", &l.fixed((left * 10.0 - 1e-6).ceil() / 10.0, 1))],
            ),
            Retry::Now { changed } => (if changed {
                l.retry_now_changed
            } else {
                l.retry_now
            })
            .to_owned(),
            Retry::Never { changed: true } => l.never_changed.to_owned(),
        };
        // The wait's end is good news: widget.css gives it the admitted colour, not the 429's.
        let over = matches!(retry, Retry::Now { .. });
        set(
            &self.countdown,
            "data-over",
            if over { "true" } else { "false" },
        );
        text(&self.countdown, &line);
    }

    /// Fills the response panel for `shot`, with the `B` and `r` it was decided under (a past
    /// moment after a change of either still shows the arithmetic the bucket did).
    pub fn report(&self, shot: &Shot) {
        let l = self.locale;
        let (config, decision) = (&shot.config, &shot.decision);
        let summary = summary(l, shot);
        text(&self.status, &summary);
        set(
            &self.status,
            "data-outcome",
            if decision.is_admitted() {
                "allowed"
            } else {
                "denied"
            },
        );
        let head = ResponseHead::for_decision(config, decision);
        text(&self.head, &head.to_text());
        // The note under the head explains X-RateLimit-Reset: not there when the bucket never
        // refills (r = 0), so neither is the note.
        set(
            &self.head,
            "data-reset",
            if head.header("X-RateLimit-Reset").is_some() {
                "1"
            } else {
                "0"
            },
        );
        let _ = self.head.remove_attribute("hidden");
        let places = places(config, shot);
        text(&self.formula, &formula_text(l, config, shot, places));
        // With the formula's decimals, so that the tokens read the same and still fall short of
        // c; the wait itself is never 0 (see `number::trimmed`).
        let n = |v: f64| l.number(v, places);
        let [_, _, left] = panel_tokens(config, decision);
        let wait = match decision.outcome {
            // Not a wait too long for a double: `(c − t) / r` would read as 0 s.
            Outcome::Denied { retry_after } if retry_after.is_finite() => fill(
                l.exact_wait,
                &[
                    ("c", &n(shot.cost)),
                    ("t", &n(left)),
                    ("r", &n(config.refill_rate())),
                    ("s", &l.number(retry_after, 3)),
                ],
            ),
            _ => String::new(),
        };
        text(&self.wait, &wait);
    }

    /// Says in the status line that the request was not sent, for `reason` (the status's
    /// `data-refused`, filled), and returns the sentence; the panel below keeps the last response.
    pub fn refuse(&self, reason: &str) -> String {
        let template = self
            .status
            .get_attribute("data-refused")
            .unwrap_or_default();
        let sentence = fill(&template, &[("e", reason)]);
        text(&self.status, &sentence);
        set(&self.status, "data-outcome", "refused");
        sentence
    }

    /// Empties the panel, as before the first request; `past`: at a past moment; `can_send`:
    /// the send button shows; `time`: the Time group shows (it matters only at a past moment).
    pub fn clear_report(&self, past: bool, can_send: bool, time: bool) {
        // At a past moment the reader is stepping through what happened (a replayed scenario
        // opens there): the invitation to send would invite them to overwrite it. Without a send
        // button there is nothing to invite them to click, and without the Time group's buttons
        // no "Resume" or "Back to live" to name.
        let idle = match (past, can_send) {
            (true, _) if time => Some("data-past-idle"),
            (true, _) | (false, false) => Some("data-unsendable"),
            (false, true) => None,
        }
        .and_then(|name| self.status.get_attribute(name));
        text(&self.status, idle.as_deref().unwrap_or(self.locale.idle));
        let _ = self.status.remove_attribute("data-outcome");
        set(&self.head, "hidden", "");
        text(&self.formula, "");
        text(&self.wait, "");
        text(&self.countdown, "");
    }
}

/// The wall-clock seconds between two drops falling `drip_rate` times a lesson second when
/// `pace` lesson seconds pass in a wall-clock second (both > 0).
fn drip_period(drip_rate: f64, pace: f64) -> f64 {
    1.0 / (drip_rate * pace)
}

/// How many drops are in the air at once when one leaves the tap every `period` wall seconds: one
/// drop stands for one token, so each falls for this many periods, the count that keeps the fall
/// nearest [`FALL_SECONDS`] (1 to [`DROPS`]).
fn drops_falling(period: f64) -> f64 {
    (FALL_SECONDS / period).round().clamp(1.0, DROPS)
}

/// What the last request, if it was refused, would get if sent again now: what the countdown
/// line under the status says. `changed`: `B` or `r` is not what it was at the refusal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Retry {
    /// No request yet, or the last one was admitted.
    Nothing,
    /// It would wait `left` more lesson seconds.
    Wait { left: f64, changed: bool },
    /// It would pass now.
    Now { changed: bool },
    /// It could never pass.
    Never { changed: bool },
}

impl Retry {
    /// The retry of `session`'s last request at wall time `wall`.
    pub fn of(session: &Session, wall: f64) -> Self {
        let Some(shot) = session.last_shot().filter(|s| !s.decision.is_admitted()) else {
            return Retry::Nothing;
        };
        let changed = shot.config != *session.config();
        // A wait left (the frames of a countdown) asks the core once; only its end asks which end.
        if let Some(left) = session.retry_in(wall) {
            return Retry::Wait { left, changed };
        }
        match session.retry_decision(wall).and_then(|d| d.retry_after()) {
            None => Retry::Never { changed },
            Some(_) => Retry::Now { changed },
        }
    }
}

/// One sentence for `shot`: admitted with tokens left, denied with the wait, or never, with the
/// `B` and `r` it was decided under.
pub fn summary(l: &Locale, shot: &Shot) -> String {
    let (config, decision) = (&shot.config, &shot.decision);
    match decision.outcome {
        // The counter's level, so both always agree (3.9999… is 4; a full 2.55 is 2.55).
        // The singular as the lesson's texts pick it (`www/i18n/translate.js`): English for 1
        // alone, Portuguese for any count under 2 but 0 ("resta 0,5 token"). Of the two tables,
        // Portuguese is the one with a decimal comma, a test cheaper than its tag.
        Outcome::Admitted => {
            let (left, decimals) = markup::level(decision.tokens, config.capacity());
            let one = left == 1.0 || (l.decimal == ',' && left > 0.0 && left < 2.0);
            let words = if one { l.admitted_one } else { l.admitted };
            fill(words, &[("n", &l.number(left, decimals))])
        }
        Outcome::Denied { retry_after } => match retry_after_text(retry_after) {
            Some(header) => fill(
                l.denied,
                &[("h", &header), ("s", &l.number(retry_after, 3))],
            ),
            None => l.denied_endless.to_owned(),
        },
        Outcome::Never(Never::CostExceedsCapacity) => fill(
            l.never_cost,
            &[
                ("c", &l.number(shot.cost, 3)),
                ("b", &l.number(config.capacity(), 3)),
            ],
        ),
        Outcome::Never(Never::NoRefill) => l.never_rate.to_owned(),
    }
}

/// The decision's token counts as the panel writes them, [`settled`]: before the refill, after
/// it, and left. A `1 − 1` that left `2.22e-16` by rounding reads `= 0`, as the headers count it.
fn panel_tokens(config: &BucketConfig, d: &Decision) -> [f64; 3] {
    [d.tokens_before, d.available, d.tokens].map(|v| settled(v, config.capacity()))
}

/// The decimals the formula and the wait line write `shot`'s numbers with (see [`adding_up`]).
fn places(config: &BucketConfig, shot: &Shot) -> usize {
    let d = &shot.decision;
    let [before, available, left] = panel_tokens(config, d);
    adding_up(
        [config.capacity(), before, d.elapsed, config.refill_rate()],
        [available, shot.cost, left],
        d.is_admitted(),
    )
}

/// `tokens = min(B, tokens + Δt·r)` with this request's numbers, then the debit if admitted,
/// written with `places` decimals.
fn formula_text(l: &Locale, config: &BucketConfig, shot: &Shot, places: usize) -> String {
    let d = &shot.decision;
    let [before, available, left] = panel_tokens(config, d);
    let n = |v: f64| l.number(v, places);
    let refill = fill(
        l.refill_formula,
        &[
            ("b", &n(config.capacity())),
            ("t0", &n(before)),
            ("dt", &n(d.elapsed)),
            ("r", &n(config.refill_rate())),
            ("t1", &n(available)),
        ],
    );
    if d.is_admitted() {
        let debit = fill(
            l.debit_formula,
            &[
                ("t1", &n(available)),
                ("c", &n(shot.cost)),
                ("t2", &n(left)),
            ],
        );
        let mut both = refill;
        both.push('\n');
        both.push_str(&debit);
        both
    } else {
        refill
    }
}

/// The decimals for the formula: the fewest, from 3 to 6, at which the rounded numbers add up
/// (`min(b, t0 + dt·r) = t1` and, if `debit`, `t1 − c = t2`: at 3 decimals
/// `0.0024 + 0.0006·1 = 0.003` would read `0.002 + 0·1 = 0.003`) **and** tell the decision's
/// truth: for a denial the tokens shown stay below the cost shown (0.9996 tokens must not read
/// as `1` against c = 1). A nonzero number that rounds to 0 is written otherwise (`1e-20`, see
/// `number::trimmed`), so it adds up at no scale here.
///
/// If none of 3 to 6 does both, the truth comes first: the fewest decimals up to 12 at which a
/// denial's tokens still read below c (6 when it already does). Twelve always suffice: a denial
/// is short by more than the bucket's slack, 10⁻¹² · B with B ≥ c ≥ 1 in the diagram, so its
/// shortfall shows within 12 decimals (`0.999999999998`), rather than a `<` form the formula
/// has no place for.
fn adding_up([b, t0, dt, r]: [f64; 4], [t1, c, t2]: [f64; 3], debit: bool) -> usize {
    let mut scale = 100.0;
    // One pass: below 6 decimals both must hold; from 6 on the first that tells the truth.
    for places in 3..12 {
        scale *= 10.0;
        let shown = |v: f64| match (v * scale).round() {
            0.0 if v != 0.0 => f64::NAN,
            rounded => rounded,
        };
        let truthful = debit || (t1 * scale).round() < (c * scale).round();
        let adds_up = || {
            let refill = shown(b).min(shown(t0) + (shown(dt) * shown(r) / scale).round());
            refill == shown(t1) && (!debit || shown(t1) - shown(c) == shown(t2))
        };
        if truthful && (places >= 6 || adds_up()) {
            return places;
        }
    }
    12
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_countdown_names_a_wait_that_b_or_r_changed_since_the_refusal() {
        let config = |b, r| BucketConfig::new(b, r).unwrap();
        let mut session = Session::new(config(5.0, 1.0), 0.0);
        session.pause(0.0);
        assert_eq!(Retry::of(&session, 0.0), Retry::Nothing);
        session.send(1.0, 6, 0.0).unwrap();
        let Retry::Wait {
            left,
            changed: false,
        } = Retry::of(&session, 0.0)
        else {
            panic!("{:?}", Retry::of(&session, 0.0))
        };
        assert!((left - 1.0).abs() < 1e-9, "{left}");
        // r = 0: the same request could never pass, and the line says why it differs.
        session.configure(config(5.0, 0.0), 0.0).unwrap();
        assert_eq!(Retry::of(&session, 0.0), Retry::Never { changed: true });
        // r = 0.5: a wait again, the new bucket's (2 s for a token), named as such.
        session.configure(config(5.0, 0.5), 0.0).unwrap();
        let Retry::Wait {
            left,
            changed: true,
        } = Retry::of(&session, 0.0)
        else {
            panic!("{:?}", Retry::of(&session, 0.0))
        };
        assert!((left - 2.0).abs() < 1e-9, "{left}");
        session.step(2.0, 0.0).unwrap();
        assert_eq!(Retry::of(&session, 0.0), Retry::Now { changed: true });
        // Back to the refusal's own B and r: an ordinary countdown's end.
        session.configure(config(5.0, 1.0), 0.0).unwrap();
        assert_eq!(Retry::of(&session, 0.0), Retry::Now { changed: false });
        // A refusal at r = 0, unchanged: its status line says it all, the countdown nothing.
        let mut never = Session::new(config(1.0, 0.0), 0.0);
        never.pause(0.0);
        never.send(1.0, 2, 0.0).unwrap();
        assert_eq!(Retry::of(&never, 0.0), Retry::Never { changed: false });
    }
    use crate::limiter::Session;
    use crate::view::locale::{EN, PT_BR};
    use crate::view::markup::{counter, counter_font_size};

    #[test]
    fn a_denial_names_its_retry_after_header_and_the_exact_wait() {
        // The worked example: B = 10, r = 5, full; the 11th request at t = 0 waits 0.2 s.
        let config = BucketConfig::new(10.0, 5.0).unwrap();
        let mut session = Session::new(config, 0.0);
        let shot = session.send(1.0, 11, 0.0).unwrap();
        assert_eq!(
            summary(&EN, &shot),
            "Denied: 429 with Retry\u{2011}After: 1 (the exact wait: 0.2\u{a0}s)."
        );
        assert_eq!(
            summary(&PT_BR, &shot),
            "Negada: 429 com Retry\u{2011}After: 1 (a espera exata: 0,2\u{a0}s)."
        );
        // A wait too long for a double: no header, and the line says so.
        let config = BucketConfig::new(1.0, 5e-324).unwrap();
        let mut session = Session::new(config, 0.0);
        let shot = session.send(1.0, 2, 0.0).unwrap();
        assert!(ResponseHead::for_decision(&config, &shot.decision)
            .to_text()
            .lines()
            .all(|line| !line.starts_with("Retry-After")));
        assert_eq!(summary(&EN, &shot), EN.denied_endless);
    }

    #[test]
    fn a_request_is_told_with_the_bucket_that_decided_it() {
        // Cost 4 against B = 3 never passes; B raised to 5 since does not rewrite what it got
        // (a past moment shows the last request with the session's B and r of that moment).
        let mut session = Session::new(BucketConfig::new(3.0, 1.0).unwrap(), 0.0);
        let shot = session.send(4.0, 1, 0.0).unwrap();
        session
            .reconfigure(BucketConfig::new(5.0, 1.0).unwrap(), 1.0)
            .unwrap();
        assert_eq!(session.last_shot(), Some(&shot));
        assert_eq!(
            summary(&EN, session.last_shot().unwrap()),
            "Will never pass: the cost 4 is larger than the capacity 3."
        );
    }

    #[test]
    fn a_long_counter_is_set_smaller_to_stay_between_the_walls() {
        let size = |l, b: f64| counter_font_size(&counter(l, b, b));
        // The default bucket keeps the stylesheet's size.
        assert_eq!(size(&EN, 5.0), None);
        // Longer capacities get smaller, the longer the smaller.
        let sizes = [size(&EN, 10.0), size(&EN, 2.55), size(&EN, 1000.0)];
        assert_eq!(sizes, [Some(25.0), Some(20.0), Some(16.0)]);
        assert_eq!(size(&PT_BR, 0.125), Some(16.0));
        assert!(size(&EN, 1e308).is_some_and(|px| (8.0..16.0).contains(&px)));
    }

    #[test]
    fn a_full_bucket_reads_full_at_any_capacity() {
        assert_eq!(counter(&PT_BR, 7.46, 10.0), "7,4 / 10");
        assert_eq!(counter(&EN, 5.0, 5.0), "5.0 / 5");
        assert_eq!(counter(&EN, 1e308, 1e308), "1e+308 / 1e+308");
        assert_eq!(
            counter(&PT_BR, f64::MAX, f64::MAX),
            "1,79769313486232e+308 / 1,79769313486232e+308"
        );
        assert_eq!(counter(&EN, 5e307, 1e308), "5e+307 / 1e+308");
        // The level has the capacity's decimals, so a small or finely set bucket fills up too.
        assert_eq!(counter(&EN, 0.05, 0.05), "0.05 / 0.05");
        assert_eq!(counter(&EN, 0.0489, 0.05), "0.04 / 0.05");
        assert_eq!(counter(&PT_BR, 2.55, 2.55), "2,55 / 2,55");
        assert_eq!(counter(&EN, 2.549, 2.55), "2.54 / 2.55");
        assert_eq!(counter(&EN, 0.125, 0.125), "0.125 / 0.125");
        // More decimals than the level shows: the capacity's own text once full, not before.
        assert_eq!(counter(&EN, 0.0004, 0.0004), "0.0004 / 0.0004");
        assert_eq!(counter(&EN, 0.000_399, 0.0004), "0.000 / 0.0004");
    }

    #[test]
    fn the_formula_shows_enough_decimals_to_add_up() {
        // 0.0024 + 0.0004·1 = 0.0028: at 3 decimals it reads 0.002 + 0·1 = 0.003; at 4 it adds up.
        assert_eq!(
            adding_up([5.0, 0.0024, 0.0004, 1.0], [0.0028, 1.0, 0.0], false),
            4
        );
        // The lesson's usual numbers need no more than 3.
        assert_eq!(adding_up([5.0, 2.0, 0.5, 1.0], [2.5, 1.0, 1.5], true), 3);
        // Full: min(B, …) = B.
        assert_eq!(adding_up([5.0, 4.9, 3.0, 1.0], [5.0, 1.0, 4.0], true), 3);
        // 0.0014449 + 0.0014449·1 = 0.0028898 adds up at none of 3, 4, 5 decimals: 6.
        let t = 0.0014449;
        assert_eq!(adding_up([5.0, t, t, 1.0], [2.0 * t, 1.0, 0.0], false), 6);
    }

    #[test]
    fn a_denial_never_reads_as_enough_tokens() {
        // 0.96 + 0.0396·1 = 0.9996 < 1: at 3 decimals `0.96 + 0.04·1 = 1`, which would pass.
        let (t0, dt) = (0.96, 0.0396);
        assert_eq!(
            adding_up([5.0, t0, dt, 1.0], [t0 + dt, 1.0, t0 + dt], false),
            4
        );
        // Short by less than 10⁻⁶: more than 6 decimals, although they no longer add up.
        let t = 1.0 - 4e-7;
        assert_eq!(adding_up([5.0, t, 0.0, 1.0], [t, 1.0, t], false), 7);
        let t = 1.0 - 5e-12;
        assert_eq!(adding_up([5.0, t, 0.0, 1.0], [t, 1.0, t], false), 12);
        // An admitted request is not held to it: 0.9996 may read as 1 when it is not compared.
        assert_eq!(adding_up([5.0, 2.0, 0.5, 1.0], [2.5, 1.0, 1.5], true), 3);
    }

    #[test]
    fn a_rounding_hair_left_by_the_refill_reads_as_the_whole_number_it_is() {
        // A burst of 7 at 1.003 s, then one at 2.003 s: 2.003 − 1.003 is 1.0000000000000002 s, so
        // 1 token minus 1 leaves 2.22e-16, which the formula must not show (`1 − 1 = 2.22e-16`).
        let config = BucketConfig::new(5.0, 1.0).unwrap();
        let mut session = Session::new(config, 0.0);
        session.send(1.0, 7, 1.003).unwrap();
        let shot = session.send(1.0, 1, 2.003).unwrap();
        assert!(shot.decision.is_admitted() && shot.decision.tokens > 0.0);
        // (Compared with plain spaces: the formula's own are no-break ones.)
        let formula = |shot: &Shot| {
            formula_text(&EN, &config, shot, places(&config, shot)).replace('\u{a0}', " ")
        };
        assert_eq!(
            formula(&shot),
            "tokens = min(B, tokens + Δt·r) = min(5, 0 + 1·1) = 1\nadmitted: tokens − c = 1 − 1 = 0"
        );
        // Then 2 more are refused against 0 tokens, the wait (2 − 0) / 1.
        let shot = session.send(2.0, 1, 2.003).unwrap();
        assert_eq!(
            formula(&shot),
            "tokens = min(B, tokens + Δt·r) = min(5, 0 + 0·1) = 0"
        );
    }

    #[test]
    fn a_number_too_small_for_the_decimals_counts_as_not_adding_up() {
        // 0.0001 is written as `0.0001`, never `0` (number::trimmed), so at 3 decimals
        // `0.0001 + 1·1 = 1` and `1 − 1 = 0.0001` would be shown: 4 decimals.
        let t0 = 0.0001;
        assert_eq!(adding_up([5.0, t0, 1.0, 1.0], [1.0 + t0, 1.0, t0], true), 4);
    }

    #[test]
    fn drops_keep_their_lesson_rate_at_every_speed() {
        // One drop a lesson second: a second apart at 1×, 4 s at 0.25×, 0.25 s at 4×.
        assert_eq!(drip_period(1.0, 1.0), 1.0);
        assert_eq!(drip_period(1.0, 0.25), 4.0);
        assert_eq!(drip_period(1.0, 4.0), 0.25);
        // Three a lesson second at 2×: six a wall second.
        assert!((drip_period(MAX_DRIP_RATE, 2.0) - 1.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn as_many_drops_fall_at_once_as_keep_a_fall_near_a_second() {
        // r = 1/s at 1×: one drop, falling for its whole second; r = 0.25/s: one, slowly.
        assert_eq!(drops_falling(drip_period(1.0, 1.0)), 1.0);
        assert_eq!(drops_falling(drip_period(0.25, 1.0)), 1.0);
        // r = 2/s: two in the air, a period apart, each falling for 1 s; r = 3/s: three.
        assert_eq!(drops_falling(drip_period(2.0, 1.0)), 2.0);
        assert_eq!(drops_falling(drip_period(MAX_DRIP_RATE, 1.0)), 3.0);
        // Never more than the markup has: 12 a wall second (3/s at 4×) still means three.
        assert_eq!(drops_falling(drip_period(MAX_DRIP_RATE, 4.0)), DROPS);
        // So a drop leaves the tap once a period, whatever the count: one drop, one token.
        for rate in [0.5, 1.0, 1.5, 2.0, 2.5, 3.0] {
            let period = drip_period(rate, 1.0);
            let fall = drops_falling(period) * period;
            assert!(
                (drops_falling(period) / fall - rate).abs() < 1e-12,
                "r = {rate}"
            );
        }
    }
}
