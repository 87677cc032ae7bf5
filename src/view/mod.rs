//! The interactive diagram: a widget mounted into a page element, driven by the core's bucket and
//! the lesson clock, redrawn on animation frames only while something moves on screen.

/// The screen-reader live region, rate-limited.
pub mod announce;
/// The controls and the actions they trigger.
pub mod controls;
/// The SVG bucket and the response panel.
pub mod diagram;
/// Raw DOM calls, owned listeners, observers and the frame loop.
pub mod dom;
/// What embedding hosts (the `<bucket-lab>` element) change live: B and r, cost, controls shown.
pub mod embed;
/// The widget's words in each language.
pub mod locale;
/// The widget's markup as text: pure functions, no DOM.
pub mod markup;
/// The strip chart of the last 20 seconds.
pub mod timeline;

use crate::api::to_js;
use crate::limiter::{
    Arrivals, BucketConfig, Field, History, InvalidValue, Pattern, ResponseHead, Rule, SimClock,
    TokenBucket,
};
use announce::Announcer;
use controls::{Action, Controls, STEP_SECONDS};
use diagram::{Diagram, Shot, FLIGHT_SECONDS};
use dom::{FrameLoop, Listener, VisibilityWatch};
use locale::Locale;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use timeline::{Timeline, SPAN};
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// Largest burst one click sends.
const MAX_BURST: u32 = 100;

/// The widget's state: the bucket, its clock, the traffic and what is on screen.
struct State {
    locale: &'static Locale,
    /// The mount element, where the widget's events are dispatched.
    root: Element,
    /// The configuration the widget was mounted with, for "reset".
    initial: BucketConfig,
    bucket: TokenBucket,
    clock: SimClock,
    history: History,
    traffic: Option<Arrivals>,
    last: Option<Shot>,
    diagram: Diagram,
    controls: Controls,
    timeline: Timeline,
    announcer: Announcer,
    on_screen: bool,
    frames: Rc<FrameLoop>,
}

impl State {
    fn now(&self) -> f64 {
        self.clock.now(dom::wall_seconds())
    }

    /// Brings everything to wall time `wall` and redraws; returns whether another frame is needed.
    fn draw(&mut self, wall: f64) -> bool {
        let now = self.clock.now(wall);
        self.run_traffic(now);
        self.history.prune(now);
        let config = *self.bucket.config();
        let tokens = self.bucket.tokens_at(now).unwrap_or(0.0);
        self.diagram.draw(&config, now, tokens, self.last.as_ref());
        self.timeline.draw(&self.history, now, config.capacity());
        self.announcer.flush(self.locale, wall);

        let refilling = tokens < config.capacity() && config.refill_rate() > 0.0;
        let in_flight = self.last.is_some_and(|s| now - s.at < FLIGHT_SECONDS);
        let on_chart = self
            .history
            .events()
            .next()
            .is_some_and(|e| now - e.at < SPAN);
        let moving = refilling || in_flight || on_chart || self.traffic.is_some();
        let visible = self.on_screen && !dom::page_hidden();
        self.announcer.pending() || (visible && !self.clock.is_paused() && moving)
    }

    /// Draws now, and keeps the frame loop running only if something moves.
    fn refresh(&mut self) {
        if self.draw(dom::wall_seconds()) {
            self.frames.request();
        } else {
            self.frames.cancel();
        }
    }

    /// Takes every automatic arrival up to `now`, each at its own exact time.
    fn run_traffic(&mut self, now: f64) {
        let Some(mut traffic) = self.traffic.take() else {
            return;
        };
        let mut latest = None;
        while let Some(at) = traffic.next_until(now) {
            latest = self.decide(1.0, at).ok().or(latest);
        }
        self.traffic = Some(traffic);
        if let Some(shot) = latest {
            self.diagram.report(self.bucket.config(), &shot);
            self.emit_decision(&shot);
        }
    }

    /// One request of `cost` at lesson time `at`, recorded everywhere but the panel.
    fn decide(&mut self, cost: f64, at: f64) -> Result<Shot, InvalidValue> {
        let decision = self.bucket.try_acquire(cost, at)?;
        let config = *self.bucket.config();
        let shot = Shot { at, decision, cost };
        self.history.record(at, &config, &decision);
        let sentence = self.diagram.summary(&config, &shot);
        self.announcer
            .note(sentence, decision.is_allowed(), decision.tokens);
        self.last = Some(shot);
        Ok(shot)
    }

