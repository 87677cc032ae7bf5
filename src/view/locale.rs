//! The widget's words, one table per language. `{name}` marks are filled in by [`fill`].

/// Every string the widget shows, in one language.
pub struct Locale {
    /// BCP 47 tag of the language.
    pub lang: &'static str,
    /// Decimal separator.
    pub decimal: char,
    pub send: &'static str,
    pub svg_title: &'static str,
    /// `{b}` capacity, `{r}` refill rate.
    pub svg_desc: &'static str,
    pub capacity_label: &'static str,
    pub rate_label: &'static str,
    pub tokens_unit: &'static str,
    pub idle: &'static str,
    /// `{n}` whole tokens left.
    pub allowed: &'static str,
    /// `{s}` exact wait in seconds.
    pub denied: &'static str,
    /// `{c}` cost, `{b}` capacity.
    pub never_cost: &'static str,
    pub never_rate: &'static str,
    /// `{c}` cost, `{t}` tokens, `{r}` rate, `{s}` wait.
    pub exact_wait: &'static str,
    pub error_title: &'static str,
}

/// Brazilian Portuguese, the lesson's first language.
pub const PT_BR: Locale = Locale {
    lang: "pt-BR",
    decimal: ',',
    send: "Enviar requisição",
    svg_title: "Balde de tokens",
    svg_desc: "Um balde que guarda até {b} tokens e recebe {r} tokens por segundo. \
               Cada requisição admitida retira um token; com o balde vazio, a requisição é recusada.",
    capacity_label: "B = {b}",
    rate_label: "r = {r} tokens/s",
    tokens_unit: "tokens",
    idle: "Nenhuma requisição ainda: clique em “Enviar requisição”.",
    allowed: "Admitida: restam {n} tokens.",
    denied: "Negada: 429, tente de novo em {s} s.",
    never_cost: "Nunca passará: o custo {c} é maior que a capacidade {b}.",
    never_rate: "Nunca passará: a taxa de reabastecimento é 0 e faltam tokens.",
    exact_wait: "Espera exata: (c − tokens) / r = ({c} − {t}) / {r} = {s} s",
    error_title: "Não foi possível montar o diagrama",
};

/// English.
pub const EN: Locale = Locale {
    lang: "en",
    decimal: '.',
    send: "Send request",
    svg_title: "Token bucket",
    svg_desc: "A bucket that holds up to {b} tokens and gains {r} tokens per second. \
               Each admitted request takes one token out; when it is empty, requests are refused.",
    capacity_label: "B = {b}",
    rate_label: "r = {r} tokens/s",
    tokens_unit: "tokens",
    idle: "No request yet: click “Send request”.",
    allowed: "Admitted: {n} tokens left.",
    denied: "Denied: 429, retry in {s} s.",
    never_cost: "Will never pass: the cost {c} is larger than the capacity {b}.",
    never_rate: "Will never pass: the refill rate is 0 and tokens are short.",
    exact_wait: "Exact wait: (c − tokens) / r = ({c} − {t}) / {r} = {s} s",
    error_title: "The diagram could not be built",
};

/// The table for a language tag: English for `en…`, Brazilian Portuguese otherwise.
pub fn for_lang(tag: &str) -> &'static Locale {
    if tag.to_ascii_lowercase().starts_with("en") {
        &EN
    } else {
        &PT_BR
    }
}

/// Replaces each `{key}` in `template` with its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

impl Locale {
    /// `value` with at most `decimals` decimals, trailing zeros dropped, in this language's style.
    pub fn number(&self, value: f64, decimals: usize) -> String {
        let text = format!("{value:.decimals$}");
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            text
        };
        let text = if text == "-0" { "0".to_owned() } else { text };
        text.replace('.', &self.decimal.to_string())
    }

    /// `value` with exactly `decimals` decimals, in this language's style.
    pub fn fixed(&self, value: f64, decimals: usize) -> String {
        format!("{value:.decimals$}").replace('.', &self.decimal.to_string())
    }
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
    fn fill_replaces_every_mark() {
        assert_eq!(
            fill("{a} + {a} = {b}", &[("a", "1"), ("b", "2")]),
            "1 + 1 = 2"
        );
    }

    #[test]
    fn language_tags_pick_tables() {
        assert_eq!(for_lang("en-US").lang, "en");
        assert_eq!(for_lang("pt-BR").lang, "pt-BR");
        assert_eq!(for_lang("").lang, "pt-BR");
    }
}
