//! The preprocessor on chapters and on a book folder: the module script, the
//! error naming the chapter, and the element's files copied once.
use mdbook_bucketlab::assets::{copy_into, ASSETS};
use mdbook_bucketlab::preprocessor::expand_chapter;
use mdbook_preprocessor::book::Chapter;
use std::path::Path;

fn chapter(path: &str, content: &str) -> Chapter {
    Chapter::new("Sending requests", content.to_owned(), path, Vec::new())
}

#[test]
fn a_chapter_with_the_element_gets_its_spacing_and_one_module_script_that_finds_the_books_root() {
    for path in ["intro.md", "part/second.md"] {
        let mut ch = chapter(
            path,
            "Text\n\n{{#bucket-lab capacity=3}}\n\n{{#bucket-lab}}\n",
        );
        expand_chapter(&mut ch, Path::new("src")).unwrap();
        assert_eq!(
            ch.content,
            "Text\n\n<bucket-lab capacity=\"3\">\n</bucket-lab>\n\n<bucket-lab>\n</bucket-lab>\n\n\n<style>:where(bucket-lab) { margin-block: 1.5em; }</style>\n<script type=\"module\">import('./' + path_to_root + 'bucketlab/element/bucket-lab.js');</script>\n",
            "{path}"
        );
    }
}

#[test]
fn a_chapter_without_it_is_left_alone() {
    let mut ch = chapter("intro.md", "No diagram here.\n");
    expand_chapter(&mut ch, Path::new("src")).unwrap();
    assert_eq!(ch.content, "No diagram here.\n");
}

#[test]
fn a_bad_parameter_names_the_chapter_its_file_the_line_and_the_rule() {
    let mut ch = chapter(
        "part/second.md",
        "# Second\n\n{{#bucket-lab capacity=10 refill-rate=fast}}\n",
    );
    let error = expand_chapter(&mut ch, Path::new("src")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "chapter \"Sending requests\" (src/part/second.md), line 3: refill-rate must be a finite number of at least 0, got \"fast\""
    );
}

#[test]
fn copies_every_file_once_and_rewrites_only_what_changed() {
    let book = tempfile::tempdir().unwrap();
    let src = book.path().join("src");
    assert_eq!(copy_into(&src).unwrap(), ASSETS.len());
    for (path, bytes) in ASSETS {
        assert_eq!(
            std::fs::read(src.join("bucketlab").join(path)).unwrap(),
            *bytes,
            "{path}"
        );
    }
    assert_eq!(copy_into(&src).unwrap(), 0, "nothing changed");
    std::fs::write(src.join("bucketlab/element/bucket-lab.js"), "stale").unwrap();
    assert_eq!(copy_into(&src).unwrap(), 1, "the stale file is replaced");
    assert!(ASSETS.iter().any(|(p, _)| *p == "pkg/bucketlab_bg.wasm"));
    // The wasm's crates ask that a copy carries their notices: a published book does.
    for (path, start) in [
        (
            "THIRD-PARTY-NOTICES.txt",
            "bucketlab: notices of the third-party software",
        ),
        ("LICENSE", "MIT License"),
    ] {
        let text = std::fs::read_to_string(src.join("bucketlab").join(path)).unwrap();
        assert!(text.starts_with(start), "{path}: {}", &text[..40]);
    }
}