    /// Sends `count` requests of `cost` now and shows the last one.
    fn send(&mut self, cost: f64, count: u32) -> Result<Shot, InvalidValue> {
        let now = self.now();
        let mut shot = self.decide(cost, now)?;
        for _ in 1..count {
            shot = self.decide(cost, now)?;
        }
        self.diagram.report(self.bucket.config(), &shot);
        self.emit_decision(&shot);
        self.refresh();
        Ok(shot)
    }

    /// Reads a control's text as a number under `rule`.
    fn read(&self, control: &Element, field: Field, rule: Rule) -> Result<f64, InvalidValue> {
        crate::api::parse_text(field, &dom::value(control), rule)
    }

    fn cost(&self) -> Result<f64, InvalidValue> {
        let max = self.bucket.config().capacity().floor().max(1.0) as u32;
        self.read(&self.controls.cost, Field::Cost, Rule::Whole(1, max))
    }

    /// Runs a control's action; a bad value is shown under the controls and changes nothing.
    fn act(&mut self, action: Action) {
        let result = self.try_act(action);
        self.controls
            .show_error(result.as_ref().err().map(message).as_deref());
        self.refresh();
    }

    fn try_act(&mut self, action: Action) -> Result<(), InvalidValue> {
        let wall = dom::wall_seconds();
        match action {
            Action::Send => {
                self.send(self.cost()?, 1)?;
            }
            Action::Burst => {
                let cost = self.cost()?;
                let rule = Rule::Whole(1, MAX_BURST);
                let count = self.read(&self.controls.burst_size, Field::BurstSize, rule)?;
                self.send(cost, count as u32)?;
            }
            Action::Capacity | Action::Rate => {
                let capacity =
                    self.read(&self.controls.capacity, Field::Capacity, Rule::Positive)?;
                let rate = self.read(&self.controls.rate, Field::RefillRate, Rule::NonNegative)?;
                self.reconfigure(BucketConfig::new(capacity, rate)?)?;
            }
            Action::Traffic => self.traffic = self.read_traffic()?,
            Action::Pause if self.clock.is_paused() => self.clock.resume(wall),
            Action::Pause => self.clock.pause(wall),
            Action::Speed => {
                let speed = self.read(&self.controls.speed, Field::Speed, Rule::Positive)?;
                self.clock.set_speed(speed, wall)?;
            }
            Action::Step => self.clock.step(STEP_SECONDS)?,
            Action::Reset => self.reset(),
        }
        self.controls
            .show_clock(self.locale, self.clock.is_paused());
        Ok(())
    }

    /// The automatic traffic the controls ask for, starting now.
    fn read_traffic(&self) -> Result<Option<Arrivals>, InvalidValue> {
        let pattern = match dom::value(&self.controls.traffic).as_str() {
            "steady" => Pattern::Steady,
            "poisson" => Pattern::Poisson,
            _ => return Ok(None),
        };
        let rate = self.read(
            &self.controls.traffic_rate,
            Field::TrafficRate,
            Rule::Positive,
        )?;
        let seed = self.read(&self.controls.seed, Field::Seed, Rule::Whole(0, u32::MAX))?;
        Arrivals::new(pattern, rate, seed as u64, self.now()).map(Some)
    }

    fn reconfigure(&mut self, config: BucketConfig) -> Result<(), InvalidValue> {
        let now = self.now();
        self.bucket.reconfigure(config, now)?;
        let tokens = self.bucket.tokens_at(now)?;
        self.history.reconfigure(now, &config, tokens);
        self.diagram.configure(&config);
        self.controls
            .show_config(self.locale, config.capacity(), config.refill_rate());
        self.emit_config();
        Ok(())
    }

    /// `bucketlab:decision` on the mount element: the response a server would send for `shot`,
    /// `{ allowed, status, head, retryAfter, tokens, cost, capacity, refillRate }` (`retryAfter`
    /// is `null` when the request can never pass).
    fn emit_decision(&self, shot: &Shot) {
        let config = self.bucket.config();
        let head = ResponseHead::for_decision(config, &shot.decision);
        let retry_after = shot
            .decision
            .retry_after()
            .map_or(JsValue::NULL, JsValue::from);
        let detail = detail(&[
            ("allowed", shot.decision.is_allowed().into()),
            ("status", head.status.into()),
            ("head", head.to_text().into()),
            ("retryAfter", retry_after),
            ("tokens", shot.decision.tokens.into()),
            ("cost", shot.cost.into()),
            ("capacity", config.capacity().into()),
            ("refillRate", config.refill_rate().into()),
        ]);
        dom::dispatch_soon(&self.root, "bucketlab:decision", &detail);
    }

