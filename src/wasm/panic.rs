//! What a panic does in the browser. With `panic = "abort"` a panic ends in a wasm trap that
//! leaves the module unusable; without a hook it is a bare `RuntimeError: unreachable`. The hook,
//! installed when the lab or policy module starts, says on the console that bucketlab stopped and
//! why. The widget's module does not install it: its 35 KB gzip budget has no room for the panic
//! machinery (about 0.3 KB); the page catches the trap instead (`www/trap.js`, SECURITY.md).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Installs the hook; runs once when the JavaScript glue instantiates the module. Installed in the
/// lab and policy modules; not yet in the widget's module, whose 35 KB gzip budget it would exceed
/// by about 0.3 KB (see SECURITY.md).
#[cfg_attr(not(feature = "diagram"), wasm_bindgen(start))]
pub fn install() {
    // The message alone, not `info.to_string()` or the location: the widget's module has a size
    // budget, and the formatting machinery would cost over 1 KB.
    std::panic::set_hook(Box::new(|info| {
        let _ = info;
        report("panic")
    }));
}

/// Reports an internal error: on the console, and in every mounted diagram.
pub fn report(detail: &str) {
    let mut message =
        String::from("bucketlab stopped after an internal error (please report it): ");
    message.push_str(detail);
    console_error(&message);
}
