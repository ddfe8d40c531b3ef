//! The measured phase alone: requests completed, their latency and the simulated time they
//! took, from the start of the measured phase (after the precondition and the warm-up, or a
//! trace's warm-up passes) to the last completion. The run's own totals (`TimedReport::ios`,
//! `latency_us`) include the warm-up; a trace replay's IOPS and latency are these.

use serde::Serialize;

use crate::stats::{LatencyHistogram, LatencySummary};

const NS: f64 = 1e9;

#[derive(Debug, Clone, Default)]
pub struct MeasuredAcc {
    start_ns: u64,
    last_done_ns: u64,
    ios: u64,
    latency: LatencyHistogram,
    read_latency: LatencyHistogram,
}

#[derive(Debug, Clone, Serialize)]
pub struct MeasuredReport {
    /// Simulated time from the measured phase's first issue to its last completion.
    pub simulated_s: f64,
    pub ios: u64,
    /// Requests completed per second over that time.
    pub iops: Option<f64>,
    pub latency_us: Option<LatencySummary>,
    pub read_latency_us: Option<LatencySummary>,
}

impl MeasuredAcc {
    pub fn starting_at(start_ns: u64) -> Self {
        Self {
            start_ns,
            last_done_ns: start_ns,
            ..Self::default()
        }
    }

    #[inline]
    pub fn record(&mut self, latency_ns: u64, done_ns: u64, is_read: bool) {
        self.ios += 1;
        self.last_done_ns = self.last_done_ns.max(done_ns);
        self.latency.record(latency_ns);
        if is_read {
            self.read_latency.record(latency_ns);
        }
    }

    pub fn report(&self) -> MeasuredReport {
        let secs = self.last_done_ns.saturating_sub(self.start_ns) as f64 / NS;
        MeasuredReport {
            simulated_s: secs,
            ios: self.ios,
            iops: (secs > 0.0).then(|| self.ios as f64 / secs),
            latency_us: self.latency.summary_us(),
            read_latency_us: self.read_latency.summary_us(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_what_completes_after_the_mark() {
        let mut m = MeasuredAcc::starting_at(1_000_000_000);
        for i in 0..100u64 {
            m.record(50_000, 1_000_000_000 + (i + 1) * 10_000_000, i % 4 == 0);
        }
        let r = m.report();
        assert_eq!(r.ios, 100);
        assert!((r.simulated_s - 1.0).abs() < 1e-12);
        assert!((r.iops.unwrap() - 100.0).abs() < 1e-9);
        assert_eq!(r.latency_us.unwrap().p50, 50.0);
        assert!(r.read_latency_us.is_some());
        assert!(MeasuredAcc::starting_at(5).report().iops.is_none());
    }
}
