//! Block I/O traces: streaming readers (one format per file, a line at a time, constant memory),
//! format auto-detection, and the transforms that turn a trace into page requests for the FTL.
//!
//! Every reader yields [`TraceRecord`]s: arrival time in ns, operation, byte offset and length,
//! and the device or volume the request went to. Formats (see each module for its public
//! definition): [`msr`], [`blkparse`], [`fio_iolog`], [`systor`], [`alibaba`], [`tencent`],
//! [`mqsim`] and our own documented [`csv`].

pub mod alibaba;
pub mod blkparse;
mod columns;
pub mod csv;
pub mod detect;
mod fields;
pub mod fio_iolog;
pub mod format;
pub mod mqsim;
pub mod msr;
pub mod reader;
pub mod source;
pub mod summary;
pub mod systor;
pub mod tencent;
pub mod transform;

pub use crate::workload::Op;
pub use format::TraceFormat;
pub use reader::TraceReader;
pub use source::{TraceReport, TraceSource};
pub use summary::TraceSummary;
pub use transform::{Fold, Replay, ReplayOptions, TimedRequest};

/// One host request as the trace recorded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceRecord {
    /// Arrival (or issue) time in ns, on the trace's own clock (not rebased).
    pub time_ns: u64,
    pub op: Op,
    pub offset_bytes: u64,
    pub len_bytes: u64,
    /// Device, disk, LUN or volume number as the trace names it (fio: the file's index in order
    /// of first appearance; blkparse: `major << 20 | minor`, the kernel's dev_t encoding).
    pub device: u32,
}
