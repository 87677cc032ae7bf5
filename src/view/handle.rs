//! The diagram's JavaScript API, all of it: `mountDiagram`, the handle it returns (what the
//! lesson, the `<bucket-lab>` element and scripts call) and `checkSetting`, which turns a host's
//! attribute text into a number or a message naming the attribute.

use super::controls::cost_rule;
use super::dom::Shared;
use super::{locale, mount, Mounted, Widget};
use crate::limiter::{
    parse_groups, BucketConfig, Field, InvalidValue, Rule, Scenario, GROUP_NAMES, MAX_STEP_SECONDS,
};
use crate::wasm::convert::{
    self, as_number, js_decimal, js_number, parse_text, scenario_to_js, string, to_js,
};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// `B` when the mount element gives none: small, so a person clicking steadily meets a 429 soon.
pub const DEFAULT_CAPACITY: f64 = 5.0;
/// `r` when the mount element gives none: 1 token per second, slower than a person clicks.
pub const DEFAULT_REFILL_RATE: f64 = 1.0;

/// A mounted diagram. Dropping it (or calling `free()` from JavaScript) stops its frame loop,
/// removes its listeners and observers and its markup.
#[wasm_bindgen]
pub struct BucketDiagram {
    mounted: Mounted,
    root: Element,
}

/// Mounts the diagram on the widget markup inside `root` (rendered at build time; see
/// `element/mount.js`), configured by `root`'s attributes: `data-capacity` (B, default 5),
/// `data-refill-rate` (r, default 1), `data-tokens` (initial tokens, default full) and
/// `data-lang` (default: the nearest `lang`); `data-paused` (but not `data-paused="false"`)
/// starts with the clock stopped at 0, for exact, step-by-step demonstrations and tests. `since` (milliseconds of `performance.now()`,
/// default now; a later time counts as now) is when lesson time 0 was, so that clicks queued before
/// the module arrived can be decided at their own times with `sendAt`. A bad value throws an
/// `Error` naming the attribute's field (or `since`), the value and what is allowed, and leaves
/// `root` as it was.
#[wasm_bindgen(js_name = mountDiagram)]
pub fn mount_diagram(
    root: &Element,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] since: &JsValue,
) -> Result<BucketDiagram, JsValue> {
    let lang = root
        .get_attribute("data-lang")
        .or_else(|| {
            root.closest("[lang]")
                .ok()
                .flatten()
                .and_then(|e| e.get_attribute("lang"))
        })
        .unwrap_or_default();
    // A script's `since` is a finite number or left out, never coerced (`"5"`, `NaN`).
    let since = argument(
        Field::Arg("since"),
        since,
        Rule::Finite,
        Some(f64::INFINITY),
    );
    let since = since
        .and_then(|since| Ok((since / 1000.0, config_from_attributes(root)?)))
        .map_err(|err| refusal(&err, err.field.js_name(), &lang));
    let (since, config) = since?;
    // Present is paused, as the element's `paused`; `"false"` too runs, as there (frameworks
    // write a false boolean so).
    let paused = root
        .get_attribute("data-paused")
        .is_some_and(|v| v != "false");
    Ok(BucketDiagram {
        mounted: mount(root, locale::for_lang(&lang), config, paused, since)?,
        root: root.clone(),
    })
}

/// Reads the bucket's config from `data-*` attributes, each optional.
fn config_from_attributes(root: &Element) -> Result<BucketConfig, InvalidValue> {
    let read = |name: &str, field: Field, rule: Rule, default: f64| match root.get_attribute(name) {
        Some(text) => parse_text(field, &text, rule),
        None => Ok(default),
    };
    let capacity = read(
        "data-capacity",
        Field::Capacity,
        Rule::Positive,
        DEFAULT_CAPACITY,
    )?;
    let refill_rate = read(
        "data-refill-rate",
        Field::RefillRate,
        Rule::NonNegative,
        DEFAULT_REFILL_RATE,
    )?;
    let config = BucketConfig::new(capacity, refill_rate)?;
    match root.get_attribute("data-tokens") {
        Some(text) => {
            config.with_initial_tokens(parse_text(Field::Tokens, &text, Rule::UpTo(capacity))?)
        }
        None => Ok(config),
    }
}

