//! Cutting a byte stream into lines, chunk by chunk, with a bounded memory.
//!
//! Chunks come from anywhere (a `BufRead` natively, a file slice in a browser worker); a line may
//! straddle chunks. Lines wholly inside a chunk are handed out without a copy; only the piece that
//! straddles a chunk boundary is kept, and never more than [`MAX_LINE`] bytes of it: a longer line
//! is consumed and reported by its length alone. A UTF-8 byte order mark at the start of the
//! stream (Windows tools write one) is not part of the first line, whatever the format.

/// The longest line kept, in bytes (1 MiB). Longer lines count as malformed.
pub const MAX_LINE: usize = 1 << 20;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line of the input, without its `\n` (nor the `\r` of a CRLF ending).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// The line's bytes.
    Text(&'a [u8]),
    /// A line longer than [`MAX_LINE`]: only its length in bytes was kept.
    TooLong(u64),
}

/// Splits chunks into lines.
#[derive(Debug, Default)]
pub struct LineSplitter {
    /// The start of a line that began in an earlier chunk (at most [`MAX_LINE`] bytes).
    partial: Vec<u8>,
    /// Bytes of that line seen so far, including any that were not kept.
    partial_len: u64,
    /// Whether a line has been handed out (only the first may start with a byte order mark).
    started: bool,
}

impl LineSplitter {
    /// A splitter at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next chunk: calls `each` for every line it completes, in order.
    pub fn feed(&mut self, mut chunk: &[u8], mut each: impl FnMut(Line<'_>)) {
        while let Some(end) = memchr::memchr(b'\n', chunk) {
            let (head, rest) = (&chunk[..end], &chunk[end + 1..]);
            let first = !std::mem::replace(&mut self.started, true);
            if self.partial_len == 0 {
                each(line(head, head.len() as u64, first));
            } else {
                self.keep(head);
                each(line(&self.partial, self.partial_len, first));
                self.partial.clear();
                self.partial_len = 0;
            }
            chunk = rest;
        }
        self.keep(chunk);
    }

    /// Ends the stream: a last line without a final `\n` is still a line.
    pub fn finish(&mut self, mut each: impl FnMut(Line<'_>)) {
        if self.partial_len > 0 {
            let first = !std::mem::replace(&mut self.started, true);
            each(line(&self.partial, self.partial_len, first));
        }
        self.partial = Vec::new();
        self.partial_len = 0;
    }

    /// Remembers the start of an unfinished line, up to the cap.
    fn keep(&mut self, bytes: &[u8]) {
        self.partial_len += bytes.len() as u64;
        if self.partial_len <= MAX_LINE as u64 {
            self.partial.extend_from_slice(bytes);
        } else if !self.partial.is_empty() {
            // Over the cap: the text is lost anyway, so give the memory back at once.
            self.partial = Vec::new();
        }
    }
}

/// The line of `bytes` (`len` bytes long, more than `bytes` when it was not kept), without a
/// `\r` ending nor, on the `first` line, a byte order mark.
fn line(bytes: &[u8], len: u64, first: bool) -> Line<'_> {
    if len > MAX_LINE as u64 {
        return Line::TooLong(len);
    }
    let bytes = match first {
        true => bytes.strip_prefix(BOM).unwrap_or(bytes),
        false => bytes,
    };
    Line::Text(bytes.strip_suffix(b"\r").unwrap_or(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<String> {
        let mut splitter = LineSplitter::new();
        let mut out = Vec::new();
        let mut push = |line: Line<'_>| {
            out.push(match line {
                Line::Text(t) => String::from_utf8_lossy(t).into_owned(),
                Line::TooLong(n) => format!("<{n} bytes>"),
            })
        };
        for chunk in chunks {
            splitter.feed(chunk, &mut push);
        }
        splitter.finish(&mut push);
        out
    }

    #[test]
    fn lines_straddle_chunks_and_lose_their_crlf() {
        assert_eq!(split(&[b"a\r\nb", b"c\n", b"\nd"]), ["a", "bc", "", "d"]);
        assert_eq!(
            split(&[b"x\n"]),
            ["x"],
            "no empty line after a final newline"
        );
        assert!(split(&[]).is_empty());
    }

    #[test]
    fn a_byte_order_mark_is_dropped_from_the_first_line_only() {
        assert_eq!(
            split(&[b"\xEF\xBB\xBFa\n\xEF\xBB\xBFb\n"]),
            ["a", "\u{feff}b"]
        );
        assert_eq!(
            split(&[b"\xEF", b"\xBB\xBFa\nb"]),
            ["a", "b"],
            "across chunks"
        );
        assert_eq!(split(&[b"\xEF\xBB\xBF"]), [""], "a mark and nothing else");
    }

    #[test]
    fn an_overlong_line_is_measured_not_kept() {
        let big = vec![b'z'; MAX_LINE + 10];
        let (a, b) = big.split_at(1000);
        assert_eq!(
            split(&[b"ok\n", a, b, b"\nafter"]),
            ["ok", "<1048586 bytes>", "after"]
        );
        assert_eq!(split(&[&big]), ["<1048586 bytes>"]);
    }
}
