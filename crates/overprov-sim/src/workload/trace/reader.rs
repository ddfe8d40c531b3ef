//! The streaming trace reader: one line at a time from any `BufRead`, constant memory (one line
//! buffer, capped at [`MAX_LINE_BYTES`], plus the format's small parser state).

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::detect::detect_format;
use super::format::LineParser;
use super::{TraceFormat, TraceRecord};
use crate::error::{Error, Result};

/// Longest line accepted; a longer one is a bad line (keeps memory bounded on garbage input).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read to find the first meaningful one when detecting the format.
pub const DETECT_LINES: usize = 64;

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
    buf: Vec<u8>,
    skip_bad_lines: bool,
    bad_lines: u64,
    first_bad: Option<Error>,
}

impl TraceReader<BufReader<File>> {
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
        let mut inner = BufReader::with_capacity(256 * 1024, File::open(path).map_err(io)?);
        let format = match format {
            Some(f) => f,
            None => {
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
                inner.seek(SeekFrom::Start(0)).map_err(io)?;
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
        Ok(Self::new(inner, name, format, skip_bad_lines))
    }
}

impl<R: BufRead> TraceReader<R> {
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
            buf: Vec::with_capacity(256),
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

    fn error(&self, message: String) -> Error {
        Error::Trace {
            file: self.file.clone(),
            line: self.line_no,
            message: format!("{} trace: {message}", self.format.name()),
        }
    }

    /// The next record, `Ok(None)` at the end of the trace.
    pub fn next_record(&mut self) -> Result<Option<TraceRecord>> {
        loop {
            self.buf.clear();
            let n = Read::by_ref(&mut self.inner)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| Error::Trace {
                    file: self.file.clone(),
                    line: self.line_no + 1,
                    message: e.to_string(),
                })?;
            if n == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            self.bytes_read += n as u64;
            let parsed = if n > MAX_LINE_BYTES {
                // drain the rest of the over-long line
                while !self.buf.ends_with(b"\n") {
                    self.buf.clear();
                    let m = Read::by_ref(&mut self.inner)
                        .take(MAX_LINE_BYTES as u64)
                        .read_until(b'\n', &mut self.buf)
                        .map_err(|e| self.error(e.to_string()))?;
                    if m == 0 {
                        break;
                    }
                }
                Err(format!("line longer than {MAX_LINE_BYTES} bytes"))
            } else {
                match std::str::from_utf8(&self.buf) {
                    Ok(text) => {
                        let line = text.trim();
                        if line.is_empty() {
                            continue;
                        }
                        self.parser.parse(line)
                    }
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

impl<R: BufRead> Iterator for TraceReader<R> {
    type Item = Result<TraceRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}
