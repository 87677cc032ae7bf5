//! The words the live widget writes, one table per language (generated from
//! `locales/<lang>/widget.json` by `build.rs`; the markup's own words are in `markup.rs`). `{name}` marks are filled in by [`fill`].

use crate::limiter::number::{self, NumberText};
use crate::limiter::{groups_thousands, reorders_text, Field, Given, InvalidValue, Rule};

/// How [`Locale::number`] writes a nonzero value too small for its decimals (never as 0): to 3
/// significant digits, `0.0004`, `1e-20`. Natively in Rust ([`number::significant`]); in the
/// widget's wasm by JavaScript, `String(Number(v.toPrecision(3)))`, which keeps the code out of
/// the module. The two agree but for subnormals (`5e-324`, natively `4.94e-324`).
#[cfg(not(target_arch = "wasm32"))]
const SMALL: NumberText = number::significant;
#[cfg(target_arch = "wasm32")]
const SMALL: NumberText = js_significant;

#[cfg(target_arch = "wasm32")]
fn js_significant(value: f64) -> String {
    use crate::wasm::convert::{js_decimal, js_number};
    let text = js_sys::Number::from(value)
        .to_precision(3)
        .map(String::from)
        .unwrap_or_default();
    js_number(js_decimal(&text))
}

/// Every string the widget writes while it runs, in one language.
pub struct Locale {
    /// BCP 47 tag of the language.
    pub lang: &'static str,
    /// Decimal separator.
    pub decimal: char,
    pub pause: &'static str,
    pub resume: &'static str,
    /// `{b}` capacity, `{r}` refill rate.
    pub svg_desc: &'static str,
    pub capacity_label: &'static str,
    pub rate_label: &'static str,
    /// `{t}` lesson seconds, at the live moment (the timeline slider's value text, also said
    /// after a step or a pause); `{n}` the tokens then, `{o}` a recent request's outcome (with a
    /// space before it) or nothing.
    pub scrub_live: &'static str,
    /// `{t}` lesson seconds, `{d}` seconds before the live moment; `{n}`, `{o}` as above.
    pub scrub_past: &'static str,
    /// `{d}` seconds before the live moment: the playhead's label on the timeline, under its line.
    pub scrub_mark: &'static str,
    pub idle: &'static str,
    /// `{n}` whole tokens left.
    pub admitted: &'static str,
    /// The same in the singular (one token left; in Portuguese, any count under 2 but 0).
    pub admitted_one: &'static str,
    /// `{h}` the `Retry-After` header's whole seconds, `{s}` the exact wait in seconds. The
    /// header's name is written with a non-breaking hyphen (U+2011): a narrow status line never
    /// breaks it in two.
    pub denied: &'static str,
    /// A denial whose wait is too long for a `Retry-After` header (it is left out).
    pub denied_endless: &'static str,
    /// `{c}` cost, `{b}` capacity.
    pub never_cost: &'static str,
    pub never_rate: &'static str,
    /// `{n}` requests, `{a}` admitted, `{d}` denied, `{t}` whole tokens left.
    pub summary: &'static str,
    /// `{b}`, `{t0}` tokens before, `{dt}` elapsed, `{r}`, `{t1}` after refill.
    pub refill_formula: &'static str,
    /// `{t1}` available, `{c}` cost, `{t2}` left.
    pub debit_formula: &'static str,
    /// `{c}` cost, `{t}` tokens, `{r}` rate, `{s}` wait.
    pub exact_wait: &'static str,
    /// `{s}` seconds left until the retry, counted down after a 429.
    pub countdown: &'static str,
    /// Once the retry time has come.
    pub retry_now: &'static str,
    /// The countdown when `B` or `r` changed since the refusal: the wait is the new bucket's (`{s}`).
    pub countdown_changed: &'static str,
    /// The wait's end, when `B` or `r` changed since the refusal.
    pub retry_now_changed: &'static str,
    /// When `B` or `r` changed since the refusal and the same request can now never pass.
    pub never_changed: &'static str,
    /// Said before the moment when a reader pauses lesson time.
    pub paused_said: &'static str,
    /// Said when a reader resumes it.
    pub resumed_said: &'static str,
    /// A refused number: `{field}` the field's label, `{given}` the value, `{rule}` one of the
    /// `rule_*` texts.
    pub err_refused: &'static str,
    /// The same for text that is not a number.
    pub err_text: &'static str,
    /// The same for text that is a number too large for a double.
    pub err_too_large: &'static str,
    /// The same for an empty field.
    pub err_empty: &'static str,
    /// A number field holding text it can't read as a number (`{field}`, `{rule}`).
    pub err_unreadable: &'static str,
    /// A number other than 0 too small to tell from 0 (`{field}`, `{given}`, `{rule}`).
    pub err_too_small: &'static str,
    /// A comma before three digits (`{field}`, `{given}`, `{whole}` and `{point}` its two
    /// readings, `1000` and `1.000`).
    pub err_ambiguous: &'static str,
    /// The same typed into a form field (`{field}`, `{given}`, `{whole}`, `{decimal}` the decimal
    /// reading as the field takes it: `1,5` with a decimal comma).
    pub err_ambiguous_typed: &'static str,
    /// A point before three digits typed with a decimal comma (`1.500`; the marks as above).
    pub err_ambiguous_point: &'static str,
    /// A value of another type than a number (`{field}`, `{given}` its `typeof`, `{rule}`).
    pub err_type: &'static str,
    /// A `controls` list with an unknown group: `{given}` the list, `{groups}` the group names.
    pub err_controls: &'static str,
    pub rule_positive: &'static str,
    pub rule_non_negative: &'static str,
    /// `{max}`.
    pub rule_up_to: &'static str,
    /// `{max}`.
    pub rule_positive_up_to: &'static str,
    /// `{min}`, `{max}`.
    pub rule_between: &'static str,
    /// `{min}`, `{max}`, whole numbers.
    pub rule_whole: &'static str,
    pub rule_finite: &'static str,
    // The labels of the fields, as the markup shows them (named in errors).
    pub capacity: &'static str,
    pub rate: &'static str,
    pub cost: &'static str,
    pub burst_size: &'static str,
    pub traffic_rate: &'static str,
    pub seed: &'static str,
    pub speed: &'static str,
}

