//! What a timed run reports: per-interval series, the latency histogram, the summaries.

use serde::Serialize;

use super::state;
use crate::stats::LatencySummary;

#[derive(Debug, Clone, Serialize)]
pub struct TimedInterval {
    /// End of the interval, simulated seconds.
    pub time_s: f64,
    /// Completed requests per second (reads + writes).
    pub iops: f64,
    pub write_iops: f64,
    pub read_iops: f64,
    /// Host bytes completed per second, MiB/s.
    pub mib_s: f64,
    /// Host bytes completed up to the end of the interval (write saturation x-axis).
    pub host_bytes_total: u64,
    pub drive_writes_total: f64,
    /// NAND pages / host pages for requests issued in the interval.
    pub waf: Option<f64>,
    pub state: state::State,
    pub latency_us: Option<LatencySummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistogramReport {
    pub bucket_upper_us: Vec<f64>,
    pub counts: Vec<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TimedReport {
    pub interval_s: f64,
    pub simulated_s: f64,
    pub ios: u64,
    pub queue_depth: u32,
    /// Writes waited for NAND (write-through on a drive without power-loss protection).
    pub write_through: bool,
    pub intervals: Vec<TimedInterval>,
    /// Mean IOPS of the fresh-out-of-box intervals (before garbage collection first ran).
    pub fob_iops: Option<f64>,
    pub transition_iops: Option<f64>,
    /// Host writes per steady-state round, in user capacities.
    pub round_drive_writes: f64,
    /// Mean IOPS of the last window meeting the SNIA steady-state rule.
    pub steady_iops: Option<f64>,
    /// First and last interval index of that window.
    pub steady_window: Option<[usize; 2]>,
    pub latency_us: Option<LatencySummary>,
    /// Reads alone, when the workload has reads: their wait behind programs, erases and GC.
    pub read_latency_us: Option<LatencySummary>,
    pub latency_histogram: HistogramReport,
    pub slc_written_bytes: Option<u64>,
    pub slc_folded_bytes: Option<u64>,
}
