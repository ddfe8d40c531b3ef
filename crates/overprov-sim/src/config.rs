//! Typed, validated simulator configuration. One struct per layer; every field has a default,
//! a unit in its name where one applies, and help text here. `validate()` checks everything
//! before a run starts and names the offending field in its error.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::geometry::{Geometry, GIB_PER_GB};

/// The whole simulation: what the drive is, how its FTL behaves, what the host does.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SimConfig {
    pub geometry: GeometryConfig,
    pub ftl: FtlConfig,
    pub wear: WearConfig,
    pub workload: WorkloadConfig,
    pub precondition: PreconditionConfig,
    pub run: RunConfig,
    /// Simulated time (IOPS, latency, performance states); off by default.
    pub timing: TimingConfig,
}

/// NAND geometry and capacities. Physical size: `physical_blocks` or `physical_bytes`
/// (or derived from the user size and `op_ratio`, or from `advertised_bytes` as a drive whose
/// NAND is the advertised size in GiB). User size: exactly one of `user_pages`, `user_bytes`,
/// `op_ratio` (ρ) or `extra_op_percent` (of the advertised capacity). What is not stated takes
/// the default drive's value: 2²⁰ user pages (4 GiB of 4 KiB pages) and ρ = 0.28.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GeometryConfig {
    /// Flash page (and mapping unit) size in bytes.
    pub page_size_bytes: u32,
    /// Pages per erase block (b).
    pub pages_per_block: u32,
    /// Physical erase blocks.
    pub physical_blocks: Option<u64>,
    /// Physical NAND bytes (rounded down to whole blocks).
    pub physical_bytes: Option<u64>,
    /// User capacity as a count of pages (LBAs of page size).
    pub user_pages: Option<u64>,
    /// User capacity in bytes (rounded down to whole pages).
    pub user_bytes: Option<u64>,
    /// Over-provisioning ρ = (T−U)/U, e.g. 0.28.
    pub op_ratio: Option<f64>,
    /// Extra OP in percent of the advertised capacity left unused: U = (1−X)·C.
    pub extra_op_percent: Option<f64>,
    /// Advertised capacity C in bytes (decimal GB on the label). Default with
    /// `extra_op_percent`: physical bytes / 1.0737 (NAND in GiB, drive sold in GB).
    pub advertised_bytes: Option<u64>,
}

impl Default for GeometryConfig {
    fn default() -> Self {
        GeometryConfig {
            page_size_bytes: 4096,
            pages_per_block: 256,
            physical_blocks: None,
            physical_bytes: None,
            user_pages: None,
            user_bytes: None,
            op_ratio: None,
            extra_op_percent: None,
            advertised_bytes: None,
        }
    }
}

/// User pages of the default drive (4 GiB of 4 KiB pages).
pub const DEFAULT_USER_PAGES: u64 = 1 << 20;
/// OP ρ of the default drive.
pub const DEFAULT_OP_RATIO: f64 = 0.28;

/// GC victim selection policy.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyKind {
    /// Fewest valid pages (O(1) via valid-count buckets).
    Greedy,
    /// Oldest closed block (circular log).
    Fifo,
    /// Uniformly random closed block.
    Random,
    /// Sample `d_choices` closed blocks, take the one with fewest valid pages.
    DChoices,
    /// LFS cost-benefit: maximise age·(1−u)/(2u).
    CostBenefit,
}

impl PolicyKind {
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Greedy => "greedy",
            PolicyKind::Fifo => "fifo",
            PolicyKind::Random => "random",
            PolicyKind::DChoices => "d-choices",
            PolicyKind::CostBenefit => "cost-benefit",
        }
    }
}

/// Where GC writes the pages it relocates.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GcFrontier {
    /// A GC write frontier of its own (per host stream).
    Separate,
    /// The host write frontier of the victim's stream (host and GC data mixed).
    Shared,
}

/// How host writes are split into write streams (frontiers).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum HostStreams {
    /// One host frontier for everything.
    Single,
    /// One frontier per workload temperature class (the zone of a hot/cold, zoned or JESD219
    /// workload), like a multi-stream SSD given perfect hints.
    Workload,
}

