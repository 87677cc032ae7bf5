//! `{{#bucket-lab …}}` in a chapter's text: finding each one, reading its parameters, checking
//! them with the rules the element itself applies (so a bad value stops the build instead of
//! showing an error box to readers), and writing the `<bucket-lab>` element.

use bucketlab::limiter::{parse_groups, rust_number, Field, InvalidValue, Rule, GROUP_NAMES};
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::ops::Range;

/// How a directive starts; `\{{#bucket-lab` writes it literally, as mdBook's own `\{{#include`.
pub const OPEN: &str = "{{#bucket-lab";
const CLOSE: &str = "}}";

/// Every parameter, spelled as the element's attributes (www/element/bucket-lab.js `ATTRIBUTES`).
pub const PARAMETERS: [&str; 9] = [
    "capacity",
    "refill-rate",
    "cost",
    "tokens",
    "lang",
    "view",
    "controls",
    "paused",
    "theme",
];

/// The element's `B` when `capacity` is left out; `tokens` and `cost` are checked against it.
const DEFAULT_CAPACITY: f64 = 5.0;

/// A directive that can't become an element: the line of the chapter it starts on (from 1) and
/// why, naming the parameter, the value and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectiveError {
    /// The chapter's line the directive starts on, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A chapter's text after [`expand`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    /// The text with every directive replaced by its element.
    pub text: String,
    /// How many elements it holds now.
    pub elements: usize,
}

/// Replaces every `{{#bucket-lab …}}` in `text` by its `<bucket-lab>` element; the first bad
/// directive is an error. In inline code and code blocks a directive is text, left as written.
///
/// ```
/// let out = mdbook_bucketlab::directive::expand("Try it:\n\n{{#bucket-lab capacity=10 lang=en}}\n").unwrap();
/// assert_eq!(out.text, "Try it:\n\n<bucket-lab capacity=\"10\" lang=\"en\">\n</bucket-lab>\n");
/// let shown = mdbook_bucketlab::directive::expand("Write `{{#bucket-lab capacity=2}}`.").unwrap();
/// assert_eq!(shown.text, "Write `{{#bucket-lab capacity=2}}`.");
/// let bad = mdbook_bucketlab::directive::expand("\n{{#bucket-lab capacity=-1}}").unwrap_err();
/// assert_eq!((bad.line, bad.message.as_str()), (2, "capacity must be a finite number greater than 0, got -1"));
/// ```
pub fn expand(text: &str) -> Result<Expanded, DirectiveError> {
    let mut out = String::with_capacity(text.len());
    let mut elements = 0;
    let mut rest = text;
    let code = code_ranges(text);
    while let Some((start, len, exact)) = next_opening(rest) {
        let offset = text.len() - rest.len() + start;
        let line = line_of(text, offset);
        let opening = &rest[start..start + len];
        if code.iter().any(|range| range.contains(&offset)) {
            // Shown as code: kept as it is, backslash and all.
            out.push_str(&rest[..start + len]);
            rest = &rest[start + len..];
            continue;
        }
        if rest[..start].ends_with('\\') {
            // Escaped: drop the backslash, keep the directive as text.
            out.push_str(&rest[..start - 1]);
            out.push_str(opening);
            rest = &rest[start + len..];
            continue;
        }
        if !exact {
            // mdBook would publish it as text, where readers would see it: the author meant one.
            return Err(DirectiveError {
                line,
                message: format!(
                    "\"{opening}\" is not a directive: write \"{OPEN}\" (or \\{opening} to show it as text)"
                ),
            });
        }
        out.push_str(&rest[..start]);
        let after = &rest[start + len..];
        let Some(end) = after.find(CLOSE) else {
            return Err(DirectiveError {
                line,
                message: format!("{OPEN} is not closed: no \"{CLOSE}\" after it"),
            });
        };
        let args = &after[..end];
        if !args.is_empty() && !args.starts_with(char::is_whitespace) {
            return Err(DirectiveError {
                line,
                message: format!(
                    "\"{OPEN}\" must be followed by a space or \"{CLOSE}\", got \"{OPEN}{}\"",
                    first_word(args)
                ),
            });
        }
        let settings = read(args).map_err(|(place, message)| DirectiveError {
            // The line of the parameter at fault, which may be below the directive's first.
            line: line_of(text, place.as_ptr() as usize - text.as_ptr() as usize),
            message,
        })?;
        rest = &after[end + CLOSE.len()..];
        let line_after = rest.split('\n').next().unwrap_or_default();
        let block = continuation(text, offset).filter(|_| line_after.trim().is_empty());
        out.push_str(&element(&settings, block.as_deref()));
        elements += 1;
    }
    out.push_str(rest);
    Ok(Expanded {
        text: out,
        elements,
    })
}

