//! The simulation loop when the workload is a block trace (`config.trace`): requests in trace
//! order, reads and trims replayed as such. Without timing, each request's FTL work is done in
//! turn (WAF mode); with timing, a request is issued at its arrival time × the time scale (open
//! loop) or when a queue slot frees (closed loop at the queue depth). The warm-up passes end
//! the warm-up phase, the measured passes the run.

use super::{idle_work, tally, timed_request, Phase, Simulator};
use crate::config::HostMode;
use crate::error::Result;
use crate::ftl::Ftl;
use crate::workload::trace::{TimedRequest, TraceSource};
use crate::workload::Op;

/// The next request of the current phase, prefetching the mapping state of the requests read
/// ahead (writes and trims change it).
#[inline(always)]
fn next(trace: &mut TraceSource, ftl: &Ftl, warmup: bool) -> Result<Option<TimedRequest>> {
    trace.next(warmup, |r| {
        if r.op != Op::Read {
            ftl.prefetch_map(r.lpn, r.pages)
        }
    })
}

impl Simulator {
    /// (done, planned) while a trace replays: the precondition's pages, then bytes of the trace
    /// file read over all passes, in pages.
    pub(super) fn trace_progress(&self, t: &TraceSource) -> (u64, u64) {
        let page = self.geom.page_size_bytes as u64;
        let fill = self.fill_next as u64;
        let planned_fill = self.stepper.plan().fill_pages;
        let (read, total) = t.progress();
        (fill + read / page, planned_fill + total.div_ceil(page))
    }

    /// Replay until `limit` host pages, or the end of the phase's passes (then the phase ends).
    pub(super) fn run_trace(&mut self, limit: u64) -> Result<()> {
        // the source is taken out while it runs (the loop borrows the rest of the simulator)
        let Some(mut trace) = self.trace.take() else {
            return Ok(());
        };
        let out = match self.timed.is_some() {
            true => self.run_trace_timed(&mut trace, limit),
            false => self.run_trace_waf(&mut trace, limit),
        };
        self.trace = Some(trace);
        out
    }

    fn run_trace_waf(&mut self, trace: &mut TraceSource, limit: u64) -> Result<()> {
        let warmup = self.phase() == Phase::Warmup;
        while self.ftl.counters().host_pages < limit {
            let Some(t) = next(trace, &self.ftl, warmup)? else {
                self.stepper.end_at(self.ftl.counters().host_pages);
                return Ok(());
            };
            let r = t.request;
            self.requests += 1;
            match r.op {
                Op::Write => {
                    let stream = match self.placement.as_mut() {
                        Some(p) => p.route(&mut self.ftl, &r),
                        None => 0,
                    };
                    self.ftl.write_pages(r.lpn, r.pages, stream);
                    self.host_bytes += r.bytes as u64;
                    if self.ftl.counters().host_pages >= self.next_interval_at {
                        self.record_interval();
                    }
                }
                Op::Trim => {
                    for i in 0..r.pages {
                        self.ftl.trim(r.lpn + i);
                    }
                }
                Op::Read => self.read_pages += r.pages as u64,
            }
        }
        Ok(())
    }

    fn run_trace_timed(&mut self, trace: &mut TraceSource, limit: u64) -> Result<()> {
        let warmup = self.phase() == Phase::Warmup;
        let open = self.config.timing.host.mode == HostMode::Open;
        let mut pages: Vec<Option<u32>> = Vec::new();
        while self.ftl.counters().host_pages < limit {
            let Some(eng) = self.timed.as_mut() else {
                return Ok(());
            };
            if self.time_end_ns.is_some_and(|end| eng.now_ns() >= end) {
                self.stepper.end_at(self.ftl.counters().host_pages);
                return Ok(());
            }
            let Some(tr) = next(trace, &self.ftl, warmup)? else {
                self.stepper.end_at(self.ftl.counters().host_pages);
                return Ok(());
            };
            let t = if open {
                let t = eng.issue_at(tr.time_ns);
                // idle time before this arrival: fold the SLC cache, then background GC
                idle_work(&mut self.ftl, eng, t, self.background_gc_free_blocks);
                t
            } else {
                eng.next_issue()
            };
            eng.tick(t, self.ftl.counters());
            let r = tr.request;
            self.requests += 1;
            let bytes = r.bytes as u64;
            tally(&mut self.host_bytes, &mut self.read_pages, &r);
            let stream = match self.placement.as_mut() {
                Some(p) => p.route(&mut self.ftl, &r),
                None => 0,
            };
            let done = timed_request(&mut self.ftl, eng, t, &r, stream, &mut pages);
            eng.complete(t, done, r.op == Op::Read, bytes);
            if self.ftl.counters().host_pages >= self.next_interval_at {
                self.record_interval();
            }
        }
        Ok(())
    }
}
