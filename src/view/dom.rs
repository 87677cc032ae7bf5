//! Every raw DOM call of the view: finding elements, attributes, styles and listeners.
//! Listeners and observers are owned values that undo themselves when dropped (the page's
//! animation frames are in [`super::frames`]).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    CustomEvent, CustomEventInit, Document, Element, Event, EventTarget, HtmlInputElement,
    HtmlSelectElement, IntersectionObserver, IntersectionObserverEntry, Node, Window,
};

/// The page's window (the view only runs in a browser page).
pub fn window() -> Window {
    // `expect_throw` throws a JavaScript error without Rust's formatting machinery.
    web_sys::window().expect_throw("the view runs in a page with a window")
}

/// The page's document.
pub fn document() -> Document {
    window()
        .document()
        .expect_throw("a page window has a document")
}

/// Wall time in seconds from `performance.now()`; the only clock the project reads.
pub fn wall_seconds() -> f64 {
    window().performance().map_or(0.0, |p| p.now()) / 1000.0
}

/// The first element under `parent` that matches `selector` (one of the view's own selectors,
/// so a miss means the markup and the code disagree: an error, not a panic).
pub fn find(parent: &Element, selector: &str) -> Result<Element, JsValue> {
    parent
        .query_selector(selector)?
        .ok_or_else(|| JsValue::from_str(selector))
}

/// The first element under `parent` for each of `selectors`, in their order (one error path
/// for a whole set of handles keeps the mount code small).
pub fn find_each<const N: usize>(
    parent: &Element,
    selectors: [&str; N],
) -> Result<[Element; N], JsValue> {
    let found: Vec<Element> = selectors
        .iter()
        .map(|selector| find(parent, selector))
        .collect::<Result<_, _>>()?;
    found.try_into().map_err(|_| JsValue::from_str("selectors"))
}

/// Sets an attribute, touching the DOM only when the value changes (a write, even of the same
/// value, can invalidate style). The view's attribute names are static, so a failure is a bug.
pub fn set(element: &Element, name: &str, value: &str) {
    if element.get_attribute(name).as_deref() != Some(value) {
        element
            .set_attribute(name, value)
            .expect_throw("attribute names used by the view are valid");
    }
}

/// Sets a CSS property (custom properties included) on an element's inline style through the
/// CSSOM, which a strict CSP allows (a `style` attribute it would refuse).
pub fn set_style(element: &Element, name: &str, value: &str) {
    let set = js_sys::Reflect::get(element, &JsValue::from_str("style")).and_then(|style| {
        let set_property = js_sys::Reflect::get(&style, &JsValue::from_str("setProperty"))?;
        set_property.unchecked_into::<js_sys::Function>().call2(
            &style,
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        )
    });
    set.expect_throw("the view's elements have an inline style");
}

/// Replaces an element's text, touching the DOM only when it changes. Text held in one text node
/// is changed in place: a new node would be styled and laid out anew (the counter changes ten
/// times a second, in every diagram on the page).
pub fn text(element: &Element, value: &str) {
    if element.text_content().as_deref() == Some(value) {
        return;
    }
    match element.first_child() {
        Some(only) if only.node_type() == Node::TEXT_NODE && only.next_sibling().is_none() => {
            only.set_node_value(Some(value));
        }
        _ => element.set_text_content(Some(value)),
    }
}

/// Whether `element` has keyboard focus (in its document or its shadow root).
pub fn has_focus(element: &Element) -> bool {
    element.matches(":focus").unwrap_or(false)
}

/// The element with keyboard focus, if it is inside `root`: found by `:focus` there, as
/// `document.activeElement` is the host element when `root` is in a shadow root (`<bucket-lab>`).
pub fn focused_in(root: &Element) -> Option<Element> {
    root.query_selector(":focus").ok().flatten()
}

/// Moves keyboard focus to `element` (an HTML element of the view's markup); nothing happens if
/// it can't take it (hidden). The page does not scroll to it: focus moves there from a control
/// beside it that went away (a tapped "Back to live"), and scrolling would jump the page under a
/// finger or a pointer.
pub fn focus(element: &Element) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = element
        .unchecked_ref::<web_sys::HtmlElement>()
        .focus_with_options(&options);
}

/// An event listener that is removed when dropped.
pub struct Listener {
    target: EventTarget,
    kind: &'static str,
    callback: Closure<dyn FnMut(Event)>,
}