/// The byte ranges of `text`'s inline code and code blocks (fenced or indented), as mdBook's
/// Markdown parser finds them.
fn code_ranges(text: &str) -> Vec<Range<usize>> {
    Parser::new_ext(text, Options::all())
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Code(_) | Event::Start(Tag::CodeBlock(_)) => Some(range),
            _ => None,
        })
        .collect()
}

/// The line (from 1) that byte `offset` of `text` is on.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// `text` up to its first whitespace, for quoting in a message.
fn first_word(text: &str) -> &str {
    text.split(char::is_whitespace).next().unwrap_or_default()
}

/// One parameter: its name, the name as written (a slice of the directive, to find its line)
/// and its value (`None` for a bare name such as `paused`).
#[derive(Clone, Copy)]
struct Parameter<'a> {
    name: &'static str,
    written: &'a str,
    value: Option<&'a str>,
}

/// Why a directive is refused: the slice of it at fault, and the message.
type Refusal<'a> = (&'a str, String);

/// Reads and checks a directive's parameters (the text between `{{#bucket-lab` and `}}`).
fn read(args: &str) -> Result<Vec<Parameter<'_>>, Refusal<'_>> {
    let mut settings: Vec<Parameter<'_>> = Vec::new();
    for (written, value) in split(args)? {
        let Some(name) = PARAMETERS.iter().find(|p| **p == written) else {
            let known = PARAMETERS.join(", ");
            return Err((
                written,
                format!("unknown parameter \"{written}\"; known: {known}"),
            ));
        };
        if settings.iter().any(|p| p.name == *name) {
            return Err((written, format!("parameter \"{name}\" is given twice")));
        }
        // `paused` is on when present, as the element's boolean attribute: bare, or `paused=true`
        // as the other hosts allow (written bare either way); `paused=false` lets time run, as the
        // element takes it, and is left out of the element.
        let value = match (*name, value) {
            ("paused", Some("true")) => None,
            _ => value,
        };
        let wrong = match (*name, value) {
            ("paused", Some("false")) => None,
            ("paused", Some(value)) => Some(format!(
                "paused is present (just \"paused\", or paused=true), paused=false or absent, got \"paused={value}\""
            )),
            ("paused", None) | (_, Some(_)) => None,
            (_, None) => Some(format!("{name} needs a value: {name}=…")),
        };
        if let Some(message) = wrong {
            return Err((written, message));
        }
        settings.push(Parameter {
            name,
            written,
            value,
        });
    }
    check(&settings)?;
    Ok(settings)
}

/// Splits `a=1 b="x y" c='x y' flag` into (name, value) pairs; values in double or single quotes
/// may hold spaces, as in HTML.
fn split(args: &str) -> Result<Vec<(&str, Option<&str>)>, Refusal<'_>> {
    let mut pairs = Vec::new();
    let mut rest = args.trim_start();
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() {
            let word = first_word(rest);
            return Err((word, format!("a value without a name: \"{word}\"")));
        }
        rest = &rest[name_end..];
        let value = match rest.strip_prefix('=') {
            None => None,
            Some(after) => match after.chars().next().filter(|c| *c == '"' || *c == '\'') {
                Some(quote) => {
                    let quoted = &after[1..];
                    let close = quoted.find(quote).ok_or_else(|| {
                        let message = format!(
                            "the value of {name} opens a quote ({quote}) and never closes it"
                        );
                        (name, message)
                    })?;
                    rest = &quoted[close + 1..];
                    Some(&quoted[..close])
                }
                None => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    rest = &after[end..];
                    Some(&after[..end])
                }
            },
        };
        pairs.push((name, value));
        rest = rest.trim_start();
    }
    Ok(pairs)
}

