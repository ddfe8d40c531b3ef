//! From trace records to FTL page requests: select a device, fold the trace's byte range onto
//! the drive's user pages, rescale time, repeat the trace.
//!
//! Pages: a write or read touches every page its byte range overlaps (a partial-page write is a
//! read-modify-write of the whole page in a page-mapped FTL); a trim frees only the pages it
//! covers entirely. Each request's `bytes` is the part of the record's byte range inside its
//! pages, so the host bytes of the requests sum to the trace's bytes exactly.
//!
//! Folding: [`Fold::Modulo`] maps trace page `p` to `p mod U` (U user pages); [`Fold::Scale`]
//! maps it to `⌊p·U / P⌋` for a trace of P pages (request sizes kept). Either way a request that
//! runs past the last user page wraps to page 0 (it is split in two).

use std::fs::File;
use std::path::{Path, PathBuf};

use super::summary::OpTotals;
use super::{Op, TraceFormat, TraceReader, TraceRecord};
use crate::error::{Error, Result};
use crate::workload::Request;

/// Longest single request in pages (keeps `bytes` within 32 bits: 2¹⁸ 4 KiB pages = 1 GiB).
pub const MAX_REQUEST_PAGES: u64 = 1 << 18;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fold {
    /// Trace page p → p mod U.
    Modulo,
    /// Trace page p → ⌊p·U / P⌋ where P = ⌈trace_end_bytes / page⌉ (from a
    /// [`super::TraceSummary`] pass).
    Scale { trace_end_bytes: u64 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReplayOptions {
    pub page_size_bytes: u32,
    pub user_pages: u32,
    pub fold: Fold,
    /// Keep only this device / volume (`None`: all).
    pub device: Option<u32>,
    /// Times since the pass's first record are multiplied by this (0.5 replays twice as fast);
    /// a record stamped earlier than the first (traces merged from several clocks, such as
    /// Tencent CBS) is placed at the pass's start.
    pub time_scale: f64,
    /// Passes over the trace (≥ 1); each pass starts 1 ns after the previous one's last request.
    pub repeat: u32,
    pub skip_bad_lines: bool,
}

impl ReplayOptions {
    pub fn new(page_size_bytes: u32, user_pages: u32) -> Self {
        ReplayOptions {
            page_size_bytes,
            user_pages,
            fold: Fold::Modulo,
            device: None,
            time_scale: 1.0,
            repeat: 1,
            skip_bad_lines: false,
        }
    }

    fn validate(&self) -> Result<()> {
        if self.page_size_bytes == 0 || self.user_pages == 0 {
            return Err(Error::config(
                "trace",
                "page size and user pages must be positive",
            ));
        }
        if !(self.time_scale.is_finite() && self.time_scale > 0.0) {
            return Err(Error::config(
                "trace.time_scale",
                "must be a positive number",
            ));
        }
        if self.repeat == 0 {
            return Err(Error::config("trace.repeat", "must be at least 1"));
        }
        if let Fold::Scale { trace_end_bytes: 0 } = self.fold {
            return Err(Error::config(
                "trace.fold",
                "scaling needs the trace's end offset (> 0)",
            ));
        }
        Ok(())
    }
}

/// A page request with its arrival time (ns since the start of the replay).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedRequest {
    pub time_ns: u64,
    pub request: Request,
}

/// Splits one record into page requests (at most a few, unless the record is huge).
#[derive(Debug, Clone, Copy, Default)]
struct Pending {
    op: Option<Op>,
    time_ns: u64,
    /// Next trace page to emit, pages left, and the record's byte range.
    page: u64,
    left: u64,
    lpn: u64,
    start_bytes: u64,
    end_bytes: u64,
}

/// Page requests from a trace file, in trace order, in constant memory.
#[derive(Debug)]
pub struct Replay {
    path: PathBuf,
    format: TraceFormat,
    opts: ReplayOptions,
    reader: TraceReader<File>,
    pass: u32,
    pass_start_ns: u64,
    pass_last_ns: u64,
    first_time_ns: Option<u64>,
    pending: Pending,
    records: u64,
    bad_lines_before: u64,
    bytes_read_before: u64,
    /// Records and their bytes per operation (read, write, trim), all passes.
    totals: [OpTotals; 3],
    max_end_bytes: u64,
}

impl Replay {
    pub fn open(
        path: impl AsRef<Path>,
        format: Option<TraceFormat>,
        opts: ReplayOptions,
    ) -> Result<Self> {
        opts.validate()?;
        let path = path.as_ref().to_path_buf();
        let reader = TraceReader::open(&path, format, opts.skip_bad_lines)?;
        Ok(Replay {
            format: reader.format(),
            path,
            opts,
            reader,
            pass: 0,
            pass_start_ns: 0,
            pass_last_ns: 0,
            first_time_ns: None,
            pending: Pending::default(),
            records: 0,
            bad_lines_before: 0,
            bytes_read_before: 0,
            totals: [OpTotals::default(); 3],
            max_end_bytes: 0,
        })
    }

    pub fn format(&self) -> TraceFormat {
        self.format
    }

    /// Trace records replayed so far (all passes, after device selection).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Bad lines skipped so far (all passes).
    pub fn bad_lines(&self) -> u64 {
        self.bad_lines_before + self.reader.bad_lines()
    }

    /// The first bad line skipped in the current pass (every pass skips the same lines).
    pub fn first_bad_line(&self) -> Option<&Error> {
        self.reader.first_bad_line()
    }

    /// The pass (0-based) of the request returned last.
    pub fn pass(&self) -> u32 {
        self.pass
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn options(&self) -> &ReplayOptions {
        &self.opts
    }

    /// Bytes of the trace file read so far, all passes (for progress).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read_before + self.reader.bytes_read()
    }

    /// The highest byte (offset + length) of the records replayed so far, before folding.
    pub fn max_end_bytes(&self) -> u64 {
        self.max_end_bytes
    }

    /// Records replayed so far and their bytes, per operation: (reads, writes, trims).
    pub fn totals(&self) -> (OpTotals, OpTotals, OpTotals) {
        (self.totals[0], self.totals[1], self.totals[2])
    }

    /// The next page request, `Ok(None)` when every pass is done.
    pub fn next_request(&mut self) -> Result<Option<TimedRequest>> {
        loop {
            if let Some(r) = self.emit() {
                return Ok(Some(r));
            }
            match self.reader.next_record()? {
                Some(rec) => {
                    if self.opts.device.is_some_and(|d| d != rec.device) {
                        continue;
                    }
                    self.records += 1;
                    let t = &mut self.totals[match rec.op {
                        Op::Read => 0,
                        Op::Write => 1,
                        Op::Trim => 2,
                    }];
                    let user_bytes = self.opts.user_pages as u64 * self.opts.page_size_bytes as u64;
                    if rec.len_bytes > user_bytes
                        || rec.offset_bytes.checked_add(rec.len_bytes).is_none()
                    {
                        // replaying it would write the whole drive over and over (a length
                        // near 2^64 would never end): a corrupt line, not a workload
                        return Err(self.reader.error(format!(
                            "a {} of {} bytes is longer than the simulated drive's user space \
                             ({user_bytes} bytes) or past the end of a 64-bit byte offset",
                            format!("{:?}", rec.op).to_lowercase(),
                            rec.len_bytes
                        )));
                    }
                    t.requests += 1;
                    t.bytes += rec.len_bytes;
                    self.max_end_bytes = self
                        .max_end_bytes
                        .max(rec.offset_bytes.saturating_add(rec.len_bytes));
                    self.start(rec);
                }
                None => {
                    if self.pass + 1 >= self.opts.repeat {
                        return Ok(None);
                    }
                    self.pass += 1;
                    self.bad_lines_before += self.reader.bad_lines();
                    self.bytes_read_before += self.reader.bytes_read();
                    self.reader =
                        TraceReader::open(&self.path, Some(self.format), self.opts.skip_bad_lines)?;
                    self.pass_start_ns = self.pass_last_ns + 1;
                    self.first_time_ns = None;
                }
            }
        }
    }

    fn start(&mut self, rec: TraceRecord) {
        let first = *self.first_time_ns.get_or_insert(rec.time_ns);
        let gap = rec.time_ns.saturating_sub(first);
        // unscaled gaps up to 2⁵³ ns convert to f64 and back exactly: skip the conversions
        let rel = match self.opts.time_scale == 1.0 && gap <= 1 << 53 {
            true => gap,
            false => (gap as f64 * self.opts.time_scale) as u64,
        };
        let time_ns = self.pass_start_ns.saturating_add(rel);
        self.pass_last_ns = self.pass_last_ns.max(time_ns);
        let page = self.opts.page_size_bytes as u64;
        let end = rec.offset_bytes.saturating_add(rec.len_bytes);
        let (first_page, end_page) = if page.is_power_of_two() {
            // the same quotients by shifts (the usual case: no 64-bit divisions per record)
            let (shift, mask) = (page.trailing_zeros(), page - 1);
            let floor = |b: u64| b >> shift;
            let ceil = |b: u64| (b >> shift) + u64::from(b & mask != 0);
            match rec.op {
                Op::Trim => (ceil(rec.offset_bytes), floor(end)),
                Op::Write | Op::Read => (floor(rec.offset_bytes), ceil(end)),
            }
        } else {
            match rec.op {
                Op::Trim => (rec.offset_bytes.div_ceil(page), end / page),
                Op::Write | Op::Read => (rec.offset_bytes / page, end.div_ceil(page)),
            }
        };
        if end_page <= first_page {
            return; // empty, or a trim covering no whole page
        }
        let user = self.opts.user_pages as u64;
        let lpn = match self.opts.fold {
            Fold::Modulo => first_page % user,
            Fold::Scale { trace_end_bytes } => {
                let trace_pages = trace_end_bytes.div_ceil(page).max(1);
                ((first_page as u128 * user as u128 / trace_pages as u128) as u64) % user
            }
        };
        self.pending = Pending {
            op: Some(rec.op),
            time_ns,
            page: first_page,
            left: end_page - first_page,
            lpn,
            start_bytes: rec.offset_bytes,
            end_bytes: end,
        };
    }

    #[inline]
    fn emit(&mut self) -> Option<TimedRequest> {
        let p = &mut self.pending;
        let op = p.op?;
        let user = self.opts.user_pages as u64;
        let page = self.opts.page_size_bytes as u64;
        let n = p.left.min(user - p.lpn).min(MAX_REQUEST_PAGES);
        let lo = (p.page * page).max(p.start_bytes);
        let hi = ((p.page + n) * page).min(p.end_bytes);
        let out = TimedRequest {
            time_ns: p.time_ns,
            request: Request {
                op,
                lpn: p.lpn as u32,
                pages: n as u32,
                bytes: (hi - lo) as u32,
                class: 0,
            },
        };
        p.left -= n;
        p.page += n;
        // n <= user - lpn: the sum wraps at most to 0
        p.lpn += n;
        if p.lpn == user {
            p.lpn = 0;
        }
        if p.left == 0 {
            p.op = None;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn replay(lines: &str, opts: ReplayOptions) -> Vec<TimedRequest> {
        let dir = std::env::temp_dir().join(format!("overprov-transform-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("t{}.csv", lines.len()));
        let mut f = File::create(&path).unwrap();
        writeln!(f, "time_ns,op,offset_bytes,len_bytes,device\n{lines}").unwrap();
        let mut r = Replay::open(&path, None, opts).unwrap();
        let mut out = Vec::new();
        while let Some(t) = r.next_request().unwrap() {
            out.push(t);
        }
        std::fs::remove_file(&path).unwrap();
        out
    }

    fn req(op: Op, lpn: u32, pages: u32, bytes: u32) -> Request {
        Request {
            op,
            lpn,
            pages,
            bytes,
            class: 0,
        }
    }

    #[test]
    fn partial_pages_modulo_wrap_and_trims() {
        let opts = ReplayOptions::new(4096, 10);
        // 6 KiB write from 2 KiB: pages 0 and 1; a write across the drive end wraps; a trim of
        // 1.5 pages frees the one page it covers.
        let out = replay("0,W,2048,6144,0\n10,W,36864,8192,0\n20,T,2048,6144,0", opts);
        let reqs: Vec<Request> = out.iter().map(|t| t.request).collect();
        assert_eq!(
            reqs,
            vec![
                req(Op::Write, 0, 2, 6144),
                req(Op::Write, 9, 1, 4096),
                req(Op::Write, 0, 1, 4096),
                req(Op::Trim, 1, 1, 4096),
            ]
        );
    }

    #[test]
    fn scale_device_time_and_repeat() {
        let mut opts = ReplayOptions::new(4096, 100);
        opts.fold = Fold::Scale {
            trace_end_bytes: 4096 * 1000,
        };
        opts.device = Some(1);
        opts.time_scale = 0.5;
        opts.repeat = 2;
        let out = replay(
            "1000,W,409600,4096,1\n1600,W,0,4096,2\n3000,R,4091904,4096,1",
            opts,
        );
        let got: Vec<(u64, u32, Op)> = out
            .iter()
            .map(|t| (t.time_ns, t.request.lpn, t.request.op))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 10, Op::Write),
                (1000, 99, Op::Read),
                (1001, 10, Op::Write),
                (2001, 99, Op::Read)
            ]
        );
    }

    #[test]
    fn a_request_longer_than_the_drive_is_an_error_naming_its_line() {
        // a length near 2^64 would be replayed page by page for ever
        let dir = std::env::temp_dir().join(format!("overprov-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("long.csv");
        let mut f = File::create(&path).unwrap();
        writeln!(
            f,
            "time_ns,op,offset_bytes,len_bytes,device\n0,W,0,4096,0\n1,W,0,{},0",
            u64::MAX
        )
        .unwrap();
        let mut r = Replay::open(&path, None, ReplayOptions::new(4096, 10)).unwrap();
        assert!(r.next_request().unwrap().is_some());
        let err = r.next_request().unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(err.contains("long.csv:3:"), "{err}");
        assert!(err.contains("longer than the simulated drive"), "{err}");
    }
}
