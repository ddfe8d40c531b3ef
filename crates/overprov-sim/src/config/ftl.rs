//! FTL configuration: GC victim policy, trigger, write frontiers and wear levelling.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

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
    /// Every policy, in the order `--help` lists them.
    pub const ALL: [PolicyKind; 5] = [
        PolicyKind::Greedy,
        PolicyKind::Fifo,
        PolicyKind::Random,
        PolicyKind::DChoices,
        PolicyKind::CostBenefit,
    ];

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

impl GcFrontier {
    pub const ALL: [GcFrontier; 2] = [GcFrontier::Separate, GcFrontier::Shared];
}

/// When garbage collection runs (`ftl.gc_trigger`; the timing layer's `timing.gc.trigger` is
/// another thing: which GC domain a collection's time is booked on).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CollectionTrigger {
    /// When a host write fills its frontier's block and the free pool holds `gc_free_blocks`
    /// or fewer: victims back to back until the pool is above it (the default).
    #[default]
    Batched,
    /// After each host page write that leaves `gc_free_blocks` blocks' worth of free pages or
    /// fewer (the free pool's pages and the open frontier blocks' unwritten pages, as SSDsim's
    /// plane `free_page` counts them): one victim, its valid pages written through its GC
    /// frontier (with `gc_frontier = "shared"` the host's own, so survivors and host pages
    /// interleave, as SSDsim's pagemap.c `get_ppn()` queues one `uninterrupt_gc()` per write
    /// under its threshold). Should a host frontier need a block while the pool holds one or
    /// none, victims are collected back to back until a block stays free after it opens.
    PerWrite,
}

impl CollectionTrigger {
    pub const ALL: [CollectionTrigger; 2] =
        [CollectionTrigger::Batched, CollectionTrigger::PerWrite];
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

impl HostStreams {
    pub const ALL: [HostStreams; 2] = [HostStreams::Single, HostStreams::Workload];
}

/// Flash translation layer behaviour.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FtlConfig {
    /// Victim policy: greedy, fifo, random, d-choices, cost-benefit.
    pub policy: PolicyKind,
    /// Sample size d for `d-choices`.
    pub d_choices: u32,
    /// GC runs when the free pool has this many blocks or fewer (≥ 1). With a victim floor
    /// (`gc_victim_min_invalid_fraction`) it is a reserve the collector holds free while its
    /// victims qualify, and may exceed the spare blocks.
    pub gc_free_blocks: u32,
    /// The victim floor: GC collects a victim only when at least this share of its pages is
    /// invalid (in (0, 1]; FEMU's black-box SSD: 1/8), unless the free pool has
    /// `gc_forced_free_blocks` or fewer. None (the default): every victim qualifies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_victim_min_invalid_fraction: Option<f64>,
    /// With a victim floor: at this many free blocks or fewer GC takes the policy's victim
    /// whatever it holds (FEMU's `gc_thres_lines_high`); required with the floor, below
    /// `gc_free_blocks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_forced_free_blocks: Option<u32>,
    /// Collect to a low mark (WiscSim's `GC_low_threshold_ratio`, wiscsim/dftldes.py
    /// `Cleaner.is_stopping_needed`): once the free pool at a host block's opening holds
    /// `gc_free_blocks` or fewer, victims are collected until it holds more than this share of
    /// the drive's blocks (in (0, 1), rounded down to blocks), not just more than
    /// `gc_free_blocks`. None (the default): until it holds more than `gc_free_blocks`. Only
    /// with the batched trigger and one pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_until_free_fraction: Option<f64>,
    /// Where relocated pages go: `separate` or `shared`.
    pub gc_frontier: GcFrontier,
    /// Host write streams: `single` or `workload`.
    pub host_streams: HostStreams,
    /// When GC runs: `batched` (the default) or `per-write` (see [`CollectionTrigger`]).
    #[serde(skip_serializing_if = "super::is_default")]
    pub gc_trigger: CollectionTrigger,
    /// MQSim's per-plane free-block pools (`ftl/plane_pools.rs`): 0 (the default) one pool,
    /// host frontier and GC frontier for the drive; N (2..=16) pools, block `b` in pool
    /// `b % N`, each with its own free blocks, host and GC frontiers, a host page in pool
    /// `lpn % N`, and victims chosen within the pool whose host frontier needs a block until
    /// it holds more than `gc_free_blocks / N` free blocks.
    #[serde(skip_serializing_if = "super::is_default")]
    pub plane_pools: u32,
    /// With plane pools: a check whose sampled victim has no invalid page starts no collection
    /// (MQSim's RGA, `GC_and_WL_Unit_Page_Level.cpp` l. 79–84 and 142–145): the pool's host
    /// frontier takes its block and the pool collects at its next check. A pool with fewer than
    /// two free blocks collects whatever it samples. False (the default): it collects the
    /// victim anyway, and samples again while at its trigger.
    #[serde(skip_serializing_if = "super::is_default")]
    pub gc_skip_full_victim: bool,
    /// WiscSim's free pool per channel (`ftl/channel_pools.rs`): 0 (the default) one pool;
    /// N (2..=64) channels, each with its own free blocks (contiguous block numbers, the lowest
    /// taken first) and one open block that host and GC pages share, pages round-robin over
    /// the channels one at a time (a channel whose open block is full and whose pool is dry is
    /// skipped), greedy victims over all channels (ties to the lowest-numbered block), and the
    /// trigger checked after each host page over all the pools together. Needs `policy =
    /// "greedy"`, `gc_frontier = "shared"`, the batched trigger, one host stream, no dynamic
    /// wear levelling.
    #[serde(skip_serializing_if = "super::is_default")]
    pub channel_pools: u32,
    /// WiscSim's batch stop: once triggered, GC checks its stop (the low mark, or the trigger
    /// without one) only between batches of this many victims (WiscSim: 2 × channels), not
    /// before each victim. 0 (the default): before each victim. Only with the batched trigger
    /// and without plane pools.
    #[serde(skip_serializing_if = "super::is_default")]
    pub gc_batch_victims: u32,
}