    /// `bucketlab:config` on the mount element: the bucket's B and r after a change.
    fn emit_config(&self) {
        let config = self.bucket.config();
        let detail = detail(&[
            ("capacity", config.capacity().into()),
            ("refillRate", config.refill_rate().into()),
        ]);
        dom::dispatch_soon(&self.root, "bucketlab:config", &detail);
    }

    /// Back to the mounted configuration: full (or initial) bucket, no traffic, empty chart.
    fn reset(&mut self) {
        let now = self.now();
        let config = self.initial;
        // The clock's time is always finite, so this cannot fail; if it did, keep the old bucket.
        if let Ok(bucket) = TokenBucket::started_at(config, now) {
            self.bucket = bucket;
        }
        self.history = History::new(&config, config.initial_tokens(), now, SPAN);
        self.traffic = None;
        self.last = None;
        dom::set_value(&self.controls.traffic, "off");
        self.diagram.configure(&config);
        self.diagram.clear_report();
        self.controls
            .show_config(self.locale, config.capacity(), config.refill_rate());
        self.emit_config();
    }
}

/// A plain object from `(name, value)` pairs, for an event's detail.
fn detail(fields: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (name, value) in fields {
        let _ = js_sys::Reflect::set(&object, &(*name).into(), value);
    }
    object.into()
}

/// An error as the widget shows it: the core's field names, numbers as JavaScript writes them.
fn message(err: &InvalidValue) -> String {
    err.message_with(err.field.name(), crate::api::js_number)
}

/// A mounted diagram. Dropping it (or calling `free()` from JavaScript) stops its frame loop,
/// removes its listeners and observers and empties its element.
#[wasm_bindgen]
pub struct BucketDiagram {
    state: Rc<RefCell<State>>,
    root: Element,
    _listeners: Vec<Listener>,
    _watch: VisibilityWatch,
}

/// Mounts the diagram into `root`, configured by its attributes: `data-capacity` (B, default 10),
/// `data-refill-rate` (r, default 5), `data-tokens` (initial tokens, default full) and
/// `data-lang` (default: the nearest `lang`); `data-paused` starts with the clock stopped at 0, for
/// exact, step-by-step demonstrations and tests. A bad value shows a readable error inside `root`
/// and is thrown.
#[wasm_bindgen(js_name = mountDiagram)]
pub fn mount_diagram(root: &Element) -> Result<BucketDiagram, JsValue> {
    let lang = root
        .get_attribute("data-lang")
        .or_else(|| {
            root.closest("[lang]")
                .ok()
                .flatten()
                .and_then(|e| e.get_attribute("lang"))
        })
        .unwrap_or_default();
    let locale = locale::for_lang(&lang);
    let config = match config_from_attributes(root) {
        Ok(config) => config,
        Err(err) => {
            Diagram::show_error(root, locale, &message(&err))?;
            return Err(to_js(err).into());
        }
    };
    let wall = dom::wall_seconds();
    let mut clock = SimClock::new(wall);
    if root.has_attribute("data-paused") {
        clock.pause(wall);
    }
    let now = clock.now(wall);
    let bucket = TokenBucket::started_at(config, now).map_err(to_js)?;
    let diagram = Diagram::build(root, locale)?;
    diagram.configure(&config);
    let controls = Controls::build(
        &diagram.side,
        locale,
        config.capacity(),
        config.refill_rate(),
    )?;
    controls.show_config(locale, config.capacity(), config.refill_rate());
    controls.show_clock(locale, clock.is_paused());
    let timeline = Timeline::build(&diagram.bottom, locale)?;
    let announcer = Announcer::build(&diagram.bottom)?;

    let state = Rc::new_cyclic(|weak: &Weak<RefCell<State>>| {
        let weak = weak.clone();
        let frames = FrameLoop::new(move |wall| {
            if let Some(state) = weak.upgrade() {
                let mut state = state.borrow_mut();
                state.frames.delivered();
                if state.draw(wall) {
                    state.frames.request();
                }
            }
        });
        RefCell::new(State {
            locale,
            root: root.clone(),
            initial: config,
            bucket,
            clock,
            history: History::new(&config, config.initial_tokens(), now, SPAN),
            traffic: None,
            last: None,
            diagram,
            controls,
            timeline,
            announcer,
            on_screen: true,
            frames: Rc::new(frames),
        })
    });

    let mut listeners = Vec::new();
    for (control, event, action) in state.borrow().controls.actions() {
        let weak = Rc::downgrade(&state);
        listeners.push(Listener::new(control, event, move |_| {
            if let Some(state) = weak.upgrade() {
                state.borrow_mut().act(action);
            }
        })?);
    }
    let weak = Rc::downgrade(&state);
    listeners.push(Listener::new(
        &dom::document(),
        "visibilitychange",
        move |_| {
            if let Some(state) = weak.upgrade() {
                state.borrow_mut().refresh();
            }
        },
    )?);
    let weak = Rc::downgrade(&state);
    let watch = VisibilityWatch::new(root, move |visible| {
        if let Some(state) = weak.upgrade() {
            let mut state = state.borrow_mut();
            state.on_screen = visible;
            state.refresh();
        }
    })?;
    state.borrow_mut().refresh();
    Ok(BucketDiagram {
        state,
        root: root.clone(),
        _listeners: listeners,
        _watch: watch,
    })
}

