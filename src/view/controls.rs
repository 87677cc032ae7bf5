//! The widget's controls: send, cost, burst, automatic traffic, B and r sliders, pause, speed,
//! step and reset. Built once; the widget reads their values when they fire.

use super::dom::{find_each, markup, set, set_value, text};
use super::locale::Locale;
use crate::api::js_number;
use crate::limiter::traffic::MAX_TRAFFIC_RATE;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// What a control asks the widget to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Send,
    Burst,
    Capacity,
    Rate,
    Traffic,
    Pause,
    Speed,
    Step,
    Reset,
}

/// Largest capacity the slider offers (a larger configured B extends it).
pub const CAPACITY_MAX: f64 = 50.0;
/// Largest refill rate the slider offers.
pub const RATE_MAX: f64 = 20.0;
/// Lesson seconds one press of "step" adds.
pub const STEP_SECONDS: f64 = 0.1;

/// Handles to every control.
pub struct Controls {
    pub send: Element,
    pub cost: Element,
    pub burst_size: Element,
    pub burst: Element,
    pub capacity: Element,
    capacity_out: Element,
    pub rate: Element,
    rate_out: Element,
    pub traffic: Element,
    pub traffic_rate: Element,
    pub seed: Element,
    pub pause: Element,
    pub speed: Element,
    pub step: Element,
    pub reset: Element,
    error: Element,
}

/// The controls' markup (see [`super::dom::markup`]). Each field is a `<label>` holding its
/// caption and its control; the `{}` marks are filled in order by [`Controls::build`].
const CONTROLS: &str = "<div class=\"bl-controls\">\
<div class=\"bl-row\">\
<button class=\"bl-button bl-send\" type=\"button\">{}</button>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-cost\" type=\"number\" min=\"1\" step=\"1\" value=\"1\" inputmode=\"numeric\"></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-burst-size\" type=\"number\" min=\"1\" max=\"100\" step=\"1\" value=\"5\" inputmode=\"numeric\"></label>\
<button class=\"bl-button bl-burst\" type=\"button\">{}</button>\
</div>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-capacity\" type=\"range\" min=\"1\" max=\"{}\" step=\"1\"><output class=\"bl-out\"></output></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-rate\" type=\"range\" min=\"0\" max=\"{}\" step=\"0.5\"><output class=\"bl-out\"></output></label>\
</fieldset>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span><select class=\"bl-traffic\">\
<option value=\"off\">{}</option><option value=\"steady\">{}</option><option value=\"poisson\">{}</option>\
</select></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-traffic-rate\" type=\"number\" min=\"0.5\" max=\"{}\" step=\"0.5\" value=\"8\"></label>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span>\
<input class=\"bl-seed\" type=\"number\" min=\"0\" step=\"1\" value=\"42\" inputmode=\"numeric\"></label>\
</fieldset>\
<fieldset class=\"bl-group\"><legend>{}</legend>\
<button class=\"bl-button bl-pause\" type=\"button\" aria-pressed=\"false\">{}</button>\
<label class=\"bl-field\"><span class=\"bl-field-label\">{}</span><select class=\"bl-speed\">\
<option value=\"0.25\">0{}25×</option><option value=\"1\">1×</option><option value=\"4\">4×</option>\
</select></label>\
<button class=\"bl-button bl-step\" type=\"button\">{}</button>\
<button class=\"bl-button bl-reset\" type=\"button\">{}</button>\
</fieldset>\
<p class=\"bl-input-error\" role=\"alert\"></p>\
</div>";

impl Controls {
    /// Builds the controls inside `parent` (replacing its content) for a bucket of `capacity`
    /// and `rate`.
    pub fn build(
        parent: &Element,
        l: &Locale,
        capacity: f64,
        rate: f64,
    ) -> Result<Controls, JsValue> {
        let capacity_max = js_number(CAPACITY_MAX.max(capacity.ceil()));
        let rate_max = js_number(RATE_MAX.max(rate.ceil()));
        let traffic_max = js_number(MAX_TRAFFIC_RATE);
        let decimal = l.decimal.encode_utf8(&mut [0; 4]).to_owned();
        parent.set_inner_html(&markup(
            CONTROLS,
            &[
                l.send,
                l.cost,
                l.burst_size,
                l.burst,
                l.bucket_legend,
                l.capacity,
                &capacity_max,
                l.rate,
                &rate_max,
                l.traffic_legend,
                l.traffic_mode,
                l.traffic_off,
                l.traffic_steady,
                l.traffic_poisson,
                l.traffic_rate,
                &traffic_max,
                l.seed,
                l.time_legend,
                l.pause,
                l.speed,
                &decimal,
                l.step,
                l.reset,
            ],
        ));
        let [send, cost, burst_size, burst, capacity, rate, traffic, traffic_rate, seed, pause, speed, step, reset, error, capacity_out, rate_out] =
            find_each(
                parent,
                [
                    ".bl-send",
                    ".bl-cost",
                    ".bl-burst-size",
                    ".bl-burst",
                    ".bl-capacity",
                    ".bl-rate",
                    ".bl-traffic",
                    ".bl-traffic-rate",
                    ".bl-seed",
                    ".bl-pause",
                    ".bl-speed",
                    ".bl-step",
                    ".bl-reset",
                    ".bl-input-error",
                    ".bl-capacity + .bl-out",
                    ".bl-rate + .bl-out",
                ],
            )?;
        let controls = Controls {
            send,
            cost,
            burst_size,
            burst,
            capacity,
            capacity_out,
            rate,
            rate_out,
            traffic,
            traffic_rate,
            seed,
            pause,
            speed,
            step,
            reset,
            error,
        };
        set_value(&controls.speed, "1");
        Ok(controls)
    }

    /// Every control with the action it triggers and the event that triggers it.
    pub fn actions(&self) -> [(&Element, &'static str, Action); 11] {
        [
            (&self.send, "click", Action::Send),
            (&self.burst, "click", Action::Burst),
            (&self.capacity, "input", Action::Capacity),
            (&self.rate, "input", Action::Rate),
            (&self.traffic, "change", Action::Traffic),
            (&self.traffic_rate, "change", Action::Traffic),
            (&self.seed, "change", Action::Traffic),
            (&self.pause, "click", Action::Pause),
            (&self.speed, "change", Action::Speed),
            (&self.step, "click", Action::Step),
            (&self.reset, "click", Action::Reset),
        ]
    }

    /// Shows the bucket's configuration on the sliders.
    pub fn show_config(&self, l: &Locale, capacity: f64, rate: f64) {
        set_value(&self.capacity, &js_number(capacity));
        set_value(&self.rate, &js_number(rate));
        text(&self.capacity_out, &l.number(capacity, 3));
        text(&self.rate_out, &l.number(rate, 3));
        set(&self.cost, "max", &js_number(capacity.floor().max(1.0)));
    }

    /// Shows the clock's state: pause pressed or not; step only while paused.
    pub fn show_clock(&self, l: &Locale, paused: bool) {
        set(
            &self.pause,
            "aria-pressed",
            if paused { "true" } else { "false" },
        );
        text(&self.pause, if paused { l.resume } else { l.pause });
        if paused {
            let _ = self.step.remove_attribute("disabled");
        } else {
            set(&self.step, "disabled", "");
        }
    }

    /// Shows `message` under the controls, or clears it.
    pub fn show_error(&self, message: Option<&str>) {
        text(&self.error, message.unwrap_or(""));
    }
}
