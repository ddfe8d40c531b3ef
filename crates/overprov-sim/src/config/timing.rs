//! Timing configuration: host interface, NAND array, write buffer and SLC cache.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::geometry::Geometry;

use super::{ArrayConfig, GcBlocking, GcTimingConfig, GcTrigger};

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
    pub controller: ControllerConfig,
    pub flush: FlushConfig,
    /// How a garbage collection occupies the NAND: spread over every die between host writes
    /// (the default), or as one job that blocks its GC domain's host writes.
    pub gc: GcTimingConfig,
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
            controller: ControllerConfig::default(),
            flush: FlushConfig::default(),
            gc: GcTimingConfig::default(),
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
    /// How transfers are booked on the host link (timing/link.rs): `in-order` (the default),
    /// one timeline for both directions in request order; `gaps`, one per direction (full
    /// duplex), each transfer in the earliest gap at or after its data is ready.
    #[serde(skip_serializing_if = "super::is_default")]
    pub link_booking: LinkBooking,
    /// Controller overhead per request in microseconds.
    pub command_overhead_us: f64,
    /// Every write is write-through (FUA / sync): it completes only once on NAND, unless the
    /// buffer is power-loss protected.
    pub write_through: bool,
    /// Closed-loop jobs, each with its own random stream and `queue_depth` requests
    /// outstanding (fio's numjobs × iodepth). Default 1.
    pub numjobs: u32,
    /// An array of identical drives (md RAID-0, 1 or 10); default none: one drive.
    pub array: ArrayConfig,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            mode: HostMode::Closed,
            queue_depth: 32,
            arrival_iops: 10_000.0,
            link_mb_s: 550.0,
            link_booking: LinkBooking::InOrder,
            command_overhead_us: 2.0,
            write_through: false,
            numjobs: 1,
            array: ArrayConfig::default(),
        }
    }
}

/// How the host link books its transfers (`HostConfig::link_booking`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LinkBooking {
    /// One busy-until time for both directions, booked in request order.
    #[default]
    InOrder,
    /// One timeline per direction, each transfer in the earliest gap at or after it is ready.
    Gaps,
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
    /// Planes per die for multi-plane host programs (timing/multiplane.rs): a die programs
    /// up to this many waiting host units in one program time. 1 (the default): one at a time.
    #[serde(skip_serializing_if = "is_one")]
    pub planes_per_die: u32,
    /// How a program occupies its die (timing/program.rs): `unit` (the default) charges each
    /// mapping unit its share of tPROG as it is booked, so a read can come between the units
    /// of a page; `page` gathers a die's units until a flash page (an SLC page in SLC mode) is
    /// full and keeps the die busy one whole tPROG, reads to it waiting (no program suspend).
    #[serde(skip_serializing_if = "super::is_default")]
    pub program_granularity: ProgramGranularity,
}

/// The die time of a program: per mapping unit, or one whole page (`NandConfig`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ProgramGranularity {
    /// Each unit costs tPROG / units per page when booked (die time exact, the moment within
    /// the page not): as if the die suspended its program for reads.
    #[default]
    Unit,
    /// Units gathered per die until a page is full, then one whole tPROG; reads wait for it.
    Page,
}

fn is_one(v: &u32) -> bool {
    *v == 1
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
            planes_per_die: 1,
            program_granularity: ProgramGranularity::Unit,
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

/// An SLC write cache: free space programmed one bit per cell (the dynamic part), optionally
/// with a static (default) region kept whatever the free space (`timing/slc.rs`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SlcConfig {
    pub enabled: bool,
    /// Largest SLC cache in bytes of user data, the static region included; the dynamic part
    /// (`max_bytes - static_bytes`) never exceeds a third of the free space it draws on.
    pub max_bytes: u64,
    /// The static (default) region in bytes of user data, kept whatever the free space
    /// (Samsung's default TurboWrite region). Default 0: the cache is dynamic only.
    #[serde(skip_serializing_if = "super::is_default")]
    pub static_bytes: u64,
    /// What the dynamic part draws on: the FTL's free space (`free`, the default) or only the
    /// user capacity not written (`unwritten`: free space beyond the native spare, so the
    /// dynamic part vanishes on a full drive, as Samsung's Intelligent TurboWrite region does).
    #[serde(skip_serializing_if = "super::is_default")]
    pub dynamic_space: SlcDynamicSpace,
    /// SLC-mode page program time in microseconds.
    pub program_us: f64,
    /// SLC-mode page read time (when folding) in microseconds.
    pub read_us: f64,
}

