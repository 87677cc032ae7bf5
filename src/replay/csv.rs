//! CSV lines `time,key[,cost]`: the time (an epoch time or RFC 3339) in column 1, the key in
//! column 2 or the one `--key column:N` names, the cost in column 3 when the key is column 2 and
//! the line has a third column (otherwise every request costs 1). Fields may be quoted as RFC 4180
//! says; a record may not span lines.

use super::unreadable::Unreadable;
use csv_core::{ReadRecordResult, Reader};

/// The most columns a line may have.
pub const MAX_COLUMNS: usize = 64;

/// One line's fields, split by `csv-core` into a buffer reused from line to line.
#[derive(Debug)]
pub struct Splitter {
    reader: Reader,
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// Whether each field of the line was quoted (its spaces are then part of it).
    quoted: Vec<bool>,
}

impl Default for Splitter {
    fn default() -> Self {
        Splitter {
            // `Reader::new`, not `Reader::default`: only the builder readies its state machine.
            reader: Reader::new(),
            bytes: Vec::new(),
            ends: Vec::new(),
            quoted: Vec::new(),
        }
    }
}

/// A fresh splitter: a cloned `csv_core::Reader` splits the next line wrongly (its copy of the
/// state machine is not ready), as a further pass over a CSV log showed.
impl Clone for Splitter {
    fn clone(&self) -> Self {
        Splitter::default()
    }
}

impl Splitter {
    /// Splits `line` into its fields; `Err` says why it can't.
    pub fn split(&mut self, line: &[u8]) -> Result<Columns<'_>, Unreadable> {
        if scan_quotes(line, &mut self.quoted) {
            return Err(Unreadable::UnclosedQuote);
        }
        self.reader.reset();
        self.bytes.clear();
        // Unquoted output is never longer than the input.
        self.bytes.resize(line.len(), 0);
        self.ends.clear();
        self.ends.resize(MAX_COLUMNS, 0);
        let (mut input, mut written, mut count) = (line, 0, 0);
        loop {
            let (result, _, out, ends) =
                self.reader
                    .read_record(input, &mut self.bytes[written..], &mut self.ends[count..]);
            // csv-core writes ends as offsets into the whole record's output, across calls.
            written += out;
            count += ends;
            match result {
                // All of the line was read, and it is the whole record: an empty input tells
                // csv-core so.
                ReadRecordResult::InputEmpty => input = &[],
                ReadRecordResult::Record | ReadRecordResult::End => break,
                ReadRecordResult::OutputEndsFull => {
                    return Err(Unreadable::TooManyColumns { max: MAX_COLUMNS })
                }
                ReadRecordResult::OutputFull => return Err(Unreadable::FieldTooLong),
            }
        }
        Ok(Columns {
            bytes: &self.bytes[..written],
            ends: &self.ends[..count],
            quoted: &self.quoted,
        })
    }
}

/// Notes in `fields` whether each field of `line` is quoted; true when one opens a quote it never
/// closes (`1700000000,"b,1`), which csv-core would read to the line's end, swallowing the
/// columns after it. A quote inside an unquoted field (`a"b`) is text, as csv-core reads it.
fn scan_quotes(line: &[u8], fields: &mut Vec<bool>) -> bool {
    fields.clear();
    let (mut quoted, mut field_start) = (false, true);
    let mut at = 0;
    while at < line.len() {
        match (quoted, line[at]) {
            (false, b'"') if field_start => {
                quoted = true;
                fields.push(true);
                field_start = false;
                at += 1;
                continue;
            }
            // A doubled quote is one quote of the text.
            (true, b'"') if line.get(at + 1) == Some(&b'"') => at += 1,
            (true, b'"') => quoted = false,
            (false, b',') => {
                if field_start {
                    fields.push(false);
                }
                field_start = true;
                at += 1;
                continue;
            }
            _ => {}
        }
        if field_start {
            fields.push(false);
        }
        field_start = false;
        at += 1;
    }
    if field_start {
        fields.push(false);
    }
    quoted
}

/// The fields of one line.
#[derive(Debug, Clone, Copy)]
pub struct Columns<'a> {
    bytes: &'a [u8],
    ends: &'a [usize],
    quoted: &'a [bool],
}

impl<'a> Columns<'a> {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Whether column `n` (from 1) was quoted: its spaces are then part of its text.
    pub fn is_quoted(&self, n: usize) -> bool {
        n.checked_sub(1)
            .and_then(|i| self.quoted.get(i))
            .copied()
            .unwrap_or(false)
    }

    /// Column `n`, counting from 1, as text.
    pub fn get(&self, n: usize) -> Option<Result<&'a str, Unreadable>> {
        let end = *self.ends.get(n.checked_sub(1)?)?;
        let start = if n == 1 { 0 } else { self.ends[n - 2] };
        Some(
            std::str::from_utf8(&self.bytes[start..end])
                .map_err(|_| Unreadable::ColumnNotUtf8 { column: n }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<String> {
        let mut splitter = Splitter::default();
        let columns = splitter.split(line.as_bytes()).unwrap();
        (1..=columns.len())
            .map(|n| columns.get(n).unwrap().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn quoted_fields_keep_commas_and_doubled_quotes() {
        assert_eq!(fields("1.5,alice,2"), ["1.5", "alice", "2"]);
        assert_eq!(fields(r#"1,"a, ""b""",3"#), ["1", r#"a, "b""#, "3"]);
        assert_eq!(fields("1,"), ["1", ""]);
        let mut splitter = Splitter::default();
        assert!(splitter.split(",".repeat(MAX_COLUMNS).as_bytes()).is_err());
        assert!(splitter.split(b"2,bob").unwrap().get(3).is_none());
    }

    #[test]
    fn a_quote_never_closed_is_refused_and_a_quote_inside_a_field_is_text() {
        let mut splitter = Splitter::default();
        for line in [r#"1700000000.3,"b,1"#, r#"1,"a""b"#, r#"1,ok,""#] {
            assert!(
                matches!(
                    splitter.split(line.as_bytes()),
                    Err(Unreadable::UnclosedQuote)
                ),
                "{line}"
            );
        }
        assert_eq!(fields(r#"1,a"b,2"#), ["1", r#"a"b"#, "2"]);
        assert_eq!(fields(r#"1,"",2"#), ["1", "", "2"]);
        assert_eq!(fields(r#"1,"x""",2"#), ["1", r#"x""#, "2"]);
        let columns = splitter.split(br#"1, a ,"b ","c,d",e"#).unwrap();
        let quoted: Vec<bool> = (1..=5).map(|n| columns.is_quoted(n)).collect();
        assert_eq!(quoted, [false, false, true, true, false]);
        let empty = splitter.split(b"1,,").unwrap();
        assert!(empty.len() == 3 && !empty.is_quoted(3));
    }
}