/// Flash translation layer behaviour.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FtlConfig {
    /// Victim policy: greedy, fifo, random, d-choices, cost-benefit.
    pub policy: PolicyKind,
    /// Sample size d for `d-choices`.
    pub d_choices: u32,
    /// GC runs when the free pool has this many blocks or fewer (≥ 1).
    pub gc_free_blocks: u32,
    /// Where relocated pages go: `separate` or `shared`.
    pub gc_frontier: GcFrontier,
    /// Host write streams: `single` or `workload`.
    pub host_streams: HostStreams,
}

impl Default for FtlConfig {
    fn default() -> Self {
        FtlConfig {
            policy: PolicyKind::Greedy,
            d_choices: 8,
            gc_free_blocks: 2,
            gc_frontier: GcFrontier::Separate,
            host_streams: HostStreams::Single,
        }
    }
}

/// Wear levelling.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct WearConfig {
    /// Dynamic wear levelling: allocate the least-worn free block first (else oldest-freed).
    pub dynamic: bool,
    /// Static wear levelling: when max − min erase count exceeds this, migrate the data of the
    /// least-worn closed block. 0 disables it.
    pub static_threshold: u32,
    /// Check the static threshold every this many erases.
    pub static_check_erases: u32,
}

impl Default for WearConfig {
    fn default() -> Self {
        WearConfig {
            dynamic: false,
            static_threshold: 0,
            static_check_erases: 256,
        }
    }
}

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

/// One zone of a zoned distribution: `access_percent` of requests to `space_percent` of the span.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub access_percent: f64,
    pub space_percent: f64,
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
            zipf_theta: 0.99,
        }
    }
}

/// JESD219 transfer-size mix (bytes, percent), JEDEC JESD219 (docs/concepts.md).
pub const JESD219_BSSPLIT: &str =
    "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3";
/// JESD219 address skew: 50% of accesses to the first 5%, 30% to the next 15%, 20% to the rest.
pub const JESD219_ZONES: [Zone; 3] = [
    Zone {
        access_percent: 50.0,
        space_percent: 5.0,
    },
    Zone {
        access_percent: 30.0,
        space_percent: 15.0,
    },
    Zone {
        access_percent: 20.0,
        space_percent: 80.0,
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

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct PreconditionConfig {
    /// `sequential`, `random` or `none`.
    pub kind: Precondition,
}

/// How long to run and what to record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct RunConfig {
    /// Host writes in the measured part, in user capacities ("drive writes").
    pub drive_writes: f64,
    /// Host writes before measurement starts (not counted in the measured WAF).
    pub warmup_drive_writes: f64,
    /// Record an interval every this percent of user capacity written by the host.
    pub interval_percent: f64,
    /// Seed: the same seed and config give the same result.
    pub seed: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            drive_writes: 4.0,
            warmup_drive_writes: 2.0,
            interval_percent: 1.0,
            seed: 1,
        }
    }
}

/// Simulated time: host interface, write buffer, SLC cache, NAND array. When `enabled`, every
/// request after the precondition is timed and the report carries IOPS, latency and
/// performance-state series.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TimingConfig {
    pub enabled: bool,
    pub host: HostConfig,
    pub nand: NandConfig,
    pub buffer: BufferConfig,
    pub slc: SlcConfig,
    /// Length of a series interval in simulated seconds.
    pub interval_s: f64,
    /// Stop the timed part after this much simulated time (seconds); None: by drive writes.
    pub duration_s: Option<f64>,
    /// Host writes per steady-state round, in user capacities (the SNIA rule is applied to
    /// windows of five rounds).
    pub state_round_drive_writes: f64,
    /// Background GC in idle time (open loop) while the free pool has this many blocks or
    /// fewer; None: four times `ftl.gc_free_blocks`.
    pub background_gc_free_blocks: Option<u32>,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            enabled: false,
            host: HostConfig::default(),
            nand: NandConfig::default(),
            buffer: BufferConfig::default(),
            slc: SlcConfig::default(),
            interval_s: 1.0,
            duration_s: None,
            state_round_drive_writes: 0.2,
            background_gc_free_blocks: None,
        }
    }
}

