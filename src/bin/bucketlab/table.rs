//! The readable report: totals, the malformed lines, the keys, the burst–rate curve and the
//! recommendation.

use bucketlab::limiter::{reorders_text, rust_number};
use bucketlab::replay::curve::TOP_RATE;
use bucketlab::replay::{Curves, EpochUnitCount, NeverCounts, Parser, Report, HORIZON};
use std::io::{self, Write};

/// Keys the table lists unless `--top` says otherwise.
pub const TOP: usize = 20;
/// The widest key column; longer keys are cut with `…`.
const KEY_WIDTH: usize = 39;

/// What the table says besides the report.
pub struct Context<'a> {
    pub file: &'a str,
    pub parser: Option<&'a Parser>,
    pub detected: bool,
    pub algorithm: &'a str,
    pub capacity: f64,
    pub refill_rate: f64,
    /// Keys left out of the listing.
    pub hidden: usize,
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `part` of `whole` as a percentage with two decimals; a share that is not 0 (or not all) is
/// never written as 0.00 % (or 100.00 %), but as < 0.01 % (> 99.99 %).
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0 %".to_owned();
    }
    let share = part as f64 * 100.0 / whole as f64;
    if part > 0 && share < 0.005 {
        "< 0.01 %".to_owned()
    } else if part < whole && share >= 99.995 {
        "> 99.99 %".to_owned()
    } else {
        format!("{share:.2} %")
    }
}

/// A capacity needed in whole hundredths, rounded up, so a capacity copied from the table is never
/// short of the need (as Retry-After never tells a client to come back early). A value a few units
/// in the last place above a hundredth is that hundredth: the rounding of `× 100`, not a need.
fn hundredths(value: f64) -> f64 {
    let hundredths = value * 100.0;
    let below = hundredths.floor();
    if hundredths - below <= 4.0 * f64::EPSILON * hundredths.abs() {
        below
    } else {
        hundredths.ceil()
    }
}

