//! Trace replay configuration: the host requests come from a block trace file instead of a
//! synthetic pattern (docs/traces.md). Absent `path`, the workload is synthetic.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::workload::trace::TraceFormat;

/// How the trace's page addresses are folded onto the simulated drive's user pages.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TraceFold {
    /// Trace page p → p mod U: keeps locality, overlaps distant regions.
    Modulo,
    /// Trace page p → ⌊p·U / P⌋ for a trace reaching page P: keeps the layout.
    Scale,
}

/// A block trace replayed as the workload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TraceConfig {
    /// The trace file; none: the synthetic workload of `workload`.
    pub path: Option<String>,
    /// Format name (`msr`, `blkparse`, `fio-iolog`, …); none: detected from the first line.
    pub format: Option<String>,
    pub fold: TraceFold,
    /// Replay only the requests of this device / volume number (none: all).
    pub device: Option<u32>,
    /// Inter-arrival times are multiplied by this (0.5 replays twice as fast; timed runs).
    pub time_scale: f64,
    /// Measured passes over the trace.
    pub repeat: u32,
    /// Passes over the trace before measurement starts (after the precondition fill).
    pub warmup_passes: u32,
    /// Skip (and count) lines that do not parse instead of stopping at the first.
    pub skip_bad_lines: bool,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            path: None,
            format: None,
            fold: TraceFold::Modulo,
            device: None,
            time_scale: 1.0,
            repeat: 1,
            warmup_passes: 0,
            skip_bad_lines: false,
        }
    }
}

impl TraceConfig {
    pub fn enabled(&self) -> bool {
        self.path.is_some()
    }

    /// The format named, if any.
    pub fn trace_format(&self) -> Result<Option<TraceFormat>> {
        self.format
            .as_deref()
            .map(TraceFormat::from_name)
            .transpose()
    }

    pub fn validate(&self) -> Result<()> {
        self.trace_format()?;
        if !(self.time_scale.is_finite() && self.time_scale > 0.0) {
            return Err(Error::config(
                "trace.time_scale",
                format!("must be a positive number, got {}", self.time_scale),
            ));
        }
        if self.repeat == 0 {
            return Err(Error::config("trace.repeat", "must be at least 1"));
        }
        if self.repeat.checked_add(self.warmup_passes).is_none() {
            return Err(Error::config("trace.warmup_passes", "too many passes"));
        }
        if let Some(p) = &self.path {
            if p.is_empty() {
                return Err(Error::config("trace.path", "must name a file"));
            }
            let meta = std::fs::metadata(p)
                .map_err(|e| Error::config("trace.path", format!("{p}: {e}")))?;
            if !meta.is_file() {
                return Err(Error::config("trace.path", format!("{p}: not a file")));
            }
        } else if self.format.is_some() || self.device.is_some() {
            return Err(Error::config(
                "trace.path",
                "trace options given without a trace file",
            ));
        }
        Ok(())
    }
}
