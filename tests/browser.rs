//! The diagram in a real browser (wasm-bindgen-test in headless Chromium): it reads like a user
//! would — send, look at the counter and the response — with time driven by the lesson clock.
#![cfg(target_arch = "wasm32")]

use bucketlab::limiter::BucketConfig;
use bucketlab::view::markup::{widget, words_for};
use bucketlab::view::{mount_diagram, BucketDiagram};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh mount point in the page with the given `data-*` attributes, holding the widget's
/// markup as the build renders it (here by the same Rust function, in the `data-lang` language).
fn mount_point(attributes: &[(&str, &str)]) -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    let mut lang = "pt-BR";
    for (name, value) in attributes {
        root.set_attribute(name, value).unwrap();
        if *name == "data-lang" {
            lang = value;
        }
    }
    let config = BucketConfig::new(10.0, 5.0).unwrap();
    root.set_inner_html(&widget(words_for(lang), "t", &config, false));
    document.body().unwrap().append_child(&root).unwrap();
    root
}

/// A diagram whose clock starts stopped at 0: time moves only by `step`.
fn paused(attributes: &[(&str, &str)]) -> (Element, BucketDiagram) {
    let root = mount_point(attributes);
    root.set_attribute("data-paused", "").unwrap();
    let diagram = mount_diagram(&root, &JsValue::UNDEFINED).expect("valid config mounts");
    assert_eq!(diagram.now(), 0.0);
    (root, diagram)
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} missing"))
        .text_content()
        .unwrap()
}

