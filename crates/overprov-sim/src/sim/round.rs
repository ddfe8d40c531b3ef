//! The profiler's API on a simulated drive: one round of host writes on a drive that keeps its
//! state between rounds, and a direct trim of a page range (the discard between OP levels).

use super::{idle_work, next_request, timed_request, Simulator};
use crate::error::{Error, Result};
use crate::round::RoundRequest;
use crate::timing::RoundFigures;
use crate::workload::lookahead::Lookahead;
use crate::workload::{Op, Workload};

impl Simulator {
    /// One profiler round on this drive (timed runs only): writes (and, with `read_percent`,
    /// reads drawn as the whole simulation draws a mix's) of `request_bytes` at queue
    /// depth `queue_depth` over pages `offset .. offset + span`, sequential or random (each
    /// request slot once per pass), for `seconds` of simulated time or, when None, until the
    /// span has been written once. The drive keeps its state from round to round. With
    /// `idle_seconds`, the host first waits for the previous round to drain and stays idle that
    /// long; the drive folds its SLC cache and runs background GC meanwhile (as between
    /// open-loop arrivals), and the round starts at the end of the idle time.
    pub fn run_round(&mut self, round: &RoundRequest) -> Result<RoundFigures> {
        let RoundRequest {
            sequential,
            request_bytes,
            queue_depth,
            offset_pages: offset,
            span_pages: span,
            seconds,
            seed,
            idle_seconds,
            read_percent,
        } = *round;
        let user = self.geom.user_pages as u64;
        let page = self.geom.page_size_bytes;
        if self.timed.is_none() {
            return Err(Error::State("run_round needs a timed simulator".into()));
        }
        if span == 0 || offset.checked_add(span).is_none_or(|end| end > user) {
            return Err(Error::State(format!(
                "round span {offset}+{span} pages is outside the {user} user pages"
            )));
        }
        if request_bytes == 0 || (request_bytes as u64).div_ceil(page as u64) > span {
            return Err(Error::State(format!(
                "round request size {request_bytes} bytes does not fit the {span}-page span"
            )));
        }
        if queue_depth == 0 || seconds.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
            return Err(Error::State(
                "round queue depth and seconds must be positive".into(),
            ));
        }
        if !(0.0..100.0).contains(&read_percent) || (read_percent > 0.0 && sequential) {
            return Err(Error::State(format!(
                "round read_percent must be in 0..100 and 0 in a sequential round, got \
                 {read_percent}"
            )));
        }
        if !(idle_seconds >= 0.0 && idle_seconds.is_finite()) {
            return Err(Error::State(format!(
                "round idle_seconds must be 0 or more, got {idle_seconds}"
            )));
        }
        self.ftl.set_op_log(true);
        // generated ahead as the simulator's own workload is, so that the map entries and old
        // pages of upcoming writes are prefetched (the same requests in the same order)
        let mut workload = Lookahead::new(
            Workload::round(
                seed,
                offset as u32,
                span as u32,
                request_bytes,
                page,
                sequential,
                read_percent,
            ),
            self.workload.depth(),
        );
        let pages_per_request = request_bytes.div_ceil(page) as u64;
        let once = (span / pages_per_request).max(1);
        let Some(eng) = self.timed.as_mut() else {
            unreachable!()
        };
        if idle_seconds > 0.0 {
            let until = eng.idle_for((idle_seconds * 1e9).round() as u64);
            idle_work(&mut self.ftl, eng, until, self.background_gc_free_blocks);
        }
        let start = eng.begin_round(queue_depth);
        let end = seconds.map(|s| start + (s * 1e9).round() as u64);
        let mut requests = 0u64;
        let mut pages: Vec<Option<u32>> = Vec::new();
        loop {
            let t = eng.next_issue();
            if end.is_some_and(|e| t >= e) || (end.is_none() && requests >= once) {
                break;
            }
            eng.tick(t, self.ftl.counters());
            let r = next_request(&mut workload, &self.ftl);
            let read = r.op == Op::Read;
            if read {
                self.read_pages += r.pages as u64;
            } else {
                self.host_bytes += r.bytes as u64;
            }
            let stream = match self.placement.as_mut() {
                Some(p) if !read => p.route(&mut self.ftl, &r), // one stream: by LBA range
                _ => 0,
            };
            // a write as before the mix; a read of the pages the FTL maps (unmapped: no NAND)
            let done = timed_request(&mut self.ftl, eng, t, &r, stream, &mut pages);
            eng.complete(t, done, read, r.bytes as u64);
            requests += 1;
        }
        self.requests += requests;
        Ok(eng.end_round().unwrap_or_else(|| unreachable!()))
    }

    /// Trim logical pages `start..start+count` directly (outside the workload).
    pub fn trim_range(&mut self, start: u64, count: u64) -> Result<()> {
        let end = start
            .checked_add(count)
            .filter(|&e| e <= self.geom.user_pages as u64);
        let Some(end) = end else {
            return Err(Error::State(format!(
                "trim range {start}+{count} exceeds the {} user pages",
                self.geom.user_pages
            )));
        };
        for lpn in start..end {
            self.ftl.trim(lpn as u32);
        }
        Ok(())
    }
}
