//! What several jobs or an array of drives (`crate::host`) add to a report: per-job IOPS, the
//! array and each member's figures.

use serde::Serialize;

use crate::ftl::wear::EraseSummary;
use crate::stats::Delta;

/// One job's completions.
#[derive(Debug, Clone, Serialize)]
pub struct JobReport {
    pub job: u32,
    /// Seed of its random stream.
    pub seed: u64,
    /// Requests completed over the whole timed run.
    pub ios: u64,
    /// `ios` over the timed run's simulated time (the jobs' figures sum to the total).
    pub iops: f64,
    /// Mean IOPS over the steady window, if one was found (they sum to `timed.steady_iops`).
    pub steady_iops: Option<f64>,
}

/// One member drive over the measured part.
#[derive(Debug, Clone, Serialize)]
pub struct MemberReport {
    pub member: u32,
    /// Host pages and bytes the member was asked to write, its NAND pages, and its WAF.
    pub measured: Option<Delta>,
    /// Read requests it served (over the whole run).
    pub reads: u64,
    pub erase_count: EraseSummary,
}

#[derive(Debug, Clone, Serialize)]
pub struct HostReport {
    pub numjobs: u32,
    /// Each job's queue depth (fio's iodepth).
    pub iodepth: u32,
    /// numjobs × iodepth: requests outstanding in all.
    pub outstanding: u32,
    pub jobs: Vec<JobReport>,
    /// "none", "0", "1" or "10".
    pub raid: &'static str,
    /// Drives (1 without an array).
    pub members: u32,
    /// Stripe chunk (RAID-0 and RAID-10).
    pub chunk_bytes: Option<u64>,
    /// User capacity of the array (what the host addresses).
    pub array_user_bytes: u64,
    /// Which copy a read goes to.
    pub read_policy: &'static str,
    /// Over the measured part: bytes the host wrote to the array, NAND bytes programmed on all
    /// members, and their ratio (a mirror of N has N times a member's WAF).
    pub array_host_bytes: u64,
    pub array_nand_bytes: u64,
    pub array_waf: Option<f64>,
    pub member_figures: Vec<MemberReport>,
}
