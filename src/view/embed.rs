//! What a host that embeds the diagram (the `<bucket-lab>` element, the iframe page) changes
//! while it runs: the bucket's `B` and `r`, the cost in the cost field, which controls show; and
//! the checks that turn an attribute's text into a number or a message naming the attribute.

use super::controls::{CAPACITY_MAX, RATE_MAX};
use super::dom;
use super::BucketDiagram;
use crate::api::{js_decimal, js_number, to_js};
use crate::limiter::{BucketConfig, Field, InvalidValue, Rule};
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// The groups of controls a host can show, in the order they appear.
pub const CONTROL_GROUPS: [&str; 6] = ["send", "cost", "burst", "bucket", "traffic", "time"];
/// The same names as one list for messages (a test keeps the two equal; joining at run time
/// would cost code in the module).
const GROUP_NAMES: &str = "send, cost, burst, bucket, traffic, time";

/// Reads `text` as the setting `name` (`capacity`, `refill-rate`, `tokens` or `cost`, spelled as
/// the element's attributes and the embed page's URL parameters are) for a bucket of `capacity`;
/// the error message names `name`, quotes `text` and says what is allowed.
#[wasm_bindgen(js_name = checkSetting)]
pub fn check_setting(name: &str, text: &str, capacity: Option<f64>) -> Result<f64, JsError> {
    let capacity = capacity.unwrap_or(f64::INFINITY);
    let (field, rule) = match name {
        "capacity" => (Field::Capacity, Rule::Positive),
        "refill-rate" => (Field::RefillRate, Rule::NonNegative),
        "tokens" => (Field::Tokens, Rule::UpTo(capacity)),
        "cost" => (Field::Cost, cost_rule(capacity)),
        other => {
            let mut message = String::from("unknown setting \"");
            message.push_str(other);
            message.push_str("\"; known: capacity, refill-rate, tokens, cost");
            return Err(JsError::new(&message));
        }
    };
    crate::api::parse_text(field, text, rule)
        .map_err(|err| JsError::new(&err.message_with(name, js_number)))
}

/// A request's cost from the cost field: a whole number from 1 to `B` (at least 1).
fn cost_rule(capacity: f64) -> Rule {
    Rule::Whole(1, capacity.floor().clamp(1.0, f64::from(u32::MAX)) as u32)
}

// Messages quote values with plain `"…"`, not `{:?}`: Debug formatting would pull Unicode
// escaping tables into the wasm.

/// Parses a `controls` list: `all`, `none`, or group names separated by spaces or commas.
fn parse_groups(list: &str) -> Result<Vec<&'static str>, String> {
    let names: Vec<&str> = list
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|n| !n.is_empty())
        .collect();
    match names.as_slice() {
        ["all"] => return Ok(CONTROL_GROUPS.to_vec()),
        ["none"] => return Ok(Vec::new()),
        _ => {}
    }
    let mut shown = Vec::new();
    for name in &names {
        match CONTROL_GROUPS.iter().find(|g| g.eq_ignore_ascii_case(name)) {
            Some(group) => shown.push(*group),
            None => {
                let mut why = String::from("unknown control \"");
                why.push_str(name);
                why.push('"');
                return Err(why);
            }
        }
    }
    if names.is_empty() {
        return Err("no control named".to_owned());
    }
    Ok(shown)
}

#[wasm_bindgen]
impl BucketDiagram {
    /// Sets `B` and `r` live, as the sliders do (tokens so far are kept, capped at the new `B`);
    /// "reset" returns to this configuration from now on.
    pub fn configure(&self, capacity: f64, refill_rate: f64) -> Result<(), JsError> {
        let config = BucketConfig::new(capacity, refill_rate).map_err(to_js)?;
        let mut state = self.state.borrow_mut();
        // The sliders reach further when the bucket needs it, as when they are built.
        let sliders = [
            (&state.controls.capacity, CAPACITY_MAX, capacity),
            (&state.controls.rate, RATE_MAX, refill_rate),
        ];
        for (slider, usual, value) in sliders {
            dom::set(slider, "max", &js_number(usual.max(value.ceil())));
        }
        state.reconfigure(config).map_err(to_js)?;
        state.initial = config;
        state.controls.show_error(None);
        state.refresh();
        Ok(())
    }