/// The space the SLC cache's dynamic part is limited by (a third of it).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SlcDynamicSpace {
    /// The FTL's free blocks (the native spare included).
    #[default]
    Free,
    /// The free blocks beyond the native spare: the user capacity not yet written.
    Unwritten,
}

impl Default for SlcConfig {
    fn default() -> Self {
        SlcConfig {
            enabled: false,
            max_bytes: 0,
            static_bytes: 0,
            dynamic_space: SlcDynamicSpace::Free,
            program_us: 200.0,
            read_us: 30.0,
        }
    }
}

/// The controller as a resource: every command holds one of `contexts` processing contexts
/// (firmware cores or hardware command queues) for `command_us` + `data_us_per_4kib` per 4 KiB
/// moved + `map_update_us` per mapping-table entry it changes (its own pages and the pages
/// foreground GC relocates for it). A drive then saturates at
/// `contexts / (per-command time)` IOPS however much OP it has, and the time shows in latency.
///
/// Defaults are all zero (the controller is never the bottleneck): a configuration that does
/// not describe its controller keeps the NAND-bound model; drive files set them (fitted or from
/// a datasheet's IOPS ceiling, see docs/drives/README.md).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ControllerConfig {
    /// Commands processed at once (cores × queues). Default 1.
    pub contexts: u32,
    /// Processing time per command in microseconds. Default 0.
    pub command_us: f64,
    /// Processing time per 4 KiB of data moved, in microseconds. Default 0.
    pub data_us_per_4kib: f64,
    /// Time per FTL mapping update (a host page written or a page relocated by foreground GC),
    /// in microseconds. Default 0.
    pub map_update_us: f64,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        ControllerConfig {
            contexts: 1,
            command_us: 0.0,
            data_us_per_4kib: 0.0,
            map_update_us: 0.0,
        }
    }
}

/// Flush / FUA on a drive without power-loss protection (`buffer.power_loss_protected =
/// false`) and with `host.write_through` set (FUA, O_SYNC, or the write cache turned off): the
/// write's data is programmed on its own flash pages (a partial page padded: a whole program
/// time), then `metadata_flash_pages` pages of mapping/journal metadata are programmed one
/// after another on one die, and only then does the write complete. Flushes serialise: the next
/// one starts when the previous has finished. With power-loss protection a flush completes from
/// the buffer and none of this applies.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FlushConfig {
    /// Flash pages of mapping table and journal persisted per flush. Default 2: one page of
    /// the dirty mapping segment and one journal commit record, the least a page-mapped FTL
    /// must make durable for a random write (Gupta et al., "DFTL", ASPLOS 2009, on persisting
    /// mapping pages).
    pub metadata_flash_pages: u32,
}

impl Default for FlushConfig {
    fn default() -> Self {
        FlushConfig {
            metadata_flash_pages: 2,
        }
    }
}

impl TimingConfig {
    pub fn dies(&self) -> u32 {
        self.nand.channels * self.nand.dies_per_channel
    }

