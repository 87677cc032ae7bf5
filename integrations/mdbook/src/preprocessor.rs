//! The preprocessor mdBook runs: copies the element's files into the book and expands every
//! chapter's directives, adding the element's module script to the chapters that use it.

use crate::assets::{self, ENTRY, FOLDER};
use crate::directive;
use crate::install::NAME;
use anyhow::{anyhow, Context, Result};
use mdbook_preprocessor::book::{Book, Chapter};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use std::path::Path;

/// The space around each element, which leaves its margins to the page: without it, two
/// directives in a row would draw two diagrams touching. `:where` gives the rule no weight, so
/// any rule of the book's own CSS on `bucket-lab` wins.
const SPACING: &str = "<style>:where(bucket-lab) { margin-block: 1.5em; }</style>";

/// The `bucket-lab` preprocessor.
#[derive(Debug, Default)]
pub struct BucketLab;

impl Preprocessor for BucketLab {
    fn name(&self) -> &str {
        NAME
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let src = ctx.root.join(&ctx.config.book.src);
        assets::copy_into(&src).with_context(|| {
            format!(
                "copying the element's files into {}",
                src.join(FOLDER).display()
            )
        })?;
        let mut failure = None;
        book.for_each_chapter_mut(|chapter| {
            if failure.is_none() {
                failure = expand_chapter(chapter, &ctx.config.book.src).err();
            }
        });
        failure.map_or(Ok(book), Err)
    }

    /// The element is HTML: other renderers (markdown, epub…) get the chapters untouched.
    fn supports_renderer(&self, renderer: &str) -> Result<bool> {
        Ok(renderer == "html")
    }
}

/// Expands `chapter`'s directives; one that can't be expanded is an error naming the chapter,
/// its file, the line and the rule broken.
pub fn expand_chapter(chapter: &mut Chapter, src: &Path) -> Result<()> {
    let expanded = directive::expand(&chapter.content).map_err(|error| {
        let file = chapter.source_path.as_deref().map(|p| src.join(p));
        anyhow!(
            "chapter \"{}\" ({}), line {}: {}",
            chapter.name,
            file.as_deref().unwrap_or(Path::new("no file")).display(),
            error.line,
            error.message
        )
    })?;
    if expanded.elements == 0 {
        return Ok(());
    }
    // mdBook's pages define `path_to_root` ("", "../", …): one script works on each chapter's page
    // and on print.html, which holds every chapter (a relative `src` would be wrong there). The
    // "./" keeps "" + "bucketlab/…" a relative URL rather than a bare module name.
    chapter.content = format!("{}\n\n{SPACING}\n<script type=\"module\">import('./' + path_to_root + '{FOLDER}/{ENTRY}');</script>\n", expanded.text);
    Ok(())
}