    /// Puts `cost` in the cost field: the cost of each request sent with the buttons, a whole
    /// number from 1 to `B`.
    #[wasm_bindgen(js_name = setCost)]
    pub fn set_cost(&self, cost: f64) -> Result<(), JsError> {
        let state = self.state.borrow();
        let rule = cost_rule(state.bucket.config().capacity());
        let cost = InvalidValue::check(Field::Cost, cost, rule).map_err(to_js)?;
        dom::set_value(&state.controls.cost, &js_number(cost));
        Ok(())
    }

    /// The cost in the cost field now (`NaN` if it does not hold a number).
    #[wasm_bindgen(getter)]
    pub fn cost(&self) -> f64 {
        let state = self.state.borrow();
        crate::limiter::parse_number(dom::value(&state.controls.cost).trim(), js_decimal)
            .unwrap_or(f64::NAN)
    }

    /// Shows only the control groups in `list`: `"all"`, `"none"`, or names among `send`,
    /// `cost`, `burst`, `bucket`, `traffic`, `time` separated by spaces or commas.
    #[wasm_bindgen(js_name = showControls)]
    pub fn show_controls(&self, list: &str) -> Result<(), JsError> {
        let shown = parse_groups(list).map_err(|why| {
            let mut message = String::from("controls must be \"all\", \"none\" or names from ");
            message.push_str(GROUP_NAMES);
            message.push_str(" separated by spaces, got \"");
            message.push_str(list);
            message.push_str("\" (");
            message.push_str(&why);
            message.push(')');
            JsError::new(&message)
        })?;
        let state = self.state.borrow();
        let c = &state.controls;
        // Each part: its group, a control, and how many levels above the control the part is
        // (fields sit in a <label>, groups in a <fieldset> around those labels).
        let parts = [
            ("send", &c.send, 0),
            ("cost", &c.cost, 1),
            ("burst", &c.burst_size, 1),
            ("burst", &c.burst, 0),
            ("bucket", &c.capacity, 2),
            ("traffic", &c.traffic, 2),
            ("time", &c.pause, 1),
        ];
        for (group, control, levels) in parts {
            let mut part = Some(control.clone());
            for _ in 0..levels {
                part = part.and_then(|p| p.parent_element());
            }
            if let Some(part) = part {
                set_hidden(&part, !shown.contains(&group));
            }
        }
        // The row of request controls disappears when none of its controls shows.
        if let Some(row) = c.send.parent_element() {
            let empty = !["send", "cost", "burst"].iter().any(|g| shown.contains(g));
            set_hidden(&row, empty);
        }
        Ok(())
    }

    /// `B`, the capacity now (the sliders or `configure` may have changed it).
    #[wasm_bindgen(getter)]
    pub fn capacity(&self) -> f64 {
        self.state.borrow().bucket.config().capacity()
    }

    /// `r`, the refill rate now.
    #[wasm_bindgen(getter, js_name = refillRate)]
    pub fn refill_rate(&self) -> f64 {
        self.state.borrow().bucket.config().refill_rate()
    }

    /// Whether lesson time is paused.
    #[wasm_bindgen(getter)]
    pub fn paused(&self) -> bool {
        self.state.borrow().clock.is_paused()
    }

    /// The language the widget speaks (`pt-BR` or `en`).
    #[wasm_bindgen(getter)]
    pub fn lang(&self) -> String {
        self.state.borrow().locale.lang.to_owned()
    }
}

fn set_hidden(element: &Element, hidden: bool) {
    if hidden {
        dom::set(element, "hidden", "");
    } else if element.has_attribute("hidden") {
        let _ = element.remove_attribute("hidden");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_lists_name_groups_or_all_or_none() {
        assert_eq!(parse_groups("all").unwrap(), CONTROL_GROUPS.to_vec());
        assert_eq!(parse_groups(" none ").unwrap(), Vec::<&str>::new());
        assert_eq!(parse_groups("send, Time").unwrap(), vec!["send", "time"]);
        assert_eq!(
            parse_groups("send sned").unwrap_err(),
            "unknown control \"sned\""
        );
        assert!(parse_groups("  ").is_err());
    }

    #[test]
    fn the_message_lists_every_group() {
        assert_eq!(GROUP_NAMES, CONTROL_GROUPS.join(", "));
    }

    #[test]
    fn cost_is_whole_and_at_most_the_capacity() {
        assert_eq!(cost_rule(10.0), Rule::Whole(1, 10));
        assert_eq!(cost_rule(2.5), Rule::Whole(1, 2));
        assert_eq!(cost_rule(0.5), Rule::Whole(1, 1));
    }
}