/// The text of the element `field`'s `aria-describedby` names (one id), found under `root`.
fn described(root: &Element, field: &Element) -> String {
    let id = field.get_attribute("aria-describedby").expect("described");
    assert!(!id.contains(' '), "one line: {id}");
    root.query_selector(&format!("[id='{id}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("#{id} missing"))
        .text_content()
        .unwrap()
}

fn click_send(root: &Element) {
    click(root, ".bl-send");
}

#[wasm_bindgen_test]
fn a_click_takes_one_token_and_the_counter_shows_it() {
    let (root, _diagram) = paused(&[
        ("data-capacity", "10"),
        ("data-refill-rate", "5"),
        ("data-lang", "pt-BR"),
    ]);
    assert_eq!(text_of(&root, ".bl-counter"), "10,0 / 10");
    click_send(&root);
    assert_eq!(text_of(&root, ".bl-counter"), "9,0 / 10");
    assert!(text_of(&root, ".bl-head").starts_with("HTTP/1.1 200 OK"));
    assert_eq!(text_of(&root, ".bl-status"), "Admitida: restam 9 tokens.");
}

#[wasm_bindgen_test]
fn the_portuguese_formula_separates_arguments_with_semicolons_beside_decimal_commas() {
    let (root, _diagram) = paused(&[
        ("data-capacity", "10"),
        ("data-refill-rate", "2.5"),
        ("data-lang", "pt-BR"),
    ]);
    click_send(&root);
    let formula = text_of(&root, ".bl-formula");
    assert!(
        formula.starts_with("tokens = min(B;\u{a0}tokens\u{a0}+\u{a0}Δt·r) = min(10;\u{a0}10\u{a0}+\u{a0}0·2,5) = 10\n"),
        "{formula}"
    );
}

#[wasm_bindgen_test]
fn the_eleventh_request_gets_a_429_with_retry_after() {
    let (root, _diagram) = paused(&[
        ("data-capacity", "10"),
        ("data-refill-rate", "5"),
        ("data-lang", "en"),
    ]);
    for _ in 0..11 {
        click_send(&root);
    }
    assert_eq!(text_of(&root, ".bl-counter"), "0.0 / 10");
    let head = text_of(&root, ".bl-head");
    assert!(
        head.starts_with("HTTP/1.1 429 Too Many Requests\nRetry-After: 1\n"),
        "{head}"
    );
    assert_eq!(
        text_of(&root, ".bl-status"),
        "Denied: 429 with Retry\u{2011}After: 1 (the exact wait: 0.2\u{a0}s)."
    );
    assert!(
        text_of(&root, ".bl-wait").ends_with("= 0.2\u{a0}s"),
        "{}",
        text_of(&root, ".bl-wait")
    );
}

#[wasm_bindgen_test]
fn stepping_the_clock_refills_exactly() {
    let (root, diagram) = paused(&[
        ("data-capacity", "10"),
        ("data-refill-rate", "5"),
        ("data-tokens", "0"),
    ]);
    assert_eq!(text_of(&root, ".bl-counter"), "0,0 / 10");
    diagram.step(&JsValue::from(0.5)).unwrap();
    assert_eq!(text_of(&root, ".bl-counter"), "2,5 / 10");
    assert_eq!(diagram.tokens(), 2.5);
    diagram.step(&JsValue::from(100.0)).unwrap();
    assert_eq!(
        text_of(&root, ".bl-counter"),
        "10,0 / 10",
        "refill stops at capacity"
    );
    assert!(
        diagram.step(&JsValue::from(-1.0)).is_err(),
        "negative steps are refused"
    );
}

/// The message of the `Error` a failed mount throws.
fn mount_error(root: &Element) -> String {
    let error = mount_diagram(root, &JsValue::UNDEFINED)
        .err()
        .expect("a bad attribute is refused");
    error
        .dyn_into::<js_sys::Error>()
        .expect("an Error is thrown")
        .message()
        .into()
}

#[wasm_bindgen_test]
fn a_bad_capacity_throws_a_readable_error_and_leaves_the_element_alone() {
    let root = mount_point(&[("data-capacity", "-3"), ("data-lang", "en")]);
    root.set_inner_html("<p>Loading the diagram…</p>");
    assert_eq!(
        mount_error(&root),
        "capacity must be a finite number greater than 0, got -3"
    );
    assert_eq!(root.inner_html(), "<p>Loading the diagram…</p>");
}

#[wasm_bindgen_test]
fn text_is_quoted_in_the_error_never_parsed_as_markup() {
    let root = mount_point(&[("data-refill-rate", "<img src=x onerror=alert(1)>")]);
    assert_eq!(
        mount_error(&root),
        "refillRate must be a finite number of at least 0, got \"<img src=x onerror=alert(1)>\""
    );
    assert!(root.query_selector("img").unwrap().is_none());
    assert!(
        root.query_selector("[data-live]").unwrap().is_none(),
        "nothing attached"
    );
}

#[wasm_bindgen_test]
fn an_element_without_the_widget_markup_is_refused_with_a_clear_error() {
    let root = mount_point(&[]);
    root.set_inner_html("");
    assert_eq!(
        mount_error(&root),
        "the element holds no widget markup (.bl-widget): insert it first"
    );
}

#[wasm_bindgen_test]
fn a_full_idle_bucket_schedules_no_frames_and_a_send_starts_them() {
    let root = mount_point(&[]);
    let diagram = mount_diagram(&root, &JsValue::UNDEFINED).unwrap();
    assert!(!diagram.is_animating(), "full and idle: no frame loop");
    click_send(&root);
    assert!(diagram.is_animating(), "refilling: frames scheduled");
    diagram.pause();
    assert!(
        !diagram.is_animating(),
        "paused: no frame is left scheduled"
    );
}

#[wasm_bindgen_test]
fn dropping_the_diagram_empties_its_element_and_leaves_others_alone() {
    let (first_root, first) = paused(&[("data-capacity", "3")]);
    let (second_root, _second) = paused(&[("data-capacity", "7")]);
    click_send(&first_root);
    assert_eq!(
        text_of(&second_root, ".bl-counter"),
        "7,0 / 7",
        "instances are independent"
    );
    drop(first);
    assert_eq!(first_root.child_element_count(), 0);
    click_send(&second_root);
    assert_eq!(text_of(&second_root, ".bl-counter"), "6,0 / 7");
}

fn click(root: &Element, selector: &str) {
    root.query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into::<HtmlElement>()
        .click();
}

#[wasm_bindgen_test]
fn the_default_bucket_is_small_and_slow_and_step_back_shows_the_past() {
    // No data-capacity or data-refill-rate: B = 5, r = 1.
    let (root, diagram) = paused(&[("data-lang", "en")]);
    assert_eq!((diagram.capacity(), diagram.refill_rate()), (5.0, 1.0));
    assert_eq!(text_of(&root, ".bl-counter"), "5.0 / 5");
    for _ in 0..5 {
        click_send(&root);
    }
    diagram.step(&JsValue::from(0.3)).unwrap();
    click_send(&root);
    assert!(text_of(&root, ".bl-status").starts_with("Denied: 429"));
    // Back 0.2 s: before the denied click, 0.1 s after the burst.
    click(&root, ".bl-step-back");
    click(&root, ".bl-step-back");
    assert!(diagram.traveling());
    assert!((diagram.view_time() - 0.1).abs() < 1e-9);
    assert_eq!(text_of(&root, ".bl-counter"), "0.1 / 5");
    assert_eq!(text_of(&root, ".bl-status"), "Admitted: 0 tokens left.");
    let slider = root.query_selector("[role=slider]").unwrap().unwrap();
    assert_eq!(
        slider.get_attribute("aria-valuetext").as_deref(),
        Some("0.1 s, 0.2 s before live; tokens: 0.1. Admitted: 0 tokens left.")
    );
    click(&root, ".bl-to-live");
    assert!(!diagram.traveling());
    assert!(text_of(&root, ".bl-status").starts_with("Denied: 429"));
}

#[wasm_bindgen_test]
fn a_mount_error_carries_its_words_for_the_reader_in_the_root_language() {
    let root = mount_point(&[("data-capacity", "0"), ("data-lang", "pt-BR")]);
    let error = mount_diagram(&root, &JsValue::UNDEFINED)
        .err()
        .expect("a bad attribute is refused");
    let localized = js_sys::Reflect::get(&error, &"localized".into()).unwrap();
    assert_eq!(
        localized.as_string().as_deref(),
        Some("Capacidade B: 0 não é permitido; use um número maior que 0.")
    );
    assert_eq!(
        mount_error(&root),
        "capacity must be a finite number greater than 0, got 0",
        "scripts keep the API's message"
    );
}

/// Types `value` into the field at `selector` and leaves it (its change event).
fn enter(root: &Element, selector: &str, value: &str) {
    let field = root.query_selector(selector).unwrap().unwrap();
    js_sys::Reflect::set(&field, &"value".into(), &value.into()).unwrap();
    field
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

#[wasm_bindgen_test]
fn a_language_the_lesson_does_not_speak_gets_english_words_as_its_markup_does() {
    for (lang, error) in [
        (
            "de",
            "Burst of: 101 is not allowed; use a whole number from 1 to 100.",
        ),
        (
            "pt-PT",
            "Rajada de: 101 não é permitido; use um número inteiro de 1 a 100.",
        ),
    ] {
        let (root, _diagram) = paused(&[("data-lang", lang)]);
        enter(&root, ".bl-burst-size", "101");
        assert_eq!(text_of(&root, ".bl-input-error"), error, "{lang}");
    }
}

#[wasm_bindgen_test]
fn a_refused_field_is_marked_and_named_by_its_label_until_its_value_is_allowed() {
    let (root, _diagram) = paused(&[("data-capacity", "10"), ("data-lang", "en")]);
    enter(&root, ".bl-burst-size", "101");
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "Burst of: 101 is not allowed; use a whole number from 1 to 100."
    );
    let field = root.query_selector(".bl-burst-size").unwrap().unwrap();
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        described(&root, &field),
        "Burst of: 101 is not allowed; use a whole number from 1 to 100."
    );
    // A second refused field is described by its own line only, and the first keeps its own.
    enter(&root, ".bl-cost", "0");
    let cost = root.query_selector(".bl-cost").unwrap().unwrap();
    assert_eq!(
        described(&root, &cost),
        "Cost c: 0 is not allowed; use a whole number from 1 to 10."
    );
    assert_eq!(
        described(&root, &field),
        "Burst of: 101 is not allowed; use a whole number from 1 to 100."
    );
    assert_eq!(
        root.query_selector_all(".bl-input-error [role=alert]:not(:empty)")
            .unwrap()
            .length(),
        2
    );
    enter(&root, ".bl-cost", "1");
    assert_eq!(cost.get_attribute("aria-describedby"), None);
    enter(&root, ".bl-burst-size", "100");
    assert_eq!(text_of(&root, ".bl-input-error"), "");
    assert_eq!(field.get_attribute("aria-invalid"), None);
    assert_eq!(field.get_attribute("aria-describedby"), None);
}

/// Puts `value` in the input `selector` and fires its `input` event, as moving a slider does.
fn slide(root: &Element, selector: &str, value: &str) {
    let input = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    input.set_value(value);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

/// The value an input holds now (a range's value is its thumb's place).
fn value_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// The sliders' values and their outputs: `[B, B's output, r, r's output]`.
fn sliders(root: &Element) -> [String; 4] {
    [
        value_of(root, ".bl-capacity"),
        text_of(root, ".bl-capacity + .bl-out"),
        value_of(root, ".bl-rate"),
        text_of(root, ".bl-rate + .bl-out"),
    ]
}

#[wasm_bindgen_test]
fn going_back_in_time_shows_that_moments_b_and_r_on_the_sliders() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    click_send(&root);
    diagram.step(&JsValue::from(1.0)).unwrap();
    slide(&root, ".bl-capacity", "10");
    assert_eq!(sliders(&root), ["10", "10", "1", "1"]);
    diagram.seek(&JsValue::from(0.5)).unwrap();
    assert_eq!(text_of(&root, ".bl-counter"), "4.5 / 5");
    assert_eq!(sliders(&root), ["5", "5", "1", "1"], "the past moment's B");
    diagram.live();
    assert_eq!(sliders(&root), ["10", "10", "1", "1"], "live again");
}

#[wasm_bindgen_test]
fn a_replayed_scenario_shows_each_moments_b_and_r_on_the_sliders() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    // B = 5, r = 1; at 1 s B = 8, r = 1.5; ends at 2 s.
    diagram
        .play_scenario(&JsValue::from_str("1_5_1_5_2_1c8,1.5"))
        .unwrap();
    assert!(diagram.traveling());
    assert_eq!(sliders(&root), ["5", "5", "1", "1"], "the first moment");
    diagram.seek(&JsValue::from(1.5)).unwrap();
    assert_eq!(sliders(&root), ["8", "8", "1.5", "1.5"]);
}

