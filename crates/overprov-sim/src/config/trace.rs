//! Trace replay configuration: the host requests come from a block trace file instead of a
//! synthetic pattern (docs/traces.md). Absent `path`, the workload is synthetic.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

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

/// The trace formats by name (`--trace-format`); each one's detection and line parser are in
/// `crate::workload::trace` (`format.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// MSR Cambridge CSV (SNIA IOTTA).
    Msr,
    /// blkparse's default text output.
    Blkparse,
    /// fio `write_iolog` / `read_iolog`, versions 2 and 3.
    FioIolog,
    /// SYSTOR '17 VDI CSV (SNIA IOTTA).
    Systor,
    /// Alibaba Cloud block trace CSV.
    Alibaba,
    /// Tencent Cloud Block Storage CSV (SNIA IOTTA).
    Tencent,
    /// MQSim / DiskSim ASCII.
    Mqsim,
    /// overprov's own CSV (`time_ns,op,offset_bytes,len_bytes,device`).
    Csv,
}

impl TraceFormat {
    pub const ALL: [TraceFormat; 8] = [
        TraceFormat::Msr,
        TraceFormat::Blkparse,
        TraceFormat::FioIolog,
        TraceFormat::Systor,
        TraceFormat::Alibaba,
        TraceFormat::Tencent,
        TraceFormat::Mqsim,
        TraceFormat::Csv,
    ];

    /// The name used on the command line (`--trace-format`).
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Msr => "msr",
            TraceFormat::Blkparse => "blkparse",
            TraceFormat::FioIolog => "fio-iolog",
            TraceFormat::Systor => "systor",
            TraceFormat::Alibaba => "alibaba",
            TraceFormat::Tencent => "tencent",
            TraceFormat::Mqsim => "mqsim",
            TraceFormat::Csv => "csv",
        }
    }

    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
                Error::config(
                    "trace.format",
                    format!("unknown trace format {name:?}; one of {}", names.join(", ")),
                )
            })
    }
}
