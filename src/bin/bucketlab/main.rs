//! `bucketlab`: the lesson's tools on the command line. `bucketlab replay` runs an access log
//! through the core's limiters (see `bucketlab replay --help`, and README.md, "Replay your own
//! traffic").

mod args;
mod table;

use args::{Cli, Command, ReplayArgs};
use bucketlab::limiter::{rust_number, BucketConfig};
use bucketlab::replay::export::exports;
use bucketlab::replay::input::{decompressed, for_each_line};
use bucketlab::replay::{
    KeySpec, Line, Policy, PolicyCheck, Replay, Report, Settings, SetupError, ALGORITHMS,
};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Cli { command } = Cli::parse();
    match command {
        Command::Replay(args) => replay(args),
    }
}

/// A flag that does not fit: printed like clap's own errors, exit code 2.
fn usage_error(error: &SetupError) -> ! {
    let message = match &error.value {
        _ if error.blames_the_file() => error.command_why(),
        Some(value) => format!(
            "invalid value '{value}' for '--{}': {}",
            error.option,
            error.command_why()
        ),
        None => format!("--{}: {}", error.option, error.command_why()),
    };
    let mut command = Cli::command();
    // Built, so the subcommand's usage line says `bucketlab replay`.
    command.build();
    let replay = command
        .find_subcommand_mut("replay")
        .expect("the replay subcommand");
    replay.error(ErrorKind::ValueValidation, message).exit()
}

/// `--export TOOL`: the configuration of the token bucket replayed (`--capacity`,
/// `--refill-rate`), keyed as it was (`key`); exit 2 where the flags or the tool cannot give one.
fn export(tool: &str, args: &ReplayArgs, key: &KeySpec) -> ExitCode {
    let refuse = |why: String| {
        eprintln!("bucketlab: --export {tool}: {why}");
        ExitCode::from(2)
    };
    if args.algorithm != ALGORITHMS[0] {
        return refuse(format!(
            "it writes a token bucket, not --algorithm {}: replay the log with --algorithm {}",
            args.algorithm, ALGORITHMS[0]
        ));
    }
    let config = BucketConfig::new(args.capacity, args.refill_rate)
        .expect("B and r were checked as they were read");
    let export = exports(config, key)
        .into_iter()
        .find(|e| e.id == tool)
        .expect("TOOL is one of EXPORT_IDS");
    match export.text {
        Some(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            let why: Vec<String> = export.caveats.iter().map(ToString::to_string).collect();
            refuse(format!(
                "B = {}, r = {}/s cannot be written: {}",
                rust_number(args.capacity),
                rust_number(args.refill_rate),
                why.join("; ")
            ))
        }
    }
}

/// Where the log comes from. Standard input, or a path that is not a regular file (a pipe such as
/// `<(zcat log.gz)`, a FIFO: empty once read), is kept in a temporary file when it must be read
/// more than once.
enum Source {
    File(PathBuf),
    Stdin,
    /// A path to a pipe or another stream, read once as it was opened.
    Stream(std::cell::Cell<Option<File>>),
    Kept(tempfile::NamedTempFile),
}

impl Source {
    fn open(path: &Path, passes: bool) -> io::Result<Source> {
        if path != Path::new("-") {
            // Fail now, before any work, if the file can't be opened.
            let file = File::open(path)?;
            if file.metadata()?.is_file() {
                return Ok(Source::File(path.to_owned()));
            }
            if !passes {
                return Ok(Source::Stream(std::cell::Cell::new(Some(file))));
            }
            return Self::keep(file);
        }
        if !passes {
            return Ok(Source::Stdin);
        }
        Self::keep(io::stdin().lock())
    }

    /// `from`, copied to a temporary file each pass reads again.
    fn keep(mut from: impl Read) -> io::Result<Source> {
        let mut kept = tempfile::NamedTempFile::new()?;
        io::copy(&mut from, kept.as_file_mut())?;
        Ok(Source::Kept(kept))
    }

    /// Calls `each` on every line (decompressed), until it returns `false`.
    fn lines(&self, each: impl FnMut(Line<'_>) -> bool) -> io::Result<()> {
        let raw: Box<dyn Read> = match self {
            Source::File(path) => Box::new(File::open(path)?),
            Source::Stdin => Box::new(io::stdin().lock()),
            Source::Stream(file) => Box::new(
                file.take()
                    .ok_or_else(|| io::Error::other("the stream can be read only once"))?,
            ),
            Source::Kept(file) => Box::new(file.reopen()?),
        };
        for_each_line(&mut *decompressed(raw)?, each)
    }
}

fn replay(args: ReplayArgs) -> ExitCode {
    let policy = Policy::new(&args.algorithm, args.capacity, args.refill_rate)
        .unwrap_or_else(|e| usage_error(&e));
    let settings = Settings {
        format: args.format,
        key: args.key.clone(),
        time_field: args.time_field.clone(),
        policy,
        target: args.recommend,
    };
    let name = args.file.display().to_string();
    let fail = |e: io::Error| {
        eprintln!("bucketlab: {name}: {e}");
        ExitCode::FAILURE
    };
    let source = match Source::open(&args.file, args.recommend.is_some()) {
        Ok(source) => source,
        Err(e) => return fail(e),
    };

    let mut replay = Replay::new(settings);
    if let Err(e) = source.lines(|line| {
        replay.line(line);
        replay.failure().is_none()
    }) {
        return fail(e);
    }
    let finished = replay.finish().unwrap_or_else(|e| usage_error(&e));
    let mut report = finished.report;

    if args.recommend.is_some() {
        report.recommendation = Some(None);
        if let (Some(mut search), Some(parser)) = (finished.search, finished.parser.as_ref()) {
            loop {
                let candidates = search.candidates();
                if candidates.is_empty() {
                    break;
                }
                let Ok(mut check) = PolicyCheck::new(parser.clone(), &candidates) else {
                    break;
                };
                if let Err(e) = source.lines(|line| {
                    check.line(line);
                    true
                }) {
                    return fail(e);
                }
                search.narrow(&candidates, &check.finish());
            }
            report.recommendation = Some(search.result());
        }
    }

    if let Some(tool) = &args.export {
        // The parser's key (a csv's column:2 by default), else the one asked for (an empty log).
        let key = finished.parser.as_ref().map_or_else(
            || args.key.clone().unwrap_or(KeySpec::Ip),
            bucketlab::replay::Parser::key,
        );
        return export(tool, &args, &key);
    }

    let shown = args.top.or(if args.json { None } else { Some(table::TOP) });
    let hidden = shown.map_or(0, |n| report.by_key.len().saturating_sub(n));
    if let Some(n) = shown {
        report.by_key.truncate(n);
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = if args.json {
        write_json(&mut out, &report)
    } else {
        let context = table::Context {
            file: &name,
            parser: finished.parser.as_ref(),
            detected: args.format.is_none(),
            algorithm: &args.algorithm,
            capacity: args.capacity,
            refill_rate: args.refill_rate,
            hidden,
        };
        table::write(&mut out, &context, &report, &finished.curves)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bucketlab: writing the report: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write_json(out: &mut impl Write, report: &Report) -> io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)
}
