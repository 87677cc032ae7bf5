//! Prints the widget's markup, as the wasm view expects to find it, for the build
//! (`scripts/markup.mjs` puts it into the pages, `embed.html` and the `<bucket-lab>` module):
//!
//! ```sh
//! render-markup LANG ID CAPACITY REFILL_RATE [hero]
//! ```
//!
//! `LANG` is `pt-BR` or `en`, `ID` prefixes the SVG ids, `CAPACITY` and `REFILL_RATE` configure the
//! bucket drawn (full), `hero` gives the compact look. A bad argument is named with what is
//! allowed, and nothing is printed.

use bucketlab::limiter::{rust_decimal, BucketConfig};
use bucketlab::view::markup::{widget, words_for};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match render(&args) {
        Ok(html) => {
            print!("{html}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!(
                "render-markup: {why}\nusage: render-markup LANG ID CAPACITY REFILL_RATE [hero]"
            );
            ExitCode::FAILURE
        }
    }
}

fn render(args: &[String]) -> Result<String, String> {
    let [lang, id, capacity, rate, rest @ ..] = args else {
        return Err(format!("expected 4 or 5 arguments, got {}", args.len()));
    };
    if lang != "pt-BR" && lang != "en" {
        return Err(format!("LANG must be \"pt-BR\" or \"en\", got {lang:?}"));
    }
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_{}".contains(c))
    {
        return Err(format!(
            "ID must be letters, digits, -, _ (or a {{id}} mark), got {id:?}"
        ));
    }
    let hero = match rest {
        [] => false,
        [flag] if flag == "hero" => true,
        other => {
            return Err(format!(
                "the fifth argument can only be \"hero\", got {other:?}"
            ))
        }
    };
    let config = BucketConfig::new(rust_decimal(capacity), rust_decimal(rate))
        .map_err(|err| err.to_string())?;
    Ok(widget(words_for(lang), id, &config, hero))
}