// `PT_BR` (Brazilian Portuguese, the lesson's first language) and `EN`, generated by build.rs
// from locales/pt-BR/widget.json and locales/en/widget.json.
include!(concat!(env!("OUT_DIR"), "/widget_locales.rs"));

/// The table for a language tag, by the rule of `pickLang` (www/i18n/translate.js), so the
/// markup and the words the wasm writes agree: Brazilian Portuguese for no tag and for `pt…`
/// (by its first part: `pt-PT`, `PT`), English for `en…` and for a language the lesson does not
/// speak (a reader of a page in German is likelier to read English than Portuguese).
pub fn for_lang(tag: &str) -> &'static Locale {
    let primary = tag.split('-').next().unwrap_or_default();
    if tag.trim().is_empty() || primary.eq_ignore_ascii_case("pt") {
        &PT_BR
    } else {
        &EN
    }
}

/// Replaces each `{key}` in `template` with its value; a mark with no value stays as it is.
/// One pass with char searches (string replacement would pull the two-way string searcher and
/// its panic paths into the wasm).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    for (i, piece) in template.split('{').enumerate() {
        if i == 0 {
            out.push_str(piece);
            continue;
        }
        let known = piece.split_once('}').and_then(|(key, rest)| {
            let (_, value) = values.iter().find(|(k, _)| *k == key)?;
            Some((value, rest))
        });
        match known {
            Some((value, rest)) => {
                out.push_str(value);
                out.push_str(rest);
            }
            None => {
                out.push('{');
                out.push_str(piece);
            }
        }
    }
    out
}

impl Locale {
    /// `value` with at most `decimals` decimals, trailing zeros dropped, in this language's style.
    pub fn number(&self, value: f64, decimals: usize) -> String {
        self.localize(number::trimmed(value, decimals as u32, SMALL))
    }

    /// `value` with exactly `decimals` decimals, in this language's style.
    pub fn fixed(&self, value: f64, decimals: usize) -> String {
        self.localize(number::fixed(value, decimals as u32))
    }

