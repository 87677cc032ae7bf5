//! The interactive diagram: a widget attached to its build-time markup in a page element. A
//! [`Session`](crate::limiter::Session) (the core) holds the bucket, the lesson clock, the traffic
//! and the history; the view turns the reader's input into the session's actions and draws the
//! session on animation frames, only while something moves on screen. The markup itself is
//! rendered by [`markup`], natively, at build time: the wasm only finds its nodes and updates
//! their attributes and text.

/// The screen-reader live region, rate-limited.
mod announce;
/// The controls: their values, checked, and the state shown on them.
mod controls;
/// The SVG bucket and the response panel.
mod diagram;
/// Raw DOM calls, owned listeners and observers.
mod dom;
/// One animation-frame callback for every widget on the page.
mod frames;
/// The JavaScript API: `mountDiagram`, the diagram's handle and `checkSetting`.
mod handle;
/// The widget's words in each language.
mod locale;
/// The widget's markup as text: pure functions, no DOM, run natively at build time.
pub mod markup;
/// The strip chart of the last 20 seconds.
mod timeline;

pub use handle::{check_setting, mount_diagram, BucketDiagram};

use crate::limiter::{
    BucketConfig, Field, InvalidValue, Kind, Motion, ResponseHead, Rule, Session, Shot,
    FLIGHT_SECONDS,
};
use crate::wasm::convert::{object, retry_after};
use announce::Announcer;
use controls::{Action, Controls, STEP_SECONDS};
use diagram::Diagram;
use dom::{Listener, Shared, VisibilityWatch};
use frames::FrameLoop;
use locale::Locale;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use timeline::{seek_range, Timeline};
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// A mounted widget: the session and the parts that draw it.
struct Widget {
    locale: &'static Locale,
    /// The mount element, where the widget's events are dispatched.
    root: Element,
    session: Session,
    diagram: Diagram,
    controls: Controls,
    timeline: Timeline,
    announcer: Announcer,
    on_screen: bool,
    frames: Rc<FrameLoop>,
    /// The past moment shown instead of the live session, if the reader went back in time.
    past: Option<Past>,
    /// While a pointer is down on the timeline: the moment shown when it came down (`None`:
    /// live), to go back to if the browser takes the gesture for a page scroll.
    scrub_from: Option<Option<f64>>,
    /// While a pointer drags on a chart that ends at a moment older than its span (see
    /// [`Timeline::chart_end`]): that end and the session held there, so the chart stays still
    /// under the pointer, which picks moments on it as drawn.
    frozen: Option<(f64, Session)>,
    /// While a past moment plays on ("Resume" pressed there): the wall time it last moved.
    playing: Option<f64>,
    /// Whether the next draw says the moment on screen aloud (a button moved through time), and
    /// the words said before it (a pause's).
    speak_moment: Option<&'static str>,
    /// Whether the running automatic traffic's first 429 has been said (the only one of its
    /// decisions that is: see [`Widget::show_decisions`]).
    traffic_denial_said: bool,
    /// Whether the last live draw counted a refused request's wait down (its end is said aloud).
    waiting: bool,
}

/// A past moment on screen: its lesson time, the session as it was then (replayed through the
/// core by [`Session::at`]), and whether going back to live resumes lesson time (it was running
/// when the reader went back).
struct Past {
    at: f64,
    session: Session,
    resume: bool,
}

/// What keeps a mounted widget alive and wired: the widget, its listeners and its observer
/// (each removes itself when dropped), and the wall time (seconds) of lesson time 0, before which
/// no queued click can have been made.
struct Mounted {
    widget: Rc<RefCell<Widget>>,
    since: f64,
    _listeners: Vec<Listener>,
    _watch: VisibilityWatch,
}

