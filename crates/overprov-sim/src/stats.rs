//! Statistics: write amplification overall, per phase and per interval; erase-count spread;
//! victim valid-page histogram.

use serde::Serialize;

use crate::ftl::wear::EraseSummary;
use crate::ftl::Counters;

/// Counters at one moment, with the host bytes the requests asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Snapshot {
    pub counters: Counters,
    pub host_bytes: u64,
}

/// What happened between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta {
    pub host_pages: u64,
    pub host_bytes: u64,
    pub nand_pages: u64,
    pub gc_pages: u64,
    pub wl_pages: u64,
    pub erases: u64,
    /// NAND bytes written / host bytes written (DOMAIN.md §2).
    pub waf: Option<f64>,
    /// NAND pages programmed / host pages programmed (equals `waf` for page-sized requests).
    pub ftl_waf: Option<f64>,
}

impl Delta {
    pub fn between(a: &Snapshot, b: &Snapshot, page_size_bytes: u32) -> Delta {
        let host_pages = b.counters.host_pages - a.counters.host_pages;
        let nand_pages = b.counters.nand_pages() - a.counters.nand_pages();
        let host_bytes = b.host_bytes - a.host_bytes;
        Delta {
            host_pages,
            host_bytes,
            nand_pages,
            gc_pages: b.counters.gc_pages - a.counters.gc_pages,
            wl_pages: b.counters.wl_pages - a.counters.wl_pages,
            erases: b.counters.erases - a.counters.erases,
            waf: (host_bytes > 0)
                .then(|| (nand_pages as f64 * page_size_bytes as f64) / host_bytes as f64),
            ftl_waf: (host_pages > 0).then(|| nand_pages as f64 / host_pages as f64),
        }
    }
}

/// One recorded interval (every `interval_percent` of user capacity written by the host).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub phase: &'static str,
    /// Cumulative host pages at the end of the interval.
    pub host_pages_total: u64,
    /// Cumulative host writes at the end, in user capacities (drive writes).
    pub drive_writes_total: f64,
    pub delta: Delta,
    pub free_blocks: usize,
}

/// Wear summary with the spread.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WearReport {
    pub erase_count: EraseSummary,
    /// Histogram of erase counts: (erase count, blocks).
    pub erase_histogram: Vec<(u32, u64)>,
}

pub fn erase_histogram(counts: &[u32]) -> Vec<(u32, u64)> {
    let mut sorted: Vec<u32> = counts.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u32, u64)> = Vec::new();
    for e in sorted {
        match out.last_mut() {
            Some((v, n)) if *v == e => *n += 1,
            _ => out.push((e, 1)),
        }
    }
    out
}