    /// The label a person sees on `field`'s control; the core's name for a field with none.
    pub fn label(&self, field: Field) -> &'static str {
        match field {
            Field::Capacity => self.capacity,
            Field::RefillRate => self.rate,
            Field::Cost => self.cost,
            Field::BurstSize => self.burst_size,
            Field::TrafficRate => self.traffic_rate,
            Field::Seed => self.seed,
            Field::Speed => self.speed,
            other => other.name(),
        }
    }

    /// `err` in this language for a person: the field's visible label, the value as typed (its
    /// numbers written by `number`, then with this language's decimal separator) and what is
    /// allowed. JavaScript callers get the core's own message instead, with the API's names.
    pub fn invalid(&self, err: &InvalidValue, number: NumberText) -> String {
        const MAX_QUOTED: usize = 40;
        // A number as a form takes it back: with a decimal comma, 18,181 could group thousands,
        // so it is written 18,1810, as the page's refusals write it (www/i18n/refusal.js).
        let write = |value: f64| {
            let mut text = self.localize(number(value));
            if self.decimal != '.' && groups_thousands(&text, self.decimal) {
                text.push('0');
            }
            text
        };
        let rule = match err.rule {
            Rule::Positive => self.rule_positive.to_owned(),
            Rule::NonNegative => self.rule_non_negative.to_owned(),
            Rule::UpTo(max) => fill(self.rule_up_to, &[("max", &write(max))]),
            Rule::PositiveUpTo(max) => fill(self.rule_positive_up_to, &[("max", &write(max))]),
            Rule::Between(min, max) => fill(
                self.rule_between,
                &[("min", &write(min)), ("max", &write(max))],
            ),
            Rule::Whole(min, max) => fill(
                self.rule_whole,
                &[("min", &write(min.into())), ("max", &write(max.into()))],
            ),
            Rule::Finite => self.rule_finite.to_owned(),
        };
        let (template, given) = match &err.given {
            Given::Number(value) => (self.err_refused, write(*value)),
            Given::Text(text) if text.trim().is_empty() => (self.err_empty, String::new()),
            Given::Text(text) | Given::TooLarge(text) | Given::TooSmall(text) => {
                let cut = quoted(text.trim(), MAX_QUOTED);
                let template = match err.given {
                    Given::TooLarge(_) => self.err_too_large,
                    Given::TooSmall(_) => self.err_too_small,
                    _ => self.err_text,
                };
                (template, cut)
            }
            Given::Ambiguous(text) => {
                // The decimal reading with a point in either language: with a comma it would be
                // the ambiguous text again.
                let (whole, point) = Given::readings(text);
                let field = self.label(err.field);
                let marks = [
                    ("field", field),
                    ("given", text),
                    ("whole", &whole),
                    ("point", &point),
                ];
                return fill(self.err_ambiguous, &marks);
            }
            Given::Missing => (self.err_empty, String::new()),
            Given::Unreadable => (self.err_unreadable, String::new()),
            Given::Type(kind) => (self.err_type, (*kind).to_owned()),
        };
        let field = self.label(err.field);
        fill(
            template,
            &[("field", field), ("given", &given), ("rule", &rule)],
        )
    }

    /// [`Locale::invalid`] for a value typed into one of the widget's fields: text that could
    /// group thousands (`1,500`; with a decimal comma `1.500` too) gets its decimal reading as the
    /// field would take it (`1,5`; `999,9990`, whose three decimals would be refused again), as the
    /// page's forms word it (www/i18n/refusal.js).
    pub fn invalid_typed(&self, err: &InvalidValue, number: NumberText) -> String {
        let Given::Ambiguous(text) = &err.given else {
            return self.invalid(err, number);
        };
        let comma = text.contains(',');
        let point = text.replacen(',', ".", 1);
        let decimal = if self.decimal == '.' {
            point
        } else {
            let mut decimal =
                self.localize(point.trim_end_matches('0').trim_end_matches('.').to_owned());
            if groups_thousands(&decimal, self.decimal) {
                decimal.push('0');
            }
            decimal
        };
        let whole = text.replacen([',', '.'], "", 1);
        fill(
            if comma {
                self.err_ambiguous_typed
            } else {
                self.err_ambiguous_point
            },
            &[
                ("field", self.label(err.field)),
                ("given", text),
                ("whole", &whole),
                ("decimal", &decimal),
            ],
        )
    }

    /// Swaps the decimal point for this language's separator.
    fn localize(&self, text: String) -> String {
        if self.decimal == '.' {
            text
        } else {
            // A char map rather than `str::replace`: less code in the wasm.
            text.chars()
                .map(|c| if c == '.' { self.decimal } else { c })
                .collect()
        }
    }
}

