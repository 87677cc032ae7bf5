//! `install`: book.toml gains the preprocessor's table, keeps everything else, and a second run
//! changes nothing.
use mdbook_bucketlab::install::add_to_book_toml;

const BOOK_TOML: &str = r#"# The course book.
[book]
title = "Rate limits"   # shown in the header
authors = ["A. Author"]

# Our own stylesheet.
[output.html]
additional-css = ["theme/course.css"]
"#;

#[test]
fn adds_the_table_and_keeps_comments_and_order() {
    let out = add_to_book_toml(BOOK_TOML).unwrap();
    assert!(
        out.starts_with(BOOK_TOML),
        "the author's text comes first, untouched:\n{out}"
    );
    assert_eq!(
        &out[BOOK_TOML.len()..],
        "\n[preprocessor.bucket-lab]\ncommand = \"mdbook-bucketlab\"\nbefore = [\"links\"]\n"
    );
    let parsed: toml_edit::DocumentMut = out.parse().unwrap();
    assert_eq!(
        parsed["preprocessor"]["bucket-lab"]["command"].as_str(),
        Some("mdbook-bucketlab")
    );
}

#[test]
fn a_comment_at_the_files_end_stays_where_the_author_left_it() {
    let text = "[book]\ntitle = \"Rate limits\"\n# my comment\n";
    let out = add_to_book_toml(text).unwrap();
    assert_eq!(
        out,
        "[book]\ntitle = \"Rate limits\"\n# my comment\n\n[preprocessor.bucket-lab]\ncommand = \"mdbook-bucketlab\"\nbefore = [\"links\"]\n"
    );
    assert_eq!(
        add_to_book_toml(&out).unwrap(),
        out,
        "a second run changes nothing"
    );
}

#[test]
fn running_it_twice_changes_nothing() {
    let once = add_to_book_toml(BOOK_TOML).unwrap();
    assert_eq!(add_to_book_toml(&once).unwrap(), once);
}

#[test]
fn keeps_keys_the_author_set() {
    let text = "[preprocessor.bucket-lab]\ncommand = \"/opt/bin/mdbook-bucketlab\" # ours\n";
    let out = add_to_book_toml(text).unwrap();
    assert_eq!(out, "[preprocessor.bucket-lab]\ncommand = \"/opt/bin/mdbook-bucketlab\" # ours\nbefore = [\"links\"]\n");
}

#[test]
fn keeps_an_order_the_author_chose() {
    let text = "[preprocessor.bucket-lab]\nafter = [\"links\"]\n";
    let out = add_to_book_toml(text).unwrap();
    assert_eq!(
        out,
        "[preprocessor.bucket-lab]\nafter = [\"links\"]\ncommand = \"mdbook-bucketlab\"\n"
    );
}

#[test]
fn keeps_other_preprocessors() {
    let text = "[preprocessor.mermaid]\ncommand = \"mdbook-mermaid\"\n";
    let out = add_to_book_toml(text).unwrap();
    assert!(out.starts_with(text));
    assert!(out.contains("[preprocessor.bucket-lab]"));
}

#[test]
fn refuses_a_book_toml_it_cannot_edit() {
    let error = add_to_book_toml("[book\ntitle = 1").unwrap_err();
    assert_eq!(error.to_string(), "book.toml is not valid TOML");
    let error = add_to_book_toml("preprocessor = 3\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "book.toml: preprocessor must be a table, got integer"
    );
    let error = add_to_book_toml("[preprocessor]\nbucket-lab = \"yes\"\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "book.toml: preprocessor.bucket-lab must be a table, got string"
    );
}
