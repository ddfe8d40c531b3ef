//! Profiler rounds on the timing engine: a round waits for the drive to drain, keeps a queue
//! depth of requests in flight, and sums its own completions, bytes, per-second series and
//! latency; host idle time between rounds.

use std::cmp::Reverse;

use serde::Serialize;

use super::{Engine, NS};
use crate::config::HostMode;
use crate::stats::{LatencyHistogram, LatencySummary};

#[derive(Debug, Clone, Default)]
pub(super) struct RoundAcc {
    pub(super) start_ns: u64,
    pub(super) latency: LatencyHistogram,
    pub(super) latency_sum_ns: u128,
    pub(super) per_second: Vec<u64>,
    pub(super) ios: u64,
    pub(super) bytes: u64,
    /// The round's reads (a mixed round), apart from its writes.
    pub(super) read_latency: LatencyHistogram,
    pub(super) read_latency_sum_ns: u128,
    pub(super) read_ios: u64,
}

/// What a profiler round did, in simulated time: its writes' figures (as fio's write side of
/// a mixed job) and, in a round with reads, its reads' count and latency.
#[derive(Debug, Clone, Serialize)]
pub struct RoundFigures {
    pub ios: u64,
    pub bytes_written: u64,
    pub duration_s: f64,
    pub iops: f64,
    /// Completions in each full simulated second of the round.
    pub iops_series: Vec<f64>,
    pub latency_us: Option<LatencySummary>,
    /// Reads completed in the round (absent in a round of writes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_ios: Option<u64>,
    /// The reads' latency (absent in a round of writes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_latency_us: Option<LatencySummary>,
}

impl Engine {
    /// Start a profiler round: wait for every outstanding request (as fio does between jobs),
    /// then keep `queue_depth` requests in flight from then on. Returns the start time.
    pub fn begin_round(&mut self, queue_depth: u32) -> u64 {
        self.record_completions(u64::MAX);
        let start = self.drained_at();
        self.now = start;
        self.mode = HostMode::Closed;
        self.queue_depth = queue_depth;
        self.slots = (0..queue_depth).map(|_| Reverse(start)).collect();
        self.round = Some(RoundAcc {
            start_ns: start,
            ..RoundAcc::default()
        });
        start
    }

    /// Host idle time: wait for every outstanding request, then issue nothing for `idle_ns`;
    /// the next request (or round) comes no earlier than the end. Returns that end; the caller
    /// books the drive's background work before it (`idle_fold`, `background_ops`).
    pub fn idle_for(&mut self, idle_ns: u64) -> u64 {
        self.record_completions(u64::MAX);
        let until = self.drained_at() + idle_ns;
        self.now = until;
        until
    }

    /// End the round begun last; its figures over `[start, end of last completion]`.
    pub fn end_round(&mut self) -> Option<RoundFigures> {
        self.record_completions(u64::MAX);
        let r = self.round.take()?;
        let end = self.drained_at();
        self.now = end;
        let secs = (end - r.start_ns) as f64 / NS;
        let full = (secs.floor() as usize).min(r.per_second.len());
        let mut latency = r.latency.summary_us();
        if let Some(l) = &mut latency {
            l.mean = (r.ios > 0).then(|| r.latency_sum_ns as f64 / r.ios as f64 / 1000.0);
        }
        let mut read_latency = r.read_latency.summary_us();
        if let Some(l) = &mut read_latency {
            l.mean =
                (r.read_ios > 0).then(|| r.read_latency_sum_ns as f64 / r.read_ios as f64 / 1000.0);
        }
        Some(RoundFigures {
            read_ios: (r.read_ios > 0).then_some(r.read_ios),
            read_latency_us: read_latency,
            ios: r.ios,
            bytes_written: r.bytes,
            duration_s: secs,
            iops: if secs > 0.0 { r.ios as f64 / secs } else { 0.0 },
            iops_series: r.per_second[..full].iter().map(|&c| c as f64).collect(),
            latency_us: latency,
        })
    }
}