/// How the host issues requests.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum HostMode {
    /// Closed loop: `queue_depth` requests outstanding; one is issued when one completes.
    Closed,
    /// Open loop: requests arrive at `arrival_iops`, whatever the drive does.
    Open,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct HostConfig {
    pub mode: HostMode,
    /// Outstanding requests in closed-loop mode (QD).
    pub queue_depth: u32,
    /// Open loop: request arrival rate per second (evenly spaced).
    pub arrival_iops: f64,
    /// Host link bandwidth cap in MB/s (SATA 6 Gb/s ≈ 550; NVMe PCIe 3 x4 ≈ 3500).
    pub link_mb_s: f64,
    /// Controller overhead per request in microseconds.
    pub command_overhead_us: f64,
    /// Every write is write-through (FUA / sync): it completes only once on NAND, unless the
    /// buffer is power-loss protected.
    pub write_through: bool,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            mode: HostMode::Closed,
            queue_depth: 32,
            arrival_iops: 10_000.0,
            link_mb_s: 550.0,
            command_overhead_us: 2.0,
            write_through: false,
        }
    }
}

/// The NAND array: channels × dies, per-operation latencies.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct NandConfig {
    pub channels: u32,
    pub dies_per_channel: u32,
    /// Bytes programmed by one program operation on one die (all planes together).
    pub flash_page_bytes: u32,
    /// Page read time tR in microseconds.
    pub read_us: f64,
    /// Page program time tPROG in microseconds (TLC/MLC mode).
    pub program_us: f64,
    /// Block erase time tBERS in microseconds.
    pub erase_us: f64,
    /// Bytes of one erase block on one die (all planes). An FTL block is striped over the dies
    /// like a superblock; each die is charged tBERS × (its share of the FTL block / this).
    pub die_block_bytes: u64,
    /// Channel transfer rate in MB/s.
    pub channel_mb_s: f64,
}

impl Default for NandConfig {
    fn default() -> Self {
        NandConfig {
            channels: 4,
            dies_per_channel: 2,
            flash_page_bytes: 16_384,
            read_us: 60.0,
            program_us: 700.0,
            erase_us: 3_500.0,
            die_block_bytes: 24 << 20,
            channel_mb_s: 800.0,
        }
    }
}

/// The DRAM write buffer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct BufferConfig {
    /// Write-buffer size in bytes (0: no buffer, every write waits for NAND).
    pub bytes: u64,
    /// Power-loss protection: write-through requests may complete from the buffer.
    pub power_loss_protected: bool,
}

impl Default for BufferConfig {
    fn default() -> Self {
        BufferConfig {
            bytes: 64 << 20,
            power_loss_protected: false,
        }
    }
}

/// A dynamic SLC write cache: free space programmed one bit per cell.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SlcConfig {
    pub enabled: bool,
    /// Largest SLC cache in bytes of user data; it also never exceeds a third of the free space.
    pub max_bytes: u64,
    /// SLC-mode page program time in microseconds.
    pub program_us: f64,
    /// SLC-mode page read time (when folding) in microseconds.
    pub read_us: f64,
}

impl Default for SlcConfig {
    fn default() -> Self {
        SlcConfig {
            enabled: false,
            max_bytes: 0,
            program_us: 200.0,
            read_us: 30.0,
        }
    }
}

impl TimingConfig {
    pub fn dies(&self) -> u32 {
        self.nand.channels * self.nand.dies_per_channel
    }