/// Attaches the widget to its markup in `root` for a bucket configured by `config`, in language
/// `locale`; lesson time 0 is at wall time `since` (seconds, not after now: clicks queued before
/// the module arrived are then decided at their own times); with `paused`, lesson time starts
/// stopped at 0.
fn mount(
    root: &Element,
    locale: &'static Locale,
    config: BucketConfig,
    paused: bool,
    since: f64,
) -> Result<Mounted, JsValue> {
    let frame = dom::find(root, ".bl-widget").map_err(|_| {
        js_sys::Error::new("the element holds no widget markup (.bl-widget): insert it first")
    })?;
    let start = since.min(dom::wall_seconds());
    let mut session = Session::new(config, start);
    if paused {
        session.pause(start);
    }
    let diagram = Diagram::attach(&frame, locale)?;
    diagram.configure(&config);
    let controls = Controls::attach(&frame, locale)?;
    controls.show_config(locale, config.capacity(), config.refill_rate());
    controls.show_clock(locale, session.is_paused());
    let timeline = Timeline::attach(&frame, locale)?;
    let announcer = Announcer::attach(&frame)?;
    dom::set(&frame, "data-live", "");

    let widget = Rc::new_cyclic(|weak: &Weak<RefCell<Widget>>| {
        let weak = weak.clone();
        let frames = FrameLoop::new(move |wall| {
            if let Some(widget) = weak.upgrade() {
                let mut widget = widget.write();
                let next = widget.draw(wall);
                widget.schedule(next);
            }
        });
        RefCell::new(Widget {
            locale,
            root: root.clone(),
            session,
            diagram,
            controls,
            timeline,
            announcer,
            on_screen: true,
            frames: Rc::new(frames),
            past: None,
            scrub_from: None,
            frozen: None,
            playing: None,
            speak_moment: None,
            traffic_denial_said: false,
            waiting: false,
        })
    });

    let mut listeners = Vec::new();
    for (control, event, action) in widget.read().controls.actions() {
        let weak = Rc::downgrade(&widget);
        listeners.push(Listener::new(control, event, move |_| {
            if let Some(widget) = weak.upgrade() {
                widget.write().press(action);
            }
        })?);
    }
    let scrub = widget.read().timeline.scrub.clone();
    for event in [
        "pointerdown",
        "pointermove",
        "pointerup",
        "pointercancel",
        "keydown",
        "focus",
    ] {
        let weak = Rc::downgrade(&widget);
        listeners.push(Listener::new(&scrub, event, move |event| {
            if let Some(widget) = weak.upgrade() {
                widget.write().scrub(&event);
            }
        })?);
    }
    let weak = Rc::downgrade(&widget);
    listeners.push(Listener::new(
        &dom::document(),
        "visibilitychange",
        move |_| {
            if let Some(widget) = weak.upgrade() {
                widget.write().refresh();
            }
        },
    )?);
    let weak = Rc::downgrade(&widget);
    let watch = VisibilityWatch::new(root, move |visible| {
        if let Some(widget) = weak.upgrade() {
            let mut widget = widget.write();
            widget.on_screen = visible;
            widget.refresh();
        }
    })?;
    widget.write().refresh();
    Ok(Mounted {
        widget,
        since: start,
        _listeners: listeners,
        _watch: watch,
    })
}

/// When a widget needs its next frame, after a draw.
enum Next {
    /// The next frame: something moves every frame.
    Frame,
    /// A frame that many seconds from now: only the chart's track moves, in steps.
    After(f64),
    /// None until something happens: nothing moves, or nobody can see it.
    Rest,
}

