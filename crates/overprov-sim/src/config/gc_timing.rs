//! Garbage collection's timing (`[timing.gc]`): whether a collection blocks its GC domain, the
//! domains, MQSim's multi-plane and page-offset rules, and the order a collection takes on its
//! die. Part of `[timing]` (config/timing.rs).

use serde::{Deserialize, Serialize};

/// Whether a garbage collection blocks host writes to its GC domain.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GcBlocking {
    /// GC operations are booked on the dies they touch, each as soon as its die is free; host
    /// writes queue behind them operation by operation (the default).
    None,
    /// Non-preemptive GC per domain: a collection (its relocations' reads and programs and its
    /// erase) runs as one job on one GC domain, and a host write whose page lands on that domain
    /// is not accepted until the job has finished (MQSim's non-preemptive GC, Tavakkol et al.,
    /// "MQSim", FAST 2018). Queue slots held by blocked writes make IOPS depend on queue depth.
    Domain,
}

/// Which GC domain runs a collection the FTL starts (`[timing.gc] trigger`).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GcTrigger {
    /// The victim block's domain (`block % domains`): the collections one trigger starts are
    /// spread over the domains (the default).
    #[default]
    Victim,
    /// The domain of the host unit whose placement started it (its flash page `% domains`, or
    /// its slot with `multiplane_offsets`): the collections one trigger starts stay on the
    /// triggering write's domain, as MQSim's `Check_gc_required` collects on the plane whose
    /// frontier block a write filled.
    Writer,
}

impl GcTrigger {
    fn is_victim(&self) -> bool {
        *self == GcTrigger::Victim
    }
}

/// Garbage collection's timing (`[timing.gc]`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GcTimingConfig {
    pub blocking: GcBlocking,
    /// GC domains: units that collect one victim at a time on their own (0: one per die; more
    /// than the dies: planes; fewer: groups of dies whose collections run one after another).
    /// Host pages map to domains flash page by flash page (`flash page % domains`); a domain's
    /// jobs run on its dies in turn (die `domain + k·domains`, or `domain % dies`).
    pub domains: u32,
    /// With `blocking = "domain"` and `timing.nand.planes_per_die` above 1: a collection's
    /// relocation programs take other units on the die's free planes — host units of other
    /// domains and relocations of other collections (timing/gc_planes.rs, MQSim's multi-plane
    /// commands). Off (the default): only waiting host units combine.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub multiplane: bool,
    /// With `multiplane`: 0 (the default) lets a unit take any free plane of a program; N > 0
    /// applies MQSim's page-offset rule (timing/gc_planes.rs): host units are placed on a die
    /// and plane by address, each plane's host units and relocations take the next of N page
    /// offsets on counters of their own, and a unit joins a program only at its own offset.
    #[serde(skip_serializing_if = "is_zero")]
    pub multiplane_offsets: u32,
    /// With `blocking = "domain"`: which domain runs a collection (`"victim"`, the default, or
    /// `"writer"`: the triggering host unit's).
    #[serde(skip_serializing_if = "GcTrigger::is_victim")]
    pub trigger: GcTrigger,
    /// With `multiplane_offsets` above 0: MQSim's erase hold (timing/erase_hold.rs) — from a
    /// collection's booking until its erase starts, a host-only program on its die takes no
    /// more host units (they join GC programs or wait). Off (the default): they join any.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub erase_hold: bool,
    /// With `multiplane_offsets` above 0: a collection's relocations are queued at its
    /// trigger (timing/gc_jobs.rs), as MQSim submits a collection's reads at once
    /// (`GC_and_WL_Unit_Page_Level::Check_gc_required`): each may join a program booked on its
    /// die and not yet started at its offset from the trigger on, so the planes' concurrent
    /// collections pair as the die frees. Off (the default): from the end of the domain's
    /// previous collection.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub relocations_at_trigger: bool,
    /// With `relocations_at_trigger`, one die and a closed loop: MQSim's die order
    /// (timing/gc_first.rs) — a collection runs ahead of the host programs booked on its die and
    /// not started at its trigger (MQSim serves GC reads, then GC writes with host writes only
    /// as their partners, `TSU_Priority_OutOfOrder`), those programs and their completions moved
    /// back by its die time, a relocation that pairs with one taking it into the collection.
    /// Off (the default): a collection is booked behind them, in request order.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub collections_first: bool,
    /// With `blocking = "domain"`: N ≥ 1 — a domain has at most N collections in flight, one
    /// triggered while N are is held until the earliest of them ends, and the domain refuses
    /// no host write (timing/gc_in_flight.rs), as MQSim keeps up to
    /// `max_ongoing_gc_reqs_per_plane` (10) collections a plane in flight and refuses none of
    /// its host writes. 0 (the default): every collection booked at its trigger, host writes
    /// refused until the domain's collections have ended.
    #[serde(skip_serializing_if = "is_zero")]
    pub collections_in_flight: u32,
    /// With `multiplane_offsets` above 0: a relocation that joins another collection's
    /// relocation program at its offset shares its read as well (a multi-plane read: MQSim
    /// pairs GC reads of the two planes at one page offset, timing/gc_jobs.rs). Off (the
    /// default): it costs the die its read and transfers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paired_reads: bool,
    /// Figures only (nothing booked changes): with `blocking = "domain"` the report's
    /// `gc_blocked` adds each domain's collections' time in flight and trigger count, and with
    /// `multiplane_offsets` the programs by what they hold (timing/gc_blocked.rs). Off (the
    /// default): not reported.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lockstep_figures: bool,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl Default for GcTimingConfig {
    fn default() -> Self {
        GcTimingConfig {
            blocking: GcBlocking::None,
            domains: 0,
            multiplane: false,
            multiplane_offsets: 0,
            trigger: GcTrigger::Victim,
            erase_hold: false,
            relocations_at_trigger: false,
            collections_first: false,
            collections_in_flight: 0,
            paired_reads: false,
            lockstep_figures: false,
        }
    }
}
