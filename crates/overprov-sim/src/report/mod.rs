//! A run's report: what a simulation produced, as it crosses the binding (serde, JSON). One
//! format for every run: a drive (`crate::sim`) fills it from its own state; several jobs or an
//! array of drives (`crate::host`) fill it from their members' reports and add `host`.

mod host;
mod placement;

use serde::Serialize;

use crate::config::SimConfig;
use crate::ftl::Counters;
use crate::stats::{Delta, Interval, WearReport};
use crate::timing::TimedReport;
use crate::workload::ran::WorkloadRan;
use crate::workload::trace::TraceReport;

pub use host::{HostReport, JobReport, MemberReport};
pub use placement::{HandleReport, PlacementReport};

#[derive(Debug, Clone, Serialize)]
pub struct GeometryReport {
    pub page_size_bytes: u32,
    pub pages_per_block: u32,
    pub blocks: u32,
    pub user_pages: u32,
    pub physical_pages: u64,
    pub user_bytes: u64,
    pub physical_bytes: u64,
    /// ρ = (T−U)/U (the config field that sets it is `geometry.op_ratio`).
    pub rho: f64,
    /// Sf = (T−U)/T.
    pub spare_factor: f64,
    pub spare_blocks: u64,
    /// Pages the workload addresses (span limit applied).
    pub span_pages: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhaseReport {
    pub phase: &'static str,
    pub delta: Delta,
}

/// Everything a run produced.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub simulator: &'static str,
    pub version: &'static str,
    pub done: bool,
    pub geometry: GeometryReport,
    pub config: SimConfig,
    pub phases: Vec<PhaseReport>,
    /// The measured part (after precondition and warm-up).
    pub measured: Option<Delta>,
    pub totals: Counters,
    pub host_bytes: u64,
    pub read_pages: u64,
    pub requests: u64,
    pub wear: WearReport,
    /// Victims collected during measurement by their valid pages (index = valid pages).
    pub victim_valid_histogram: Vec<u64>,
    pub intervals: Vec<Interval>,
    /// Bytes of core simulator state, and per physical page.
    pub state_bytes: u64,
    pub state_bytes_per_physical_page: f64,
    /// Simulated time: IOPS, latency and performance-state series (when timing is enabled).
    pub timed: Option<TimedReport>,
    /// Several jobs or an array of drives; None for one job on one drive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<HostReport>,
    /// The trace replayed (when the workload is a trace).
    pub trace: Option<TraceReport>,
    /// What the workload was: a synthetic pattern, or the trace with its mix and fold.
    pub workload: WorkloadRan,
    /// Data placement per reclaim-unit handle (when placement is on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementReport>,
}
