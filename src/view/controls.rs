//! The widget's controls: send, cost, burst, automatic traffic, B and r sliders, pause, speed,
//! step and reset. Built once; the widget reads their values when they fire.

use super::dom::{html, set, text};
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

/// `<label class="bl-field"><span>text</span><input …></label>` inside `parent`.
fn field(
    parent: &Element,
    label: &str,
    tag: &str,
    class: &str,
    attributes: &[(&str, &str)],
) -> Result<Element, JsValue> {
    let wrapper = html(parent, "label", "bl-field")?;
    let caption = html(&wrapper, "span", "bl-field-label")?;
    text(&caption, label);
    let control = html(&wrapper, tag, class)?;
    for (name, value) in attributes {
        set(&control, name, value);
    }
    Ok(control)
}

fn button(parent: &Element, class: &str, label: &str) -> Result<Element, JsValue> {
    let element = html(parent, "button", class)?;
    set(&element, "type", "button");
    text(&element, label);
    Ok(element)
}

fn group(parent: &Element, legend: &str) -> Result<Element, JsValue> {
    let fieldset = html(parent, "fieldset", "bl-group")?;
    text(&html(&fieldset, "legend", "")?, legend);
    Ok(fieldset)
}

fn option(select: &Element, value: &str, label: &str) -> Result<(), JsValue> {
    let element = html(select, "option", "")?;
    set(&element, "value", value);
    text(&element, label);
    Ok(())
}

impl Controls {
    /// Builds the controls inside `parent` for a bucket of `capacity` and `rate`.
    pub fn build(
        parent: &Element,
        l: &Locale,
        capacity: f64,
        rate: f64,
    ) -> Result<Controls, JsValue> {
        let root = html(parent, "div", "bl-controls")?;

        let requests = html(&root, "div", "bl-row")?;
        let send = button(&requests, "bl-button bl-send", l.send)?;
        let cost = field(
            &requests,
            l.cost,
            "input",
            "bl-cost",
            &[
                ("type", "number"),
                ("min", "1"),
                ("step", "1"),
                ("value", "1"),
                ("inputmode", "numeric"),
            ],
        )?;
        let burst_size = field(
            &requests,
            l.burst_size,
            "input",
            "bl-burst-size",
            &[
                ("type", "number"),
                ("min", "1"),
                ("max", "100"),
                ("step", "1"),
                ("value", "5"),
                ("inputmode", "numeric"),
            ],
        )?;
        let burst = button(&requests, "bl-button bl-burst", l.burst)?;

        let bucket = group(&root, l.bucket_legend)?;
        let capacity_max = js_number(CAPACITY_MAX.max(capacity.ceil()));
        let capacity_input = field(
            &bucket,
            l.capacity,
            "input",
            "bl-capacity",
            &[
                ("type", "range"),
                ("min", "1"),
                ("max", &capacity_max),
                ("step", "1"),
            ],
        )?;
        let capacity_out = html(
            &capacity_input.parent_element().expect("inside its label"),
            "output",
            "bl-out",
        )?;
        let rate_max = js_number(RATE_MAX.max(rate.ceil()));
        let rate_input = field(
            &bucket,
            l.rate,
            "input",
            "bl-rate",
            &[
                ("type", "range"),
                ("min", "0"),
                ("max", &rate_max),
                ("step", "0.5"),
            ],
        )?;
        let rate_out = html(
            &rate_input.parent_element().expect("inside its label"),
            "output",
            "bl-out",
        )?;

        let auto = group(&root, l.traffic_legend)?;
        let traffic = field(&auto, l.traffic_mode, "select", "bl-traffic", &[])?;
        option(&traffic, "off", l.traffic_off)?;
        option(&traffic, "steady", l.traffic_steady)?;
        option(&traffic, "poisson", l.traffic_poisson)?;
        let traffic_rate = field(
            &auto,
            l.traffic_rate,
            "input",
            "bl-traffic-rate",
            &[
                ("type", "number"),
                ("min", "0.5"),
                ("max", &js_number(MAX_TRAFFIC_RATE)),
                ("step", "0.5"),
                ("value", "8"),
            ],
        )?;
        let seed = field(
            &auto,
            l.seed,
            "input",
            "bl-seed",
            &[
                ("type", "number"),
                ("min", "0"),
                ("step", "1"),
                ("value", "42"),
                ("inputmode", "numeric"),
            ],
        )?;

        let time = group(&root, l.time_legend)?;
        let pause = button(&time, "bl-button bl-pause", l.pause)?;
        set(&pause, "aria-pressed", "false");
        let speed = field(&time, l.speed, "select", "bl-speed", &[])?;
        for s in ["0.25", "1", "4"] {
            option(
                &speed,
                s,
                &(s.replace('.', l.decimal.encode_utf8(&mut [0; 4])) + "×"),
            )?;
        }
        let step = button(&time, "bl-button bl-step", l.step)?;
        let reset = button(&time, "bl-button bl-reset", l.reset)?;

        let error = html(&root, "p", "bl-input-error")?;
        set(&error, "role", "alert");

        let controls = Controls {
            send,
            cost,
            burst_size,
            burst,
            capacity: capacity_input,
            capacity_out,
            rate: rate_input,
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
        if let Some(select) =
            wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlSelectElement>(&controls.speed)
        {
            select.set_value("1");
        }
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
        super::dom::set_value(&self.capacity, &js_number(capacity));
        super::dom::set_value(&self.rate, &js_number(rate));
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
