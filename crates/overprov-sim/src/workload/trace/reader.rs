//! The streaming trace reader: lines cut from a fixed byte buffer (one [`CHUNK_BYTES`] read at a
//! time, plus room for one line of at most [`MAX_LINE_BYTES`]), constant memory, no allocation
//! per line; the format's small parser state is all else it keeps.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::path::Path;

use super::detect::detect_format;
use super::format::LineParser;
use super::{TraceFormat, TraceRecord};
use crate::error::{Error, Result};

/// Longest line accepted; a longer one is a bad line (keeps memory bounded on garbage input).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read to find the first meaningful one when detecting the format.
pub const DETECT_LINES: usize = 64;
/// Bytes asked of the file per read.
pub const CHUNK_BYTES: usize = 256 * 1024;

/// Where the next line of the buffer is, or that there is none.
enum Line {
    /// `buf[start..end]`, without its newline; `long`: over [`MAX_LINE_BYTES`] (then its bytes
    /// were dropped as they were read and the range is empty).
    Text {
        start: usize,
        end: usize,
        long: bool,
    },
    Eof,
}

/// Reads [`TraceRecord`]s. Bad lines are errors naming the file and line, or — with
/// `skip_bad_lines` — counted ([`TraceReader::bad_lines`]) and skipped.
#[derive(Debug)]
pub struct TraceReader<R> {
    inner: R,
    parser: LineParser,
    format: TraceFormat,
    file: String,
    line_no: u64,
    bytes_read: u64,
    /// `buf[pos..end]` is read but not yet cut into lines; `buf[..ascii_end]` is all ASCII.
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    ascii_end: usize,
    eof: bool,
    skip_bad_lines: bool,
    bad_lines: u64,
    first_bad: Option<Error>,
}

impl TraceReader<File> {
    /// Open a trace file; `format: None` detects it from the first lines.
    pub fn open(
        path: impl AsRef<Path>,
        format: Option<TraceFormat>,
        skip_bad_lines: bool,
    ) -> Result<Self> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let io = |e: std::io::Error| Error::Trace {
            file: name.clone(),
            line: 0,
            message: e.to_string(),
        };
        let mut file = File::open(path).map_err(io)?;
        let format = match format {
            Some(f) => f,
            None => {
                let mut inner = BufReader::with_capacity(64 * 1024, &mut file);
                let mut lines = Vec::new();
                let mut line = Vec::new();
                for _ in 0..DETECT_LINES {
                    line.clear();
                    let n = Read::by_ref(&mut inner)
                        .take(MAX_LINE_BYTES as u64)
                        .read_until(b'\n', &mut line)
                        .map_err(io)?;
                    if n == 0 {
                        break;
                    }
                    let text = String::from_utf8_lossy(&line).trim().to_string();
                    let meaningful = !text.is_empty() && !text.starts_with('#');
                    lines.push(text);
                    if meaningful {
                        break;
                    }
                }
                drop(inner);
                file.seek(SeekFrom::Start(0)).map_err(io)?;
                detect_format(lines.iter().map(String::as_str)).ok_or_else(|| Error::Trace {
                    file: name.clone(),
                    line: lines.len() as u64,
                    message: format!(
                        "trace format not recognised from its first line; name it with \
                         --trace-format ({})",
                        TraceFormat::ALL.map(|f| f.name()).join(", ")
                    ),
                })?
            }
        };
        Ok(Self::new(file, name, format, skip_bad_lines))
    }
}

/// Length of the ASCII prefix of `s`.
fn ascii_prefix(s: &[u8]) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.iter().position(|b| !b.is_ascii()).unwrap_or(s.len())
    }
}

/// Whitespace as `char::is_whitespace` has it among ASCII bytes (what `str::trim` removes).
#[inline(always)]
fn is_trim_space(c: u8) -> bool {
    c == b' ' || (b'\t'..=b'\r').contains(&c)
}

impl<R: Read> TraceReader<R> {
    /// Read `inner` (named `file` in errors) as `format`.
    pub fn new(
        inner: R,
        file: impl Into<String>,
        format: TraceFormat,
        skip_bad_lines: bool,
    ) -> Self {
        TraceReader {
            inner,
            parser: LineParser::new(format),
            format,
            file: file.into(),
            line_no: 0,
            bytes_read: 0,
            buf: vec![0u8; CHUNK_BYTES + MAX_LINE_BYTES + 1].into_boxed_slice(),
            pos: 0,
            end: 0,
            ascii_end: 0,
            eof: false,
            skip_bad_lines,
            bad_lines: 0,
            first_bad: None,
        }
    }