impl Widget {
    /// Brings the session to wall time `wall` and redraws; returns when the next frame is
    /// needed: at once, later (only the chart's track moves, a few times a second), or not.
    fn draw(&mut self, wall: f64) -> Next {
        let now = self.session.advance(wall);
        self.play(now, wall);
        // Between actions, only the automatic traffic decides.
        self.show_decisions(wall, true);
        // A past moment's session is held at that moment: the same calls draw it.
        let shown = self.past.as_ref().map_or(&self.session, |p| &p.session);
        let config = *shown.config();
        let shown_now = shown.now(wall);
        // A refused request that can no longer pass (r or B changed since) is drawn as such, so
        // the countdown does not say "the wait is over".
        let last = shown
            .last_shot()
            .map(|shot| match shown.retry_decision(wall) {
                Some(decision) if decision.retry_after().is_none() => Shot { decision, ..*shot },
                _ => *shot,
            });
        let retry = diagram::Retry::of(shown, wall);
        self.diagram.draw(
            &config,
            shown_now,
            shown.tokens(wall),
            last.as_ref(),
            retry,
            (!self.session.is_paused()).then(|| self.session.clock().speed()),
        );
        let l = self.locale;
        // The moment for the timeline's spoken value: the counter's level, and the latest
        // request's outcome while its marker is on screen.
        let moment = || {
            let recent = shown
                .last_shot()
                .filter(|shot| shown_now - shot.at < FLIGHT_SECONDS)
                .map(|shot| diagram::summary(l, shot));
            (markup::level(shown.tokens(wall), config.capacity()), recent)
        };
        let at = self.past.as_ref().map(|p| p.at);
        // At the chart's start (a past moment there, or a clock paused at lesson time 0: a running
        // one moves on, with no frame drawn while nothing else moves), within float noise: steps
        // forward and back by 0.1 s land a hair off it.
        let shown_at = at.or_else(|| self.session.is_paused().then_some(now));
        self.controls
            .show_start(shown_at.is_some_and(|at| at - self.timeline.start(now) < 1e-9));
        self.timeline
            .draw(&self.session, now, at, self.chart(now), wall, &moment);
        // See `press`: the slider's value, just written.
        if let Some(before) = self.speak_moment.take() {
            if let Some(value) = self.timeline.scrub.get_attribute("aria-valuetext") {
                self.announcer.say_moment(before, &value);
            }
        }
        // The countdown's line changes silently (ten times a second); the end of a live wait is
        // said once, as good news a reader waits for (after a step's moment, if one brought it).
        // Not while the automatic traffic runs: its stream of waits is not narrated (see
        // `show_decisions`), and each of its 429s would be followed by the news.
        let live = self.past.is_none() && self.session.traffic().is_none();
        if let (true, true, diagram::Retry::Now { changed }) = (live, self.waiting, retry) {
            self.announcer.news(if changed {
                l.retry_now_changed
            } else {
                l.retry_now
            });
        }
        self.waiting = live && matches!(retry, diagram::Retry::Wait { .. });
        self.announcer.flush(l, wall);
        let visible = self.on_screen && !dom::page_hidden();
        if !visible {
            self.diagram.rest_drops();
        }
        if self.announcer.pending() || (visible && self.playing.is_some()) {
            return Next::Frame;
        }
        match (visible, self.session.motion(wall)) {
            (true, Motion::Frames) => Next::Frame,
            (true, Motion::Chart) => Next::After(self.timeline.next_move_in(wall)),
            _ => Next::Rest,
        }
    }

    /// Asks the frame clock for what `next` needs.
    fn schedule(&self, next: Next) {
        match next {
            Next::Frame => self.frames.request(),
            Next::After(seconds) => self.frames.request_after(seconds),
            Next::Rest => self.frames.cancel(),
        }
    }

    /// Draws now, and keeps the frame loop running only if something moves.
    fn refresh(&mut self) {
        let next = self.draw(dom::wall_seconds());
        self.schedule(next);
    }

    /// Announces the decisions the session took since the last look (at wall time `wall`), and
    /// shows the latest in the panel and in a `bucketlab:decision` event. The `automatic`
    /// traffic's decisions are not narrated, but for its first 429: a running stream would be
    /// spoken every [`announce::GAP`] for as long as it runs, over everything else. A reader's
    /// own sends are always said.
    fn show_decisions(&mut self, wall: f64, automatic: bool) {
        let tally = self.session.take_unseen();
        let Some(shot) = tally.last else {
            return;
        };
        let denied = tally.admitted < tally.requests;
        let said = !automatic || (denied && !self.traffic_denial_said);
        if said {
            self.traffic_denial_said |= automatic;
            let sentence = diagram::summary(self.locale, &shot);
            self.announcer.note(
                tally.requests,
                tally.admitted,
                sentence,
                markup::level(shot.decision.tokens, shot.config.capacity()),
                wall,
            );
        }
        self.diagram.report(&shot);
        self.emit_decision(&shot);
    }

    /// Shows the bucket's configuration everywhere and tells the page (`bucketlab:config`).
    fn show_config(&self) {
        let config = self.session.config();
        self.diagram.configure(config);
        let (capacity, rate) = (config.capacity(), config.refill_rate());
        self.controls.show_config(self.locale, capacity, rate);
        self.controls.fit_cost(self.locale, capacity);
        self.emit_config();
    }

    /// Runs a control's action now; a bad value is shown under the controls and changes nothing.
    fn act(&mut self, action: Action) {
        self.act_at(action, dom::wall_seconds());
    }

