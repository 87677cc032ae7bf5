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
}

impl Default for Splitter {
    fn default() -> Self {
        Splitter {
            // `Reader::new`, not `Reader::default`: only the builder readies its state machine.
            reader: Reader::new(),
            bytes: Vec::new(),
            ends: Vec::new(),
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
        })
    }
}

/// The fields of one line.
#[derive(Debug, Clone, Copy)]
pub struct Columns<'a> {
    bytes: &'a [u8],
    ends: &'a [usize],
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
}
