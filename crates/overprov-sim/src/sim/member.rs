//! What the host layer (`crate::host`: several jobs, RAID arrays) needs of one member drive:
//! the fill before the run, serving one request at a time, and its counters.

use super::{tally, timed_request, Phase, Simulator};
use crate::stats::Snapshot;
use crate::workload::Request;

impl Simulator {
    /// As a member of the host layer (`crate::host`): run the precondition fill to its end and
    /// log NAND operations from then on; the host layer issues the requests.
    pub(crate) fn fill_for_host(&mut self) {
        if self.phase == Phase::Precondition {
            self.run_fill(u64::MAX);
        }
        self.ftl.set_op_log(true);
    }

    /// As a member of the host layer: serve one request at simulated time `t` (its FTL work
    /// and NAND timing on this drive); returns its completion time. The host layer keeps the
    /// queue, the latency and the series.
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

    /// Counters and host bytes now (the host layer sums its members').
    pub(crate) fn host_snapshot(&self) -> Snapshot {
        self.snapshot()
    }
}
