//! The shared-fixture check of the tests whose runs the wasm build must reproduce: with `BLESS` set
//! the file is rewritten first (review the diff before committing); the text must equal it.

/// Asserts that `text` equals `tests/fixtures/<name>`.
pub fn assert_matches_fixture(name: &str, text: &str) {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, text).expect("the fixture is writable");
    }
    let fixture = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no tests/fixtures/{name}: run the test with BLESS=1"));
    assert!(
        text == fixture,
        "the runs differ from tests/fixtures/{name}"
    );
}