/// A capacity needed, with at most two decimals (see `hundredths`), trailing zeros dropped.
fn amount(value: f64) -> String {
    let text = format!("{:.2}", hundredths(value) / 100.0);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A key as the table shows it, cut to `KEY_WIDTH` characters. Control characters (a log's
/// `\u001b[2J`, a newline) are written escaped, `\u{1b}`, `\n`, and so are the characters that
/// reorder or break the text around them (U+202E, U+2028: see [`reorders_text`]): a key comes
/// from the log, and must neither drive the terminal nor forge a line or a key of the report.
fn cut(key: &str) -> String {
    let mut shown = String::new();
    for c in key.chars() {
        if c.is_control() {
            shown.extend(c.escape_debug());
        } else if reorders_text(c) {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    if shown.chars().count() <= KEY_WIDTH {
        return shown;
    }
    let mut short: String = shown.chars().take(KEY_WIDTH - 1).collect();
    short.push('…');
    short
}

/// Writes the whole table.
pub fn write(
    out: &mut impl Write,
    cx: &Context,
    report: &Report,
    curves: &Curves,
) -> io::Result<()> {
    writeln!(out, "bucketlab replay {}", cx.file)?;
    match cx.parser {
        Some(parser) => {
            let how = if cx.detected { " (detected)" } else { "" };
            write!(
                out,
                "  format {}{how} · key {}",
                parser.format(),
                parser.key()
            )?;
            if let Some(field) = parser.time_field() {
                write!(out, " · time field {field}")?;
            }
            writeln!(out)?;
        }
        // No format without a non-blank line: say which of the two the `lines` figure shows.
        None if report.lines == 0 => writeln!(out, "  no lines to read")?,
        None => writeln!(out, "  no format: every line is blank")?,
    }
    write_epoch_units(out, &report.epoch_units)?;
    writeln!(
        out,
        "  {} with B = {}, r = {}/s\n",
        cx.algorithm,
        rust_number(cx.capacity),
        rust_number(cx.refill_rate)
    )?;
    for (label, n) in [
        ("lines", report.lines),
        ("requests", report.requests),
        ("malformed", report.malformed),
        ("keys", report.keys),
    ] {
        writeln!(out, "  {label:<10}{:>14}", grouped(n))?;
    }
    writeln!(
        out,
        "  {:<10}{:>14}  ({} of requests)",
        "limited",
        grouped(report.limited),
        percent(report.limited, report.requests)
    )?;
    if let Some(never) = &report.never {
        write_never(out, never, cx.capacity)?;
    }
    write_time_notes(out, report)?;

    if !report.malformed_examples.is_empty() {
        let shown = report.malformed_examples.len();
        if shown as u64 == report.malformed {
            writeln!(out, "\nmalformed lines:")?;
        } else {
            writeln!(
                out,
                "\nmalformed lines (the first {shown} of {}):",
                grouped(report.malformed)
            )?;
        }
        for example in &report.malformed_examples {
            writeln!(out, "  line {}: {}", example.line, example.why)?;
        }
    }

    if !report.by_key.is_empty() {
        let width = report
            .by_key
            .iter()
            .map(|k| cut(&k.key).chars().count())
            .max()
            .unwrap_or(0)
            .max(3);
        writeln!(
            out,
            "\n{:<width$}  {:>12}  {:>12}",
            "key", "requests", "limited"
        )?;
        for key in &report.by_key {
            writeln!(
                out,
                "{:<width$}  {:>12}  {:>12}",
                cut(&key.key),
                grouped(key.requests),
                grouped(key.limited)
            )?;
        }
    }
    if cx.hidden > 0 {
        writeln!(
            out,
            "… {} more keys (--top N lists more)",
            grouped(cx.hidden as u64)
        )?;
    }

    let recommended = report.recommendation.as_ref().and_then(|r| r.as_ref());
    write_curve(
        out,
        curves,
        cx.refill_rate,
        recommended.map(|r| r.refill_rate),
    )?;

    match &report.recommendation {
        Some(Some(r)) => {
            writeln!(
                out,
                "\nrecommendation for {}: B = {}, r = {}/s (at most {} requests in any minute)",
                r.target,
                rust_number(r.capacity),
                rust_number(r.refill_rate),
                amount(r.capacity + r.refill_rate * HORIZON)
            )?;
            writeln!(
                out,
                "  replayed: limits {} of {} keys ({}) and {} of {} requests ({})",
                grouped(r.keys_limited),
                grouped(report.keys),
                percent(r.keys_limited, report.keys),
                grouped(r.requests_limited),
                grouped(report.requests),
                percent(r.requests_limited, report.requests)
            )?;
            // A time off by up to a second moves a client's need by up to r × 1 s.
            if report.whole_second_times {
                writeln!(
                    out,
                    "  with whole-second times a client may need up to r × 1 s more burst than\n  \
                     replayed: B = {} covers that",
                    rust_number((r.capacity + r.refill_rate).ceil())
                )?;
            }
        }
        Some(None) => writeln!(out, "\nno recommendation: the log has no requests")?,
        None => {}
    }
    Ok(())
}

/// How numeric times were read (nothing when none was a number): `times: epoch milliseconds
/// (read by size)`; when the log mixes units, each with its first line and requests, and a
/// warning (README, "Replay your own traffic", says why the log is not refused).
fn write_epoch_units(out: &mut impl Write, units: &[EpochUnitCount]) -> io::Result<()> {
    let [first, others @ ..] = units else {
        return Ok(());
    };
    write!(out, "  times: epoch {} (read by size)", first.unit)?;
    if others.is_empty() {
        return writeln!(out);
    }
    let from = |u: &EpochUnitCount| {
        let requests = match u.requests {
            1 => "1 request".to_owned(),
            n => format!("{} requests", grouped(n)),
        };
        format!("from line {} ({requests})", grouped(u.first_line))
    };
    writeln!(out, " {}", from(first))?;
    for unit in others {
        writeln!(out, "         epoch {} {}", unit.unit, from(unit))?;
    }
    writeln!(
        out,
        "  warning: the times mix units; each line was read in its own, which is right for logs\n           \
         joined together but wrong for a clock that does not count from 1970"
    )
}

/// The limited requests that could never pass, a line per reason under the limited count, each
/// saying what to change: waiting (a client's retry) would not let them through.
fn write_never(out: &mut impl Write, never: &NeverCounts, capacity: f64) -> io::Result<()> {
    if let Some(cost) = never.largest_cost {
        let (cost, capacity) = (rust_number(cost), rust_number(capacity));
        match never.cost_exceeds_capacity {
            1 => writeln!(
                out,
                "  of which 1 can never pass: cost {cost} > capacity {capacity}; raise the capacity or split the request"
            )?,
            n => writeln!(
                out,
                "  of which {} can never pass: costs up to {cost} > capacity {capacity}; raise the capacity or split the requests",
                grouped(n)
            )?,
        }
    }
    if never.no_refill > 0 {
        writeln!(
            out,
            "  of which {} can never pass: refill rate 0, nothing refills a key's bucket; raise the refill rate",
            grouped(never.no_refill)
        )?;
    }
    Ok(())
}

/// What the times were too coarse or out of order for, under the summary: requests earlier than
/// their key's latest (replayed at that latest, piled up: sort the log), and whole-second times
/// (a second's requests replayed as simultaneous, and close ones either side of a second's end a
/// second apart: the limited counts may be off either way).
fn write_time_notes(out: &mut impl Write, report: &Report) -> io::Result<()> {
    if let Some(back) = &report.backwards {
        // To the millisecond, trailing zeros dropped: a step, not a need, so plainly rounded.
        let step = format!("{:.3}", back.largest_step);
        let step = step.trim_end_matches('0').trim_end_matches('.');
        let line = grouped(back.first_line);
        // One request has its own key, line and step; several share the sentence's plurals.
        if back.requests == 1 {
            writeln!(
                out,
                "  warning: 1 request came earlier than its key's latest time (line {line}, {step} s\n           \
                 earlier); it was replayed at that latest time, which piles requests up and\n           \
                 overstates what is limited: sort the log by time and replay it (README,\n           \
                 \"Replay your own traffic\", for logs joined from several servers)",
            )?;
        } else {
            writeln!(
                out,
                "  warning: {} requests came earlier than their key's latest time (the first on line\n           \
                 {line}, the largest step back {step} s); each was replayed at that latest time, which\n           \
                 piles them up and overstates what is limited: sort the log by time and replay it\n           \
                 (README, \"Replay your own traffic\", for logs joined from several servers)",
                grouped(back.requests),
            )?;
        }
    }
    if report.whole_second_times {
        writeln!(
            out,
            "  note: the times are whole seconds (1 s resolution), so the limited counts may be off\n        \
             either way: the requests of one second are replayed as simultaneous (more limited),\n        \
             and close ones either side of a second's end a whole second apart (fewer) (for\n        \
             sub-second times, end the log format with $msec in nginx, %{{msec}}t in Apache)"
        )?;
    }
    Ok(())
}

/// The curve's rows where it changes: round rates (1, 2, 5 per decade) from where the heaviest
/// key's need starts to fall to where every column has reached its floor (to the hundredth), that
/// rate itself (the knee, round or not: 8/s, say), plus the rate asked about (when above 0: the
/// grid has no rate 0) and the one recommended.
fn write_curve(
    out: &mut impl Write,
    curves: &Curves,
    asked: f64,
    recommended: Option<f64>,
) -> io::Result<()> {
    let Some((heaviest, own)) = &curves.heaviest else {
        return Ok(());
    };
    let columns = [&curves.median, &curves.p95, &curves.p99, own];
    let last = curves.rates.len() - 1;
    // The grid's top rate, not an asked or recommended rate above it (10⁵/s credits 0.15 tokens
    // of early arrival at Unix times: no row would ever be settled against it).
    let top = curves
        .rates
        .iter()
        .rposition(|&r| r <= TOP_RATE)
        .unwrap_or(last);
    // Settled: no column prints more than a hundredth above its value at the grid's top rate.
    // Past its floor a column still falls by the core's early-arrival slack (`r` times up to
    // 1.5 µs at Unix times: 0.015 at 10 000/s), which is not worth rows of its own.
    let settled = |i: usize| {
        columns
            .iter()
            .all(|c| hundredths(c[i]) <= hundredths(c[top]) + 1.0)
    };
    let start = (0..=last)
        .find(|&i| own[i] < own[0])
        .unwrap_or(0)
        .saturating_sub(1);
    let end = (start..=last).find(|&i| settled(i)).unwrap_or(last);
    writeln!(
        out,
        "\nburst needed to never be limited, B(r): at each refill rate, the capacity that half,\n\
         95 % and 99 % of the keys stay within, and the heaviest key ({})",
        cut(heaviest)
    )?;
    writeln!(
        out,
        "{:>12}  {:>10}  {:>10}  {:>10}  {:>10}",
        "r (/s)", "median", "p95", "p99", "heaviest"
    )?;
    for (i, &rate) in curves.rates.iter().enumerate() {
        let mark = match (rate == asked, Some(rate) == recommended) {
            (true, true) => "  ← --refill-rate, recommended",
            (true, false) => "  ← --refill-rate",
            (false, true) => "  ← recommended",
            (false, false) => "",
        };
        let round = [1.0, 2.0, 5.0].iter().any(|m| {
            let scaled = rate / m;
            (scaled.log10() - scaled.log10().round()).abs() < 1e-9
        });
        if mark.is_empty() && i != end && !(round && (start..=end).contains(&i)) {
            continue;
        }
        writeln!(
            out,
            "{:>12}  {:>10}  {:>10}  {:>10}  {:>10}{mark}",
            rust_number(rate),
            amount(curves.median[i]),
            amount(curves.p95[i]),
            amount(curves.p99[i]),
            amount(own[i])
        )?;
    }
    Ok(())
}