    /// A reader's press on a control: its action, then, after a step, "Back to live" or a pause,
    /// the moment reached said aloud (the slider's value; on the slider itself a screen reader
    /// reads it, and while time runs nothing is said); a pause says that time stands still, and
    /// "Resume" that it runs again (the button's new name alone is rarely read out). A script's
    /// calls say nothing.
    fn press(&mut self, action: Action) {
        let was_running = self.past.is_none() && !self.session.is_paused();
        if !self.act_at(action, dom::wall_seconds()) {
            return;
        }
        let l = self.locale;
        let paused = self.session.is_paused();
        self.speak_moment = match action {
            // Stepping back from running time stops it: said, as a pause is.
            Action::StepBack if was_running => Some(l.paused_said),
            Action::StepBack | Action::Step | Action::Live => Some(""),
            Action::Pause if paused => Some(l.paused_said),
            _ => None,
        };
        if matches!(action, Action::Pause) && !paused {
            self.announcer.say(l.resumed_said.to_owned());
        }
        if matches!(action, Action::Pause) || self.speak_moment.is_some() {
            self.refresh();
        }
    }

    /// Runs a control's action as if at wall time `wall` (a click queued before the module
    /// arrived); returns whether it took effect.
    fn act_at(&mut self, action: Action, wall: f64) -> bool {
        self.controls.clear_note();
        if let Action::Edit(field) = action {
            let capacity = self.session.config().capacity();
            self.controls.recheck(self.locale, field, capacity);
            return true;
        }
        let had_focus = self.controls.transient_focus(false);
        let result = self.try_act(action, wall);
        let capacity = self.session.config().capacity();
        let error = self
            .controls
            .show_error(self.locale, result.as_ref().err(), capacity);
        // A send refused for a field's sake is no decision: said in the status line and aloud,
        // at each press (the error line under the controls already showed it when the field
        // changed, so it would not change again).
        if let (Some(error), Action::Send | Action::Burst) = (error, action) {
            let sentence = self.diagram.refuse(&error);
            self.announcer.say(sentence);
        }
        self.refresh();
        self.controls.keep_focus(had_focus, &self.timeline.scrub);
        result.is_ok()
    }

    fn try_act(&mut self, action: Action, wall: f64) -> Result<(), InvalidValue> {
        // A setting's new value is read before going live, which rewrites the controls to the
        // live state (the first change made while a past moment is shown would be lost).
        let config = matches!(action, Action::Capacity | Action::Rate)
            .then(|| self.controls.bucket(action, self.session.config()));
        let traffic = (action == Action::Traffic).then(|| self.controls.traffic());
        let was_past = self.past.is_some();
        match action {
            Action::StepBack => return self.travel_by(-STEP_SECONDS),
            Action::Step if self.past.is_some() => return self.travel_by(STEP_SECONDS),
            Action::Live => {
                self.back_to_live(true);
                return Ok(());
            }
            // "Resume" while a past moment is shown plays it on from there, at the clock's speed;
            // "Pause" stops it where it is (a recording watched like a video).
            Action::Pause if self.past.is_some() => {
                self.playing = match self.playing {
                    Some(_) => None,
                    None => Some(wall),
                };
                self.controls
                    .show_clock(self.locale, self.playing.is_none());
                self.refresh();
                return Ok(());
            }
            // The speed a past moment plays at: it stays shown.
            Action::Speed if self.past.is_some() => {
                return self.session.set_speed(self.controls.speed()?, wall);
            }
            // Anything else happens live, with lesson time running again if it ran before.
            _ => self.back_to_live(true),
        }
        let capacity = self.session.config().capacity();
        let session = &mut self.session;
        match action {
            Action::Send => {
                session.send(self.controls.cost(capacity)?, 1, wall)?;
            }
            Action::Burst => {
                let cost = self.controls.cost(capacity)?;
                session.send(cost, self.controls.burst_size()?, wall)?;
            }
            Action::Capacity | Action::Rate => {
                if let Some(config) = config {
                    session.reconfigure(config?, wall)?;
                }
                self.show_config();
            }
            Action::Traffic => {
                self.traffic_denial_said = false;
                match traffic.transpose()?.flatten() {
                    Some((pattern, rate, seed)) => {
                        session.start_traffic(pattern, rate, seed, wall)?
                    }
                    None => session.stop_traffic(wall),
                }
                // Going live showed the live traffic: now the new one.
                if was_past {
                    let settings = self.session.traffic().map(|arrivals| arrivals.settings());
                    self.controls.show_traffic(settings);
                }
                // Off, the rate and seed are checked all the same (running, they just were).
                self.controls.traffic_fields()?;
            }
            Action::Pause if session.is_paused() => session.resume(wall),
            Action::Pause => session.pause(wall),
            Action::Speed => session.set_speed(self.controls.speed()?, wall)?,
            Action::Step => session.step(STEP_SECONDS, wall)?,
            // Handled above, before anything happens live.
            Action::StepBack | Action::Live | Action::Edit(_) => {}
            Action::Reset => {
                session.reset(wall)?;
                self.traffic_denial_said = false;
                self.controls.reset_fields();
                self.diagram
                    .clear_report(false, self.controls.can_send(), true);
                self.show_config();
                let l = self.locale;
                let (config, tokens) = (self.session.config(), self.session.tokens(wall));
                let (level, decimals) = markup::level(tokens, config.capacity());
                self.announcer.reset(&[
                    ("n", &l.number(level, decimals)),
                    ("b", &l.number(config.capacity(), 3)),
                ]);
                // A reset keeps whether time runs (a reader pausing to look, a replay that
                // stopped it): said, or the bucket would seem broken when it does not refill
                // (not at r = 0, where it never does).
                if self.session.is_paused() && config.refill_rate() > 0.0 {
                    self.controls.show_still_paused();
                }
            }
        }
        self.show_decisions(wall, false);
        self.controls
            .show_clock(self.locale, self.session.is_paused());
        Ok(())
    }

