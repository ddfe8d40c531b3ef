//! A trace as the simulator's workload: the [`Replay`] of `config.trace`, read a few requests
//! ahead (so the simulator can prefetch their mapping state, as it does for synthetic
//! workloads), split into warm-up passes and measured passes.

use serde::Serialize;

use super::summary::OpTotals;
use super::{Fold, Replay, ReplayOptions, TimedRequest, TraceReader};
use crate::config::{TraceConfig, TraceFold};
use crate::error::{Error, Result};
use crate::geometry::Geometry;
use crate::workload::Request;

/// Requests read ahead of the one served (as `workload::lookahead::DEFAULT_DEPTH`).
pub const DEPTH: usize = 16;
/// Slots of the read-ahead ring (a power of two above `DEPTH`).
const RING: usize = 32;

/// What the replay read, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    pub path: String,
    pub format: &'static str,
    /// Passes started (warm-up and measured).
    pub passes: u32,
    pub warmup_passes: u32,
    /// Trace records replayed (all passes, after device selection) and their bytes, per
    /// operation as the trace states them.
    pub records: u64,
    pub read: OpTotals,
    pub write: OpTotals,
    pub trim: OpTotals,
    /// Highest byte the folded trace reaches (scale fold only: from a first pass).
    pub trace_end_bytes: Option<u64>,
    /// Highest byte (offset + length) of the records replayed, before folding.
    pub max_end_bytes: u64,
    pub bad_lines: u64,
    pub first_bad_line: Option<String>,
    /// Whether every pass was replayed to its end.
    pub complete: bool,
}

/// The trace workload of a simulator.
#[derive(Debug)]
pub struct TraceSource {
    config: TraceConfig,
    geometry: Geometry,
    /// Requests taken from the replay so far (served or read ahead).
    taken: u64,
    replay: Replay,
    /// Requests read ahead, with the pass each belongs to: slots `head..tail` (mod [`RING`]).
    ahead: Box<[TimedRequest; RING]>,
    ahead_pass: [u32; RING],
    head: usize,
    tail: usize,
    exhausted: bool,
    warmup_passes: u32,
    trace_end_bytes: Option<u64>,
    file_bytes: u64,
}

impl TraceSource {
    /// Open `cfg.path` for a drive of geometry `g`. The scale fold reads the trace once first
    /// for its highest address (of the selected device).
    pub fn open(cfg: &TraceConfig, g: &Geometry) -> Result<Self> {
        let path = cfg
            .path
            .as_deref()
            .ok_or_else(|| Error::config("trace.path", "no trace file"))?;
        let format = cfg.trace_format()?;
        let mut opts = ReplayOptions::new(g.page_size_bytes, g.user_pages);
        opts.device = cfg.device;
        opts.time_scale = cfg.time_scale;
        opts.repeat = cfg.repeat + cfg.warmup_passes;
        opts.skip_bad_lines = cfg.skip_bad_lines;
        let mut trace_end_bytes = None;
        if cfg.fold == TraceFold::Scale {
            let mut reader = TraceReader::open(path, format, cfg.skip_bad_lines)?;
            let mut end = 0u64;
            while let Some(r) = reader.next_record()? {
                if cfg.device.is_none_or(|d| d == r.device) {
                    end = end.max(r.offset_bytes.saturating_add(r.len_bytes));
                }
            }
            if end == 0 {
                return Err(Error::Trace {
                    file: path.to_string(),
                    line: 0,
                    message: "no request to replay (for the selected device)".into(),
                });
            }
            trace_end_bytes = Some(end);
            opts.fold = Fold::Scale {
                trace_end_bytes: end,
            };
        }
        let file_bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        Ok(TraceSource {
            config: cfg.clone(),
            geometry: *g,
            taken: 0,
            replay: Replay::open(path, format, opts)?,
            ahead: Box::new(
                [TimedRequest {
                    time_ns: 0,
                    request: Request {
                        op: crate::workload::Op::Write,
                        lpn: 0,
                        pages: 0,
                        bytes: 0,
                        class: 0,
                    },
                }; RING],
            ),
            ahead_pass: [0; RING],
            head: 0,
            tail: 0,
            exhausted: false,
            warmup_passes: cfg.warmup_passes,
            trace_end_bytes,
            file_bytes,
        })
    }

    /// Keep `DEPTH` requests read ahead; `fresh` sees each as it is read.
    #[inline]
    fn fill(&mut self, fresh: &mut impl FnMut(&Request)) -> Result<()> {
        while !self.exhausted && self.tail - self.head <= DEPTH {
            match self.replay.next_request()? {
                Some(r) => {
                    self.taken += 1;
                    fresh(&r.request);
                    self.ahead[self.tail % RING] = r;
                    self.ahead_pass[self.tail % RING] = self.replay.pass();
                    self.tail += 1;
                }
                None => self.exhausted = true,
            }
        }
        Ok(())
    }

    /// The next request of the warm-up passes (`warmup`) or of the measured passes; None when
    /// that part of the replay is over. `fresh` sees each request as it is read ahead.
    #[inline]
    pub fn next(
        &mut self,
        warmup: bool,
        mut fresh: impl FnMut(&Request),
    ) -> Result<Option<TimedRequest>> {
        self.fill(&mut fresh)?;
        if self.head == self.tail
            || (warmup && self.ahead_pass[self.head % RING] >= self.warmup_passes)
        {
            return Ok(None);
        }
        let r = self.ahead[self.head % RING];
        self.head += 1;
        Ok(Some(r))
    }

    /// Whether the replay has warm-up passes.
    pub fn has_warmup(&self) -> bool {
        self.warmup_passes > 0
    }

    /// (bytes of the file read, bytes to read in all passes).
    pub fn progress(&self) -> (u64, u64) {
        let passes = self.replay.options().repeat as u64;
        let total = self.file_bytes.saturating_mul(passes).max(1);
        (self.replay.bytes_read().min(total), total)
    }

    pub fn report(&self) -> TraceReport {
        let (read, write, trim) = self.replay.totals();
        TraceReport {
            path: self.replay_path(),
            format: self.replay.format().name(),
            passes: self.replay.pass() + 1,
            warmup_passes: self.warmup_passes,
            records: self.replay.records(),
            read,
            write,
            trim,
            trace_end_bytes: self.trace_end_bytes,
            max_end_bytes: self.replay.max_end_bytes(),
            bad_lines: self.replay.bad_lines(),
            first_bad_line: self.replay.first_bad_line().map(|e| e.to_string()),
            complete: self.exhausted && self.head == self.tail,
        }
    }

    /// A copy at the same place in the trace: the file opened again and read as far.
    fn reopened(&self) -> Result<Self> {
        let mut copy = TraceSource::open(&self.config, &self.geometry)?;
        for _ in 0..self.taken {
            copy.replay.next_request()?;
        }
        copy.taken = self.taken;
        copy.ahead = self.ahead.clone();
        copy.ahead_pass = self.ahead_pass;
        copy.head = self.head;
        copy.tail = self.tail;
        copy.exhausted = self.exhausted;
        Ok(copy)
    }

    fn replay_path(&self) -> String {
        self.replay.path().display().to_string()
    }
}

impl Clone for TraceSource {
    /// Reads the trace file again up to the same request (a simulator is cloned rarely; its
    /// trace cannot be shared). Panics if the file can no longer be read as it was.
    fn clone(&self) -> Self {
        self.reopened()
            .unwrap_or_else(|e| panic!("cloning a trace replay: {e}"))
    }
}
