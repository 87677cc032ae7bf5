//! Generates the widget's word tables, `PT_BR` and `EN` in `src/view/locale.rs`, from
//! `locales/<lang>/widget.json`: the widget's words live in the same tables, in the same format, as
//! every other word of the lesson, and the compiler checks that each table fills every field of
//! `Locale` (a missing or unknown key is a build error naming it).

use std::fmt::Write;
use std::path::Path;

/// Each table: the Rust constant and its language (the folder under `locales/`).
const TABLES: [(&str, &str); 2] = [("PT_BR", "pt-BR"), ("EN", "en")];

fn main() {
    let mut code = String::new();
    for (constant, lang) in TABLES {
        let path = format!("locales/{lang}/widget.json");
        println!("cargo::rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| fail(&path, &err));
        let table: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_else(|err| fail(&path, &err));
        let _ = writeln!(code, "/// The widget's words in `{lang}`, from `{path}`.");
        let _ = writeln!(code, "pub const {constant}: Locale = Locale {{");
        let _ = writeln!(code, "    lang: {lang:?},");
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
        code.push_str("};\n");
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let file = Path::new(&out).join("widget_locales.rs");
    std::fs::write(&file, code).unwrap_or_else(|err| fail(&file.display().to_string(), &err));
}

fn fail(path: &str, why: &dyn std::fmt::Display) -> ! {
    panic!("{path}: {why}");
}