    pub fn format(&self) -> TraceFormat {
        self.format
    }

    /// Lines skipped as bad so far (only with `skip_bad_lines`).
    pub fn bad_lines(&self) -> u64 {
        self.bad_lines
    }

    /// The error of the first skipped line, to show the user what was skipped.
    pub fn first_bad_line(&self) -> Option<&Error> {
        self.first_bad.as_ref()
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.line_no
    }

    /// Bytes of the file read so far (for progress).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    pub(crate) fn error(&self, message: String) -> Error {
        Error::Trace {
            file: self.file.clone(),
            line: self.line_no,
            message: format!("{} trace: {message}", self.format.name()),
        }
    }

    /// Move the unread bytes to the front of the buffer and read more after them; false at the
    /// end of the input.
    #[cold]
    #[inline(never)]
    fn fill(&mut self) -> Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let (pos, end) = (self.pos, self.end);
        self.buf.copy_within(pos..end, 0);
        self.ascii_end = self.ascii_end.saturating_sub(pos);
        self.end -= pos;
        self.pos = 0;
        let room = (self.buf.len() - self.end).min(CHUNK_BYTES);
        let n = loop {
            match self.inner.read(&mut self.buf[self.end..self.end + room]) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(Error::Trace {
                        file: self.file.clone(),
                        line: self.line_no + 1,
                        message: e.to_string(),
                    })
                }
            }
        };
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        let old_end = self.end;
        self.end += n;
        self.ascii_end = if self.ascii_end >= old_end {
            old_end + ascii_prefix(&self.buf[old_end..self.end])
        } else {
            ascii_prefix(&self.buf[..self.end])
        };
        Ok(true)
    }

    /// The next line's place in the buffer; counts it (line number, bytes read).
    #[inline]
    fn next_line(&mut self) -> Result<Line> {
        loop {
            let rest = &self.buf[self.pos..self.end];
            if let Some(i) = memchr::memchr(b'\n', rest) {
                let start = self.pos;
                self.pos += i + 1;
                self.line_no += 1;
                self.bytes_read += i as u64 + 1;
                return Ok(Line::Text {
                    start,
                    end: start + i,
                    long: i + 1 > MAX_LINE_BYTES,
                });
            }
            if rest.len() > MAX_LINE_BYTES {
                return self.drain_long_line();
            }
            if !self.fill()? {
                if self.pos == self.end {
                    return Ok(Line::Eof);
                }
                // a last line without a newline
                let (start, end) = (self.pos, self.end);
                self.pos = end;
                self.line_no += 1;
                self.bytes_read += (end - start) as u64;
                return Ok(Line::Text {
                    start,
                    end,
                    long: end - start > MAX_LINE_BYTES,
                });
            }
        }
    }

    /// The unread bytes hold more than [`MAX_LINE_BYTES`] without a newline: drop them and the
    /// rest of the line.
    #[cold]
    fn drain_long_line(&mut self) -> Result<Line> {
        self.line_no += 1;
        loop {
            let rest = &self.buf[self.pos..self.end];
            if let Some(i) = memchr::memchr(b'\n', rest) {
                self.pos += i + 1;
                self.bytes_read += i as u64 + 1;
                break;
            }
            self.bytes_read += rest.len() as u64;
            self.pos = self.end;
            if !self.fill()? {
                break;
            }
        }
        Ok(Line::Text {
            start: self.pos,
            end: self.pos,
            long: true,
        })
    }

    /// The next record, `Ok(None)` at the end of the trace.
    pub fn next_record(&mut self) -> Result<Option<TraceRecord>> {
        // the format's usual line, read where it starts (no search for its end first)
        if let Some((record, used)) = self.parser.parse_line_start(&self.buf[self.pos..self.end]) {
            if used <= MAX_LINE_BYTES {
                self.pos += used;
                self.line_no += 1;
                self.bytes_read += used as u64;
                return Ok(Some(record));
            }
        }
        loop {
            let Line::Text { start, end, long } = self.next_line()? else {
                return Ok(None);
            };
            let parsed = if long {
                Err(format!("line longer than {MAX_LINE_BYTES} bytes"))
            } else {
                let bytes = &self.buf[start..end];
                let text = if end <= self.ascii_end {
                    // trim as str::trim does (ASCII whitespace only can occur here)
                    let mut b = bytes;
                    while let [first, rest @ ..] = b {
                        if !is_trim_space(*first) {
                            break;
                        }
                        b = rest;
                    }
                    while let [rest @ .., last] = b {
                        if !is_trim_space(*last) {
                            break;
                        }
                        b = rest;
                    }
                    // SAFETY: `b` lies in `buf[..ascii_end]`, which holds ASCII bytes only
                    // (checked in `fill`), so it is valid UTF-8.
                    Ok(unsafe { std::str::from_utf8_unchecked(b) })
                } else {
                    std::str::from_utf8(bytes).map(str::trim)
                };
                match text {
                    Ok("") => continue,
                    Ok(line) => self.parser.parse(line),
                    Err(_) => Err("not UTF-8 text".to_string()),
                }
            };
            match parsed {
                Ok(Some(record)) => return Ok(Some(record)),
                Ok(None) => continue,
                Err(message) => {
                    let err = self.error(message);
                    if !self.skip_bad_lines {
                        return Err(err);
                    }
                    self.bad_lines += 1;
                    self.first_bad.get_or_insert(err);
                }
            }
        }
    }
}

