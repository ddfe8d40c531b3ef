//! What a run's workload was, as one report field: a synthetic pattern with its settings, or a
//! replayed trace with its format, mix, footprint, passes and fold. Readers describe a run from
//! this field alone instead of guessing from the synthetic settings a trace run leaves at their
//! defaults.

use serde::Serialize;

use super::trace::TraceReport;
use crate::config::{TraceConfig, TraceFold, WorkloadConfig};

/// The workload a run replayed or generated (`kind` tells which).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkloadRan {
    /// Generated requests: the configuration's pattern and mix.
    Synthetic(WorkloadConfig),
    /// A block trace replayed through the drive's user space.
    Trace(TraceRan),
}

/// A replayed trace: what the replay read, and how it was laid onto the drive.
#[derive(Debug, Clone, Serialize)]
pub struct TraceRan {
    #[serde(flatten)]
    pub replay: TraceReport,
    pub fold: TraceFold,
    pub time_scale: f64,
    /// Bytes of the drive's user space the folded trace addresses.
    pub user_bytes: u64,
    /// Whether the trace reaches beyond the user space (its addresses were folded onto it).
    pub folded: bool,
}

impl WorkloadRan {
    pub fn synthetic(config: &WorkloadConfig) -> Self {
        WorkloadRan::Synthetic(config.clone())
    }

    pub fn trace(replay: TraceReport, config: &TraceConfig, user_bytes: u64) -> Self {
        let folded = replay.max_end_bytes > user_bytes;
        WorkloadRan::Trace(TraceRan {
            replay,
            fold: config.fold,
            time_scale: config.time_scale,
            user_bytes,
            folded,
        })
    }
}
