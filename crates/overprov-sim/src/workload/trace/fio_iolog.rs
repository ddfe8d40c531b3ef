//! fio I/O logs, versions 2 and 3 — what `write_iolog=FILE` writes and `read_iolog=FILE` replays
//! (fio HOWTO, "Trace file format"; writer `log_io_u`/`log_file` and reader `read_iolog` in fio's
//! `iolog.c`, <https://github.com/axboe/fio>).
//!
//! The first line is `fio version 2 iolog` or `fio version 3 iolog`. Then, whitespace-separated:
//!
//! - v2: `filename action` (add, open, close) or `filename action offset length` (read, write,
//!   trim, sync, datasync, and `wait` whose offset is a delay in µs relative to the previous
//!   wait);
//! - v3: the same, each line prefixed by a timestamp in µs since the start of the run (fio writes
//!   `utime_since_now(&td->io_log_start_time)`); `wait` is not allowed.
//!
//! Offsets and lengths are bytes. The device is the file's index in order of first appearance.

use super::fields::{digits, split_ascii_whitespace, uint};
use super::{Op, TraceRecord};

pub const HEADER_V2: &str = "fio version 2 iolog";
pub const HEADER_V3: &str = "fio version 3 iolog";
/// Distinct file names kept (memory stays bounded whatever the trace length).
pub const MAX_FILES: usize = 65_536;

/// Line parser state: the version from the header, the clock of v2 `wait`s, the file names seen.
#[derive(Debug, Clone, Default)]
pub struct Parser {
    version: Option<u8>,
    wait_clock_ns: u64,
    files: Vec<String>,
    /// Index in `files` of the file named last (lines of one file follow one another), and its
    /// name as a word when it is short.
    last_file: usize,
    last_word: Option<NameWord>,
}

impl Parser {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn file_index(&mut self, name: &str) -> Result<u32, String> {
        if self.files.get(self.last_file).is_some_and(|f| f == name) {
            return Ok(self.last_file as u32);
        }
        if let Some(i) = self.files.iter().position(|f| f == name) {
            self.set_last_file(i);
            return Ok(i as u32);
        }
        if self.files.len() >= MAX_FILES {
            return Err(format!("more than {MAX_FILES} distinct file names"));
        }
        self.files.push(name.to_string());
        self.set_last_file(self.files.len() - 1);
        Ok(self.last_file as u32)
    }

    fn set_last_file(&mut self, i: usize) {
        self.last_file = i;
        self.last_word = NameWord::new(self.files[i].as_bytes());
    }

    /// A data line of the usual shape — `[timestamp] filename action offset length`, single
    /// spaces, the file named on the line before, action read, write or trim, numbers of at most
    /// 19 digits — read in one pass over its bytes; `None` for any other line (the general path
    /// then reads it, or says what is wrong with it). Gives what the general path gives.
    #[inline]
    fn parse_usual(&self, version: u8, b: &[u8]) -> Option<TraceRecord> {
        match self.parse_usual_prefix(version, b)? {
            (r, []) => Some(r),
            _ => None,
        }
    }

    /// A usual data line at the start of `b` (the bytes after the file's last read line): the
    /// record and the bytes the line takes with its newline; `None` if `b` does not start with
    /// a whole usual line ended by `\n` (the reader then cuts the line and calls `parse`).
    #[inline]
    pub fn parse_line_start(&self, b: &[u8]) -> Option<(TraceRecord, usize)> {
        let (r, rest) = self.parse_usual_prefix(self.version?, b)?;
        rest.first()
            .is_some_and(|&c| c == b'\n')
            .then(|| (r, b.len() - rest.len() + 1))
    }