#[wasm_bindgen_test]
fn a_value_off_the_sliders_step_is_kept_exactly_and_touching_the_other_keeps_it() {
    let (root, diagram) = paused(&[
        ("data-capacity", "2.5"),
        ("data-refill-rate", "0.25"),
        ("data-lang", "en"),
    ]);
    assert_eq!(sliders(&root), ["2.5", "2.5", "0.25", "0.25"]);
    slide(&root, ".bl-rate", "1");
    assert_eq!((diagram.capacity(), diagram.refill_rate()), (2.5, 1.0));
    assert_eq!(sliders(&root), ["2.5", "2.5", "1", "1"]);
    slide(&root, ".bl-capacity", "4");
    assert_eq!((diagram.capacity(), diagram.refill_rate()), (4.0, 1.0));
    assert_eq!(value_of(&root, ".bl-capacity"), "4");
}

#[wasm_bindgen_test]
fn lowering_b_below_the_cost_lowers_the_cost_and_says_so() {
    let (root, _diagram) = paused(&[("data-lang", "en")]);
    root.query_selector(".bl-cost")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .set_value("5");
    slide(&root, ".bl-capacity", "3");
    assert_eq!(value_of(&root, ".bl-cost"), "3");
    let note = root.query_selector(".bl-controls-note").unwrap().unwrap();
    assert_eq!(note.get_attribute("role").as_deref(), Some("status"));
    assert_eq!(
        text_of(&root, ".bl-controls-note"),
        "Cost c lowered from 5 to 3: the cost field goes up to B = 3 (a costlier request could never pass)."
    );
    click_send(&root);
    assert_eq!(text_of(&root, ".bl-counter"), "0.0 / 3", "the lowered cost");
    assert_eq!(text_of(&root, ".bl-controls-note"), "", "said once");
    slide(&root, ".bl-capacity", "2");
    assert_eq!(value_of(&root, ".bl-cost"), "2");
    assert_eq!(
        text_of(&root, ".bl-controls-note"),
        "Cost c lowered from 3 to 2: the cost field goes up to B = 2 (a costlier request could never pass)."
    );
}

