//! One animation-frame callback for the whole page. Each widget asks for its next frame through
//! its own [`FrameLoop`]; the page has a single `requestAnimationFrame` callback, which draws every
//! widget that asked, in the order they asked. Twenty widgets then cost one callback a frame and
//! one crossing into the wasm, not twenty.

use super::dom::{window, Shared};
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a widget runs on a frame, and whether it asked for the next one.
struct Waiter {
    on_frame: RefCell<Box<dyn FnMut(f64)>>,
    asked: Cell<bool>,
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

/// A widget's place on the page's frame clock: asks for the next frame at most once at a time,
/// and gives its place up when dropped.
pub struct FrameLoop {
    waiter: Rc<Waiter>,
}

impl FrameLoop {
    /// Wraps `on_frame`, which receives the frame time in seconds.
    pub fn new(on_frame: impl FnMut(f64) + 'static) -> Self {
        FrameLoop {
            waiter: Rc::new(Waiter {
                on_frame: RefCell::new(Box::new(on_frame)),
                asked: Cell::new(false),
            }),
        }
    }

    /// Asks for the next frame unless already asked.
    pub fn request(&self) {
        if self.waiter.asked.replace(true) {
            return;
        }
        let _ = CLOCK.try_with(|clock| {
            clock.waiting.write().push(Rc::downgrade(&self.waiter));
            if clock.pending.get().is_none() {
                let id = window()
                    .request_animation_frame(clock.callback.as_ref().unchecked_ref())
                    .expect_throw("requestAnimationFrame is available in a page");
                clock.pending.set(Some(id));
            }
        });
    }

    /// Withdraws the request for the next frame, if any; the page's callback is cancelled too
    /// when no other widget waits for it.
    pub fn cancel(&self) {
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

    /// Whether a frame is asked for.
    pub fn is_pending(&self) -> bool {
        self.waiter.asked.get()
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        self.cancel();
    }
}
