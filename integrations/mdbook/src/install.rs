//! `mdbook-bucketlab install`: adds the preprocessor to a book's `book.toml`, editing the file in
//! place so the author's comments, order and formatting survive.

use anyhow::{bail, Context, Result};
use toml_edit::{value, Array, DocumentMut, Item, Table};

/// The preprocessor's table name in `book.toml`: `[preprocessor.bucket-lab]`.
pub const NAME: &str = "bucket-lab";
/// The command mdBook runs (the binary `cargo install` puts on the PATH).
pub const COMMAND: &str = "mdbook-bucketlab";

/// `book.toml`'s text with `[preprocessor.bucket-lab]` added: `command`, and `before = ["links"]`
/// so that mdBook's `links` preprocessor, which drops the backslash of any escaped `\{{#…}}`,
/// leaves `\{{#bucket-lab …}}` for this one to write as text. Keys the author already set (and
/// an order they chose with `before` or `after`) are kept; running it again changes nothing.
///
/// ```
/// let toml = "[book]\ntitle = \"Rate limits\" # shown in the header\n";
/// let out = mdbook_bucketlab::install::add_to_book_toml(toml).unwrap();
/// assert!(out.starts_with(toml));
/// assert!(out.contains("[preprocessor.bucket-lab]\ncommand = \"mdbook-bucketlab\"\nbefore = [\"links\"]\n"));
/// ```
pub fn add_to_book_toml(text: &str) -> Result<String> {
    let mut doc: DocumentMut = text.parse().context("book.toml is not valid TOML")?;
    // Comment lines at the file's end belong to the document, which writes them after every table,
    // a new one included: they go before the new table instead, where the author left them.
    let trailing = doc.trailing().as_str().unwrap_or_default().to_owned();
    let moves_trailing = !trailing.trim().is_empty()
        && !doc
            .get("preprocessor")
            .and_then(Item::as_table_like)
            .is_some_and(|p| p.contains_key(NAME));
    let preprocessors = doc.entry("preprocessor").or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    let kind = preprocessors.type_name();
    let Some(preprocessors) = preprocessors.as_table_like_mut() else {
        bail!("book.toml: preprocessor must be a table, got {kind}");
    };
    let ours = preprocessors.entry(NAME).or_insert_with(|| {
        let mut table = Table::new();
        if moves_trailing {
            table.decor_mut().set_prefix(format!("{trailing}\n"));
        }
        Item::Table(table)
    });
    let kind = ours.type_name();
    let Some(ours) = ours.as_table_like_mut() else {
        bail!("book.toml: preprocessor.{NAME} must be a table, got {kind}");
    };
    if ours.get("command").is_none() {
        ours.insert("command", value(COMMAND));
    }
    // An order the author chose (before or after anything) is theirs to keep.
    if ours.get("before").is_none() && ours.get("after").is_none() {
        ours.insert("before", value(Array::from_iter(["links"])));
    }
    if moves_trailing {
        doc.set_trailing("");
    }
    Ok(doc.to_string())
}
