//! One streaming pass over a trace: request count and bytes per operation, address and time
//! range. The address range is what [`super::Fold::Scale`] needs.

use std::io::Read;

use serde::Serialize;

use super::{Op, TraceReader};
use crate::error::Result;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct OpTotals {
    pub requests: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceSummary {
    pub reads: OpTotals,
    pub writes: OpTotals,
    pub trims: OpTotals,
    /// Lowest offset and highest end (offset + length) in bytes over all records.
    pub min_offset_bytes: u64,
    pub max_end_bytes: u64,
    pub first_time_ns: u64,
    pub last_time_ns: u64,
    /// Bad lines skipped (with `skip_bad_lines`).
    pub bad_lines: u64,
}

impl TraceSummary {
    pub fn records(&self) -> u64 {
        self.reads.requests + self.writes.requests + self.trims.requests
    }

    /// Read `reader` to its end.
    pub fn scan<R: Read>(reader: &mut TraceReader<R>) -> Result<Self> {
        let mut s = TraceSummary {
            min_offset_bytes: u64::MAX,
            first_time_ns: u64::MAX,
            ..Default::default()
        };
        while let Some(r) = reader.next_record()? {
            let t = match r.op {
                Op::Read => &mut s.reads,
                Op::Write => &mut s.writes,
                Op::Trim => &mut s.trims,
            };
            t.requests += 1;
            t.bytes += r.len_bytes;
            s.min_offset_bytes = s.min_offset_bytes.min(r.offset_bytes);
            s.max_end_bytes = s
                .max_end_bytes
                .max(r.offset_bytes.saturating_add(r.len_bytes));
            s.first_time_ns = s.first_time_ns.min(r.time_ns);
            s.last_time_ns = s.last_time_ns.max(r.time_ns);
        }
        if s.records() == 0 {
            s.min_offset_bytes = 0;
            s.first_time_ns = 0;
        }
        s.bad_lines = reader.bad_lines();
        Ok(s)
    }
}
