//! FTL configuration: GC victim policy, trigger, write frontiers and wear levelling.

use serde::{Deserialize, Serialize};

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
