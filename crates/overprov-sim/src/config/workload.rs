//! Workload configuration: address pattern, request sizes, the JESD219 mix, precondition.

use serde::{Deserialize, Serialize};

use super::percent;
use crate::error::{Error, Result};

/// Address pattern of host requests.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    /// Uniform random over the span.
    Uniform,
    /// Sequential through the span, wrapping around.
    Sequential,
    /// `hot_access_percent` of requests go to the first `hot_space_percent` of the span.
    HotCold,
    /// Piecewise-uniform zones (`zones`), like fio's random_distribution=zoned.
    Zoned,
    /// Zipf(θ) over the span, ranks scattered over the LBAs.
    Zipf,
    /// JEDEC JESD219 enterprise endurance workload: its transfer-size mix and address skew.
    Jesd219,
}

impl Pattern {
    /// Every pattern, in the order `--help` lists them.
    pub const ALL: [Pattern; 6] = [
        Pattern::Uniform,
        Pattern::Sequential,
        Pattern::HotCold,
        Pattern::Zoned,
        Pattern::Zipf,
        Pattern::Jesd219,
    ];
}

/// One zone of a zoned distribution: `access_percent` of requests to `space_percent` of the span.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub access_percent: f64,
    pub space_percent: f64,
    /// Written sequentially through the zone (wrapping around) instead of at random: a stream
    /// such as a log or a FIFO of regions.
    #[serde(default, skip_serializing_if = "super::is_default")]
    pub sequential: bool,
}

/// Host workload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadConfig {
    pub pattern: Pattern,
    /// Random patterns visit every LBA of their range once per pass (fio's random map).
    pub random_map: bool,
    /// Only the first `span_percent` of the user LBAs are accessed.
    pub span_percent: f64,
    /// Share of requests that are reads (they do not change the FTL state).
    pub read_percent: f64,
    /// Share of requests that are TRIM/discard of their range.
    pub trim_percent: f64,
    /// Request size in bytes (when `bssplit` is not given). Sub-page writes rewrite a page.
    pub request_bytes: u32,
    /// Request-size mix in fio syntax, e.g. "4k/67:8k/10:64k/23" (percent weights).
    pub bssplit: Option<String>,
    /// Hot/cold: share of requests to the hot area.
    pub hot_access_percent: f64,
    /// Hot/cold: size of the hot area in percent of the span.
    pub hot_space_percent: f64,
    /// Zoned: the zones, in LBA order; access and space percents each sum to 100.
    pub zones: Vec<Zone>,
    /// The zones' pages scattered over the span by the permutation that scatters Zipf's ranks
    /// (as SSD-iq's `zones-shuffle` workloads lay them) instead of each zone in one LBA range.
    #[serde(skip_serializing_if = "super::is_default")]
    pub zones_scattered: bool,
    /// Zipf exponent θ (> 0; 0.99 is the YCSB default).
    pub zipf_theta: f64,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            pattern: Pattern::Uniform,
            random_map: false,
            span_percent: 100.0,
            read_percent: 0.0,
            trim_percent: 0.0,
            request_bytes: 4096,
            bssplit: None,
            hot_access_percent: 80.0,
            hot_space_percent: 20.0,
            zones: Vec::new(),
            zones_scattered: false,
            zipf_theta: 0.99,
        }
    }
}

/// JESD219 transfer-size mix (bytes, percent), JEDEC JESD219A.
pub const JESD219_BSSPLIT: &str =
    "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3";
/// JESD219 address skew: 50% of accesses to the first 5%, 30% to the next 15%, 20% to the rest.
pub const JESD219_ZONES: [Zone; 3] = [
    Zone {
        access_percent: 50.0,
        space_percent: 5.0,
        sequential: false,
    },
    Zone {
        access_percent: 30.0,
        space_percent: 15.0,
        sequential: false,
    },
    Zone {
        access_percent: 20.0,
        space_percent: 80.0,
        sequential: false,
    },
];

