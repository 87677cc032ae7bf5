//! One animation-frame callback for the whole page. Each widget asks for its next frame through
//! its own [`FrameLoop`]; the page has a single `requestAnimationFrame` callback, which draws every
//! widget that asked, in the order they asked. Twenty widgets then cost one callback a frame and
//! one crossing into the wasm, not twenty.

use super::dom::{window, Shared};
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a widget runs on a frame, whether it asked for the next one, and the timer that will ask
/// for one later ([`FrameLoop::request_after`]).
struct Waiter {
    on_frame: RefCell<Box<dyn FnMut(f64)>>,
    asked: Cell<bool>,
    timer: Cell<Option<i32>>,
}

/// The page's frame clock: the one callback, its pending request and who waits for it.
struct Clock {
    callback: Closure<dyn FnMut(f64)>,
    pending: Cell<Option<i32>>,
    waiting: RefCell<Vec<Weak<Waiter>>>,
}

// Reached through `try_with`, whose only failure (the thread's locals already destroyed) never
// happens in a page, where the one thread lives as long as the module: `with` would link std's
// panic formatting for it, about 250 B of the widget's gzip.
thread_local! {
    static CLOCK: Clock = Clock {
        callback: Closure::<dyn FnMut(f64)>::new(fire),
        pending: Cell::new(None),
        waiting: RefCell::new(Vec::new()),
    };
}

/// The page's frame: runs every widget that asked for it (each may ask again for the next).
fn fire(ms: f64) {
    let due = CLOCK
        .try_with(|clock| {
            clock.pending.set(None);
            std::mem::take(&mut *clock.waiting.write())
        })
        .unwrap_or_default();
    for waiter in due.iter().filter_map(Weak::upgrade) {
        if waiter.asked.replace(false) {
            (waiter.on_frame.write())(ms / 1000.0);
        }
    }
}

/// Asks the page's clock to run `waiter` on the next frame, unless it already asked.
fn ask(waiter: &Rc<Waiter>) {
    if waiter.asked.replace(true) {
        return;
    }
    let _ = CLOCK.try_with(|clock| {
        clock.waiting.write().push(Rc::downgrade(waiter));
        if clock.pending.get().is_none() {
            let id = window()
                .request_animation_frame(clock.callback.as_ref().unchecked_ref())
                .expect_throw("requestAnimationFrame is available in a page");
            clock.pending.set(Some(id));
        }
    });
}

/// A widget's place on the page's frame clock: asks for the next frame at most once at a time,
/// or for a frame some time later, and gives its place up when dropped.
pub struct FrameLoop {
    waiter: Rc<Waiter>,
    /// The timer's callback: asks for a frame. (Of the frame callback's type, though a timer
    /// passes it nothing: one closure shim in the module, not two.)
    later: Closure<dyn FnMut(f64)>,
}

impl FrameLoop {
    /// Wraps `on_frame`, which receives the frame time in seconds.
    pub fn new(on_frame: impl FnMut(f64) + 'static) -> Self {
        let waiter = Rc::new(Waiter {
            on_frame: RefCell::new(Box::new(on_frame)),
            asked: Cell::new(false),
            timer: Cell::new(None),
        });
        let weak = Rc::downgrade(&waiter);
        let later = Closure::<dyn FnMut(f64)>::new(move |_| {
            if let Some(waiter) = weak.upgrade() {
                waiter.timer.set(None);
                ask(&waiter);
            }
        });
        FrameLoop { waiter, later }
    }

    /// Asks for the next frame unless already asked (a frame asked for later is asked for now).
    pub fn request(&self) {
        self.stop_timer();
        ask(&self.waiter);
    }

    /// Asks for a frame `seconds` from now (by a timer: no frame runs in between), unless a
    /// frame is already asked for, now or later. What moves only a few times a second (the
    /// chart's track alone) then costs the page nothing between its steps.
    pub fn request_after(&self, seconds: f64) {
        if self.is_pending() {
            return;
        }
        // Whole milliseconds, rounded up: the frame never comes before the step is due.
        let ms = (seconds * 1000.0).ceil() as i32;
        if let Ok(id) = window().set_timeout_with_callback_and_timeout_and_arguments_0(
            self.later.as_ref().unchecked_ref(),
            ms,
        ) {
            self.waiter.timer.set(Some(id));
        }
    }

    /// Clears the timer of [`FrameLoop::request_after`], if any.
    fn stop_timer(&self) {
        if let Some(id) = self.waiter.timer.take() {
            window().clear_timeout_with_handle(id);
        }
    }

    /// Withdraws the request for the next frame, now or later, if any; the page's callback is
    /// cancelled too when no other widget waits for it.
    pub fn cancel(&self) {
        self.stop_timer();
        if !self.waiter.asked.replace(false) {
            return;
        }
        let _ = CLOCK.try_with(|clock| {
            let mut waiting = clock.waiting.write();
            let me = Rc::downgrade(&self.waiter);
            waiting.retain(|w| !w.ptr_eq(&me) && w.strong_count() > 0);
            if waiting.is_empty() {
                if let Some(id) = clock.pending.take() {
                    let _ = window().cancel_animation_frame(id);
                }
            }
        });
    }

    /// Whether a frame is asked for, now or later.
    pub fn is_pending(&self) -> bool {
        self.waiter.asked.get() || self.waiter.timer.get().is_some()
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        self.cancel();
    }
}