/// Checks each value with the element's rule for it.
fn check<'a>(settings: &[Parameter<'a>]) -> Result<(), Refusal<'a>> {
    let given = |name: &str| settings.iter().find(|p| p.name == name);
    let number = |name: &str, field: Field, rule: Rule| match given(name) {
        Some(&Parameter {
            written,
            value: Some(text),
            ..
        }) => InvalidValue::parse(field, text, rule)
            .map(Some)
            .map_err(|error| (written, error.message_with(name, rust_number))),
        _ => Ok(None),
    };
    let capacity = number("capacity", Field::Capacity, Rule::Positive)?.unwrap_or(DEFAULT_CAPACITY);
    number("refill-rate", Field::RefillRate, Rule::NonNegative)?;
    number("tokens", Field::Tokens, Rule::UpTo(capacity))?;
    let most = capacity.floor().clamp(1.0, f64::from(u32::MAX)) as u32;
    number("cost", Field::Cost, Rule::Whole(1, most))?;
    for parameter in settings {
        let (Some(value), written) = (parameter.value, parameter.written) else {
            continue;
        };
        let wrong = match parameter.name {
            "lang" if !is_lesson_language(value) => Some(format!(
                "lang must be \"pt-BR\", \"en\" or another tag of those languages (en-GB, pt-PT), got \"{value}\""
            )),
            "view" if value != "diagram" => {
                Some(format!("view must be \"diagram\", got \"{value}\""))
            }
            "controls" => check_controls(value).err(),
            "theme" if !["light", "dark", "auto"].contains(&value) => Some(format!(
                "theme must be \"light\", \"dark\", \"auto\" or absent (the page's colour scheme), got \"{value}\""
            )),
            _ => None,
        };
        if let Some(message) = wrong {
            return Err((written, message));
        }
    }
    Ok(())
}

/// Whether `tag` is a `lang` the element takes: a language tag (letters, digits and hyphens) whose
/// first part is `en` or `pt`, in any case. The element shows `en-GB` in English and `pt-PT` in
/// Brazilian Portuguese, by that first part (www/element/bucket-lab.js applies the same rule).
fn is_lesson_language(tag: &str) -> bool {
    let primary = tag.split('-').next().unwrap_or_default();
    tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && (primary.eq_ignore_ascii_case("en") || primary.eq_ignore_ascii_case("pt"))
}

/// `controls`: `all`, `none`, or group names separated by spaces or commas, in any case, by the
/// element's own rule.
fn check_controls(list: &str) -> Result<(), String> {
    match parse_groups(list) {
        Ok(_) => Ok(()),
        Err(why) => Err(format!(
            "controls must be \"all\", \"none\" or names from {GROUP_NAMES} separated by spaces or commas, got \"{list}\" ({why})"
        )),
    }
}

/// The next directive's opening in `text`: its start, its length and whether it is spelled
/// `{{#bucket-lab` (`false`: nearly so, as `{{#bucketlab` or `{{#Bucket_Lab`, which mdBook would
/// publish as text). Spaces may come after `{{`, as mdBook's own `{{ #include` allows.
fn next_opening(text: &str) -> Option<(usize, usize, bool)> {
    let mut from = 0;
    while let Some(at) = text[from..].find("{{") {
        let start = from + at;
        from = start + 2;
        let Some(name) = text[from..]
            .trim_start_matches([' ', '\t'])
            .strip_prefix('#')
        else {
            continue;
        };
        let name_len = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(name.len());
        let squashed: String = name[..name_len]
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        // Spelled so, and then anything (its parameters are read next, which names a missing space).
        let exact = name.starts_with("bucket-lab");
        if exact || squashed.starts_with("bucketlab") {
            let name_len = if exact { "bucket-lab".len() } else { name_len };
            let end = text.len() - name.len() + name_len;
            return Some((start, end - start, exact));
        }
    }
    None
}

/// What the element's second line starts with for a directive at `offset` in `text`, when it
/// starts its line: the containers the line opens with (a list item's indent, a quote's `>`), so
/// that in a list item or a quote the closing tag stays inside with the opening one. None after
/// other text (a sentence, a table row's `|`): the element then stays on its line.
fn continuation(text: &str, offset: usize) -> Option<String> {
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let prefix = &text[line_start..offset];
    let containers = prefix.chars().all(|c| {
        c.is_whitespace() || matches!(c, '>' | '-' | '*' | '+' | '.' | ')') || c.is_ascii_digit()
    });
    containers.then(|| {
        prefix
            .chars()
            .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
            .collect()
    })
}

/// The element, its attributes in the order they were written, and, for a directive alone on
/// its line (`block`: that line's containers), its closing tag on the next line after them.
/// Checked values hold no `"`, `<` or `&`, so they go into the attributes as they are.
fn element(settings: &[Parameter<'_>], block: Option<&str>) -> String {
    let mut out = String::from("<bucket-lab");
    for parameter in settings {
        if (parameter.name, parameter.value) == ("paused", Some("false")) {
            continue;
        }
        out.push(' ');
        out.push_str(parameter.name);
        if let Some(value) = parameter.value {
            out.push_str("=\"");
            out.push_str(value);
            out.push('"');
        }
    }
    // The line break makes a directive on a line of its own an HTML block rather than a
    // paragraph. Among other text it would end a table's row: the element stays inline there.
    out.push('>');
    if let Some(indent) = block {
        out.push('\n');
        out.push_str(indent);
    }
    out.push_str("</bucket-lab>");
    out
}
