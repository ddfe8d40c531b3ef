//! One parser for the column formats (MSR, SYSTOR, Tencent, Alibaba, MQSim, our CSV): each
//! format is a [`Columns`] table — separator, field count, and which column holds the time, the
//! operation, the offset, the length and the device, in which unit.

use super::fields::{device, mul, op, seconds_to_ns, split_ascii_whitespace, uint};
use super::{Op, TraceRecord};

/// How a format writes time.
#[derive(Debug, Clone, Copy)]
pub(super) enum Clock {
    /// An integer count of this many ns (100 for Windows FILETIME ticks, 1000 for µs…).
    Ticks(u64),
    /// Decimal seconds, `1456095145.133076000`.
    DecimalSeconds,
}

#[derive(Debug)]
pub(super) struct Columns {
    /// Field names in order, for error messages: `"Timestamp,Offset,Size,IOType,VolumeID"`.
    pub names: &'static str,
    /// Comma-separated, or whitespace-separated.
    pub comma: bool,
    pub fields: usize,
    pub time: (usize, Clock),
    pub op: (usize, &'static [(&'static str, Op)]),
    /// Column and bytes per unit (1 for bytes, 512 for sectors).
    pub offset: (usize, u64),
    pub len: (usize, u64),
    pub device: usize,
}

const MAX_FIELDS: usize = 8;

impl Columns {
    fn name(&self, i: usize) -> &'static str {
        self.names.split(',').nth(i).unwrap_or("?")
    }

    pub(super) fn parse(&self, line: &str) -> Result<TraceRecord, String> {
        let mut f: [&str; MAX_FIELDS] = [""; MAX_FIELDS];
        let n = if self.comma {
            let mut n = 0;
            for s in line.split(',') {
                if n < MAX_FIELDS {
                    f[n] = s.trim();
                }
                n += 1;
            }
            n
        } else {
            split_ascii_whitespace(line, &mut f)
        };
        if n != self.fields {
            let sep = if self.comma { "comma" } else { "whitespace" };
            return Err(format!(
                "expected {} {sep}-separated fields ({}), got {n}",
                self.fields, self.names
            ));
        }
        // field names are looked up only for an error message (keeps the hot path lean)
        let named = |i: usize, e: String| format!("{}{e}", self.name(i));
        let (t, clock) = self.time;
        let time_ns = match clock {
            Clock::Ticks(ns) => uint(f[t], "").and_then(|v| mul(v, ns, "")),
            Clock::DecimalSeconds => seconds_to_ns(f[t], ""),
        }
        .map_err(|e| named(t, e))?;
        let bytes = |(i, unit): (usize, u64)| {
            uint(f[i], "")
                .and_then(|v| mul(v, unit, ""))
                .map_err(|e| named(i, e))
        };
        Ok(TraceRecord {
            time_ns,
            op: op(f[self.op.0], self.op.1, "").map_err(|e| named(self.op.0, e))?,
            offset_bytes: bytes(self.offset)?,
            len_bytes: bytes(self.len)?,
            device: device(f[self.device], "").map_err(|e| named(self.device, e))?,
        })
    }
}