#[wasm_bindgen_test]
fn a_refused_cost_is_not_lowered_as_if_taken_its_error_follows_the_new_b() {
    let (root, _diagram) = paused(&[("data-lang", "en")]);
    enter(&root, ".bl-cost", "2.5");
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "Cost c: 2.5 is not allowed; use a whole number from 1 to 5."
    );
    slide(&root, ".bl-capacity", "2");
    assert_eq!(value_of(&root, ".bl-cost"), "2.5", "left as typed");
    assert_eq!(
        text_of(&root, ".bl-controls-note"),
        "",
        "no \"lowered from 2.5\""
    );
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "Cost c: 2.5 is not allowed; use a whole number from 1 to 2."
    );
}

#[wasm_bindgen_test]
fn a_bad_traffic_rate_is_named_when_typed_with_traffic_off_and_off_stays_choosable() {
    let (root, _diagram) = paused(&[("data-lang", "en")]);
    enter(&root, ".bl-traffic-rate", "abc");
    let field = root.query_selector(".bl-traffic-rate").unwrap().unwrap();
    assert!(
        text_of(&root, ".bl-input-error").starts_with("Requests/s: "),
        "{}",
        text_of(&root, ".bl-input-error")
    );
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    // Traffic can't start with it; "off" can still be chosen, and the error stays meanwhile.
    choose(&root, ".bl-traffic", "steady");
    for _ in 0..5 {
        click(&root, ".bl-step");
    }
    assert_eq!(
        text_of(&root, ".bl-counter"),
        "5.0 / 5",
        "no traffic started"
    );
    choose(&root, ".bl-traffic", "off");
    assert!(text_of(&root, ".bl-input-error").starts_with("Requests/s: "));
    enter(&root, ".bl-traffic-rate", "8");
    assert_eq!(text_of(&root, ".bl-input-error"), "");
    assert_eq!(field.get_attribute("aria-invalid"), None);
}

