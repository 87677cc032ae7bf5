//! The widget's words, one table per language. `{name}` marks are filled in by [`fill`].

use crate::limiter::number;

/// Every string the widget shows, in one language.
pub struct Locale {
    /// BCP 47 tag of the language.
    pub lang: &'static str,
    /// Decimal separator.
    pub decimal: char,
    pub send: &'static str,
    pub cost: &'static str,
    pub burst_size: &'static str,
    pub burst: &'static str,
    pub bucket_legend: &'static str,
    pub capacity: &'static str,
    pub rate: &'static str,
    pub traffic_legend: &'static str,
    pub traffic_mode: &'static str,
    pub traffic_off: &'static str,
    pub traffic_steady: &'static str,
    pub traffic_poisson: &'static str,
    pub traffic_rate: &'static str,
    pub seed: &'static str,
    pub time_legend: &'static str,
    pub pause: &'static str,
    pub resume: &'static str,
    pub speed: &'static str,
    pub step: &'static str,
    pub reset: &'static str,
    pub svg_title: &'static str,
    /// `{b}` capacity, `{r}` refill rate.
    pub svg_desc: &'static str,
    pub capacity_label: &'static str,
    pub rate_label: &'static str,
    pub tokens_unit: &'static str,
    pub timeline_title: &'static str,
    pub timeline_desc: &'static str,
    pub timeline_past: &'static str,
    pub timeline_now: &'static str,
    pub idle: &'static str,
    /// `{n}` whole tokens left.
    pub admitted: &'static str,
    /// `{s}` exact wait in seconds.
    pub denied: &'static str,
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
    pub reset_note: &'static str,
}

/// Brazilian Portuguese, the lesson's first language.
pub const PT_BR: Locale = Locale {
    lang: "pt-BR",
    decimal: ',',
    send: "Enviar requisição",
    cost: "Custo c",
    burst_size: "Rajada de",
    burst: "Enviar rajada",
    bucket_legend: "Balde",
    capacity: "Capacidade B",
    rate: "Taxa r (tokens/s)",
    traffic_legend: "Tráfego automático",
    traffic_mode: "Modo",
    traffic_off: "Desligado",
    traffic_steady: "Constante",
    traffic_poisson: "Aleatório (Poisson)",
    traffic_rate: "Requisições/s",
    seed: "Semente",
    time_legend: "Tempo",
    pause: "Pausar",
    resume: "Continuar",
    speed: "Velocidade",
    step: "Avançar 0,1 s",
    reset: "Reiniciar",
    svg_title: "Balde de tokens",
    svg_desc: "Um balde que guarda até {b} tokens e recebe {r} tokens por segundo. \
               Cada requisição admitida retira seu custo em tokens; com tokens de menos, ela é recusada.",
    capacity_label: "B = {b}",
    rate_label: "r = {r} tokens/s",
    tokens_unit: "tokens",
    timeline_title: "Linha do tempo dos últimos 20 segundos",
    timeline_desc: "Círculos são requisições admitidas, losangos são negadas; a linha é o nível de tokens.",
    timeline_past: "−20 s",
    timeline_now: "agora",
    idle: "Nenhuma requisição ainda: clique em “Enviar requisição”.",
    admitted: "Admitida: restam {n} tokens.",
    denied: "Negada: 429, tente de novo em {s} s.",
    never_cost: "Nunca passará: o custo {c} é maior que a capacidade {b}.",
    never_rate: "Nunca passará: a taxa de reabastecimento é 0 e faltam tokens.",
    summary: "{n} requisições: {a} admitidas, {d} negadas; restam {t} tokens.",
    refill_formula: "tokens = min(B, tokens + Δt·r) = min({b}, {t0} + {dt}·{r}) = {t1}",
    debit_formula: "admitida: tokens − c = {t1} − {c} = {t2}",
    exact_wait: "Retry-After = (c − tokens) / r = ({c} − {t}) / {r} = {s} s",
    reset_note: "X-RateLimit-Reset: segundos até o balde encher (o GitHub manda um horário epoch em UTC).",
};

/// English.
pub const EN: Locale = Locale {
    lang: "en",
    decimal: '.',
    send: "Send request",
    cost: "Cost c",
    burst_size: "Burst of",
    burst: "Send burst",
    bucket_legend: "Bucket",
    capacity: "Capacity B",
    rate: "Rate r (tokens/s)",
    traffic_legend: "Automatic traffic",
    traffic_mode: "Mode",
    traffic_off: "Off",
    traffic_steady: "Steady",
    traffic_poisson: "Random (Poisson)",
    traffic_rate: "Requests/s",
    seed: "Seed",
    time_legend: "Time",
    pause: "Pause",
    resume: "Resume",
    speed: "Speed",
    step: "Step 0.1 s",
    reset: "Reset",
    svg_title: "Token bucket",
    svg_desc: "A bucket that holds up to {b} tokens and gains {r} tokens per second. \
               Each admitted request takes its cost in tokens out; with too few tokens, it is refused.",
    capacity_label: "B = {b}",
    rate_label: "r = {r} tokens/s",
    tokens_unit: "tokens",
    timeline_title: "Timeline of the last 20 seconds",
    timeline_desc: "Circles are admitted requests, diamonds denied ones; the line is the token level.",
    timeline_past: "−20 s",
    timeline_now: "now",
    idle: "No request yet: click “Send request”.",
    admitted: "Admitted: {n} tokens left.",
    denied: "Denied: 429, retry in {s} s.",
    never_cost: "Will never pass: the cost {c} is larger than the capacity {b}.",
    never_rate: "Will never pass: the refill rate is 0 and tokens are short.",
    summary: "{n} requests: {a} admitted, {d} denied; {t} tokens left.",
    refill_formula: "tokens = min(B, tokens + Δt·r) = min({b}, {t0} + {dt}·{r}) = {t1}",
    debit_formula: "admitted: tokens − c = {t1} − {c} = {t2}",
    exact_wait: "Retry-After = (c − tokens) / r = ({c} − {t}) / {r} = {s} s",
    reset_note: "X-RateLimit-Reset: seconds until the bucket is full (GitHub sends a UTC epoch time).",
};

/// The table for a language tag: English for `en…`, Brazilian Portuguese otherwise.
pub fn for_lang(tag: &str) -> &'static Locale {
    if tag.to_ascii_lowercase().starts_with("en") {
        &EN
    } else {
        &PT_BR
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
        self.localize(number::trimmed(value, decimals as u32))
    }

    /// `value` with exactly `decimals` decimals, in this language's style.
    pub fn fixed(&self, value: f64, decimals: usize) -> String {
        self.localize(number::fixed(value, decimals as u32))
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
        assert_eq!(fill("{x} {a}{", &[("a", "{b}"), ("b", "2")]), "{x} {b}{");
        assert_eq!(fill("B = {b}", &[("b", "10")]), "B = 10");
    }

    #[test]
    fn language_tags_pick_tables() {
        assert_eq!(for_lang("en-US").lang, "en");
        assert_eq!(for_lang("pt-BR").lang, "pt-BR");
        assert_eq!(for_lang("").lang, "pt-BR");
    }
}