/// Reads `text` as the setting `name` (`capacity`, `refill-rate`, `tokens` or `cost`, spelled as
/// the element's attributes and the embed page's URL parameters are) for a bucket of `capacity`;
/// the error message names `name`, quotes `text` and says what is allowed. The error's
/// `localized` is the same refusal for a person reading a page in `lang` (default Brazilian
/// Portuguese), naming the field's label as the widget shows it. An argument of the wrong type
/// throws an `Error` naming it; so does a `capacity` (`undefined` or `null`: no bucket yet) that is
/// not a capacity, rather than blaming `text` for it.
#[wasm_bindgen(js_name = checkSetting)]
pub fn check_setting(
    #[wasm_bindgen(unchecked_param_type = "string")] name: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] capacity: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] lang: &JsValue,
) -> Result<f64, JsValue> {
    let name = string(
        "name",
        name,
        "a string: capacity, refill-rate, tokens or cost",
    )?;
    let text = string("text", text, "a string (the setting as typed)")?;
    let lang = if lang.is_null() || lang.is_undefined() {
        String::new()
    } else {
        string(
            "lang",
            lang,
            "a string such as \"en\" or \"pt-BR\", or undefined",
        )?
    };
    let capacity = if capacity.is_null() {
        &JsValue::UNDEFINED
    } else {
        capacity
    };
    let capacity = argument(
        Field::Capacity,
        capacity,
        Rule::Positive,
        Some(f64::INFINITY),
    )
    .map_err(|err| refusal(&err, "capacity", &lang))?;
    let (field, rule) = match name.as_str() {
        "capacity" => (Field::Capacity, Rule::Positive),
        "refill-rate" => (Field::RefillRate, Rule::NonNegative),
        // Without a B to hold it to (none given, or a refused one), "at least 0", not "to Infinity".
        "tokens" if capacity.is_finite() => (Field::Tokens, Rule::UpTo(capacity)),
        "tokens" => (Field::Tokens, Rule::NonNegative),
        "cost" => (Field::Cost, cost_rule(capacity)),
        other => {
            let mut message = String::from("unknown setting \"");
            message.push_str(other);
            message.push_str("\"; known: capacity, refill-rate, tokens, cost");
            return Err(JsError::new(&message).into());
        }
    };
    parse_text(field, &text, rule).map_err(|err| refusal(&err, &name, &lang))
}

/// `err` as convert's refusal: its `message` and `problem` worded with `name` (the API's or the
/// attribute's spelling), and its `localized` the same refusal in `lang` for a person, naming the
/// field's visible label; the error boxes of `<bucket-lab>`, the embed page and the lesson show that.
fn refusal(err: &InvalidValue, name: &str, lang: &str) -> JsValue {
    let localized = locale::for_lang(lang).invalid(err, js_number);
    convert::refusal(err, name, Some(localized)).into()
}

/// A script's number argument, never coerced: `undefined` is `default` when there is one; any
/// other value that is not a number (`"2"`, `null`) is refused naming `field` and what was given,
/// as `TokenBucket`'s methods do. The number itself is checked against `rule` by the core.
fn argument(
    field: Field,
    value: &JsValue,
    rule: Rule,
    default: Option<f64>,
) -> Result<f64, InvalidValue> {
    match default {
        Some(default) if value.is_undefined() => Ok(default),
        _ => as_number(field, value, rule).and_then(|n| InvalidValue::check(field, n, rule)),
    }
}

/// Wall time `seconds` in milliseconds to the microsecond, rounded by `round` (`ceil` or
/// `floor`), for a message: not the clock's float noise (`1523.8999999761581`).
fn readable_ms(seconds: f64, round: fn(f64) -> f64) -> f64 {
    round(seconds * 1e6) / 1000.0
}

// Messages quote values with plain `"…"`, not `{:?}`: Debug formatting would pull Unicode
// escaping tables into the wasm.

impl BucketDiagram {
    fn widget(&self) -> &RefCell<Widget> {
        &self.mounted.widget
    }

    /// `err`, from a script's call, shown in the widget's error line as a refused control's
    /// would be (a reader watching the page sees why nothing happened), and returned to be
    /// thrown to the script as convert's refusal: its `problem`, and its `localized` the words
    /// the error line shows.
    fn refuse(&self, err: InvalidValue) -> JsError {
        let widget = self.widget().read();
        let capacity = widget.session.config().capacity();
        let words = widget
            .controls
            .show_error(widget.locale, Some(&err), capacity);
        convert::refusal(&err, err.field.js_name(), words)
    }

    /// A refused argument of a script's call (`seek(t)`, `sendAt(wallMs)`), named by the API's
    /// `name` both in the widget's error line and in the thrown `Error`.
    fn refuse_arg(&self, name: &'static str, err: InvalidValue) -> JsError {
        self.refuse(InvalidValue {
            field: Field::Arg(name),
            ..err
        })
    }