    /// `[timestamp] filename action offset length` at the start of `b`, and the bytes after it.
    #[inline(always)]
    fn parse_usual_prefix<'a>(&self, version: u8, b: &'a [u8]) -> Option<(TraceRecord, &'a [u8])> {
        let (time_ns, b) = match version {
            3 => {
                let (t, rest) = digits(b)?;
                (t.saturating_mul(1_000), rest.strip_prefix(b" ")?)
            }
            _ => (self.wait_clock_ns, b),
        };
        let name = self.files.get(self.last_file)?.as_bytes();
        let b = strip_name(b, name, self.last_word)?.strip_prefix(b" ")?;
        let (op, b) = match b {
            [b'w', b'r', b'i', b't', b'e', b' ', rest @ ..] => (Op::Write, rest),
            [b'r', b'e', b'a', b'd', b' ', rest @ ..] => (Op::Read, rest),
            [b't', b'r', b'i', b'm', b' ', rest @ ..] => (Op::Trim, rest),
            _ => return None,
        };
        let (offset_bytes, b) = digits(b)?;
        let (len_bytes, b) = digits(b.strip_prefix(b" ")?)?;
        let r = TraceRecord {
            time_ns,
            op,
            offset_bytes,
            len_bytes,
            device: self.last_file as u32,
        };
        Some((r, b))
    }

    pub fn parse(&mut self, line: &str) -> Result<Option<TraceRecord>, String> {
        if let Some(v) = self.version {
            if let Some(r) = self.parse_usual(v, line.as_bytes()) {
                return Ok(Some(r));
            }
        }
        self.parse_general(line)
    }

    /// Any line, token by token.
    fn parse_general(&mut self, line: &str) -> Result<Option<TraceRecord>, String> {
        let version = match self.version {
            Some(v) => v,
            None => {
                self.version = Some(match line {
                    HEADER_V2 => 2,
                    HEADER_V3 => 3,
                    _ => {
                        return Err(format!(
                            "expected the header {HEADER_V2:?} or {HEADER_V3:?}, got {line:?}"
                        ))
                    }
                });
                return Ok(None);
            }
        };
        // one pass over the tokens: [timestamp] filename action [offset length]
        let mut tok = [""; 6];
        let n = split_ascii_whitespace(line, &mut tok);
        let skip = usize::from(version == 3);
        let time_ns = match version {
            3 => Some(uint(tok[0], "timestamp")?.saturating_mul(1_000)),
            _ => None,
        };
        let (name, action, range) = match n - skip.min(n) {
            2 => (tok[skip], tok[skip + 1], None),
            4 => (
                tok[skip],
                tok[skip + 1],
                Some((tok[skip + 2], tok[skip + 3])),
            ),
            _ => {
                return Err(if version == 3 {
                    "expected `timestamp filename action [offset length]`".into()
                } else {
                    "expected `filename action [offset length]`".into()
                })
            }
        };
        let op = match (action, range) {
            ("add" | "open" | "close", None) => return self.file_index(name).map(|_| None),
            ("read", Some(_)) => Op::Read,
            ("write", Some(_)) => Op::Write,
            ("trim", Some(_)) => Op::Trim,
            ("sync" | "datasync" | "sync_file_range", Some(_)) => return Ok(None),
            ("wait", Some((o, _))) if version == 2 => {
                let us = uint(o, "offset")?;
                self.wait_clock_ns = self.wait_clock_ns.saturating_add(us.saturating_mul(1_000));
                return Ok(None);
            }
            (a, _) => {
                return Err(format!(
                    "action: {a:?} is not a fio iolog v{version} action with these fields"
                ))
            }
        };
        let (offset, len) = range.expect("data actions carry a range");
        Ok(Some(TraceRecord {
            time_ns: time_ns.unwrap_or(self.wait_clock_ns),
            op,
            offset_bytes: uint(offset, "offset")?,
            len_bytes: uint(len, "length")?,
            device: self.file_index(name)?,
        }))
    }
}

/// A file name of up to 16 bytes as a little-endian 128-bit word and the mask of its bytes (to
/// compare it with the start of a line in one step, without a call to `memcmp`).
#[derive(Debug, Clone, Copy, Default)]
struct NameWord {
    word: u128,
    mask: u128,
}

impl NameWord {
    fn new(name: &[u8]) -> Option<Self> {
        let mut padded = [0u8; 16];
        padded.get_mut(..name.len())?.copy_from_slice(name);
        let mask = match name.len() {
            16 => u128::MAX,
            n => (1u128 << (8 * n)) - 1,
        };
        Some(NameWord {
            word: u128::from_le_bytes(padded),
            mask,
        })
    }
}