impl<R: Read> Iterator for TraceReader<R> {
    type Item = Result<TraceRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its bytes a few at a time, so lines straddle every read.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1 % 7 + 1;
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// (records as (time, offset), bad line numbers, lines, bytes) read from `text`.
    fn read_all(text: &[u8], trickle: bool) -> (Vec<(u64, u64)>, Vec<u64>, u64, u64) {
        let inner: Box<dyn Read> = match trickle {
            true => Box::new(Trickle(text, 0)),
            false => Box::new(text),
        };
        let mut r = TraceReader::new(inner, "t.csv", TraceFormat::Csv, false);
        let (mut recs, mut bad) = (Vec::new(), Vec::new());
        loop {
            match r.next_record() {
                Ok(Some(x)) => recs.push((x.time_ns, x.offset_bytes)),
                Ok(None) => break,
                Err(Error::Trace { line, file, .. }) => {
                    assert_eq!(file, "t.csv");
                    bad.push(line)
                }
                Err(e) => panic!("{e}"),
            }
        }
        (recs, bad, r.lines_read(), r.bytes_read())
    }

    #[test]
    fn lines_across_reads_long_lines_and_non_ascii() {
        let mut text = Vec::new();
        text.extend_from_slice(b"time_ns,op,offset_bytes,len_bytes,device\r\n\n  \t\n");
        text.extend_from_slice(b" 1,W,4096,4096,0 \r\n");
        text.extend_from_slice("2,W,8192,4096,0\n# é comment\n3,R,0,512,0\n".as_bytes());
        text.extend_from_slice(b"4,X\xff,0,1,0\n");
        text.extend(std::iter::repeat_n(b'9', MAX_LINE_BYTES + 10));
        text.extend_from_slice(b"\n5,T,0,4096,0\n");
        text.extend(std::iter::repeat_n(b'#', MAX_LINE_BYTES - 1));
        text.extend_from_slice(b"\n6,W,1,1,0");
        let want_recs = vec![(1, 4096), (2, 8192), (3, 0), (5, 0), (6, 1)];
        for trickle in [false, true] {
            let (recs, bad, lines, bytes) = read_all(&text, trickle);
            assert_eq!(recs, want_recs);
            // line 8: not UTF-8; line 9: over MAX_LINE_BYTES (line 11 is exactly the limit)
            assert_eq!(bad, vec![8, 9]);
            assert_eq!((lines, bytes), (12, text.len() as u64));
        }
    }

    #[test]
    fn lines_read_where_they_start_match_lines_cut_first() {
        for (name, format) in [
            ("fio-randrw.iolog", TraceFormat::FioIolog),
            ("mqsim-tpcc-small.trace", TraceFormat::Mqsim),
        ] {
            same_records_either_way(name, format);
        }
    }

    fn same_records_either_way(name: &str, format: TraceFormat) {
        let path = format!(
            "{}/../../tests/data/traces/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read(path).unwrap();
        let mut want = Vec::new();
        let mut parser = LineParser::new(format);
        for line in std::str::from_utf8(&text).unwrap().lines() {
            if let Some(r) = parser.parse(line.trim()).unwrap() {
                want.push(r);
            }
        }
        assert!(want.len() > 1000);
        for trickle in [false, true] {
            let inner: Box<dyn Read> = match trickle {
                true => Box::new(Trickle(&text, 0)),
                false => Box::new(&text[..]),
            };
            let mut r = TraceReader::new(inner, "f", format, false);
            let got: Vec<TraceRecord> = r.by_ref().map(|x| x.unwrap()).collect();
            assert_eq!(got, want);
            assert_eq!(r.bytes_read(), text.len() as u64);
            assert_eq!(
                r.lines_read(),
                text.iter().filter(|&&c| c == b'\n').count() as u64
            );
        }
    }
}
