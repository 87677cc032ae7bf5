//! Generates the widget's word tables from `locales/<lang>/widget.json` (and the refusal words
//! from `locales/<lang>/errors.json`, which the pages' JavaScript words its refusals with too): the words the live widget
//! writes at run time (`Locale`: `PT_BR`, `EN` in `src/view/locale.rs`, compiled into the wasm)
//! and the words only its build-time markup holds (`Words`: `PT_BR_WORDS`, `EN_WORDS` in
//! `src/view/markup.rs`, used natively by the markup renderer, so they never reach the wasm). The
//! widget's words live in the same tables, in the same format, as every other word of the lesson,
//! and the compiler checks that each table fills every field of both structs (a missing or unknown
//! key is a build error naming it).

use std::fmt::Write;
use std::path::Path;

/// Each table: the Rust constant and its language (the folder under `locales/`).
const TABLES: [(&str, &str); 2] = [("PT_BR", "pt-BR"), ("EN", "en")];

/// The keys the widget writes while it runs (everything else is in the markup only).
const RUN_TIME: [&str; 28] = [
    "decimal",
    "pause",
    "resume",
    "svg_desc",
    "capacity_label",
    "rate_label",
    "idle",
    "admitted",
    "admitted_one",
    "denied",
    "denied_endless",
    "never_cost",
    "never_rate",
    "summary",
    "refill_formula",
    "debit_formula",
    "exact_wait",
    "countdown",
    "retry_now",
    "countdown_changed",
    "retry_now_changed",
    "never_changed",
    "paused_said",
    "resumed_said",
    "scrub_live",
    "scrub_past",
    "scrub_mark",
    "err_controls",
];

/// The refusal words, `Locale` field ← its path in `errors.json`: one text for the widget (here)
/// and for the pages' refusals (`www/i18n/refusal.js`).
const REFUSALS: [(&str, &str); 17] = [
    ("err_refused", "refused"),
    ("err_text", "notNumber"),
    ("err_too_large", "tooLarge"),
    ("err_empty", "empty"),
    ("err_unreadable", "unreadable"),
    ("err_too_small", "tooSmall"),
    ("err_ambiguous", "ambiguous"),
    ("err_ambiguous_typed", "ambiguousTyped"),
    ("err_ambiguous_point", "ambiguousPoint"),
    ("err_type", "wrongType"),
    ("rule_positive", "rules.positive"),
    ("rule_non_negative", "rules.nonNegative"),
    ("rule_up_to", "rules.upTo"),
    ("rule_positive_up_to", "rules.positiveUpTo"),
    ("rule_between", "rules.between"),
    ("rule_whole", "rules.whole"),
    ("rule_finite", "rules.finite"),
];

/// The labels of the fields a person types into: written by the markup and, in an error about
/// the field, by the widget at run time, so they go into both tables.
const LABELS: [&str; 7] = [
    "capacity",
    "rate",
    "cost",
    "burst_size",
    "traffic_rate",
    "seed",
    "speed",
];

fn main() {
    let (mut run_time, mut markup) = (String::new(), String::new());
    for (constant, lang) in TABLES {
        let path = format!("locales/{lang}/widget.json");
        println!("cargo::rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| fail(&path, &err));
        let table: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_else(|err| fail(&path, &err));
        let _ = writeln!(
            run_time,
            "/// The widget's run-time words in `{lang}`, from `{path}`."
        );
        let _ = writeln!(run_time, "pub const {constant}: Locale = Locale {{");
        let _ = writeln!(run_time, "    lang: {lang:?},");
        let _ = writeln!(
            markup,
            "/// The widget's markup words in `{lang}`, from `{path}`."
        );
        let _ = writeln!(markup, "pub const {constant}_WORDS: Words = Words {{");
        let _ = writeln!(markup, "    locale: &{constant},");
        for (key, value) in &table {
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                fail(
                    &path,
                    &format!("key {key:?} is not a field name (a-z and _)"),
                );
            }
            let Some(text) = value.as_str() else {
                fail(&path, &format!("{key} must be a string, got {value}"));
            };
            if LABELS.contains(&key.as_str()) {
                let _ = writeln!(run_time, "    {key}: {text:?},");
            }
            let code = if RUN_TIME.contains(&key.as_str()) {
                &mut run_time
            } else {
                &mut markup
            };
            if key == "decimal" {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => {
                        let _ = writeln!(code, "    decimal: {c:?},");
                    }
                    _ => fail(
                        &path,
                        &format!("decimal must be one character, got {text:?}"),
                    ),
                }
            } else {
                let _ = writeln!(code, "    {key}: {text:?},");
            }
        }
        let path = format!("locales/{lang}/errors.json");
        println!("cargo::rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| fail(&path, &err));
        let errors: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|err| fail(&path, &err));
        for (field, key) in REFUSALS {
            let pointer = format!("/{}", key.replace('.', "/"));
            let Some(text) = errors.pointer(&pointer).and_then(|v| v.as_str()) else {
                fail(&path, &format!("{key} must be a string"));
            };
            let _ = writeln!(run_time, "    {field}: {text:?},");
        }
        run_time.push_str("};\n");
        markup.push_str("};\n");
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    for (name, code) in [("widget_locales.rs", run_time), ("markup_words.rs", markup)] {
        let file = Path::new(&out).join(name);
        std::fs::write(&file, code).unwrap_or_else(|err| fail(&file.display().to_string(), &err));
    }
}

fn fail(path: &str, why: &dyn std::fmt::Display) -> ! {
    panic!("{path}: {why}");
}