    /// Whole-page programs gather host data in the write buffer: it must hold an open page
    /// per die in TLC and in SLC mode; multi-plane batches are a different gathering.
    fn validate_whole_pages(&self) -> Result<()> {
        let field = "timing.nand.program_granularity";
        if self.nand.planes_per_die > 1 {
            return Err(Error::config(
                field,
                "\"page\" cannot be combined with timing.nand.planes_per_die above 1",
            ));
        }
        let need = 2 * self.dies() as u64 * self.nand.flash_page_bytes as u64;
        if self.buffer.bytes < need {
            return Err(Error::config(
                field,
                format!(
                    "\"page\" gathers host writes in the write buffer: timing.buffer.bytes \
                     must hold two flash pages per die ({need} bytes), got {}",
                    self.buffer.bytes
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn validate(&self, g: &Geometry) -> Result<()> {
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
        if n.planes_per_die == 0 || n.planes_per_die > 16 {
            return Err(Error::config(
                "timing.nand.planes_per_die",
                format!("must be 1 to 16, got {}", n.planes_per_die),
            ));
        }
        if n.program_granularity == ProgramGranularity::Page {
            self.validate_whole_pages()?;
        }
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
        let c = &self.controller;
        if c.contexts == 0 || c.contexts > 1024 {
            return Err(Error::config(
                "timing.controller.contexts",
                "must be 1 to 1024",
            ));
        }
        for (field, v) in [
            ("timing.controller.command_us", c.command_us),
            ("timing.controller.data_us_per_4kib", c.data_us_per_4kib),
            ("timing.controller.map_update_us", c.map_update_us),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(field, format!("must be 0 or more, got {v}")));
            }
        }
        if self.gc.multiplane && self.gc.blocking != GcBlocking::Domain {
            return Err(Error::config(
                "timing.gc.multiplane",
                "needs timing.gc.blocking = \"domain\" (collections as jobs whose programs \
                 others can join)",
            ));
        }
        if self.gc.trigger != GcTrigger::Victim && self.gc.blocking != GcBlocking::Domain {
            return Err(Error::config(
                "timing.gc.trigger",
                "needs timing.gc.blocking = \"domain\" (collections run as jobs on a domain)",
            ));
        }
        if self.gc.multiplane_offsets > 0 {
            let field = "timing.gc.multiplane_offsets";
            if !self.gc.multiplane {
                return Err(Error::config(field, "needs timing.gc.multiplane = true"));
            }
            if self.gc.multiplane_offsets > 65_536 {
                return Err(Error::config(field, "must be 0 (any free plane) to 65536"));
            }
            if self.buffer.bytes > 0
                || (self.host.write_through && !self.buffer.power_loss_protected)
            {
                return Err(Error::config(
                    field,
                    "needs host writes that wait for their program (timing.buffer.bytes = 0, \
                     no write-through flushes)",
                ));
            }
        }
        if self.gc.erase_hold && self.gc.multiplane_offsets == 0 {
            return Err(Error::config(
                "timing.gc.erase_hold",
                "needs timing.gc.multiplane_offsets above 0 (with any free plane a collection \
                 already closes the die's host batches)",
            ));
        }
        if self.gc.relocations_at_trigger && self.gc.multiplane_offsets == 0 {
            return Err(Error::config(
                "timing.gc.relocations_at_trigger",
                "needs timing.gc.multiplane_offsets above 0 (the page-offset rule the \
                 relocations pair by)",
            ));
        }
        if self.gc.collections_first
            && (!self.gc.relocations_at_trigger
                || self.nand.channels * self.nand.dies_per_channel != 1
                || self.host.mode != HostMode::Closed)
        {
            return Err(Error::config(
                "timing.gc.collections_first",
                "needs timing.gc.relocations_at_trigger, one die (channels × dies_per_channel = \
                 1: a completion moved back is found by its time) and host.mode = \"closed\"",
            ));
        }
        if self.gc.collections_in_flight > 0 {
            let field = "timing.gc.collections_in_flight";
            if self.gc.blocking != GcBlocking::Domain {
                return Err(Error::config(
                    field,
                    "needs timing.gc.blocking = \"domain\" (collections run as jobs on a domain)",
                ));
            }
            if self.gc.collections_in_flight > 1024 {
                return Err(Error::config(field, "must be 0 (off) to 1024"));
            }
        }
        if self.gc.lockstep_figures && self.gc.blocking != GcBlocking::Domain {
            return Err(Error::config(
                "timing.gc.lockstep_figures",
                "needs timing.gc.blocking = \"domain\" (the figures are its collections')",
            ));
        }
        if self.gc.paired_reads && self.gc.multiplane_offsets == 0 {
            return Err(Error::config(
                "timing.gc.paired_reads",
                "needs timing.gc.multiplane_offsets above 0 (the page-offset rule the \
                 relocations pair by)",
            ));
        }
        if self.gc.domains > 65_536 {
            return Err(Error::config(
                "timing.gc.domains",
                "must be 0 (one per die) to 65536",
            ));
        }
        if self.flush.metadata_flash_pages > 1024 {
            return Err(Error::config(
                "timing.flush.metadata_flash_pages",
                "must be at most 1024",
            ));
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
            if self.slc.static_bytes > self.slc.max_bytes {
                return Err(Error::config(
                    "timing.slc.static_bytes",
                    format!(
                        "the static region ({} bytes) must fit in the cache (max_bytes {})",
                        self.slc.static_bytes, self.slc.max_bytes
                    ),
                ));
            }
        }
        Ok(())
    }
}