/// Reads the bucket's config from `data-*` attributes, each optional.
fn config_from_attributes(root: &Element) -> Result<BucketConfig, InvalidValue> {
    let read = |name: &str, field: Field, rule: Rule, default: f64| match root.get_attribute(name) {
        Some(text) => crate::api::parse_text(field, &text, rule),
        None => Ok(default),
    };
    let capacity = read("data-capacity", Field::Capacity, Rule::Positive, 10.0)?;
    let refill_rate = read(
        "data-refill-rate",
        Field::RefillRate,
        Rule::NonNegative,
        5.0,
    )?;
    let config = BucketConfig::new(capacity, refill_rate)?;
    match root.get_attribute("data-tokens") {
        Some(text) => config.with_initial_tokens(crate::api::parse_text(
            Field::Tokens,
            &text,
            Rule::UpTo(capacity),
        )?),
        None => Ok(config),
    }
}

#[wasm_bindgen]
impl BucketDiagram {
    /// Sends one request of `cost` tokens (default 1) now; returns whether it was admitted.
    pub fn send(&self, cost: Option<f64>) -> Result<bool, JsError> {
        let cost = InvalidValue::check(Field::Cost, cost.unwrap_or(1.0), Rule::NonNegative);
        let shot = self
            .state
            .borrow_mut()
            .send(cost.map_err(to_js)?, 1)
            .map_err(to_js)?;
        Ok(shot.decision.is_allowed())
    }

    /// Stops lesson time; the diagram holds still until `resume` or `step`.
    pub fn pause(&self) {
        let mut state = self.state.borrow_mut();
        if !state.clock.is_paused() {
            state.act(Action::Pause);
        }
    }

    /// Lets lesson time run again.
    pub fn resume(&self) {
        let mut state = self.state.borrow_mut();
        if state.clock.is_paused() {
            state.act(Action::Pause);
        }
    }

    /// Moves lesson time forward by `seconds` and redraws.
    pub fn step(&self, seconds: f64) -> Result<(), JsError> {
        let mut state = self.state.borrow_mut();
        state.clock.step(seconds).map_err(to_js)?;
        state.refresh();
        Ok(())
    }

    /// Tokens in the bucket now, as the counter shows them (unrounded).
    #[wasm_bindgen(getter)]
    pub fn tokens(&self) -> f64 {
        let state = self.state.borrow();
        state.bucket.tokens_at(state.now()).unwrap_or(0.0)
    }

    /// Lesson time in seconds since the diagram was mounted.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        self.state.borrow().now()
    }

    /// Whether a frame is scheduled (the loop runs only while something moves).
    #[wasm_bindgen(getter, js_name = isAnimating)]
    pub fn is_animating(&self) -> bool {
        self.state.borrow().frames.is_pending()
    }
}

impl Drop for BucketDiagram {
    fn drop(&mut self) {
        self.root.set_text_content(None);
    }
}