    /// `seek` from JavaScript: a moment outside the timeline is refused with its range in whole
    /// milliseconds, inside the exact one, so that the error names bounds a person can read
    /// ("from 0 to 3.207"), not the running clock's float noise ("to 3.2070000000003725").
    fn seek(&mut self, at: f64) -> Result<(), InvalidValue> {
        let wall = dom::wall_seconds();
        let now = self.session.now(wall);
        let start = self.timeline.start(now);
        if !(start..=now).contains(&at) {
            let (earliest, latest) = seek_range(start, now);
            InvalidValue::check(Field::Now, at, Rule::Between(earliest, latest))?;
        }
        self.travel(at, wall, true)
    }

    /// Shows the session as it was at lesson time `at` (from the timeline's start to now), replayed
    /// through the core; lesson time stops meanwhile. Now itself is the live session: reaching it
    /// (End, a step forward, the right edge) goes back to live.
    ///
    /// `wall` is the wall time the caller read to pick `at`: reading the clock again here would
    /// stop lesson time a little after "now" as the caller saw it, so that a step back then a
    /// step forward no longer met the live moment (on a slow machine, one run in many).
    /// `resume`: whether reaching now runs lesson time again if it ran before (End, "Back to
    /// live", the pointer at the right edge); a step forward (the button, an arrow key) keeps it
    /// stopped, as stepping frame by frame does, and leaves "Step" usable.
    fn travel(&mut self, at: f64, wall: f64, resume: bool) -> Result<(), InvalidValue> {
        let now = self.session.now(wall);
        let at = InvalidValue::check(Field::Now, at, Rule::Between(self.timeline.start(now), now))?;
        // Within a nanosecond counts as now: a step forward by the step just taken back
        // ((now − 0.1) + 0.1) can land a bit short of now in floating point.
        if now - at < 1e-9 {
            self.back_to_live(resume);
            return Ok(());
        }
        let resume = match &self.past {
            Some(p) => p.resume,
            None => !self.session.is_paused(),
        };
        let starting = self.past.is_none();
        let past = self.moment(at, wall)?;
        self.playing = None;
        // What the reader is using here (the timeline, a step button), to keep where it is on the
        // screen: a moment taller than any shown so far (a 429 after a 200) would push it down.
        // A finger dragging the timeline has not focused it (a touch focuses on a tap only).
        let using = dom::focused_in(&self.root).or_else(|| {
            self.scrub_from
                .is_some()
                .then(|| self.timeline.scrub.clone())
        });
        let top = |e: &Element| e.get_bounding_client_rect().top();
        let before = using.as_ref().map(top);
        self.session.pause(wall);
        // Held at the height it has now, then at that of the moment shown if taller, once drawn
        // (the frame writes the countdown). A travel starts held at the tallest the panel gets on
        // the way, a 429 with its wait, if the chart shows one (its latest): stepping on to it
        // later moves nothing under the pointer, the focus or a finger.
        self.diagram.hold_height(true);
        let denied = self
            .session
            .history()
            .events()
            .filter(|e| e.kind == Kind::Denied)
            .last();
        if let Some((then, Ok(session))) = denied
            .filter(|_| starting)
            .map(|e| (e.at, self.session.at(e.at, wall)))
        {
            self.show_past(then, session, resume);
        }
        self.show_past(at, past, resume);
        if let Some((after, before)) = using.as_ref().map(top).zip(before) {
            if (after - before).abs() >= 0.5 {
                dom::window().scroll_by_with_x_and_y(0.0, after - before);
            }
        }
        Ok(())
    }

