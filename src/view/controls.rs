//! The widget's controls: send, cost, burst, automatic traffic, B and r sliders, pause, speed,
//! step and reset. Found in the build-time markup; the widget reads their values, each checked against its rule, when
//! they fire, and shows the session's state on them.

use super::dom::{find_each, focus, has_focus, set, set_value, text, unreadable, value};
use super::locale::{fill, Locale};
use super::markup::{slider_step, CAPACITY_MAX, CAPACITY_STEP, RATE_MAX, RATE_STEP};
use crate::limiter::{
    groups_thousands, parse_number, BucketConfig, Field, Given, InvalidValue, Pattern, Rule,
};
use crate::limiter::{MAX_BURST, MAX_TRAFFIC_RATE};
use crate::wasm::convert::{js_decimal, js_number, parse_text};
use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
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
    StepBack,
    Live,
    Reset,
    /// A typed field's value changed: checked at once, so its error shows, follows or clears.
    Edit(Field),
}

/// Lesson seconds one press of "step" adds.
pub const STEP_SECONDS: f64 = 0.1;

/// The smallest rate of automatic traffic the widget's field takes (its `min` and `step`).
pub const TRAFFIC_RATE_MIN: f64 = 0.5;

/// The most a request's cost may be for a bucket of `capacity`: `B` rounded down, at least 1.
fn cost_limit(capacity: f64) -> f64 {
    capacity.floor().max(1.0)
}

/// The rule of the cost field: a whole number from 1 to `B` (at least 1).
pub fn cost_rule(capacity: f64) -> Rule {
    Rule::Whole(1, capacity.floor().clamp(1.0, f64::from(u32::MAX)) as u32)
}

/// Handles to every control.
pub struct Controls {
    /// The widget (`.bl-widget`): its `data-shown` lists the groups shown.
    root: Element,
    send: Element,
    cost: Element,
    burst_size: Element,
    burst: Element,
    capacity: Element,
    capacity_out: Element,
    rate: Element,
    rate_out: Element,
    traffic: Element,
    traffic_rate: Element,
    seed: Element,
    pause: Element,
    speed: Element,
    step: Element,
    step_back: Element,
    live: Element,
    reset: Element,
    /// The error lines: one per typed field, in [`Controls::show_error`]'s order, then one for a
    /// script's refused call, each its own alert.
    error: Element,
    /// The fields with an error shown, one bit each in [`Controls::show_error`]'s order.
    shown: Cell<u8>,
    note: Element,
    /// The note says that `B` is below 1.
    below_one: Cell<bool>,
    /// Whether "Step back" shows as unavailable (see [`Controls::show_start`]).
    at_start: Cell<bool>,
    /// Whether the send button and the Time group show (see [`Controls::show_groups`]).
    sends: Cell<bool>,
    times: Cell<bool>,
    /// The fields are in a language with a decimal comma, which writes a thousand `1.000`.
    comma: bool,
}

impl Controls {
    /// The number in `input`, checked against `rule` and named `field` when refused; a number
    /// field holding text the browser can't read is refused as that, not as empty. With a decimal
    /// comma a point that could group thousands (`1.500`) is read as neither, as a comma that could
    /// (`1,500`) is in either language.
    fn read(&self, field: Field, input: &Element, rule: Rule) -> Result<f64, InvalidValue> {
        let text = value(input);
        let given = if unreadable(input) {
            Given::Unreadable
        } else if self.comma && groups_thousands(&text, '.') {
            Given::Ambiguous(text.trim().to_owned())
        } else {
            return parse_text(field, &text, rule);
        };
        Err(InvalidValue { field, given, rule })
    }