    /// A script's call that ended: its refusal shown and thrown, or, done, an earlier call's
    /// refusal cleared from the error line, as the next click clears it (a field's own error stays
    /// while the field holds a value it refuses).
    fn ended<T>(&self, result: Result<T, InvalidValue>) -> Result<T, JsError> {
        match result {
            Ok(done) => {
                self.settled();
                Ok(done)
            }
            Err(err) => Err(self.refuse(err)),
        }
    }

    /// Clears a script's refusal from the error line (see [`Self::ended`]).
    fn settled(&self) {
        let widget = self.widget().read();
        let capacity = widget.session.config().capacity();
        drop(widget.controls.show_error(widget.locale, None, capacity));
    }
}

#[wasm_bindgen]
impl BucketDiagram {
    /// Sends one request of `cost` tokens now (default: the cost in the cost field, as the send
    /// button does); returns whether it was admitted.
    pub fn send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] cost: &JsValue,
    ) -> Result<bool, JsError> {
        if cost.is_undefined() {
            let cost = {
                let widget = self.widget().read();
                widget.controls.cost(widget.session.config().capacity())
            };
            return self.ended(cost.and_then(|cost| self.widget().write().send(cost)));
        }
        // A script's cost refused is named as the argument, not as the reader's cost field, which
        // holds a good value: that field is neither blamed nor marked invalid.
        let sent = argument(Field::Cost, cost, Rule::NonNegative, None)
            .and_then(|cost| self.widget().write().send(cost));
        match sent {
            Err(err) if err.field == Field::Cost => Err(self.refuse_arg("cost", err)),
            sent => self.ended(sent),
        }
    }

    /// Decides a click on the send button made at `wallMs` (milliseconds of `performance.now()`,
    /// e.g. one queued before the module arrived), with the cost in the cost field, exactly as the
    /// button's own click would have been at that time; returns whether the click took effect (a
    /// bad cost is shown under the controls, as for a click). Only a time from the diagram's
    /// lesson time 0 (`since`) to now can be a queued click's: any other (a later one would move
    /// the bucket's clock ahead, an earlier one decide before the lesson began) throws an `Error`
    /// naming `wallMs`, the value and that range, and changes nothing. A time before the bucket's
    /// last decision is decided just after it (its clock never goes back): the queued clicks a
    /// page sends first, in order, are decided at their own times.
    #[wasm_bindgen(js_name = sendAt)]
    pub fn send_at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] wall_ms: &JsValue,
    ) -> Result<bool, JsError> {
        let since = self.mounted.since;
        let now = super::dom::wall_seconds();
        // The range as a person reads it: to the microsecond, rounded inwards so that every time
        // it states is allowed; the check itself is exact.
        let range = Rule::Between(readable_ms(since, f64::ceil), readable_ms(now, f64::floor));
        let refuse = |err: InvalidValue| self.refuse_arg("wallMs", err);
        let wall_ms = as_number(Field::Now, wall_ms, range).map_err(refuse)?;
        if !(since..=now).contains(&(wall_ms / 1000.0)) {
            return Err(refuse(InvalidValue::refused(Field::Now, wall_ms, range)));
        }
        let mut widget = self.widget().write();
        Ok(widget.act_at(super::controls::Action::Send, wall_ms / 1000.0))
    }

    /// Stops lesson time, as the pause button does; the diagram holds still until `resume` or
    /// `step`. At a past moment it stops the recording's playback there.
    pub fn pause(&self) {
        self.widget().write().set_paused(true);
        self.settled();
    }

    /// Lets lesson time run again, as the resume button does; at a past moment it plays the
    /// recording on from there (`live()` goes back to the live session).
    pub fn resume(&self) {
        self.widget().write().set_paused(false);
        self.settled();
    }

    /// Moves lesson time forward by `seconds` (from 0 to 3600: an hour at most per step) and
    /// redraws; a longer step throws an `Error` naming `seconds`, its value and that range.
    pub fn step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] seconds: &JsValue,
    ) -> Result<(), JsError> {
        let rule = Rule::Between(0.0, MAX_STEP_SECONDS);
        let stepped = argument(Field::Step, seconds, rule, None)
            .and_then(|seconds| self.widget().write().step(seconds));
        self.ended(stepped)
    }

    /// Tokens in the bucket (unrounded): now, or at the past moment shown. Now counts the
    /// automatic traffic due so far, decided here if the frame loop has not (a diagram off screen
    /// or in a hidden tab draws nothing); its next frame shows those decisions.
    #[wasm_bindgen(getter)]
    pub fn tokens(&self) -> f64 {
        let wall = super::dom::wall_seconds();
        // Not from inside one of the diagram's own calls (a listener of its events): there it is
        // as the call left it.
        if let Ok(mut widget) = self.widget().try_borrow_mut() {
            if widget.past.is_none() {
                widget.session.advance(wall);
            }
        }
        let widget = self.widget().read();
        let shown = widget.past.as_ref().map_or(&widget.session, |p| &p.session);
        shown.tokens(wall)
    }

    /// Shows the moment `seconds` (default 0.1) earlier than the one shown, as "Step back" does,
    /// stopping at the timeline's start (20 s ago, or 0; a played scenario's first moment); lesson
    /// time stops meanwhile.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] seconds: &JsValue,
    ) -> Result<(), JsError> {
        let rule = Rule::NonNegative;
        let moved = argument(Field::Step, seconds, rule, Some(super::STEP_SECONDS))
            .and_then(|seconds| self.widget().write().travel_by(-seconds));
        self.ended(moved)
    }

    /// Shows the session as it was at lesson time `t` (as the README names it), from 20 s
    /// before now (or 0; from 0 for a played scenario) to now, replayed through the core; lesson time stops meanwhile. Any
    /// other value throws an `Error` naming `t`, the value and that range.
    pub fn seek(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] t: &JsValue,
    ) -> Result<(), JsError> {
        let refuse = |err: InvalidValue| self.refuse_arg("t", err);
        let (earliest, latest) = {
            let widget = self.widget().read();
            let now = widget.session.now(super::dom::wall_seconds());
            super::timeline::seek_range(widget.timeline.start(now), now)
        };
        let at = as_number(Field::Now, t, Rule::Between(earliest, latest)).map_err(refuse)?;
        let sought = self.widget().write().seek(at);
        sought.map_err(refuse)?;
        self.settled();
        Ok(())
    }

    /// Back to the live session, as "Back to live" does: lesson time runs again if it ran before
    /// going back.
    pub fn live(&self) {
        self.widget().write().back_to_live(true);
        self.settled();
    }

    /// The lesson time shown: now, or the past moment.
    #[wasm_bindgen(getter, js_name = viewTime)]
    pub fn view_time(&self) -> f64 {
        let widget = self.widget().read();
        let now = widget.session.now(super::dom::wall_seconds());
        widget.past.as_ref().map_or(now, |p| p.at)
    }

    /// Whether a past moment is shown.
    #[wasm_bindgen(getter)]
    pub fn traveling(&self) -> bool {
        self.widget().read().past.is_some()
    }

    /// The session so far as a scenario's text (for a `#s=` link): the bucket, the actions since
    /// the last reset at their lesson times, and now. Throws if it would be too long for a link.
    #[wasm_bindgen(getter)]
    pub fn scenario(&self) -> Result<String, JsError> {
        let widget = self.widget().read();
        let now = widget.session.now(super::dom::wall_seconds());
        Scenario::link(widget.session.log(), now, js_number).map_err(scenario_to_js)
    }

    /// Replaces the session with the scenario in `text` (a `#s=` link's value), checked by the
    /// core, and shows its first moment (lesson time 0), stopped, to step through to its end.
    /// A bad text throws an `Error` naming the part, the piece and the rule, with the same as data
    /// in its `problem` (see `scenario_to_js`), and changes nothing.
    #[wasm_bindgen(js_name = playScenario)]
    pub fn play_scenario(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    ) -> Result<(), JsError> {
        // Refused or not, the call ends an earlier call's refusal in the error line: it only
        // throws its own (see the README).
        self.settled();
        let text = string(
            "text",
            text,
            "a string (a scenario's text, as in a #s= link)",
        )?;
        let scenario = Scenario::decode(&text, js_decimal).map_err(scenario_to_js)?;
        let session = scenario.play().map_err(to_js)?;
        let replaced = self.widget().write().replace(session);
        replaced.map_err(to_js)
    }

    /// Lesson time in seconds: since the diagram was mounted, or on a played scenario's clock.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        let widget = self.widget().read();
        widget.session.now(super::dom::wall_seconds())
    }

    /// Whether a frame is scheduled (the loop runs only while something moves).
    #[wasm_bindgen(getter, js_name = isAnimating)]
    pub fn is_animating(&self) -> bool {
        self.widget().read().frames.is_pending()
    }

    /// Sets `B` and `r` live, as the sliders do (tokens so far are kept, capped at the new `B`);
    /// "reset" returns to this configuration from now on.
    pub fn configure(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] capacity: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "number", js_name = refillRate)]
        refill_rate: &JsValue,
    ) -> Result<(), JsError> {
        let configured = (|| {
            let capacity = argument(Field::Capacity, capacity, Rule::Positive, None)?;
            let refill_rate = argument(Field::RefillRate, refill_rate, Rule::NonNegative, None)?;
            let config = BucketConfig::new(capacity, refill_rate)?;
            self.widget().write().configure(config)
        })();
        configured.map_err(|err| self.refuse(err))
    }

    /// Puts `cost` in the cost field: the cost of each request sent with the buttons, a whole
    /// number from 1 to `B`; "reset" returns to it from now on.
    #[wasm_bindgen(js_name = setCost)]
    pub fn set_cost(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] cost: &JsValue,
    ) -> Result<(), JsError> {
        let rule = cost_rule(self.capacity());
        let cost = argument(Field::Cost, cost, rule, None).map_err(|err| self.refuse(err))?;
        let widget = self.widget().read();
        widget.controls.set_start_cost(cost);
        // The field's own earlier error, if any, goes with its new value.
        let capacity = widget.session.config().capacity();
        widget
            .controls
            .recheck(widget.locale, Field::Cost, capacity);
        Ok(())
    }

    /// The cost a request sent with the buttons takes now: the cost field's value, or `NaN` while
    /// the field holds one it refuses (its error line says why), so that a link never carries it.
    #[wasm_bindgen(getter)]
    pub fn cost(&self) -> f64 {
        let widget = self.widget().read();
        let capacity = widget.session.config().capacity();
        widget.controls.cost(capacity).unwrap_or(f64::NAN)
    }

    /// Shows only the control groups in `list`: `"all"`, `"none"`, or names among `send`,
    /// `cost`, `burst`, `bucket`, `traffic`, `time` separated by spaces or commas.
    #[wasm_bindgen(js_name = showControls)]
    pub fn show_controls(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] list: &JsValue,
    ) -> Result<(), JsValue> {
        // As playScenario: an earlier call's refusal goes, and this one is only thrown.
        self.settled();
        let list = string(
            "list",
            list,
            "a string: \"all\", \"none\" or control group names",
        )?;
        let list = list.as_str();
        let shown = parse_groups(list).map_err(|why| {
            let mut message = String::from("controls must be \"all\", \"none\" or names from ");
            message.push_str(GROUP_NAMES);
            message.push_str(" separated by spaces or commas, got \"");
            message.push_str(list);
            message.push_str("\" (");
            message.push_str(&why);
            message.push(')');
            // `localized`: the same for the page's reader, as the element's error box shows it.
            let words = self.widget().read().locale.err_controls;
            let localized = locale::fill(words, &[("given", list), ("groups", GROUP_NAMES)]);
            let error = js_sys::Error::new(&message);
            let _ = js_sys::Reflect::set(&error, &"localized".into(), &localized.into());
            JsValue::from(error)
        })?;
        let widget = self.widget().read();
        widget.controls.show_groups(&shown);
        // The idle status invites a click on "Send request" only while that button shows.
        if widget.past.is_none() && widget.session.last_shot().is_none() {
            widget
                .diagram
                .clear_report(false, widget.controls.can_send(), true);
        }
        drop(widget);
        Ok(())
    }

    /// `B`, the capacity now (the sliders or `configure` may have changed it): the live value even
    /// while a past moment is shown (the element checks a new cost against it and carries it to a
    /// new mount), where the diagram and [`tokens`](Self::tokens) show that moment's.
    #[wasm_bindgen(getter)]
    pub fn capacity(&self) -> f64 {
        self.widget().read().session.config().capacity()
    }

    /// `r`, the refill rate now: live, as [`capacity`](Self::capacity) is.
    #[wasm_bindgen(getter, js_name = refillRate)]
    pub fn refill_rate(&self) -> f64 {
        self.widget().read().session.config().refill_rate()
    }

    /// Whether the live clock is paused. It is while a recording's past moment plays on
    /// (`traveling`): the time shown runs then, but live time does not, and the playing ends
    /// live, stopped.
    #[wasm_bindgen(getter)]
    pub fn paused(&self) -> bool {
        self.widget().read().session.is_paused()
    }

    /// The language the widget speaks (`pt-BR` or `en`).
    #[wasm_bindgen(getter)]
    pub fn lang(&self) -> String {
        self.widget().read().locale.lang.to_owned()
    }
}

impl Drop for BucketDiagram {
    /// Removes the widget's markup, and only it: whatever a host has put in its place since (an
    /// error box after a trap, say) stays, as dropping can come late, from the garbage collector.
    fn drop(&mut self) {
        if let Ok(Some(frame)) = self.root.query_selector(".bl-widget") {
            frame.remove();
        }
    }
}
