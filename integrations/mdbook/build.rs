//! Embeds the `<bucket-lab>` element's files in the binary, so `cargo install` gives an author
//! everything: the browser part of the npm package (`element/`, `i18n/`, `pkg/` and the crates'
//! notices, from the list in packages/bucketlab/package.json) and the project's LICENSE, read from
//! the built site in www/ as they are there (the element links its stylesheets; the npm package's
//! copy of it carries them inline instead).
//! Writes `$OUT_DIR/assets.rs`: `ASSETS`, a list of (path in the package, bytes).
use std::env;
use std::fs;
use std::path::{Path, PathBuf};

/// The package's folders a page needs, and the notices of the crates in its wasm, which a copy
/// must carry; the rest (Node entry, type declarations) is for scripts.
const BROWSER_FILES: [&str; 4] = ["element/", "i18n/", "pkg/", "THIRD-PARTY-NOTICES.txt"];

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest_dir.join("../..");
    let package_json = root.join("packages/bucketlab/package.json");
    println!("cargo:rerun-if-changed={}", package_json.display());
    let manifest: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(&package_json).expect("packages/bucketlab/package.json is readable"),
    )
    .expect("packages/bucketlab/package.json is JSON");
    let files = manifest["files"]
        .as_array()
        .expect("package.json has a \"files\" list");
    let mut out = String::from("/// The element's files: (path inside the book's `bucketlab/` folder, contents).\npub static ASSETS: &[(&str, &[u8])] = &[\n");
    for file in files.iter().filter_map(|f| f.as_str()) {
        if !BROWSER_FILES.iter().any(|prefix| file.starts_with(prefix)) {
            continue;
        }
        let path = root.join("www").join(file);
        require(&path, file);
        println!("cargo:rerun-if-changed={}", path.display());
        out.push_str(&format!(
            "    ({file:?}, include_bytes!({:?})),\n",
            path.canonicalize()
                .expect("the file exists")
                .display()
                .to_string()
        ));
    }
    // The project's own licence beside them, as the npm package has it.
    let license = root.join("LICENSE");
    println!("cargo:rerun-if-changed={}", license.display());
    out.push_str(&format!(
        "    (\"LICENSE\", include_bytes!({:?})),\n",
        license
            .canonicalize()
            .expect("LICENSE exists")
            .display()
            .to_string()
    ));
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}

/// Stops the build with what to do when the site has not been built yet.
fn require(path: &Path, file: &str) {
    if !path.is_file() {
        panic!("www/{file} is missing: run scripts/build.sh first (this crate embeds the built <bucket-lab> element)");
    }
}
