//! What a panic does in the browser. With `panic = "abort"` a panic ends in a wasm trap that
//! leaves the module unusable; without a hook it would be a bare `RuntimeError: unreachable` and a
//! widget frozen mid-frame. The hook, installed when a module starts, says what went wrong on the
//! console and turns every mounted diagram into its error box, so a reader sees that the widget
//! stopped instead of a widget that silently ignores clicks.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Installs the hook; runs once when the JavaScript glue instantiates the module.
#[wasm_bindgen(start)]
pub fn install() {
    // The payload and place only, not `info.to_string()`: its formatting machinery costs ~1 KB.
    std::panic::set_hook(Box::new(|info| {
        let mut detail = String::from(info.payload_as_str().unwrap_or("panic"));
        if let Some(place) = info.location() {
            detail.push_str(" at ");
            detail.push_str(place.file());
            detail.push(':');
            detail.push_str(&place.line().to_string());
        }
        report(&detail);
    }));
}

/// Reports an internal error: on the console, and in every mounted diagram.
pub fn report(detail: &str) {
    let mut message =
        String::from("bucketlab stopped after an internal error (please report it): ");
    message.push_str(detail);
    console_error(&message);
    #[cfg(feature = "diagram")]
    widgets::fail_all(&message);
}

/// The diagrams mounted now, so a panic can mark them as failed.
#[cfg(feature = "diagram")]
pub(crate) mod widgets {
    use crate::view::{diagram::Diagram, locale::Locale};
    use std::cell::RefCell;
    use web_sys::Element;

    thread_local! {
        static MOUNTED: RefCell<Vec<(Element, &'static Locale)>> = const { RefCell::new(Vec::new()) };
    }

    /// Called when a diagram is mounted into `root`.
    pub(crate) fn mounted(root: &Element, locale: &'static Locale) {
        MOUNTED.with(|m| m.borrow_mut().push((root.clone(), locale)));
    }

    /// Called when the diagram in `root` is dropped.
    pub(crate) fn unmounted(root: &Element) {
        MOUNTED.with(|m| m.borrow_mut().retain(|(r, _)| r != root));
    }

    /// Replaces every mounted diagram by its error box showing `message`.
    pub(crate) fn fail_all(message: &str) {
        // try_borrow: a panic inside mounted()/unmounted() must not panic again here.
        MOUNTED.with(|m| {
            if let Ok(mounted) = m.try_borrow() {
                for (root, locale) in mounted.iter() {
                    let _ = Diagram::show_error(root, locale, message);
                }
            }
        });
    }
}
