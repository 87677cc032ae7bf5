//! # mdbook-bucketlab
//!
//! An [mdBook](https://rust-lang.github.io/mdBook/) preprocessor for bucketlab's interactive
//! token-bucket diagram. A chapter writes
//!
//! ```text
//! {{#bucket-lab capacity=10 refill-rate=2 lang=en}}
//! ```
//!
//! and the built page shows the `<bucket-lab>` element, configured so. The parameters are the
//! element's attributes (`capacity`, `refill-rate`, `cost`, `tokens`, `lang`, `view`, `controls`,
//! `paused`, `theme`), checked by the element's own rules when the book is built: a bad one stops the build
//! with the chapter, the line and what is allowed. The element's files travel in this binary and
//! are copied into the book's `src/bucketlab/`; `mdbook-bucketlab install` adds the preprocessor
//! to `book.toml`.

/// The element's files, embedded, and copying them into a book.
pub mod assets;
/// Finding, checking and expanding `{{#bucket-lab …}}`.
pub mod directive;
/// Adding the preprocessor to `book.toml`.
pub mod install;
/// The preprocessor mdBook calls.
pub mod preprocessor;