    fn validate(&self, g: &Geometry) -> Result<()> {
        if !self.enabled {
            return Ok(());
        }
        let n = &self.nand;
        let pos = |field: &str, v: f64| -> Result<()> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(Error::config(
                    field,
                    format!("must be a positive number, got {v}"),
                ))
            }
        };
        if n.channels == 0 {
            return Err(Error::config("timing.nand.channels", "must be at least 1"));
        }
        if n.dies_per_channel == 0 {
            return Err(Error::config(
                "timing.nand.dies_per_channel",
                "must be at least 1",
            ));
        }
        if n.flash_page_bytes == 0 || n.flash_page_bytes % g.page_size_bytes != 0 {
            return Err(Error::config(
                "timing.nand.flash_page_bytes",
                format!(
                    "must be a positive multiple of the mapping page ({} bytes), got {}",
                    g.page_size_bytes, n.flash_page_bytes
                ),
            ));
        }
        pos("timing.nand.read_us", n.read_us)?;
        pos("timing.nand.program_us", n.program_us)?;
        pos("timing.nand.erase_us", n.erase_us)?;
        if n.die_block_bytes < n.flash_page_bytes as u64 {
            return Err(Error::config(
                "timing.nand.die_block_bytes",
                "must hold at least one flash page",
            ));
        }
        pos("timing.nand.channel_mb_s", n.channel_mb_s)?;
        pos("timing.host.link_mb_s", self.host.link_mb_s)?;
        if !(self.host.command_overhead_us >= 0.0 && self.host.command_overhead_us.is_finite()) {
            return Err(Error::config(
                "timing.host.command_overhead_us",
                "must be 0 or more",
            ));
        }
        if self.host.queue_depth == 0 || self.host.queue_depth > 65_536 {
            return Err(Error::config(
                "timing.host.queue_depth",
                "must be 1 to 65536",
            ));
        }
        if self.host.mode == HostMode::Open {
            pos("timing.host.arrival_iops", self.host.arrival_iops)?;
        }
        pos("timing.interval_s", self.interval_s)?;
        pos(
            "timing.state_round_drive_writes",
            self.state_round_drive_writes,
        )?;
        if let Some(d) = self.duration_s {
            pos("timing.duration_s", d)?;
        }
        if self.slc.enabled {
            pos("timing.slc.program_us", self.slc.program_us)?;
            pos("timing.slc.read_us", self.slc.read_us)?;
            if self.slc.max_bytes == 0 {
                return Err(Error::config(
                    "timing.slc.max_bytes",
                    "an enabled SLC cache needs a size",
                ));
            }
        }
        Ok(())
    }
}

/// Parse a configuration from JSON text, naming the field of any error.
pub fn from_json(text: &str) -> Result<SimConfig> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| Error::Parse {
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
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

fn finite(field: &str, v: f64) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::config(
            field,
            format!("must be a finite number, got {v}"),
        ))
    }
}

fn percent(field: &str, v: f64, lo_exclusive: bool) -> Result<f64> {
    finite(field, v)?;
    let ok = if lo_exclusive {
        v > 0.0 && v <= 100.0
    } else {
        (0.0..=100.0).contains(&v)
    };
    if !ok {
        let lo = if lo_exclusive { "above 0" } else { "0" };
        return Err(Error::config(
            field,
            format!("must be {lo} to 100 percent, got {v}"),
        ));
    }
    Ok(v)
}