impl Default for FtlConfig {
    fn default() -> Self {
        FtlConfig {
            policy: PolicyKind::Greedy,
            d_choices: 8,
            gc_free_blocks: 2,
            gc_victim_min_invalid_fraction: None,
            gc_forced_free_blocks: None,
            gc_until_free_fraction: None,
            gc_frontier: GcFrontier::Separate,
            host_streams: HostStreams::Single,
            gc_trigger: CollectionTrigger::Batched,
            plane_pools: 0,
            gc_skip_full_victim: false,
            channel_pools: 0,
            gc_batch_victims: 0,
        }
    }
}

impl FtlConfig {
    /// The victim floor's forced-collection count, checked: None without a floor; an error
    /// naming the field when the floor and the forced count do not come together, the floor is
    /// outside (0, 1] or the forced count is not below `gc_free_blocks`.
    pub(crate) fn validate_victim_floor(&self) -> Result<Option<u32>> {
        match (
            self.gc_victim_min_invalid_fraction,
            self.gc_forced_free_blocks,
        ) {
            (None, None) => Ok(None),
            (Some(_), None) => Err(Error::config(
                "ftl.gc_forced_free_blocks",
                "required with ftl.gc_victim_min_invalid_fraction (the free blocks at which GC \
                 takes any victim)",
            )),
            (None, Some(_)) => Err(Error::config(
                "ftl.gc_forced_free_blocks",
                "only with ftl.gc_victim_min_invalid_fraction (a victim floor it overrides)",
            )),
            (Some(fraction), Some(forced)) => {
                if !(fraction > 0.0 && fraction <= 1.0) {
                    return Err(Error::config(
                        "ftl.gc_victim_min_invalid_fraction",
                        format!("must be above 0 and at most 1, got {fraction}"),
                    ));
                }
                if forced == 0 || forced >= self.gc_free_blocks {
                    return Err(Error::config(
                        "ftl.gc_forced_free_blocks",
                        format!(
                            "must be at least 1 and below ftl.gc_free_blocks ({}), got {forced}",
                            self.gc_free_blocks
                        ),
                    ));
                }
                Ok(Some(forced))
            }
        }
    }

    /// The per-write trigger, checked: an error naming the field when it comes with a victim
    /// floor (FEMU's collector, which leaves a victim where it is and holds a reserve: not the
    /// one-victim-per-write collector of SSDsim) or with `timing.gc.trigger = "writer"` (which
    /// books a collection on the host write after it, the one whose block opening started it;
    /// a per-write collection follows the write that started it). `writer_timing`: that
    /// timing trigger is set.
    pub(crate) fn validate_trigger(&self, writer_timing: bool) -> Result<()> {
        if self.gc_trigger == CollectionTrigger::Batched {
            return Ok(());
        }
        if self.gc_victim_min_invalid_fraction.is_some() {
            return Err(Error::config(
                "ftl.gc_trigger",
                "per-write collects one victim per host write; the victim floor \
                 (ftl.gc_victim_min_invalid_fraction) is only for the batched trigger",
            ));
        }
        if writer_timing {
            return Err(Error::config(
                "ftl.gc_trigger",
                "per-write collects after the host write that started it; timing.gc.trigger = \
                 \"writer\" books a collection on the host write after it: use \"victim\"",
            ));
        }
        Ok(())
    }

    /// The low mark in blocks of a drive of `blocks` (`gc_free_blocks` without one), checked:
    /// an error naming the field when the share is outside (0, 1), its blocks are not above
    /// `gc_free_blocks`, or it comes with the per-write trigger or per-plane pools.
    pub fn until_free_blocks(&self, blocks: u32) -> Result<u32> {
        let Some(fraction) = self.gc_until_free_fraction else {
            return Ok(self.gc_free_blocks);
        };
        let field = "ftl.gc_until_free_fraction";
        if !(fraction > 0.0 && fraction < 1.0) {
            return Err(Error::config(
                field,
                format!("must be above 0 and below 1, got {fraction}"),
            ));
        }
        if self.gc_trigger != CollectionTrigger::Batched || self.plane_pools >= 2 {
            return Err(Error::config(
                field,
                "only with the batched trigger and one free pool (ftl.gc_trigger = \"batched\", \
                 ftl.plane_pools = 0)",
            ));
        }
        let until = (fraction * blocks as f64).floor() as u32;
        if until <= self.gc_free_blocks {
            return Err(Error::config(
                field,
                format!(
                    "{fraction} of {blocks} blocks is {until}, not above ftl.gc_free_blocks ({})",
                    self.gc_free_blocks
                ),
            ));
        }
        Ok(until)
    }

