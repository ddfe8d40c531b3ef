//! A drive driven by a caller that keeps the host's queue itself (several jobs, or an array of
//! drives: `crate::host`): the fill before the run, serving one request at a time, and its
//! counters. The drive's own phases are not stepped.

use super::{tally, timed_request, Phase, Simulator};
use crate::workload::Request;

impl Simulator {
    /// Run the precondition fill to its end and log NAND operations from then on; the caller
    /// issues the requests (`serve`).
    pub(crate) fn fill_all(&mut self) {
        if self.phase() == Phase::Precondition {
            self.run_fill(u64::MAX);
        }
        self.ftl.set_op_log(true);
    }

    /// Serve one request at simulated time `t` (its FTL work and NAND timing on this drive);
    /// returns its completion time. The caller keeps the queue, the latency and the series.
    pub(crate) fn serve(&mut self, t: u64, r: &Request) -> u64 {
        let stream = if self.stream_by_class {
            r.class as usize
        } else {
            0
        };
        let Some(eng) = self.timed.as_mut() else {
            return t;
        };
        self.requests += 1;
        tally(&mut self.host_bytes, &mut self.read_pages, r);
        timed_request(&mut self.ftl, eng, t, r, stream, &mut Vec::new())
    }
}