/// Picks `value` in the menu `selector` and fires its `change` event, as a reader's choice does.
fn choose(root: &Element, selector: &str, value: &str) {
    let select = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlSelectElement>();
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

#[wasm_bindgen_test]
fn reset_gives_the_starting_state_cost_and_speed_included() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    slide(&root, ".bl-capacity", "6");
    root.query_selector(".bl-cost")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .set_value("3");
    choose(&root, ".bl-speed", "4");
    choose(&root, ".bl-traffic", "steady");
    click(&root, ".bl-reset");
    assert_eq!(diagram.capacity(), 5.0);
    assert_eq!(value_of(&root, ".bl-cost"), "1");
    assert_eq!(diagram.cost(), 1.0);
    let speed = root
        .query_selector(".bl-speed")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlSelectElement>()
        .value();
    assert_eq!(speed, "1");
    assert_eq!(value_of(&root, ".bl-traffic-rate"), "8");
    // A host's (or a link's) cost is the starting one.
    diagram.set_cost(&JsValue::from(2.0)).unwrap();
    root.query_selector(".bl-cost")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .set_value("4");
    click(&root, ".bl-reset");
    assert_eq!(value_of(&root, ".bl-cost"), "2");
}

#[wasm_bindgen_test]
fn the_timeline_slider_reads_the_live_lesson_time_to_the_tenth_when_it_gets_focus() {
    // Running, with lesson time 0 nearly 3 s ago: the value is 2.9 s or later, not "2 s".
    let root = mount_point(&[("data-lang", "en")]);
    let now_ms = web_sys::window().unwrap().performance().unwrap().now();
    let diagram = mount_diagram(&root, &JsValue::from(now_ms - 2950.0)).unwrap();
    let slider = root
        .query_selector(".bl-scrub")
        .unwrap()
        .unwrap()
        .unchecked_into::<HtmlElement>();
    slider.focus().unwrap();
    let value: f64 = slider
        .get_attribute("aria-valuenow")
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        value >= 2.9 && value <= diagram.now(),
        "aria-valuenow {value} at lesson time {}",
        diagram.now()
    );
    let text = slider.get_attribute("aria-valuetext").unwrap();
    assert!(text.ends_with(" s, live; tokens: 5.0."), "{text}");
    assert!(text.starts_with(&format!("{value:.1} s")), "{text}");
}

