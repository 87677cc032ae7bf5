//! The `<bucket-lab>` element's files, embedded at build time (see build.rs), and copying them
//! into a book's source folder, whence mdBook's HTML renderer copies them into the built book.

use std::fs;
use std::io;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The folder, inside the book's `src/` and so inside the built book, that holds the files.
pub const FOLDER: &str = "bucketlab";
/// The module a page loads to define `<bucket-lab>`, inside [`FOLDER`].
pub const ENTRY: &str = "element/bucket-lab.js";

/// Writes every file into `src/bucketlab/`, skipping those already there with the same bytes
/// (so `mdbook serve`, which rebuilds when `src/` changes, is not woken by its own build).
/// Returns how many files it wrote.
pub fn copy_into(src: &Path) -> io::Result<usize> {
    let mut written = 0;
    for (path, bytes) in ASSETS {
        let dest = src.join(FOLDER).join(path);
        if fs::read(&dest).is_ok_and(|old| old == *bytes) {
            continue;
        }
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&dest, bytes)?;
        written += 1;
    }
    Ok(written)
}
