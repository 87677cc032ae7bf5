//! The interactive diagram: a widget mounted into a page element, driven by the core's bucket and
//! the lesson clock, redrawn on animation frames only while something moves.

/// The SVG bucket and the response panel.
pub mod diagram;
/// Raw DOM calls, owned listeners and the frame loop.
pub mod dom;
/// The widget's words in each language.
pub mod locale;

use crate::api::to_js;
use crate::limiter::{BucketConfig, Field, InvalidValue, Rule, SimClock, TokenBucket};
use diagram::{Diagram, Shot, FLIGHT_SECONDS};
use dom::{FrameLoop, Listener};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// The widget's state: the bucket, its clock and what is on screen.
struct State {
    bucket: TokenBucket,
    clock: SimClock,
    diagram: Diagram,
    last: Option<Shot>,
    frames: Rc<FrameLoop>,
}

impl State {
    /// Redraws at wall time `wall`; returns whether another frame is needed.
    fn draw(&self, wall: f64) -> bool {
        let now = self.clock.now(wall);
        let config = self.bucket.config();
        let tokens = self.tokens_at(now);
        self.diagram.draw(config, now, tokens, self.last.as_ref());
        let refilling = tokens < config.capacity() && config.refill_rate() > 0.0;
        let in_flight = self.last.is_some_and(|s| now - s.at < FLIGHT_SECONDS);
        !self.clock.is_paused() && (refilling || in_flight)
    }

    fn tokens_at(&self, now: f64) -> f64 {
        // `now` comes from the clock, always finite.
        self.bucket.tokens_at(now).unwrap_or(0.0)
    }

    /// Draws now, and runs the frame loop only if something moves.
    fn refresh(&self) {
        if self.draw(dom::wall_seconds()) {
            self.frames.request();
        } else {
            self.frames.cancel();
        }
    }

    fn send(&mut self, cost: f64) -> Result<Shot, InvalidValue> {
        let now = self.clock.now(dom::wall_seconds());
        let decision = self.bucket.try_acquire(cost, now)?;
        let shot = Shot {
            at: now,
            decision,
            cost,
        };
        self.diagram.report(self.bucket.config(), &shot);
        self.last = Some(shot);
        self.refresh();
        Ok(shot)
    }
}

/// A mounted diagram. Dropping it (or calling `free()` from JavaScript) stops its frame loop,
/// removes its listeners and empties its element.
#[wasm_bindgen]
pub struct BucketDiagram {
    state: Rc<RefCell<State>>,
    root: Element,
    _listeners: Vec<Listener>,
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
            let message = err.to_string();
            Diagram::show_error(root, locale, &message)?;
            return Err(to_js(err).into());
        }
    };
    let wall = dom::wall_seconds();
    let mut clock = SimClock::new(wall);
    if root.has_attribute("data-paused") {
        clock.pause(wall);
    }
    let bucket = TokenBucket::started_at(config, clock.now(wall)).map_err(to_js)?;
    let diagram = Diagram::build(root, locale)?;
    diagram.configure(&config);

    let state = Rc::new_cyclic(|weak: &Weak<RefCell<State>>| {
        let weak = weak.clone();
        let frames = FrameLoop::new(move |wall| {
            if let Some(state) = weak.upgrade() {
                let state = state.borrow();
                state.frames.delivered();
                if state.draw(wall) {
                    state.frames.request();
                }
            }
        });
        RefCell::new(State {
            bucket,
            clock,
            diagram,
            last: None,
            frames: Rc::new(frames),
        })
    });

    let weak = Rc::downgrade(&state);
    let send_button = state.borrow().diagram.send.clone();
    let on_send = Listener::new(&send_button, "click", move |_| {
        if let Some(state) = weak.upgrade() {
            // Cost 1 is always a valid cost, so this cannot fail.
            let _ = state.borrow_mut().send(1.0);
        }
    })?;
    state.borrow().refresh();
    Ok(BucketDiagram {
        state,
        root: root.clone(),
        _listeners: vec![on_send],
    })
}

/// Reads the bucket's config from `data-*` attributes, each optional.
fn config_from_attributes(root: &Element) -> Result<BucketConfig, InvalidValue> {
    let read = |name: &str, field: Field, rule: Rule, default: f64| match root.get_attribute(name) {
        Some(text) => InvalidValue::parse(field, &text, rule),
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
        Some(text) => config.with_initial_tokens(InvalidValue::parse(
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
        let shot = self
            .state
            .borrow_mut()
            .send(cost.unwrap_or(1.0))
            .map_err(to_js)?;
        Ok(shot.decision.is_allowed())
    }

    /// Stops lesson time; the diagram holds still until `resume` or `step`.
    pub fn pause(&self) {
        let mut state = self.state.borrow_mut();
        state.clock.pause(dom::wall_seconds());
        state.refresh();
    }

    /// Lets lesson time run again.
    pub fn resume(&self) {
        let mut state = self.state.borrow_mut();
        state.clock.resume(dom::wall_seconds());
        state.refresh();
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
        state.tokens_at(state.clock.now(dom::wall_seconds()))
    }

    /// Lesson time in seconds since the diagram was mounted.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        self.state.borrow().clock.now(dom::wall_seconds())
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