    /// Per-plane pools, checked (`plane_pools` ≥ 2): at most 16 pools; a d-choices or random
    /// victim (sampled within the pool), the batched trigger without a victim floor, one host
    /// stream without placement, the victim's plane collecting (`writer_timing`: the timing's
    /// writer trigger is set) and, per pool, its trigger's share of `gc_free_blocks` plus its two
    /// frontiers and one block among `spare_blocks`.
    pub(crate) fn validate_plane_pools(
        &self,
        spare_blocks: u64,
        one_stream: bool,
        writer_timing: bool,
    ) -> Result<()> {
        let n = self.plane_pools;
        if self.gc_skip_full_victim && n < 2 {
            return Err(Error::config(
                "ftl.gc_skip_full_victim",
                "only with per-plane pools (ftl.plane_pools ≥ 2: the check of a pool's victim)",
            ));
        }
        if n < 2 {
            return match n {
                0 => Ok(()),
                _ => Err(Error::config("ftl.plane_pools", "0 (off) or at least 2")),
            };
        }
        let why = if n > 16 {
            "at most 16 pools"
        } else if !matches!(self.policy, PolicyKind::DChoices | PolicyKind::Random) {
            "needs ftl.policy = \"d-choices\" or \"random\" (victims sampled within a pool)"
        } else if self.gc_trigger != CollectionTrigger::Batched
            || self.gc_victim_min_invalid_fraction.is_some()
        {
            "needs the batched trigger without a victim floor"
        } else if !one_stream {
            "needs one host stream and no placement (the pools are the frontiers' streams)"
        } else if writer_timing {
            "needs timing.gc.trigger = \"victim\" (the pool that ran low collects)"
        } else {
            let per = (self.gc_free_blocks / n).max(1) as u64 + 3;
            if spare_blocks >= per * n as u64 {
                return Ok(());
            }
            "OP too small: each pool needs its trigger's blocks, two frontiers and one more"
        };
        Err(Error::config("ftl.plane_pools", why))
    }

    /// Channel pools and the batch stop, checked: an error naming the field when channel pools
    /// number 1 or more than 64, come with plane pools, a policy other than greedy, dynamic wear
    /// levelling, the per-write trigger, a victim floor,
    /// separate GC frontiers, more than one host stream or placement (`one_stream` false), or
    /// the timing's writer trigger; or when the batch stop comes with the per-write trigger or
    /// plane pools.
    pub(crate) fn validate_channel_pools(
        &self,
        one_stream: bool,
        writer_timing: bool,
        dynamic_wear: bool,
    ) -> Result<()> {
        if self.gc_batch_victims > 0
            && (self.gc_trigger != CollectionTrigger::Batched || self.plane_pools >= 2)
        {
            return Err(Error::config(
                "ftl.gc_batch_victims",
                "only with the batched trigger and without ftl.plane_pools",
            ));
        }
        let n = self.channel_pools;
        let why = match n {
            0 => return Ok(()),
            1 => "0 (off) or at least 2 channels",
            65.. => "at most 64 channels",
            _ if self.plane_pools >= 2 => "not with ftl.plane_pools (one kind of pool)",
            _ if self.policy != PolicyKind::Greedy => {
                "needs ftl.policy = \"greedy\" (WiscSim's victims, ties to the lowest block)"
            }
            _ if dynamic_wear => "not with wear.dynamic (a channel takes its lowest free block)",
            _ if self.gc_trigger != CollectionTrigger::Batched => {
                "needs the batched trigger (checked after each host page over all the pools)"
            }
            _ if self.gc_victim_min_invalid_fraction.is_some() => "not with a victim floor",
            _ if self.gc_frontier != GcFrontier::Shared => {
                "needs ftl.gc_frontier = \"shared\" (a channel's one open block takes host and \
                 GC pages)"
            }
            _ if !one_stream => "needs one host stream and no placement",
            _ if writer_timing => "needs timing.gc.trigger = \"victim\"",
            _ => return Ok(()),
        };
        Err(Error::config("ftl.channel_pools", why))
    }

    /// The victim floor in invalid pages of a block of `pages_per_block` (0: no floor):
    /// FEMU's `pgs_per_line / 8` for a fraction of 1/8.
    pub fn victim_min_invalid_pages(&self, pages_per_block: u32) -> u32 {
        self.gc_victim_min_invalid_fraction
            .map_or(0, |f| (f * pages_per_block as f64).ceil() as u32)
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