/// The message of the `Error` in `result`.
fn error_message<T: std::fmt::Debug>(result: Result<T, wasm_bindgen::JsError>) -> String {
    let value: JsValue = result.expect_err("an Error is thrown").into();
    value.unchecked_into::<js_sys::Error>().message().into()
}

#[wasm_bindgen_test]
fn a_step_beyond_an_hour_is_refused_and_the_timeline_keeps_working() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    click_send(&root);
    assert_eq!(
        error_message(diagram.step(&JsValue::from(1e308))),
        "seconds must be a finite number from 0 to 3600, got 1e+308"
    );
    assert_eq!(
        error_message(diagram.step(&JsValue::from(1e20))),
        "seconds must be a finite number from 0 to 3600, got 100000000000000000000"
    );
    assert_eq!(diagram.now(), 0.0, "nothing moved");
    diagram.step(&JsValue::from(3600.0)).unwrap();
    assert_eq!(
        error_message(diagram.seek(&JsValue::from(-5.0))),
        "t must be a finite number from 3580 to 3600, got -5"
    );
    diagram.step_back(&JsValue::from(0.1)).unwrap();
    assert!((diagram.view_time() - 3599.9).abs() < 1e-9);
}

#[wasm_bindgen_test]
fn a_replayed_scenario_opens_on_a_status_that_invites_stepping_and_with_its_cost() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    // Two requests of cost 2, at 0.5 s and 1 s; ends at 3 s.
    diagram
        .play_scenario(&JsValue::from_str("1_5_1_5_3_0.5s2,1_1s2,1"))
        .unwrap();
    assert_eq!(value_of(&root, ".bl-cost"), "2", "the recorded cost");
    assert_eq!(
        text_of(&root, ".bl-status"),
        "No request yet at this moment. To see what came next, press “Resume” or “Step \
         0.1\u{a0}s”, or go “Back to live”."
    );
    diagram.seek(&JsValue::from(0.7)).unwrap();
    assert_eq!(text_of(&root, ".bl-counter"), "3.2 / 5");
    click(&root, ".bl-reset");
    assert_eq!(
        text_of(&root, ".bl-status"),
        "No request yet: press “Send request”.",
        "live, after a reset: the invitation to send"
    );
}

fn performance_now() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

/// The decimals of each number after "from " and " to " in a range message.
fn bound_decimals(message: &str) -> Vec<usize> {
    let range = message.split("from ").nth(1).unwrap_or_default();
    let range = range.split(", got").next().unwrap_or_default();
    range
        .split(" to ")
        .map(|n| n.split('.').nth(1).map_or(0, str::len))
        .collect()
}

