//! Reading a byte stream into lines: gzip recognised by its magic bytes and decompressed on the
//! fly, the rest fed to a [`LineSplitter`] in fixed-size chunks.

use super::lines::{Line, LineSplitter};
use flate2::read::MultiGzDecoder;
use std::io::{self, Read};

/// Bytes read at a time.
const CHUNK: usize = 1 << 16;

/// `reader`, decompressed if it starts with gzip's magic bytes `1f 8b` (several gzip members in a
/// row, as `cat a.gz b.gz` makes, are read one after the other).
pub fn decompressed<'a>(mut reader: impl Read + 'a) -> io::Result<Box<dyn Read + 'a>> {
    let mut magic = [0u8; 2];
    let mut seen = 0;
    while seen < magic.len() {
        match reader.read(&mut magic[seen..]) {
            Ok(0) => break,
            Ok(n) => seen += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let whole = io::Cursor::new(magic[..seen].to_vec()).chain(reader);
    Ok(if magic[..seen] == [0x1f, 0x8b] {
        Box::new(MultiGzDecoder::new(whole))
    } else {
        Box::new(whole)
    })
}

/// The compressions other than gzip that a log may come in, by the magic bytes their files start
/// with: such a log is refused, naming the compression, rather than read as lines of bytes (a
/// short chunk of compressed data may even happen to be UTF-8). gzip (`1f 8b`) is read instead.
const COMPRESSIONS: [(&str, &[u8]); 11] = [
    ("zstd", &[0x28, 0xb5, 0x2f, 0xfd]),
    ("xz", &[0xfd, b'7', b'z', b'X', b'Z', 0x00]),
    ("lz4", &[0x04, 0x22, 0x4d, 0x18]),
    // lz4's legacy frame (`lz4 -l`).
    ("lz4", &[0x02, 0x21, 0x4c, 0x18]),
    ("zip", b"PK\x03\x04"),
    // An empty zip archive.
    ("zip", b"PK\x05\x06"),
    ("7z", &[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]),
    ("compress (.Z)", &[0x1f, 0x9d]),
    ("lzip", b"LZIP\x01"),
    ("rar", b"Rar!\x1a\x07"),
    ("snappy", b"\xff\x06\x00\x00sNaPpY"),
];

/// The compression (other than gzip, which is read) that a stream starting with `start` is in,
/// told by its magic bytes; `None` for anything else. bzip2's `BZh` is ASCII, so a bzip2 stream is
/// told by its whole header: `BZh`, the block size `1`–`9`, then the magic of a block (π's digits,
/// `1AY&SY`) or of the end of an empty stream (√π's).
pub fn compression(start: &[u8]) -> Option<&'static str> {
    if let [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..] = start {
        if rest.starts_with(b"1AY&SY") || rest.starts_with(b"\x17rE8P\x90") {
            return Some("bzip2");
        }
    }
    // zstd's skippable frames (`pzstd` starts its output with one; lz4 may write them too).
    if let [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] = start {
        return Some("zstd or lz4");
    }
    COMPRESSIONS
        .iter()
        .find(|(_, magic)| start.starts_with(magic))
        .map(|(name, _)| *name)
}

/// Calls `each` for every line of `reader`, in order, until the end or until `each` returns
/// `false` (reading then stops at the end of the chunk).
pub fn for_each_line(
    reader: &mut dyn Read,
    mut each: impl FnMut(Line<'_>) -> bool,
) -> io::Result<()> {
    let mut splitter = LineSplitter::new();
    let mut chunk = vec![0u8; CHUNK];
    let mut going = true;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        splitter.feed(&chunk[..n], |line| going = going && each(line));
        if !going {
            return Ok(());
        }
    }
    splitter.finish(|line| {
        each(line);
    });
    Ok(())
}

/// Lines from chunks pushed one at a time (a browser reads a file this way): gzip recognised by
/// its first two bytes and decompressed as the chunks come, the text cut into lines across chunk
/// boundaries. Memory stays bounded by a chunk's decompressed size plus one line.
#[derive(Default)]
pub struct ChunkLines {
    /// The first bytes, kept until there are two to recognise gzip by.
    start: Vec<u8>,
    decoder: Option<Decoder>,
    splitter: LineSplitter,
}

enum Decoder {
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
}

