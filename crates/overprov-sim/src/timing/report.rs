//! What a timed run reports: per-interval series, the latency histogram, the summaries.

use serde::Serialize;

use super::{state, Engine, NS};
use crate::ftl::Counters;
use crate::geometry::Geometry;
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
    /// The measured phase alone (after the warm-up): None when the run has no measured phase.
    pub measured: Option<super::measured::MeasuredReport>,
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
    /// Blocking GC domains' figures over the measured phase (`gc_blocked.rs`); absent without
    /// `gc.blocking = "domain"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_blocked: Option<super::GcBlockedReport>,
}

impl Engine {
    /// The series and summaries, for the report.
    pub fn report(&self, g: &Geometry, counters_now: &Counters) -> TimedReport {
        if self.deferred.as_ref().is_some_and(|c| !c.is_empty()) {
            // completions not yet recorded (`gc_first.rs`): on a copy, every one recorded
            let mut e = self.clone();
            e.record_completions(u64::MAX);
            return e.report(g, counters_now);
        }
        let secs = self.interval_ns as f64 / NS;
        // only intervals that ended before the last issue are complete
        let complete = (self.now / self.interval_ns) as usize;
        let n = complete.min(self.intervals.len());
        let mut boundaries = self.boundaries.clone();
        boundaries.push(*counters_now);
        let mut bytes_total = 0u64;
        let mut rows = Vec::with_capacity(n);
        let iops: Vec<f64> = (0..n)
            .map(|i| (self.intervals[i].writes + self.intervals[i].reads) as f64 / secs)
            .collect();
        let fob_until = self
            .first_gc_ns
            .map_or(n, |t| ((t / self.interval_ns) as usize).min(n));
        let mut dw = Vec::with_capacity(n);
        let mut acc_bytes = 0u64;
        for acc in &self.intervals[..n] {
            acc_bytes += acc.bytes;
            dw.push(acc_bytes as f64 / g.user_bytes() as f64);
        }
        let labels = state::label(&iops, &dw, fob_until, self.round_drive_writes);
        for (i, acc) in self.intervals[..n].iter().enumerate() {
            bytes_total += acc.bytes;
            let waf = match (boundaries.get(i), boundaries.get(i + 1)) {
                (Some(a), Some(b)) if b.host_pages > a.host_pages => Some(
                    (b.nand_pages() - a.nand_pages()) as f64 / (b.host_pages - a.host_pages) as f64,
                ),
                _ => None,
            };
            rows.push(TimedInterval {
                time_s: (i + 1) as f64 * secs,
                iops: iops[i],
                write_iops: acc.writes as f64 / secs,
                read_iops: acc.reads as f64 / secs,
                mib_s: acc.bytes as f64 / secs / (1 << 20) as f64,
                host_bytes_total: bytes_total,
                drive_writes_total: bytes_total as f64 / g.user_bytes() as f64,
                waf,
                state: labels.states[i],
                latency_us: acc.latency.summary_us(),
            });
        }
        let mean = |states: &[state::State], want: state::State| {
            let v: Vec<f64> = (0..n)
                .filter(|&i| states[i] == want)
                .map(|i| iops[i])
                .collect();
            (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
        };
        TimedReport {
            interval_s: secs,
            round_drive_writes: self.round_drive_writes,
            simulated_s: self.now as f64 / NS,
            ios: self.ios,
            measured: self.measured.as_ref().map(|m| m.report()),
            queue_depth: self.queue_depth,
            write_through: self.write_through,
            intervals: rows,
            fob_iops: mean(&labels.states, state::State::Fob),
            steady_iops: labels
                .steady_window
                .map(|(a, b)| iops[a..=b].iter().sum::<f64>() / (b - a + 1) as f64),
            steady_window: labels.steady_window.map(|(a, b)| [a, b]),
            transition_iops: mean(&labels.states, state::State::Transition),
            latency_us: self.latency.summary_us(),
            read_latency_us: self.read_latency.summary_us(),
            latency_histogram: HistogramReport {
                bucket_upper_us: self.latency.buckets_us().iter().map(|b| b.0).collect(),
                counts: self.latency.buckets_us().iter().map(|b| b.1).collect(),
            },
            slc_written_bytes: self
                .slc
                .as_ref()
                .map(|s| s.written_units * g.page_size_bytes as u64),
            slc_folded_bytes: self
                .slc
                .as_ref()
                .map(|s| s.folded_units * g.page_size_bytes as u64),
            gc_blocked: self.gc_blocked.as_ref().map(|a| {
                let mix = self.same_offset.enabled();
                let held = self.in_flight.held_counts();
                a.report(self.now, mix.then(|| self.same_offset.program_mix()), held)
            }),
        }
    }
}
