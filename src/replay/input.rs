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