impl GeometryConfig {
    /// Resolve the capacities into a concrete geometry, or say which field is wrong.
    pub fn resolve(&self) -> Result<Geometry> {
        let page = self.page_size_bytes as u64;
        let ppb = self.pages_per_block as u64;
        if page == 0 || page % 512 != 0 {
            return Err(Error::config(
                "geometry.page_size_bytes",
                format!("must be a positive multiple of 512, got {page}"),
            ));
        }
        if ppb == 0 {
            return Err(Error::config(
                "geometry.pages_per_block",
                "must be at least 1, got 0",
            ));
        }
        if ppb > 65_536 {
            return Err(Error::config(
                "geometry.pages_per_block",
                format!("must be at most 65536, got {ppb}"),
            ));
        }
        let user_fields = [
            ("user_pages", self.user_pages.is_some()),
            ("user_bytes", self.user_bytes.is_some()),
            ("op_ratio", self.op_ratio.is_some()),
            ("extra_op_percent", self.extra_op_percent.is_some()),
        ];
        let given: Vec<&str> = user_fields.iter().filter(|f| f.1).map(|f| f.0).collect();
        if self.physical_blocks.is_some() && self.physical_bytes.is_some() {
            return Err(Error::config(
                "geometry.physical_blocks",
                "give physical_blocks or physical_bytes, not both",
            ));
        }
        if let Some(x) = self.extra_op_percent {
            finite("geometry.extra_op_percent", x)?;
            if !(0.0..100.0).contains(&x) {
                return Err(Error::config(
                    "geometry.extra_op_percent",
                    format!("must be at least 0 and below 100 percent, got {x}"),
                ));
            }
        }
        if let Some(r) = self.op_ratio {
            finite("geometry.op_ratio", r)?;
            if r <= 0.0 {
                return Err(Error::config(
                    "geometry.op_ratio",
                    format!(
                        "must be above 0 (a drive needs spare space to collect garbage), got {r}"
                    ),
                ));
            }
        }
        // Defaults for what is not stated: a 4 GiB (2²⁰ pages) user capacity and ρ = 0.28.
        let no_size = self.physical_blocks.is_none()
            && self.physical_bytes.is_none()
            && self.advertised_bytes.is_none();
        let mut given = given;
        let (mut user_pages_field, mut op_field) = (self.user_pages, self.op_ratio);
        if no_size {
            match given.as_slice() {
                [] => {
                    user_pages_field = Some(DEFAULT_USER_PAGES);
                    op_field = Some(DEFAULT_OP_RATIO);
                    given = vec!["user_pages", "op_ratio"];
                }
                ["op_ratio"] => {
                    user_pages_field = Some(DEFAULT_USER_PAGES);
                    given = vec!["user_pages", "op_ratio"];
                }
                ["user_pages"] | ["user_bytes"] => {
                    op_field = Some(DEFAULT_OP_RATIO);
                    given.push("op_ratio");
                }
                _ => {}
            }
        }
        let explicit_physical = self
            .physical_blocks
            .or(self.physical_bytes.map(|b| b / (page * ppb)));
        let user_explicit = user_pages_field.or(self.user_bytes.map(|b| b / page));

        let (blocks, user_pages): (u64, u64) =
            match (explicit_physical, given.as_slice()) {
                (Some(blocks), ["user_pages"] | ["user_bytes"]) => {
                    (blocks, user_explicit.unwrap_or(0))
                }
                (Some(blocks), ["op_ratio"]) => {
                    let t = blocks * ppb;
                    (
                        blocks,
                        (t as f64 / (1.0 + self.op_ratio.unwrap_or(0.0))).floor() as u64,
                    )
                }
                (Some(blocks), ["extra_op_percent"]) => {
                    let advertised = self
                        .advertised_bytes
                        .unwrap_or(((blocks * ppb * page) as f64 / GIB_PER_GB) as u64);
                    let x = self.extra_op_percent.unwrap_or(0.0) / 100.0;
                    (
                        blocks,
                        ((1.0 - x) * advertised as f64 / page as f64).floor() as u64,
                    )
                }
                (None, ["user_pages", "op_ratio"] | ["user_bytes", "op_ratio"]) => {
                    let u = user_explicit.unwrap_or(0);
                    let t = (u as f64 * (1.0 + op_field.unwrap_or(0.0))).round() as u64;
                    (t.div_ceil(ppb), u)
                }
                (None, ["extra_op_percent"]) => {
                    let advertised = self.advertised_bytes.ok_or_else(|| {
                        Error::config(
                            "geometry.advertised_bytes",
                            "extra_op_percent without a physical size needs advertised_bytes",
                        )
                    })?;
                    let physical = (advertised as f64 * GIB_PER_GB) as u64;
                    let x = self.extra_op_percent.unwrap_or(0.0) / 100.0;
                    (
                        physical / (page * ppb),
                        ((1.0 - x) * advertised as f64 / page as f64).floor() as u64,
                    )
                }
                (None, _) => {
                    return Err(Error::config(
                        "geometry",
                        "give the physical size (physical_blocks or physical_bytes) and one of \
                     user_pages, user_bytes, op_ratio, extra_op_percent; or user_pages/user_bytes \
                     with op_ratio; or advertised_bytes with extra_op_percent",
                    ))
                }
                (Some(_), _) => {
                    return Err(Error::config(
                        "geometry",
                        format!(
                        "give exactly one of user_pages, user_bytes, op_ratio, extra_op_percent \
                         with a physical size (got {})",
                        if given.is_empty() { "none".to_string() } else { given.join(", ") }
                    ),
                    ))
                }
            };
        if blocks == 0 {
            return Err(Error::config(
                "geometry.physical_blocks",
                "the drive has no blocks",
            ));
        }
        if user_pages == 0 {
            return Err(Error::config(
                "geometry.user_pages",
                "the user capacity is zero pages",
            ));
        }
        if blocks * ppb >= u32::MAX as u64 {
            return Err(Error::config(
                "geometry",
                format!(
                    "{} physical pages exceed the simulator's limit of {} (16 TiB of 4 KiB pages)",
                    blocks * ppb,
                    u32::MAX - 1
                ),
            ));
        }
        if user_pages >= blocks * ppb {
            return Err(Error::config(
                "geometry",
                format!(
                    "user capacity ({user_pages} pages) must be smaller than physical capacity \
                     ({} pages): there is no over-provisioning to collect garbage with",
                    blocks * ppb
                ),
            ));
        }
        Ok(Geometry {
            page_size_bytes: page as u32,
            pages_per_block: ppb as u32,
            blocks: blocks as u32,
            user_pages: user_pages as u32,
        })
    }
}