/// `text` as a message quotes it: at most `max` characters, then "…" when it is longer; a character
/// that would reorder the message around it (U+202E: [`reorders_text`]) written as its code,
/// `\u{202e}`, as the page's messages quote it (www/i18n/translate.js, `cut`).
fn quoted(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if reorders_text(c) {
            out.push_str("\\u{");
            number::push_hex(&mut out, u32::from(c));
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(PT_BR.number(7.4, 1), "7,4");
        assert_eq!(EN.number(7.4, 1), "7.4");
        assert_eq!(PT_BR.number(10.0, 1), "10");
        assert_eq!(PT_BR.number(0.2, 3), "0,2");
        assert_eq!(PT_BR.fixed(10.0, 1), "10,0");
    }

    #[test]
    fn a_tag_picks_its_language_as_the_pages_scripts_do() {
        for (tag, lang) in [
            ("", "pt-BR"),
            ("  ", "pt-BR"),
            ("pt-BR", "pt-BR"),
            ("pt-PT", "pt-BR"),
            ("PT", "pt-BR"),
            ("en", "en"),
            ("en-GB", "en"),
            ("EN-us", "en"),
            ("de", "en"),
            ("es-AR", "en"),
            ("english", "en"),
            ("portuguese", "en"),
        ] {
            assert_eq!(for_lang(tag).lang, lang, "{tag:?}");
        }
    }

    #[test]
    fn fill_replaces_every_mark() {
        assert_eq!(
            fill("{a} + {a} = {b}", &[("a", "1"), ("b", "2")]),
            "1 + 1 = 2"
        );
        assert_eq!(fill("{x} {a}{", &[("a", "{b}"), ("b", "2")]), "{x} {b}{");
        assert_eq!(fill("B = {b}", &[("b", "10")]), "B = 10");
    }

    #[test]
    fn a_number_too_large_for_a_double_is_called_too_large_in_each_language() {
        let nines = "9".repeat(5000);
        let err = InvalidValue::parse(Field::Capacity, &nines, Rule::Positive).unwrap_err();
        let cut = "9".repeat(40) + "…";
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            format!("Capacity B: “{cut}” is too large; use a number greater than 0.")
        );
        assert_eq!(
            PT_BR.invalid(&err, number::rust_number),
            format!("Capacidade B: “{cut}” é grande demais; use um número maior que 0.")
        );
    }

    #[test]
    fn a_character_that_would_reorder_the_message_is_quoted_as_its_code() {
        // An address's `capacity=\u{202e}1 si B : deilppa` would read backwards to its end.
        let text = "\u{202e}1 si B : deilppa";
        let err = InvalidValue::parse(Field::Capacity, text, Rule::Positive).unwrap_err();
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Capacity B: “\\u{202e}1 si B : deilppa” is not a number; use a number greater than 0."
        );
        // The cut counts the character, not its code: 40 of them, then "…".
        let long = "\u{2067}".repeat(41);
        let err = InvalidValue::parse(Field::Capacity, &long, Rule::Positive).unwrap_err();
        assert!(PT_BR
            .invalid(&err, number::rust_number)
            .contains(&format!("“{}…”", "\\u{2067}".repeat(40))));
    }

    #[test]
    fn a_refused_number_with_three_decimals_is_not_written_as_thousands_in_portuguese() {
        let err = InvalidValue {
            field: Field::Capacity,
            given: Given::Number(-18.181),
            rule: Rule::UpTo(100.125),
        };
        let pt = PT_BR.invalid(&err, number::rust_number);
        assert!(
            pt.contains(": -18,1810 não") && pt.ends_with(" 0 a 100,1250."),
            "{pt}"
        );
        let en = EN.invalid(&err, number::rust_number);
        assert!(
            en.contains(": -18.181 is") && en.ends_with(" 0 to 100.125."),
            "{en}"
        );
        // Four decimals or two are no grouping: left as they are.
        let err = InvalidValue {
            given: Given::Number(-18.1812),
            ..err
        };
        assert!(PT_BR
            .invalid(&err, number::rust_number)
            .contains(": -18,1812 não"));
    }

    #[test]
    fn a_number_too_small_to_tell_from_0_is_called_so_in_each_language() {
        let err = InvalidValue::parse(Field::RefillRate, "1e-400", Rule::NonNegative).unwrap_err();
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Rate r (tokens/s): “1e-400” is too small to tell from 0; use a number of at least 0."
        );
        assert!(PT_BR
            .invalid(&err, number::rust_number)
            .contains("“1e-400” é pequeno demais para distinguir de 0"));
    }

    #[test]
    fn a_comma_before_three_digits_and_a_wrong_type_are_worded_in_each_language() {
        let err = InvalidValue::parse(Field::Capacity, "1,000", Rule::Positive).unwrap_err();
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Capacity B: in “1,000” the comma could group thousands or mark decimals; write 1000 or 1.000."
        );
        assert_eq!(
            PT_BR.invalid(&err, number::rust_number),
            "Capacidade B: em “1,000” a vírgula pode separar milhares ou decimais; escreva 1000 para o número inteiro ou 1.000 (com ponto) para o decimal."
        );
        let err = InvalidValue {
            field: Field::Cost,
            given: Given::Type("string"),
            rule: Rule::NonNegative,
        };
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Cost c: a value of type string is not a number; use a number of at least 0."
        );
    }

    #[test]
    fn typed_into_a_field_a_number_that_could_group_thousands_gets_the_reading_the_field_takes() {
        let typed = |l: &Locale, text: &str| {
            let err = InvalidValue {
                field: Field::RefillRate,
                given: Given::Ambiguous(text.into()),
                rule: Rule::NonNegative,
            };
            l.invalid_typed(&err, number::rust_number)
        };
        // With a decimal comma, the decimal is written as the field reads it: 1,5, not 1.500.
        assert_eq!(
            typed(&PT_BR, "1,500"),
            "Taxa r (tokens/s): em “1,500” a vírgula pode separar milhares ou decimais; escreva 1500 se for o número inteiro, ou 1,5 se for o decimal."
        );
        assert_eq!(
            typed(&PT_BR, "1.500"),
            "Taxa r (tokens/s): em “1.500” o ponto pode separar milhares ou decimais; escreva 1500 se for o número inteiro, ou 1,5 se for o decimal."
        );
        // Trailing zeros go, and three decimals that would be refused again get a fourth.
        assert!(typed(&PT_BR, "2,000")
            .ends_with("escreva 2000 se for o número inteiro, ou 2 se for o decimal."));
        assert!(typed(&PT_BR, "-999.999")
            .ends_with("escreva -999999 se for o número inteiro, ou -999,9990 se for o decimal."));
        assert_eq!(
            typed(&EN, "1,500"),
            "Rate r (tokens/s): in “1,500” the comma could group thousands or mark decimals; write 1500 or 1.500."
        );
        // Anything else is worded as `invalid` words it.
        let err = InvalidValue::refused(Field::Cost, 0.0, Rule::Positive);
        assert_eq!(
            PT_BR.invalid_typed(&err, number::rust_number),
            PT_BR.invalid(&err, number::rust_number)
        );
    }

    #[test]
    fn a_field_the_browser_cannot_read_is_not_called_empty() {
        let err = InvalidValue {
            field: Field::Cost,
            given: Given::Unreadable,
            rule: Rule::Whole(1, 5),
        };
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Cost c: what is typed is not a number the field can read; use a whole number from 1 to 5."
        );
        assert!(PT_BR
            .invalid(&err, number::rust_number)
            .starts_with("Custo c: o que foi digitado não é um número"));
        assert_eq!(
            err.to_string(),
            "cost must be a whole number from 1 to 5, got text that is not a number the field can read"
        );
    }

    #[test]
    fn errors_name_the_label_and_the_value_in_the_language() {
        let err = InvalidValue::check(Field::BurstSize, 101.0, Rule::Whole(1, 100)).unwrap_err();
        assert_eq!(
            PT_BR.invalid(&err, number::rust_number),
            "Rajada de: 101 não é permitido; use um número inteiro de 1 a 100."
        );
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Burst of: 101 is not allowed; use a whole number from 1 to 100."
        );
        let rule = Rule::Between(0.5, 50.0);
        let err = InvalidValue::check(Field::TrafficRate, 0.3, rule).unwrap_err();
        assert_eq!(
            PT_BR.invalid(&err, number::rust_number),
            "Requisições/s: 0,3 não é permitido; use um número de 0,5 a 50."
        );
        let err = InvalidValue::parse(Field::Cost, " ", Rule::Whole(1, 5)).unwrap_err();
        assert_eq!(
            PT_BR.invalid(&err, number::rust_number),
            "Custo c: o campo está vazio; use um número inteiro de 1 a 5."
        );
        let err = InvalidValue::parse(Field::Capacity, "dez", Rule::Positive).unwrap_err();
        assert_eq!(
            EN.invalid(&err, number::rust_number),
            "Capacity B: “dez” is not a number; use a number greater than 0."
        );
        let long = "x".repeat(50);
        let err = InvalidValue::parse(Field::Seed, &long, Rule::Whole(0, u32::MAX)).unwrap_err();
        let message = EN.invalid(&err, number::rust_number);
        assert!(message.starts_with("Seed: “xxxx"), "{message}");
        assert!(
            message.contains("x…” is not a number; use a whole number from 0 to 4294967295."),
            "{message}"
        );
    }

    #[test]
    fn language_tags_pick_tables() {
        assert_eq!(for_lang("en-US").lang, "en");
        assert_eq!(for_lang("pt-BR").lang, "pt-BR");
        assert_eq!(for_lang("").lang, "pt-BR");
    }
}
