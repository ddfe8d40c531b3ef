//! What data placement adds to a report: the isolation and each reclaim-unit handle's share.

use serde::Serialize;

use crate::config::{Isolation, PlacementSource};

/// One reclaim-unit handle's share of the measured part.
#[derive(Debug, Clone, Serialize)]
pub struct HandleReport {
    pub id: u8,
    pub host_pages: u64,
    /// Pages GC (and static wear levelling) relocated that held this handle's host writes.
    pub relocated_pages: u64,
    pub write_requests: u64,
    pub host_share_percent: f64,
    /// (host + relocated pages) / host pages of this handle.
    pub ftl_waf: Option<f64>,
}

/// Data placement's report: the isolation and the measured part per handle.
#[derive(Debug, Clone, Serialize)]
pub struct PlacementReport {
    pub isolation: Isolation,
    pub source: PlacementSource,
    /// What a reclaim unit is in the model: one erase block of the geometry (a superblock when
    /// the geometry's block stands for one).
    pub reclaim_unit: &'static str,
    pub handles: Vec<HandleReport>,
}