impl ChunkLines {
    /// A reader at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next chunk and calls `each` for every line it completes. An error means the gzip
    /// stream is corrupt.
    pub fn feed(&mut self, chunk: &[u8], mut each: impl FnMut(Line<'_>)) -> io::Result<()> {
        if self.decoder.is_none() {
            self.start.extend_from_slice(chunk);
            if self.start.len() < 2 {
                return Ok(());
            }
            let start = std::mem::take(&mut self.start);
            self.decoder = Some(if start[..2] == [0x1f, 0x8b] {
                Decoder::Gzip(Box::new(flate2::write::MultiGzDecoder::new(Vec::new())))
            } else {
                Decoder::Plain
            });
            return self.feed(&start, each);
        }
        match self.decoder.as_mut() {
            Some(Decoder::Gzip(decoder)) => {
                io::Write::write_all(&mut **decoder, chunk)?;
                let text = decoder.get_mut();
                self.splitter.feed(text, &mut each);
                text.clear();
            }
            _ => self.splitter.feed(chunk, &mut each),
        }
        Ok(())
    }

    /// Ends the stream: the last line, or an error if a gzip stream stopped part way (its
    /// unfinished last line is then no line, as [`for_each_line`] stops at the cut).
    pub fn finish(&mut self, mut each: impl FnMut(Line<'_>)) -> io::Result<()> {
        let start = std::mem::take(&mut self.start);
        self.splitter.feed(&start, &mut each);
        let mut ended = Ok(());
        if let Some(Decoder::Gzip(decoder)) = self.decoder.as_mut() {
            ended = io::Write::flush(&mut **decoder).and_then(|()| decoder.try_finish());
            let text = decoder.get_mut();
            self.splitter.feed(text, &mut each);
            text.clear();
        }
        if ended.is_ok() {
            self.splitter.finish(each);
        }
        *self = ChunkLines::default();
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    fn lines(bytes: &[u8], chunk: usize) -> io::Result<Vec<String>> {
        let mut reader = ChunkLines::new();
        let mut out = Vec::new();
        let mut push = |line: Line<'_>| {
            if let Line::Text(t) = line {
                out.push(String::from_utf8_lossy(t).into_owned());
            }
        };
        for piece in bytes.chunks(chunk) {
            reader.feed(piece, &mut push)?;
        }
        reader.finish(&mut push)?;
        Ok(out)
    }

    #[test]
    fn compressions_are_told_by_their_magic_bytes_and_text_is_not() {
        for (start, name) in [
            (&b"\x28\xb5\x2f\xfd\x04\x58"[..], Some("zstd")),
            (b"\x50\x2a\x4d\x18\x04\x00", Some("zstd or lz4")),
            (b"\xfd7zXZ\x00\x00", Some("xz")),
            (b"BZh91AY&SY\x12", Some("bzip2")),
            (b"BZh9\x17rE8P\x90\x00", Some("bzip2")),
            (b"\x04\x22\x4d\x18\x64", Some("lz4")),
            (b"PK\x03\x04\x14\x00", Some("zip")),
            (b"7z\xbc\xaf\x27\x1c\x00", Some("7z")),
            (b"\x1f\x9d\x90", Some("compress (.Z)")),
            (b"LZIP\x01\x0c", Some("lzip")),
            (b"Rar!\x1a\x07\x01", Some("rar")),
            // gzip is read, not refused; text that merely starts like a magic is text.
            (b"\x1f\x8b\x08", None),
            (b"BZh9,alice", None),
            (b"BZh", None),
            (b"PK,1700000000", None),
            (b"7z archive", None),
            (b"LZIP", None),
            (b"192.0.2.1 - - [14/Nov/2023:22:13:00 +0100]", None),
            (b"", None),
        ] {
            assert_eq!(compression(start), name, "{start:?}");
        }
    }

    #[test]
    fn chunks_of_any_size_give_the_same_lines_plain_or_gzip() {
        let text = b"a 1\nbb 2\r\n\nccc 3";
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(text).unwrap();
        let gz = gz.finish().unwrap();
        // Two gzip members in a row read as one stream, as `cat a.gz b.gz` makes.
        let twice = [gz.clone(), gz.clone()].concat();
        for size in [1, 2, 3, 7, 1000] {
            assert_eq!(lines(text, size).unwrap(), ["a 1", "bb 2", "", "ccc 3"]);
            assert_eq!(lines(&gz, size).unwrap(), ["a 1", "bb 2", "", "ccc 3"]);
            assert_eq!(lines(&twice, size).unwrap().len(), 7, "size {size}");
        }
        assert_eq!(lines(b"x", 1).unwrap(), ["x"], "a one-byte stream");
        assert!(lines(b"", 1).unwrap().is_empty());
    }

    #[test]
    fn a_cut_or_corrupt_gzip_stream_is_an_error() {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&b"line\n".repeat(1000)).unwrap();
        let gz = gz.finish().unwrap();
        assert!(lines(&gz[..gz.len() / 2], 64).is_err(), "cut short");
        let mut bad = gz.clone();
        bad[12] ^= 0xff;
        bad[20] ^= 0xff;
        assert!(lines(&bad, 64).is_err(), "corrupt");
    }
}