/// `b` after its prefix `name` (whose word is `word`, if it has one), if it starts with it.
#[inline(always)]
fn strip_name<'a>(b: &'a [u8], name: &[u8], word: Option<NameWord>) -> Option<&'a [u8]> {
    if let (Some(w), Some(head)) = (word, b.get(..16)) {
        let head = u128::from_le_bytes(head.try_into().expect("16 bytes"));
        return ((head ^ w.word) & w.mask == 0).then(|| &b[name.len()..]);
    }
    b.strip_prefix(name)
}

pub fn detect(line: &str) -> bool {
    line == HEADER_V2 || line == HEADER_V3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_3_with_file_actions() {
        let mut p = Parser::new();
        assert_eq!(p.parse(HEADER_V3), Ok(None));
        assert_eq!(p.parse("17 /tmp/f add"), Ok(None));
        let r = p.parse("159 /tmp/f write 1011712 16384").unwrap().unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes, r.device),
            (159_000, Op::Write, 1011712, 16384, 0)
        );
        let r = p.parse("160 /tmp/g trim 0 4096").unwrap().unwrap();
        assert_eq!((r.op, r.device), (Op::Trim, 1));
        assert!(p.parse("161 /tmp/f wait 100 0").is_err());
    }

    #[test]
    fn names_strip_as_strip_prefix() {
        let line = b"/data/disk1 write 4096 4096 and some more bytes";
        for name in [
            &b""[..],
            b"/",
            b"/data",
            b"/data/disk1",
            b"/data/disk2",
            b"/data/disk1 writ",
        ] {
            for b in [&line[..], &line[..12], &line[..5]] {
                let w = NameWord::new(name);
                assert_eq!(
                    strip_name(b, name, w),
                    b.strip_prefix(name),
                    "{name:?} {b:?}"
                );
            }
        }
        let long = b"/a/very/long/file/name/indeed write 1 2";
        assert!(NameWord::new(&long[..29]).is_none());
        assert_eq!(strip_name(long, &long[..29], None), Some(&long[29..]));
    }

    #[test]
    fn usual_lines_read_as_the_general_path_reads_them() {
        let mut fast = Parser::new();
        let mut general = Parser::new();
        let lines = [
            HEADER_V3,
            "0 /data add",
            "5 /data write 4096 16384",
            "6 /data read 0 512",
            "7 /data trim 8192 4096",
            "8 /data  write 1 2",
            "9 /other write 1 2",
            "10 /data write 1 2",
            "11 /data write 99999999999999999999 2",
            "18446744073709551615 /data write 1234567890123456789 1",
            "12 /data sync 0 0",
            "13 /data writex 1 2",
            "14 /data write 1 2 3",
        ];
        for line in lines {
            let want = general.parse_general(line);
            if let Some((r, used)) = fast.parse_line_start(format!("{line}\nnext").as_bytes()) {
                assert_eq!(
                    (Ok(Some(r)), used),
                    (want.clone(), line.len() + 1),
                    "{line:?}"
                );
            }
            assert_eq!(fast.parse(line), want, "{line:?}");
        }
        assert_eq!(fast.parse_line_start(b"5 /data write 1 2"), None);
        assert_eq!(fast.parse_line_start(b"5 /data write 1 2\r\n"), None);
        assert_eq!(fast.files, vec!["/data", "/other"]);
    }

    #[test]
    fn version_2_waits_advance_the_clock() {
        let mut p = Parser::new();
        assert_eq!(p.parse(HEADER_V2), Ok(None));
        assert_eq!(p.parse("/dev/sdb wait 250 0"), Ok(None));
        let r = p.parse("/dev/sdb read 4096 512").unwrap().unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes),
            (250_000, Op::Read, 4096, 512)
        );
        assert!(Parser::new()
            .parse("/dev/sdb read 0 1")
            .unwrap_err()
            .contains("header"));
    }
}