impl SimConfig {
    /// Validate every field; returns the resolved geometry.
    pub fn validate(&self) -> Result<Geometry> {
        let g = self.geometry.resolve()?;
        let f = &self.ftl;
        if f.gc_free_blocks == 0 {
            return Err(Error::config("ftl.gc_free_blocks", "must be at least 1"));
        }
        if f.policy == PolicyKind::DChoices && f.d_choices == 0 {
            return Err(Error::config("ftl.d_choices", "must be at least 1"));
        }
        let streams = self.stream_count()?;
        let frontiers = self.frontier_count(streams) as u64;
        let need = f.gc_free_blocks as u64 + frontiers + 1;
        if g.spare_blocks() < need {
            return Err(Error::config(
                "geometry",
                format!(
                    "OP too small to collect garbage: {} spare blocks (ρ = {:.4}), need at least \
                     {need} ({} GC trigger + {frontiers} open write frontiers + 1)",
                    g.spare_blocks(),
                    g.op_ratio(),
                    f.gc_free_blocks
                ),
            ));
        }
        if self.wear.static_threshold > 0 && self.wear.static_check_erases == 0 {
            return Err(Error::config(
                "wear.static_check_erases",
                "must be at least 1",
            ));
        }
        let w = &self.workload;
        percent("workload.span_percent", w.span_percent, true)?;
        percent("workload.read_percent", w.read_percent, false)?;
        percent("workload.trim_percent", w.trim_percent, false)?;
        if w.read_percent + w.trim_percent >= 100.0 {
            return Err(Error::config(
                "workload.read_percent",
                "read_percent + trim_percent must leave room for writes (below 100)",
            ));
        }
        if w.request_bytes == 0 {
            return Err(Error::config(
                "workload.request_bytes",
                "must be at least 1",
            ));
        }
        if let Some(s) = &w.bssplit {
            parse_bssplit(s).map_err(|e| Error::config("workload.bssplit", e))?;
        }
        let span_pages = self.span_pages(&g);
        if span_pages == 0 {
            return Err(Error::config(
                "workload.span_percent",
                "the span holds no whole page",
            ));
        }
        let max_req = self.request_sizes()?.iter().map(|s| s.0).max().unwrap_or(0);
        let max_pages = (max_req as u64).div_ceil(g.page_size_bytes as u64);
        if max_pages > span_pages {
            return Err(Error::config(
                "workload.request_bytes",
                format!(
                    "a request of {max_req} bytes does not fit in the span ({span_pages} pages)"
                ),
            ));
        }
        match w.pattern {
            Pattern::HotCold => {
                percent("workload.hot_access_percent", w.hot_access_percent, false)?;
                percent("workload.hot_space_percent", w.hot_space_percent, true)?;
                if w.hot_space_percent >= 100.0 {
                    return Err(Error::config(
                        "workload.hot_space_percent",
                        "must be below 100",
                    ));
                }
            }
            Pattern::Zoned => {
                if w.zones.is_empty() {
                    return Err(Error::config(
                        "workload.zones",
                        "a zoned workload needs zones",
                    ));
                }
                check_zones(&w.zones)?;
            }
            Pattern::Zipf => {
                finite("workload.zipf_theta", w.zipf_theta)?;
                if w.zipf_theta <= 0.0 {
                    return Err(Error::config("workload.zipf_theta", "must be above 0"));
                }
            }
            _ => {}
        }
        let r = &self.run;
        finite("run.drive_writes", r.drive_writes)?;
        finite("run.warmup_drive_writes", r.warmup_drive_writes)?;
        if r.drive_writes <= 0.0 {
            return Err(Error::config("run.drive_writes", "must be above 0"));
        }
        if r.warmup_drive_writes < 0.0 {
            return Err(Error::config(
                "run.warmup_drive_writes",
                "must be 0 or more",
            ));
        }
        if (r.drive_writes + r.warmup_drive_writes) * g.user_pages as f64 > 1e15 {
            return Err(Error::config(
                "run.drive_writes",
                "too many host writes to simulate",
            ));
        }
        finite("run.interval_percent", r.interval_percent)?;
        if r.interval_percent <= 0.0 {
            return Err(Error::config("run.interval_percent", "must be above 0"));
        }
        self.timing.validate(&g)?;
        Ok(g)
    }