    /// Finds the controls in the widget's markup under `parent`, typed into in `l`'s language.
    pub fn attach(parent: &Element, l: &Locale) -> Result<Controls, JsValue> {
        let [send, cost, burst_size, burst, capacity, rate, traffic, traffic_rate, seed, pause, speed, step, step_back, live, reset, error, note, capacity_out, rate_out] =
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
                    ".bl-step-back",
                    ".bl-to-live",
                    ".bl-reset",
                    ".bl-input-error",
                    ".bl-controls-note",
                    ".bl-capacity + .bl-out",
                    ".bl-rate + .bl-out",
                ],
            )?;
        Ok(Controls {
            root: parent.clone(),
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
            step_back,
            live,
            reset,
            error,
            shown: Cell::new(0),
            note,
            below_one: Cell::new(false),
            at_start: Cell::new(false),
            sends: Cell::new(true),
            times: Cell::new(true),
            comma: l.decimal == ',',
        })
        .inspect(|controls| controls.identify_error())
    }

    /// Gives each error line an id unique on the page, so a refused field can point at its own.
    fn identify_error(&self) {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        let id = String::from("bl-input-error-")
            + &js_number(NEXT.fetch_add(1, Ordering::Relaxed).into());
        for (n, line) in self.error_lines().enumerate() {
            line.set_id(&(id.clone() + "-" + &js_number(n as f64)));
        }
    }

    /// The error lines, in order.
    fn error_lines(&self) -> impl Iterator<Item = Element> {
        std::iter::successors(
            self.error.first_element_child(),
            Element::next_element_sibling,
        )
    }

    /// Every control with the action it triggers and the event that triggers it.
    pub fn actions(&self) -> [(&Element, &'static str, Action); 15] {
        [
            (&self.send, "click", Action::Send),
            (&self.cost, "change", Action::Edit(Field::Cost)),
            (&self.burst_size, "change", Action::Edit(Field::BurstSize)),
            (&self.burst, "click", Action::Burst),
            (&self.capacity, "input", Action::Capacity),
            (&self.rate, "input", Action::Rate),
            (&self.traffic, "change", Action::Traffic),
            (&self.traffic_rate, "change", Action::Traffic),
            (&self.seed, "change", Action::Traffic),
            (&self.pause, "click", Action::Pause),
            (&self.speed, "change", Action::Speed),
            (&self.step, "click", Action::Step),
            (&self.step_back, "click", Action::StepBack),
            (&self.live, "click", Action::Live),
            (&self.reset, "click", Action::Reset),
        ]
    }

    /// The cost field's value, a whole number from 1 to `capacity`.
    pub fn cost(&self, capacity: f64) -> Result<f64, InvalidValue> {
        self.read(Field::Cost, &self.cost, cost_rule(capacity))
    }

    /// The cost field's value as a number, whatever its rule says (`NaN` if it holds none).
    pub fn typed_cost(&self) -> f64 {
        parse_number(value(&self.cost).trim(), js_decimal).unwrap_or(f64::NAN)
    }

    /// Puts `cost` in the cost field.
    pub fn set_cost(&self, cost: f64) {
        set_value(&self.cost, &js_number(cost));
    }

    /// Puts `cost` in the cost field and makes it the one "reset" returns to (a host's or a
    /// link's cost is the widget's starting cost, as `configure` sets its starting B and r).
    pub fn set_start_cost(&self, cost: f64) {
        set(&self.cost, "value", &js_number(cost));
        self.set_cost(cost);
    }

    /// Puts every field back as it started: the cost, burst size, traffic rate and seed as their
    /// markup (or a host) set them, traffic off, speed 1×. B and r are the session's to show.
    pub fn reset_fields(&self) {
        for field in [&self.cost, &self.burst_size, &self.traffic_rate, &self.seed] {
            set_value(field, &field.get_attribute("value").unwrap_or_default());
        }
        set_value(&self.traffic, "off");
        set_value(&self.speed, "1");
    }

    /// The burst field's value, a whole number from 1 to [`MAX_BURST`].
    pub fn burst_size(&self) -> Result<u32, InvalidValue> {
        let rule = Rule::Whole(1, MAX_BURST);
        self.read(Field::BurstSize, &self.burst_size, rule)
            .map(|n| n as u32)
    }

    /// The bucket the slider that moved asks for (`action`, [`Action::Capacity`] or
    /// [`Action::Rate`]), with the other value kept from `current`: a slider that was not touched
    /// never changes its value (one off its step, such as `B = 2.5`, would read back snapped).
    pub fn bucket(
        &self,
        action: Action,
        current: &BucketConfig,
    ) -> Result<BucketConfig, InvalidValue> {
        let (mut capacity, mut rate) = (current.capacity(), current.refill_rate());
        if action == Action::Capacity {
            capacity = self.read(Field::Capacity, &self.capacity, Rule::Positive)?;
        } else {
            rate = self.read(Field::RefillRate, &self.rate, Rule::NonNegative)?;
        }
        BucketConfig::new(capacity, rate)
    }

    /// The automatic traffic asked for: pattern, rate and seed, or `None` when it is off.
    pub fn traffic(&self) -> Result<Option<(Pattern, f64, u64)>, InvalidValue> {
        let pattern = match value(&self.traffic).as_str() {
            "steady" => Pattern::Steady,
            "poisson" => Pattern::Poisson,
            _ => return Ok(None),
        };
        let (rate, seed) = self.traffic_fields()?;
        Ok(Some((pattern, rate, seed)))
    }

    /// The traffic's rate and seed fields, each checked, whether traffic runs or not (a bad
    /// value typed while it is off is named then, not first when it starts).
    pub fn traffic_fields(&self) -> Result<(f64, u64), InvalidValue> {
        let rule = Rule::Between(TRAFFIC_RATE_MIN, MAX_TRAFFIC_RATE);
        let rate = self.read(Field::TrafficRate, &self.traffic_rate, rule)?;
        let seed = self.read(Field::Seed, &self.seed, Rule::Whole(0, u32::MAX))?;
        Ok((rate, seed as u64))
    }

    /// The speed asked for.
    pub fn speed(&self) -> Result<f64, InvalidValue> {
        self.read(Field::Speed, &self.speed, Rule::Positive)
    }

    /// Shows the traffic as off.
    pub fn show_traffic_off(&self) {
        set_value(&self.traffic, "off");
    }

    /// Shows the automatic traffic of the moment on screen: its pattern, rate and seed, or off
    /// (the rate and seed fields then keep what the reader typed).
    pub fn show_traffic(&self, settings: Option<(Pattern, f64, u64)>) {
        let Some((pattern, rate, seed)) = settings else {
            return self.show_traffic_off();
        };
        let name = match pattern {
            Pattern::Steady => "steady",
            Pattern::Poisson => "poisson",
        };
        set_value(&self.traffic, name);
        set_value(&self.traffic_rate, &js_number(rate));
        set_value(&self.seed, &js_number(seed as f64));
    }

    /// Lets the sliders reach `capacity` and `rate` when those are beyond their usual range, as
    /// when they are built.
    fn fit_sliders(&self, capacity: f64, rate: f64) {
        let sliders = [
            (&self.capacity, CAPACITY_MAX, capacity),
            (&self.rate, RATE_MAX, rate),
        ];
        for (slider, usual, value) in sliders {
            set(slider, "max", &js_number(usual.max(value.ceil())));
        }
        set(
            &self.capacity,
            "min",
            &js_number(CAPACITY_STEP.min(capacity)),
        );
    }

    /// Shows a bucket's configuration on the sliders (the live one, or a past moment's), each
    /// value exactly: a slider whose value is off its usual step (`B = 2.5`, `r = 0.25`) takes
    /// any value instead, as the browser would otherwise snap its thumb (and its value) to the
    /// step. The cost field's bound follows `B`; its value is left alone (see [`Controls::fit_cost`]).
    pub fn show_config(&self, l: &Locale, capacity: f64, rate: f64) {
        self.fit_sliders(capacity, rate);
        let sliders = [
            (&self.capacity, CAPACITY_STEP, capacity),
            (&self.rate, RATE_STEP, rate),
        ];
        for (slider, usual, value) in sliders {
            // Before the value: the browser snaps a range's value to its step.
            set(slider, "step", &slider_step(value, usual, js_number));
            set_value(slider, &js_number(value));
        }
        text(&self.capacity_out, &l.number(capacity, 3));
        text(&self.rate_out, &l.number(rate, 3));
        self.show_below_one(l, capacity);
    }

    /// Lowers the cost in the cost field to `B` when `B` dropped below it (a cost above `B` would
    /// leave every later send refused for the field's sake, and a permalink that can't be opened),
    /// and says so under the controls, in a status line a screen reader announces: nothing is
    /// clamped without a word. Below `B = 1` the cost shows 1, the smallest, and the note is the
    /// one [`Controls::show_config`] wrote (see [`Controls::show_below_one`]), not a "lowered to
    /// 1" that would break the rule it states.
    pub fn fit_cost(&self, l: &Locale, capacity: f64) {
        let typed = self.typed_cost();
        let most = cost_limit(capacity);
        // A cost already refused (2.5, or over the old B) is not one to lower: it keeps its
        // error, now stated with the new B, rather than a note quoting it as if it had been taken.
        if typed > most && !self.cost.has_attribute("aria-invalid") {
            self.set_cost(most);
            if capacity < 1.0 {
                return;
            }
            let (from, to, b) = (l.number(typed, 3), l.number(most, 3), l.number(capacity, 3));
            self.show_note(
                "data-cost-lowered",
                &[("from", &from), ("to", &to), ("b", &b)],
            );
        }
    }

    /// Below `B = 1` no whole cost fits (the diagram's costs are whole, from 1), so every request
    /// will be refused. The diagram still takes such a bucket (the core does, and a link, a host
    /// or a script may set one), and says so plainly under the controls whenever it shows it;
    /// the note goes when `B` is 1 or more again.
    fn show_below_one(&self, l: &Locale, capacity: f64) {
        let below = capacity < 1.0;
        if below {
            self.show_note("data-below-one", &[("b", &l.number(capacity, 3))]);
        } else if self.below_one.get() {
            self.clear_note();
        }
        self.below_one.set(below);
    }

    /// Says under the controls that time is still stopped (after a reset, which keeps that),
    /// unless the note says that below `B = 1` every request will be refused.
    pub fn show_still_paused(&self) {
        if !self.below_one.get() {
            self.show_note("data-still-paused", &[]);
        }
    }

    /// Shows under the controls the note whose template is the note's `attribute` (kept in the
    /// markup, so its words cost the wasm nothing), filled with `values`.
    fn show_note(&self, attribute: &str, values: &[(&str, &str)]) {
        let template = self.note.get_attribute(attribute).unwrap_or_default();
        text(&self.note, &fill(&template, values));
    }

    /// Clears the note under the controls (it speaks of the last action only).
    pub fn clear_note(&self) {
        text(&self.note, "");
    }

    /// Shows the clock's state: the pause button says what it does ("Pause", or "Resume" while
    /// paused; not also `aria-pressed`, which would read "Resume, pressed"); step only while
    /// paused.
    pub fn show_clock(&self, l: &Locale, paused: bool) {
        text(&self.pause, if paused { l.resume } else { l.pause });
        set_or_remove(&self.step, "disabled", (!paused).then_some(""));
    }

    /// Whether "Back to live" or "Step" has focus, and (`usable`) is still shown and enabled:
    /// the controls the widget hides or disables itself.
    pub fn transient_focus(&self, usable: bool) -> bool {
        [&self.live, &self.step].into_iter().any(|control| {
            has_focus(control)
                && !(usable
                    && (control.has_attribute("hidden") || control.has_attribute("disabled")))
        })
    }

    /// Keeps keyboard focus in the widget after an action that began with it on "Back to live"
    /// or "Step" (`had`, from [`Controls::transient_focus`]) and hid or disabled that control
    /// ("Back to live" hides itself; "Step" is disabled once time runs again): the browser drops
    /// focus to the page's body (at once for a hidden control, soon after for a disabled one),
    /// and a keyboard reader would start over from the top. It goes to Pause/Resume, what time
    /// does next, or to `timeline` when the time controls are hidden.
    pub fn keep_focus(&self, had: bool, timeline: &Element) {
        if had && !self.transient_focus(true) {
            focus(&self.pause);
            if !has_focus(&self.pause) {
                focus(timeline);
            }
        }
    }

    /// Whether the send button shows (`controls` may hide it).
    pub fn can_send(&self) -> bool {
        self.sends.get()
    }

    /// Whether the Time group shows (`controls` may hide it): its Resume and "Back to live".
    pub fn shows_time(&self) -> bool {
        self.times.get()
    }

    /// Shows "Back to live" only while a past moment is shown.
    pub fn show_travel(&self, traveling: bool) {
        set_hidden(&self.live, !traveling);
    }

    /// Shows "Step back" as unavailable while the moment shown is the chart's start
    /// (`at_start`), where it can't go further: by `aria-disabled`, which keeps the focus of a
    /// reader who stepped there (`disabled` drops it).
    pub fn show_start(&self, at_start: bool) {
        // Asked at every frame drawn: the DOM is touched only when it changes.
        if self.at_start.replace(at_start) != at_start {
            set_or_remove(&self.step_back, "aria-disabled", at_start.then_some("true"));
        }
    }

    /// The error a typed field's value has now, if any (`None` for other fields: their errors
    /// come from a script's call and last until the next action).
    fn still_invalid(&self, field: Field, capacity: f64) -> Option<InvalidValue> {
        let err = match field {
            Field::Cost => self.cost(capacity).err(),
            Field::BurstSize => self.burst_size().err(),
            Field::TrafficRate | Field::Seed => self.traffic_fields().err(),
            Field::Speed => self.speed().err(),
            _ => None,
        };
        err.filter(|err| err.field == field)
    }

    /// Shows `err` under the controls in `l`'s words: a typed field's on that field's own line,
    /// which stays until the field holds an allowed value, whatever else is refused meanwhile; a
    /// script's on the last line, until the next action. Each refused field is marked
    /// `aria-invalid` and described by its own line (the others unmarked), so a reader on it hears
    /// its error only, and a line is said aloud only when its words change. Returns `err`'s words.
    pub fn show_error(
        &self,
        l: &Locale,
        err: Option<&InvalidValue>,
        capacity: f64,
    ) -> Option<String> {
        let typed = [
            (Field::Cost, &self.cost),
            (Field::BurstSize, &self.burst_size),
            (Field::TrafficRate, &self.traffic_rate),
            (Field::Seed, &self.seed),
            (Field::Capacity, &self.capacity),
            (Field::RefillRate, &self.rate),
            (Field::Speed, &self.speed),
        ];
        let message = err.map(|err| l.invalid_typed(err, js_number));
        let (was, mut marked, mut script) = (self.shown.get(), 0, message.as_deref());
        let mut lines = self.error_lines();
        for (bit, (which, control)) in typed.into_iter().enumerate() {
            let bit = 1 << bit;
            let words = if err.is_some_and(|e| e.field == which) {
                script = None;
                message.clone()
            } else {
                (was & bit != 0)
                    .then(|| self.still_invalid(which, capacity))
                    .flatten()
                    .map(|earlier| l.invalid_typed(&earlier, js_number))
            };
            let Some(line) = lines.next() else { break };
            if words.is_some() {
                marked |= bit;
                set(control, "aria-invalid", "true");
                set(control, "aria-describedby", &line.id());
            } else if control.has_attribute("aria-invalid") {
                let _ = control.remove_attribute("aria-invalid");
                let _ = control.remove_attribute("aria-describedby");
            }
            text(&line, words.as_deref().unwrap_or(""));
        }
        if let Some(line) = lines.next() {
            text(&line, script.unwrap_or(""));
        }
        self.shown.set(marked);
        message
    }

    /// Checks the typed `field` after a change: its error shows (or follows the new value), and
    /// clears once the value is allowed; the errors about other fields stay.
    pub fn recheck(&self, l: &Locale, field: Field, capacity: f64) {
        drop(self.show_error(l, self.still_invalid(field, capacity).as_ref(), capacity));
    }

    /// Shows only the groups named in `shown` (from [`crate::limiter::CONTROL_GROUPS`]): the
    /// widget's `data-shown` lists them, and widget.css hides each part whose `data-group` it
    /// leaves out (the row of request controls too, when none of its groups shows). The
    /// `<bucket-lab>` element writes the same list on its markup before the module arrives, so
    /// the widget has its size from its first paint.
    pub fn show_groups(&self, shown: &[&str]) {
        self.sends.set(shown.contains(&"send"));
        self.times.set(shown.contains(&"time"));
        // Each name and a space (`~=` in the CSS reads it so), without `join`'s code.
        let mut list = String::new();
        for group in shown {
            list.push_str(group);
            list.push(' ');
        }
        set(&self.root, "data-shown", &list);
    }
}

fn set_hidden(element: &Element, hidden: bool) {
    set_or_remove(element, "hidden", hidden.then_some(""));
}

/// Sets attribute `name` to `value`, or removes it for `None`.
fn set_or_remove(element: &Element, name: &str, value: Option<&str>) {
    match value {
        Some(value) => set(element, name, value),
        None if element.has_attribute(name) => {
            let _ = element.remove_attribute(name);
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_whole_and_at_most_the_capacity() {
        assert_eq!(cost_rule(10.0), Rule::Whole(1, 10));
        assert_eq!(cost_rule(2.5), Rule::Whole(1, 2));
        assert_eq!(cost_rule(0.5), Rule::Whole(1, 1));
    }
}