    /// Shows the past moment `at` of `session` (held there), and holds the panel's height.
    fn show_past(&mut self, at: f64, session: Session, resume: bool) {
        self.show_state(&session, true);
        self.past = Some(Past {
            at,
            session,
            resume,
        });
        self.controls.show_travel(true);
        self.controls.show_clock(self.locale, true);
        self.refresh();
        self.diagram.hold_height(true);
    }

    /// Moves the moment shown by `seconds` (back if negative), within the timeline's range; going
    /// forward from the live moment steps lesson time, live.
    fn travel_by(&mut self, seconds: f64) -> Result<(), InvalidValue> {
        let seconds = InvalidValue::check(Field::Step, seconds, Rule::Finite)?;
        let wall = dom::wall_seconds();
        let now = self.session.now(wall);
        let at = self.past.as_ref().map_or(now, |p| p.at);
        if seconds > 0.0 && at >= now {
            self.back_to_live(false);
            return self.step(seconds);
        }
        self.travel(
            (at + seconds).min(now).max(self.timeline.start(now)),
            wall,
            false,
        )
    }

    /// The chart the timeline draws instead of the live one at lesson time `now`, and where it
    /// ends: the one a drag holds still, or a moment older than the chart's span and the session
    /// held there ([`Timeline::chart_end`]).
    fn chart(&self, now: f64) -> Option<(f64, &Session)> {
        match &self.frozen {
            Some((end, held)) => Some((*end, held)),
            None => self
                .past
                .as_ref()
                .and_then(|p| Timeline::chart_end(Some(p.at), now).map(|end| (end, &p.session))),
        }
    }

    /// Moves a playing past moment on by the wall time since it last moved, at the clock's speed
    /// (a frame at most a quarter second: after a hidden tab it goes on, not jumps); at `now` the
    /// recording has played to its end: live, stopped there.
    fn play(&mut self, now: f64, wall: f64) {
        let (Some(last), Some(past)) = (self.playing, &self.past) else {
            return;
        };
        let at = past.at + (wall - last).clamp(0.0, 0.25) * self.session.clock().speed();
        let resume = past.resume;
        self.playing = Some(wall);
        if at >= now {
            self.back_to_live(false);
        } else if let Ok(session) = self.moment(at, wall) {
            self.show_state(&session, true);
            self.diagram.hold_height(true);
            self.past = Some(Past {
                at,
                session,
                resume,
            });
        }
    }

    /// The session as it was at lesson time `at`, replayed by the core: played on from the past
    /// moment shown if `at` is later (a step forward, a frame of playback: the work of the time
    /// in between only), else from the start. A later moment takes the past moment shown (the
    /// core refuses to play on only to an earlier one, which is not asked here).
    fn moment(&mut self, at: f64, wall: f64) -> Result<Session, InvalidValue> {
        match self.past.take() {
            Some(Past {
                at: from,
                mut session,
                ..
            }) if from <= at => match self.session.play_on(&mut session, from, at) {
                Ok(()) => Ok(session),
                Err(_) => self.session.at(at, wall),
            },
            shown => {
                self.past = shown;
                self.session.at(at, wall)
            }
        }
    }

    /// Back to the live session; with `resume`, lesson time runs again if it ran before.
    fn back_to_live(&mut self, resume: bool) {
        self.playing = None;
        let Some(past) = self.past.take() else {
            return;
        };
        self.announcer.forget();
        self.show_state(&self.session, false);
        self.diagram.hold_height(false);
        self.timeline.mark_read();
        self.controls.show_travel(false);
        if resume && past.resume {
            self.session.resume(dom::wall_seconds());
        }
        self.controls
            .show_clock(self.locale, self.session.is_paused());
        self.refresh();
    }