#[wasm_bindgen_test]
fn send_at_takes_only_a_time_from_lesson_time_zero_to_now_and_names_the_range() {
    let root = mount_point(&[("data-lang", "en")]);
    let since = performance_now() - 500.0;
    let diagram = mount_diagram(&root, &JsValue::from(since)).unwrap();
    let tokens = diagram.tokens();
    for wall_ms in [performance_now() + 1e9, -1e308, since - 1.0, f64::NAN] {
        let message = error_message(diagram.send_at(&JsValue::from(wall_ms)));
        assert!(
            message.starts_with("wallMs must be a finite number from "),
            "{message}"
        );
        assert!(
            message.ends_with(&format!(", got {}", js_text(wall_ms))),
            "{message}"
        );
        let decimals = bound_decimals(&message);
        assert!(
            decimals.len() == 2 && decimals.iter().all(|&d| d <= 3),
            "{message}"
        );
    }
    assert!(
        diagram.tokens() >= tokens,
        "nothing taken: {}",
        diagram.tokens()
    );
    assert!(
        diagram.now() < 1.0,
        "the clock not moved ahead: {}",
        diagram.now()
    );
    assert!(
        diagram.send_at(&JsValue::from(since)).unwrap(),
        "lesson time 0"
    );
    assert!(
        diagram.send_at(&JsValue::from(performance_now())).unwrap(),
        "now"
    );
    assert!(diagram.tokens() < tokens, "both clicks taken");
    assert_eq!(
        error_message(diagram.send_at(&JsValue::from_str("1")))
            .split(", got")
            .nth(1),
        Some(" a value of type string")
    );
}

/// `value` as JavaScript's `String(value)` writes it.
fn js_text(value: f64) -> String {
    String::from(
        js_sys::Number::from(value)
            .to_string_with_radix(10)
            .unwrap(),
    )
}

#[wasm_bindgen_test]
fn step_and_seek_state_their_range_for_a_value_that_is_not_a_number_too() {
    let (_root, diagram) = paused(&[("data-lang", "en")]);
    for given in [JsValue::UNDEFINED, JsValue::from_str("1")] {
        let message = error_message(diagram.step(&given));
        assert!(
            message.starts_with("seconds must be a finite number from 0 to 3600, "),
            "{message}"
        );
    }
    diagram.step(&JsValue::from(30.0)).unwrap();
    assert_eq!(
        error_message(diagram.seek(&JsValue::UNDEFINED)),
        "t must be a finite number from 10 to 30, it is missing"
    );
    assert_eq!(
        error_message(diagram.seek(&JsValue::from(31.0))),
        "t must be a finite number from 10 to 30, got 31"
    );
}

#[wasm_bindgen_test]
fn text_arguments_that_are_not_strings_are_named_not_a_trap() {
    let (root, diagram) = paused(&[("data-lang", "en")]);
    for given in [JsValue::from(42.0), JsValue::NULL] {
        let kind = if given.is_null() { "null" } else { "number" };
        assert_eq!(
            error_message(diagram.play_scenario(&given)),
            format!(
                "text must be a string (a scenario's text, as in a #s= link), got a value of type {kind}"
            )
        );
        let error = diagram.show_controls(&given).expect_err("refused");
        let message: String = error.unchecked_into::<js_sys::Error>().message().into();
        assert_eq!(
            message,
            format!(
                "list must be a string: \"all\", \"none\" or control group names, got a value of type {kind}"
            )
        );
    }
    assert_eq!(
        error_message(diagram.play_scenario(&JsValue::UNDEFINED)),
        "text must be a string (a scenario's text, as in a #s= link), it is missing"
    );
    assert_eq!(text_of(&root, ".bl-counter"), "5.0 / 5", "nothing changed");
}

