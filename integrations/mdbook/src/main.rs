//! `mdbook-bucketlab`: run by mdBook as a preprocessor (`supports <renderer>`, then the book as
//! JSON on stdin), or by an author as `mdbook-bucketlab install [BOOK]`.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use mdbook_bucketlab::install::{add_to_book_toml, NAME};
use mdbook_bucketlab::preprocessor::BucketLab;
use mdbook_preprocessor::{parse_input, Preprocessor, MDBOOK_VERSION};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::{fs, io};

/// An mdBook preprocessor: {{#bucket-lab capacity=10 refill-rate=2}} becomes bucketlab's
/// <bucket-lab> element. Without a command, it reads mdBook's [context, book] JSON on stdin and
/// writes the book back on stdout.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Exits with 0 if the preprocessor works with this renderer (mdBook asks before each build).
    Supports { renderer: String },
    /// Adds [preprocessor.bucket-lab] to BOOK/book.toml, keeping its comments.
    Install {
        /// The book's folder, holding book.toml.
        #[arg(default_value = ".")]
        book: PathBuf,
    },
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Some(Command::Supports { renderer }) => match BucketLab.supports_renderer(&renderer) {
            Ok(true) => return ExitCode::SUCCESS,
            Ok(false) => return ExitCode::FAILURE,
            Err(error) => Err(error),
        },
        Some(Command::Install { book }) => install(&book),
        None => preprocess(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mdbook-bucketlab: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The preprocessor protocol: [context, book] in, the book out.
fn preprocess() -> Result<()> {
    let (ctx, book) = parse_input(io::stdin())?;
    if ctx.mdbook_version != MDBOOK_VERSION {
        eprintln!(
            "mdbook-bucketlab: built against mdBook {MDBOOK_VERSION}, called by mdBook {}",
            ctx.mdbook_version
        );
    }
    let book = BucketLab.run(&ctx, book)?;
    serde_json::to_writer(io::stdout(), &book).context("writing the book to mdBook")?;
    Ok(())
}

fn install(book: &Path) -> Result<()> {
    let path = book.join("book.toml");
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let edited = add_to_book_toml(&text).with_context(|| format!("editing {}", path.display()))?;
    if edited == text {
        println!("{}: [preprocessor.{NAME}] is already there", path.display());
    } else {
        fs::write(&path, edited).with_context(|| format!("writing {}", path.display()))?;
        println!("{}: added [preprocessor.{NAME}]", path.display());
    }
    Ok(())
}