    /// Labels, sliders, traffic fields and panel for `session`'s configuration, traffic and last
    /// request: the controls show the configuration of the moment on screen, past or live.
    fn show_state(&self, session: &Session, past: bool) {
        let config = session.config();
        self.diagram.configure(config);
        let (capacity, rate) = (config.capacity(), config.refill_rate());
        self.controls.show_config(self.locale, capacity, rate);
        self.controls
            .show_traffic(session.traffic().map(|arrivals| arrivals.settings()));
        match session.last_shot() {
            Some(shot) => self.diagram.report(shot),
            None => self.diagram.clear_report(
                past,
                self.controls.can_send(),
                self.controls.shows_time(),
            ),
        }
    }

    /// A pointer or key on the timeline's slider: picks the moment to show; focus on it brings
    /// its value up to date.
    fn scrub(&mut self, event: &web_sys::Event) {
        use wasm_bindgen::JsCast;
        let wall = dom::wall_seconds();
        let now = self.session.now(wall);
        let at = self.past.as_ref().map_or(now, |p| p.at);
        let target = if let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() {
            let target = match key.key().as_str() {
                "ArrowLeft" | "ArrowDown" => Some(at - STEP_SECONDS),
                "ArrowRight" | "ArrowUp" => Some(at + STEP_SECONDS),
                "PageDown" => Some(at - 1.0),
                "PageUp" => Some(at + 1.0),
                "Home" => Some(self.timeline.start(now)),
                "End" => Some(now),
                // A native slider ignores Space; here it would scroll the page a screen away.
                " " => None,
                _ => return,
            };
            // The key is the slider's: neither the browser's (scrolling) nor the host page's
            // (mdBook turns the page at an arrow key anywhere but in a form field).
            event.prevent_default();
            event.stop_propagation();
            match target {
                Some(target) => target,
                None => return,
            }
        } else if let Some(pointer) = event.dyn_ref::<web_sys::PointerEvent>() {
            match event.type_().as_str() {
                "pointerdown" => {
                    let from = self.past.as_ref().map(|p| p.at);
                    self.scrub_from = Some(from);
                    self.frozen = Timeline::chart_end(from, now)
                        .and_then(|end| Some((end, self.session.at(end, wall).ok()?)));
                    let _ = self
                        .timeline
                        .scrub
                        .set_pointer_capture(pointer.pointer_id());
                    // A finger coming down may be the start of a page scroll (the timeline lets
                    // vertical pans through): it picks a moment once it moves, or lifts.
                    if pointer.pointer_type() == "touch" {
                        return;
                    }
                }
                "pointermove" | "pointerup" if self.scrub_from.is_some() => {}
                // The browser took the gesture (a scroll): the moment shown before it comes back.
                "pointercancel" => {
                    self.frozen = None;
                    match self.scrub_from.take() {
                        Some(Some(at)) => drop(self.travel(at, wall, false)),
                        Some(None) => self.back_to_live(true),
                        None => {}
                    }
                    return;
                }
                _ => return,
            }
            let end = self.chart(now).map_or(now, |(end, _)| end);
            if event.type_() == "pointerup" {
                self.scrub_from = None;
                self.frozen = None;
            }
            self.timeline
                .time_at(f64::from(pointer.client_x()), end, now)
        } else {
            // Focus: while nothing moves no frame is drawn, and lesson time may have run on since
            // the slider's value was last set; a screen reader reads it now, so draw it now, exact.
            self.timeline.mark_read();
            self.refresh();
            return;
        };
        // Forward from the live moment is nowhere to go.
        if self.past.is_none() && target >= now {
            return;
        }
        // Only End and the pointer run time again on reaching now; the keys that step keep it
        // stopped (see `travel`), for the Time group's Resume, but for a widget without it.
        let key = event.dyn_ref::<web_sys::KeyboardEvent>();
        let resume = key.is_none_or(|key| key.key() == "End") || !self.controls.shows_time();
        let was_running = self.past.is_none() && !self.session.is_paused();
        let travelled = self.travel(target.min(now).max(self.timeline.start(now)), wall, resume);
        // A key that goes back from running time stops it: said, as "Step back" says it (the
        // slider's new value alone does not tell).
        if travelled.is_ok() && was_running && key.is_some() && self.past.is_some() {
            self.speak_moment = Some(self.locale.paused_said);
            self.refresh();
        }
    }