    /// Pages in the accessed span (the first `span_percent` of user pages).
    pub fn span_pages(&self, g: &Geometry) -> u64 {
        ((g.user_pages as f64) * self.workload.span_percent / 100.0).floor() as u64
    }

    /// The zones in use, if the pattern has zones (hot/cold, zoned, JESD219).
    pub fn zones(&self) -> Option<Vec<Zone>> {
        let w = &self.workload;
        match w.pattern {
            Pattern::HotCold => Some(vec![
                Zone {
                    access_percent: w.hot_access_percent,
                    space_percent: w.hot_space_percent,
                },
                Zone {
                    access_percent: 100.0 - w.hot_access_percent,
                    space_percent: 100.0 - w.hot_space_percent,
                },
            ]),
            Pattern::Zoned => Some(w.zones.clone()),
            Pattern::Jesd219 => Some(JESD219_ZONES.to_vec()),
            _ => None,
        }
    }

    /// Request sizes in bytes with weights.
    pub fn request_sizes(&self) -> Result<Vec<(u32, f64)>> {
        let w = &self.workload;
        if let Some(s) = &w.bssplit {
            return parse_bssplit(s).map_err(|e| Error::config("workload.bssplit", e));
        }
        if w.pattern == Pattern::Jesd219 {
            return Ok(parse_bssplit(JESD219_BSSPLIT).expect("built-in bssplit parses"));
        }
        Ok(vec![(w.request_bytes, 100.0)])
    }

    /// Number of host write streams.
    pub fn stream_count(&self) -> Result<usize> {
        Ok(match self.ftl.host_streams {
            HostStreams::Single => 1,
            HostStreams::Workload => {
                let n = self.zones().map_or(1, |z| z.len());
                if n > 16 {
                    return Err(Error::config(
                        "ftl.host_streams",
                        format!("at most 16 streams, the workload has {n} zones"),
                    ));
                }
                n
            }
        })
    }

    /// Open write frontiers: one per host stream, plus one GC frontier per stream if separate.
    pub fn frontier_count(&self, streams: usize) -> usize {
        match self.ftl.gc_frontier {
            GcFrontier::Separate => 2 * streams,
            GcFrontier::Shared => streams,
        }
    }
}

fn check_zones(zones: &[Zone]) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        let g = SimConfig::default().validate().unwrap();
        assert_eq!(g.user_pages, 1 << 20);
        assert!((g.op_ratio() - 0.28).abs() < 1e-3);
    }

    #[test]
    fn unknown_field_and_variant_are_named() {
        let e = from_json(r#"{"ftl": {"polcy": "greedy"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ftl") && e.contains("polcy"), "{e}");
        let e = from_json(r#"{"ftl": {"policy": "smart"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("ftl.policy") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn bssplit_parses_jesd219() {
        let v = parse_bssplit(JESD219_BSSPLIT).unwrap();
        assert_eq!(v.len(), 12);
        assert_eq!(v[0], (512, 4.0));
        assert_eq!(v[11], (65536, 3.0));
        assert!((v.iter().map(|x| x.1).sum::<f64>() - 100.0).abs() < 1e-9);
        assert!(parse_bssplit("4k").is_err());
        assert!(parse_bssplit("4q/10").is_err());
    }

    #[test]
    fn extra_op_on_an_advertised_drive() {
        let mut c = SimConfig {
            geometry: GeometryConfig {
                user_pages: None,
                op_ratio: None,
                extra_op_percent: Some(0.0),
                advertised_bytes: Some(128_000_000_000),
                pages_per_block: 256,
                ..GeometryConfig::default()
            },
            ..SimConfig::default()
        };
        let g = c.validate().unwrap();
        // 0% extra OP leaves only the hidden 7.37% (less what rounds to whole blocks).
        assert!((g.op_ratio() - 0.0737).abs() < 0.001, "{}", g.op_ratio());
        c.geometry.extra_op_percent = Some(20.0);
        let g = c.validate().unwrap();
        assert!(
            (g.op_ratio() - (1.0737 / 0.8 - 1.0)).abs() < 0.001,
            "{}",
            g.op_ratio()
        );
    }
}