#[wasm_bindgen_test]
fn a_scripts_refused_call_shows_until_its_next_call_ends_and_a_refused_fields_error_stays() {
    let (root, diagram) = paused(&[("data-capacity", "10"), ("data-lang", "en")]);
    assert!(diagram.send(&JsValue::from_str("2")).is_err());
    // Named as the script's argument, not as the reader's cost field, which is not marked.
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "cost: a value of type string is not a number; use a number of at least 0."
    );
    assert!(!root
        .query_selector(".bl-cost")
        .unwrap()
        .unwrap()
        .has_attribute("aria-invalid"));
    assert!(matches!(diagram.send(&JsValue::from_f64(1.0)), Ok(true)));
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "",
        "cleared by the next call"
    );
    assert!(diagram.step(&JsValue::from_f64(-1.0)).is_err());
    let refused = text_of(&root, ".bl-input-error");
    assert!(refused.contains("-1 is not allowed"), "{refused}");
    diagram.pause();
    assert_eq!(text_of(&root, ".bl-input-error"), "");
    // A field the reader left refused keeps its error through a script's calls.
    enter(&root, ".bl-burst-size", "101");
    assert!(diagram.step(&JsValue::from_f64(0.5)).is_ok());
    assert_eq!(
        text_of(&root, ".bl-input-error"),
        "Burst of: 101 is not allowed; use a whole number from 1 to 100."
    );
}

/// `key` of the JavaScript object `value`.
fn property(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap()
}

#[wasm_bindgen_test]
fn a_scripts_refused_argument_carries_its_problem_and_the_words_the_widget_shows() {
    let (root, diagram) = paused(&[("data-lang", "pt-BR")]);
    diagram.step(&JsValue::from(30.0)).unwrap();
    // seek and sendAt: named by the API's argument, with the same as data and in the page's words
    // (www/i18n/refusal.js words `problem`; the element's error box shows `localized`).
    let error: JsValue = diagram.seek(&JsValue::from(-5.0)).unwrap_err().into();
    let problem = property(&error, "problem");
    assert_eq!(
        property(&problem, "field").as_string().as_deref(),
        Some("t")
    );
    assert_eq!(
        property(&problem, "rule").as_string().as_deref(),
        Some("between")
    );
    assert_eq!(property(&problem, "min").as_f64(), Some(10.0));
    assert_eq!(property(&problem, "max").as_f64(), Some(30.0));
    assert_eq!(property(&problem, "given").as_f64(), Some(-5.0));
    let localized = property(&error, "localized").as_string().unwrap();
    assert_eq!(
        localized,
        "t: -5 não é permitido; use um número de 10 a 30."
    );
    assert!(
        root.text_content().unwrap().contains(&localized),
        "the words the error line shows"
    );
    let error: JsValue = diagram.send_at(&JsValue::from_str("1")).unwrap_err().into();
    let problem = property(&error, "problem");
    assert_eq!(
        property(&problem, "field").as_string().as_deref(),
        Some("wallMs")
    );
    assert_eq!(
        property(&problem, "type").as_string().as_deref(),
        Some("string")
    );
    assert!(property(&error, "localized")
        .as_string()
        .unwrap()
        .starts_with("wallMs: "));
    // A refused field's value: its label in the page's language.
    let error: JsValue = diagram
        .configure(&JsValue::from_str("10"), &JsValue::from(2.0))
        .unwrap_err()
        .into();
    assert_eq!(
        property(&property(&error, "problem"), "field")
            .as_string()
            .as_deref(),
        Some("capacity")
    );
    assert_eq!(
        property(&error, "localized").as_string().as_deref(),
        Some("Capacidade B: um valor do tipo string não é um número; use um número maior que 0.")
    );
}

#[wasm_bindgen_test]
fn a_since_that_is_not_a_finite_number_is_refused_not_taken_as_now() {
    for (since, given) in [
        (JsValue::from_str("5"), "got a value of type string"),
        (JsValue::NULL, "got a value of type null"),
        (JsValue::from(f64::NAN), "got NaN"),
    ] {
        let root = mount_point(&[("data-lang", "en")]);
        let error = mount_diagram(&root, &since).err().expect("refused");
        let message: String = error
            .clone()
            .unchecked_into::<js_sys::Error>()
            .message()
            .into();
        assert_eq!(message, format!("since must be a finite number, {given}"));
        assert_eq!(
            property(&property(&error, "problem"), "field")
                .as_string()
                .as_deref(),
            Some("since")
        );
        assert!(
            root.query_selector(".bl-widget[data-live]")
                .unwrap()
                .is_none(),
            "nothing attached"
        );
    }
}