    /// Puts `session` (a played scenario, held at its end) in place of the live one and shows
    /// its first moment on the timeline.
    fn replace(&mut self, session: Session) -> Result<(), InvalidValue> {
        self.past = None;
        self.frozen = None;
        self.diagram.hold_height(false);
        self.session = session;
        // Its decisions were taken while playing: not news to announce.
        self.session.take_unseen();
        self.traffic_denial_said = false;
        // The cost the reader last sent with, as recorded: the next send is theirs. Not one the
        // field refuses (a script's `send(0)` or `send(1.5)`): the field keeps its own then.
        let capacity = self.session.config().capacity();
        let last_cost = self
            .session
            .log()
            .entries()
            .iter()
            .rev()
            .find_map(|e| match e.action {
                crate::limiter::Action::Send { cost, .. } => Some(cost),
                _ => None,
            })
            .filter(|&cost| {
                InvalidValue::check(Field::Cost, cost, controls::cost_rule(capacity)).is_ok()
            });
        if let Some(cost) = last_cost {
            self.controls.set_cost(cost);
        }
        self.show_config();
        self.show_state(&self.session, false);
        // Watched from its first moment to its end, however long.
        self.timeline.whole.set(true);
        // Held from there at its tallest (see `travel`): stepping through it moves nothing.
        self.travel(0.0, dom::wall_seconds(), true)
    }

    /// Sends one request of `cost` now, for a host; returns whether it was admitted.
    fn send(&mut self, cost: f64) -> Result<bool, InvalidValue> {
        self.back_to_live(false);
        let wall = dom::wall_seconds();
        let shot = self.session.send(cost, 1, wall)?;
        self.show_decisions(wall, false);
        self.refresh();
        Ok(shot.decision.is_admitted())
    }

    /// Pauses or resumes, as the pause button does: lesson time live; at a past moment, the
    /// recording's playback from there.
    fn set_paused(&mut self, paused: bool) {
        let held = match self.past {
            Some(_) => self.playing.is_none(),
            None => self.session.is_paused(),
        };
        if held != paused {
            self.act(Action::Pause);
        }
    }

    /// Moves lesson time forward by `seconds` and redraws.
    fn step(&mut self, seconds: f64) -> Result<(), InvalidValue> {
        if self.past.is_some() {
            return self.travel_by(Session::check_step(seconds)?);
        }
        self.session.step(seconds, dom::wall_seconds())?;
        self.refresh();
        Ok(())
    }

    /// Sets `B` and `r` as the sliders do, and makes them what "reset" returns to.
    fn configure(&mut self, config: BucketConfig) -> Result<(), InvalidValue> {
        self.back_to_live(false);
        self.session.configure(config, dom::wall_seconds())?;
        self.show_config();
        self.controls
            .show_error(self.locale, None, config.capacity());
        self.refresh();
        Ok(())
    }

    /// `bucketlab:decision` on the mount element: the response a server would send for `shot`,
    /// `{ allowed, status, head, retryAfter, tokens, cost, capacity, refillRate }` (`retryAfter`
    /// is `null` when no wait can be given, as from `tryAcquireAt`).
    fn emit_decision(&self, shot: &Shot) {
        let config = self.session.config();
        let head = ResponseHead::for_decision(config, &shot.decision);
        let detail = object(&[
            ("allowed", shot.decision.is_admitted().into()),
            ("status", head.status.into()),
            ("head", head.to_text().into()),
            ("retryAfter", retry_after(&shot.decision)),
            ("tokens", shot.decision.tokens.into()),
            ("cost", shot.cost.into()),
            ("capacity", config.capacity().into()),
            ("refillRate", config.refill_rate().into()),
        ]);
        dom::dispatch_soon(&self.root, "bucketlab:decision", &detail);
    }

    /// `bucketlab:config` on the mount element: the bucket's B and r after a change.
    fn emit_config(&self) {
        let config = self.session.config();
        let detail = object(&[
            ("capacity", config.capacity().into()),
            ("refillRate", config.refill_rate().into()),
        ]);
        dom::dispatch_soon(&self.root, "bucketlab:config", &detail);
    }
}