impl Listener {
    /// Listens for `kind` events on `target`.
    pub fn new(
        target: &EventTarget,
        kind: &'static str,
        handler: impl FnMut(Event) + 'static,
    ) -> Result<Self, JsValue> {
        let callback = Closure::<dyn FnMut(Event)>::new(handler);
        target.add_event_listener_with_callback(kind, callback.as_ref().unchecked_ref())?;
        Ok(Listener {
            target: target.clone(),
            kind,
            callback,
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.callback.as_ref().unchecked_ref());
    }
}

/// The current value of an `<input>` or `<select>`.
pub fn value(element: &Element) -> String {
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        input.value()
    } else if let Some(select) = element.dyn_ref::<HtmlSelectElement>() {
        select.value()
    } else {
        String::new()
    }
}

/// Whether a number field holds text that the browser can't read as a number (`1e400`, `1e`):
/// its value is then empty, though the reader sees what they typed.
pub fn unreadable(element: &Element) -> bool {
    element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|input| input.validity().bad_input())
}

/// Sets the value of an `<input>` or `<select>`.
pub fn set_value(element: &Element, value: &str) {
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        input.set_value(value);
    } else if let Some(select) = element.dyn_ref::<HtmlSelectElement>() {
        select.set_value(value);
    }
}

/// Dispatches a bubbling `CustomEvent` `name` with `detail` on `target` as a microtask: after the
/// widget's state is released, so a listener may call the handle again.
pub fn dispatch_soon(target: &Element, name: &str, detail: &JsValue) {
    let init = CustomEventInit::new();
    init.set_bubbles(true);
    init.set_detail(detail);
    let Ok(event) = CustomEvent::new_with_event_init_dict(name, &init) else {
        return;
    };
    // `target.dispatchEvent.bind(target, event)`: a plain JS function, no Rust closure (smaller).
    let Ok(dispatch) = js_sys::Reflect::get(target, &JsValue::from_str("dispatchEvent")) else {
        return;
    };
    let send = dispatch
        .unchecked_into::<js_sys::Function>()
        .bind1(target, &event);
    window().queue_microtask(send.unchecked_ref());
}

/// Whether the page is hidden (a background tab).
pub fn page_hidden() -> bool {
    document().hidden()
}

/// Watches whether an element is on screen; disconnects when dropped.
pub struct VisibilityWatch {
    observer: IntersectionObserver,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
}

impl VisibilityWatch {
    /// Calls `on_change(visible)` whenever `element` enters or leaves the viewport.
    pub fn new(
        element: &Element,
        mut on_change: impl FnMut(bool) + 'static,
    ) -> Result<Self, JsValue> {
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(entry) = entries.iter().last() {
                on_change(
                    entry
                        .unchecked_into::<IntersectionObserverEntry>()
                        .is_intersecting(),
                );
            }
        });
        let observer = IntersectionObserver::new(callback.as_ref().unchecked_ref())?;
        observer.observe(element);
        Ok(VisibilityWatch {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for VisibilityWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// `RefCell`'s borrows without its panic: a re-entered widget (a call from inside one of its own
/// callbacks) throws a plain JavaScript error. `borrow()`'s panic message would bring Rust's text
/// padding (`core::fmt`) into the wasm only for that.
pub trait Shared<T> {
    /// Shared access, as `RefCell::borrow`.
    fn read(&self) -> std::cell::Ref<'_, T>;
    /// Exclusive access, as `RefCell::borrow_mut`.
    fn write(&self) -> std::cell::RefMut<'_, T>;
}

impl<T> Shared<T> for std::cell::RefCell<T> {
    fn read(&self) -> std::cell::Ref<'_, T> {
        self.try_borrow().unwrap_or_else(|_| busy())
    }

    fn write(&self) -> std::cell::RefMut<'_, T> {
        self.try_borrow_mut().unwrap_or_else(|_| busy())
    }
}

fn busy() -> ! {
    wasm_bindgen::throw_str("bucketlab: the diagram was called back while it was busy")
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::cell::RefCell;

    #[test]
    // Natively wasm-bindgen's throw panics with this message: `busy` was reached, not
    // `RefCell::borrow`'s own panic ("already mutably borrowed"), which would fail this test.
    #[should_panic(expected = "cannot call wasm-bindgen imported functions on non-wasm targets")]
    fn a_borrow_while_exclusively_held_is_refused() {
        // In the browser `busy` throws a JavaScript error.
        let cell = RefCell::new(0);
        let _held = cell.write();
        let _ = cell.read();
    }

    #[test]
    fn shared_borrows_go_together() {
        let cell = RefCell::new(7);
        let (a, b) = (cell.read(), cell.read());
        assert_eq!(*a + *b, 14);
    }
}