/// How the drive is filled before the workload starts.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Precondition {
    /// Write every user LBA once in order.
    #[default]
    Sequential,
    /// Write every user LBA once in random order (a random-map pass).
    Random,
    /// Fresh drive: nothing written.
    None,
}

impl Precondition {
    pub const ALL: [Precondition; 3] = [
        Precondition::Sequential,
        Precondition::Random,
        Precondition::None,
    ];
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct PreconditionConfig {
    /// `sequential`, `random` or `none`.
    pub kind: Precondition,
}

/// Parse a fio-style bssplit ("4k/67:8k/10") into (bytes, weight) pairs.
pub fn parse_bssplit(text: &str) -> std::result::Result<Vec<(u32, f64)>, String> {
    let mut out = Vec::new();
    for (i, part) in text.split(':').enumerate() {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (size, weight) = part
            .split_once('/')
            .ok_or_else(|| format!("entry {} ({part:?}) is not SIZE/PERCENT", i + 1))?;
        let bytes = parse_size(size).map_err(|e| format!("entry {} ({part:?}): {e}", i + 1))?;
        let weight: f64 = weight.trim().parse().map_err(|_| {
            format!(
                "entry {} ({part:?}): weight {weight:?} is not a number",
                i + 1
            )
        })?;
        if !(weight >= 0.0 && weight.is_finite()) {
            return Err(format!("entry {} ({part:?}): weight must be >= 0", i + 1));
        }
        out.push((bytes, weight));
    }
    if out.is_empty() {
        return Err("no entries".into());
    }
    if out.iter().map(|e| e.1).sum::<f64>() <= 0.0 {
        return Err("weights sum to zero".into());
    }
    Ok(out)
}

/// Parse "4096", "4k", "1536", "64K", "1m" (binary multiples, as fio does for block sizes).
pub fn parse_size(text: &str) -> std::result::Result<u32, String> {
    let t = text.trim().to_ascii_lowercase();
    let t = t.strip_suffix('b').unwrap_or(&t);
    let (num, mult) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m') => (&t[..t.len() - 1], 1u64 << 20),
        _ => (t, 1u64),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("size {text:?} is not a number"))?;
    let bytes = n * mult;
    if bytes == 0 || bytes > u32::MAX as u64 {
        return Err(format!("size {text:?} out of range"));
    }
    Ok(bytes as u32)
}

pub(crate) fn check_zones(zones: &[Zone]) -> Result<()> {
    let mut access = 0.0;
    let mut space = 0.0;
    for (i, z) in zones.iter().enumerate() {
        percent(
            &format!("workload.zones[{i}].access_percent"),
            z.access_percent,
            false,
        )?;
        percent(
            &format!("workload.zones[{i}].space_percent"),
            z.space_percent,
            true,
        )?;
        access += z.access_percent;
        space += z.space_percent;
    }
    if (access - 100.0).abs() > 1e-6 {
        return Err(Error::config(
            "workload.zones",
            format!("access_percent sums to {access}, not 100"),
        ));
    }
    if (space - 100.0).abs() > 1e-6 {
        return Err(Error::config(
            "workload.zones",
            format!("space_percent sums to {space}, not 100"),
        ));
    }
    Ok(())
}

/// `zones_scattered` needs a pattern with zones, none of them a sequential stream (a stream
/// through scattered pages is not one), and no placement by zone range (its ranges would not
/// be the zones').
pub(crate) fn check_zones_scattered(
    scattered: bool,
    zones: Option<Vec<Zone>>,
    placed_by_zone: bool,
) -> Result<()> {
    if !scattered {
        return Ok(());
    }
    let field = "workload.zones_scattered";
    let Some(zones) = zones else {
        return Err(Error::config(
            field,
            "only for a pattern with zones (hot-cold, zoned, jesd219)",
        ));
    };
    if let Some(i) = zones.iter().position(|z| z.sequential) {
        return Err(Error::config(
            field,
            format!("zone {i} is sequential: a stream is written in LBA order, not scattered"),
        ));
    }
    if placed_by_zone {
        return Err(Error::config(
            field,
            "not with placement by workload zone (placement.source = \"workload\")",
        ));
    }
    Ok(())
}
