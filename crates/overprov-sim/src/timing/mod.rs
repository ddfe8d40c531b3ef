//! Simulated time: the host interface (closed loop at a queue depth, or open loop at an
//! arrival rate), the host link, a DRAM write buffer (volatile or power-loss protected), an
//! optional dynamic SLC cache, and the NAND array (channels × dies) with per-operation times.
//!
//! The model is a set of resource timelines (MQSim's TSU/PHY idea reduced to its core): every
//! die, channel and the host link has a "busy until" time, and an operation starts when its
//! input is ready and its resource is free. The FTL reports each NAND operation it performs
//! (`NandOp`), so garbage collection competes with host writes for the same dies — foreground
//! when free blocks run out, in idle time (open loop) past a background trigger.
//!
//! Timelines are booked in request order, not in time order (the host link may book gaps:
//! `link.rs`), so an operation cannot be slid into a gap left earlier on a resource. Two
//! consequences are designed around: data transfers are charged to the die (channel
//! contention between dies is not modelled; transfers are a few percent of a program at these
//! rates), and a GC relocation's program does not wait for its read on another die (a
//! controller buffers GC data and keeps each die busy meanwhile).
//!
//! Costs: a flash page holds `flash_page_bytes / page_size_bytes` mapping units (u). A buffered
//! host write or a GC relocation costs its die tPROG/u (the page is programmed once u units
//! have gathered: the die time per unit is exact, the moment within the page is not); a GC read
//! costs tR/u (a victim's valid units are read page by page); a host read costs a whole tR; a
//! write-through write on a drive without power-loss protection is a flush: it programs its own
//! pages (full tPROG, the rest padded), then the mapping/journal metadata pages
//! (`flush.metadata_flash_pages`), after the previous flush has finished, and completes when all
//! of it is on NAND.
//!
//! The controller (`controller`) is a pool of contexts each command holds for its processing
//! time before its data moves; with all its costs zero (the default) it is skipped entirely. An erase costs tBERS on each die
//! the block spans (a block is striped across dies, flash page by flash page, like a superblock),
//! in proportion to the share of a die's erase block (`die_block_bytes`) it holds there.
//!
//! Non-preemptive GC (`gc.blocking = "domain"`): each collection (the relocations up to and
//! including a victim's erase) is one job of the same total die time, run whole by the
//! victim's GC domain (`block % domains`), one job at a time per domain, on one of its dies; from the
//! moment it is triggered until it has finished, a host write whose page lands on that domain
//! (flash page by flash page, `flash page % domains`) is not accepted. Blocked writes hold
//! their queue slots, so IOPS depend on queue depth; with fewer domains than dies collections
//! run on fewer dies than host writes do, so IOPS fall faster than 1/WAF. Booked in request
//! order, a job starts behind the programs already queued on its die: with a deep write buffer
//! the blocked time includes them (the mechanism is meant for drives whose host writes wait
//! for NAND, `buffer.bytes = 0`). With `gc.trigger = "writer"` a collection runs on the domain of
//! the host unit whose placement started it instead of the victim's, so the collections one
//! trigger starts stay on one domain, one after another (MQSim collects on the plane whose
//! frontier block a write filled).

mod arrival;
mod buffer;
mod commands;
mod die_ops;
mod erase_hold;
mod gc_blocked;
mod gc_first;
mod gc_in_flight;
mod gc_jobs;
mod gc_planes;
mod link;
pub mod measured;
mod multiplane;
mod program;
mod report;
mod round;
mod slc;
pub mod state;

pub use gc_blocked::GcBlockedReport;
pub use report::{HistogramReport, TimedInterval, TimedReport};
use round::RoundAcc;
pub use round::RoundFigures;
use slc::Slc;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::{GcBlocking, GcTrigger, HostMode, ProgramGranularity, TimingConfig};
use crate::ftl::{Counters, NandOp};
use crate::geometry::Geometry;
use crate::stats::LatencyHistogram;

const NS: f64 = 1e9;

#[derive(Debug, Clone, Default)]
struct IntervalAcc {
    writes: u64,
    reads: u64,
    bytes: u64,
    latency: LatencyHistogram,
}

/// The timing engine: resource timelines, the write buffer, the host's issue times, and the
/// per-interval series.
#[derive(Debug, Clone)]
pub struct Engine {
    upp: u64,
    ppb: u64,
    dies: u32,
    read_page_ns: u64,
    read_unit_ns: u64,
    program_unit_ns: u64,
    program_page_ns: u64,
    erase_ns: u64,
    channel_unit_ns: u64,
    overhead_ns: u64,
    die_busy: Vec<u64>,
    link: link::HostLink,
    buffer_units: usize,
    buffered: buffer::BufferSlots,
    write_through: bool,
    slc: Option<Slc>,
    mode: HostMode,
    queue_depth: u32,
    slots: BinaryHeap<Reverse<u64>>,
    arrival_gap_ns: f64,
    arrivals: u64,
    now: u64,
    interval_ns: u64,
    intervals: Vec<IntervalAcc>,
    /// FTL counters at the start of each interval (by issue time).
    boundaries: Vec<Counters>,
    latency: LatencyHistogram,
    /// Latency of reads alone (mixed workloads: reads waiting behind programs and GC).
    read_latency: LatencyHistogram,
    first_gc_ns: Option<u64>,
    ios: u64,
    round_drive_writes: f64,
    /// A profiler round in progress: its start, latency histogram and per-second completions.
    round: Option<RoundAcc>,
    /// The measured phase, once it has started (`start_measured`).
    measured: Option<measured::MeasuredAcc>,
    /// Busy time booked on each die (operations and transfers), for utilisation.
    die_work_ns: Vec<u64>,
    /// The controller's contexts (free times); empty when the controller costs nothing.
    contexts: BinaryHeap<Reverse<u64>>,
    command_ns: u64,
    data_ns_per_4kib: u64,
    map_update_ns: u64,
    /// Write-through on a drive without power-loss protection: flushes program their data and
    /// metadata and serialise. The previous flush's completion; the metadata die in turn.
    flush_busy: u64,
    metadata_pages: u32,
    metadata_die: usize,
    flush_pages: Vec<u32>,
    /// Non-preemptive GC: when each GC domain's latest collection ends (empty: GC spread over
    /// the dies operation by operation, the default), and the jobs it has run.
    domain_free: Vec<(u64, u64)>,
    gc_next_domain: usize,
    /// `timing.gc.collections_in_flight`: at most N collections in flight a domain, the
    /// others held until one ends (`gc_in_flight.rs`; empty when off).
    in_flight: gc_in_flight::InFlight,
    /// `timing.gc.lockstep_figures`: `gc_blocked` reports the figures it adds.
    lockstep_figures: bool,
    /// `timing.gc.paired_reads`: a relocation that joins another collection's relocation
    /// program shares its read (`gc_jobs.rs`).
    paired_reads: bool,
    /// What the blocking domains did (`gc_blocked.rs`; None without them).
    gc_blocked: Option<gc_blocked::GcBlockedAcc>,
    /// `gc.trigger = "writer"`: a collection runs on its triggering host unit's domain; with
    /// the page-offset rule the write's units' slots, drawn before its collections are booked.
    gc_writer: bool,
    writer_slots: std::collections::VecDeque<u32>,
    /// `ftl.plane_pools`: under the page-offset rule a host unit's slot is its block's pool
    /// (`block % plane_pools`), not a pseudo-random one (0: off).
    plane_pools: u64,
    /// Multi-plane programs: each die's open batch of host units (`multiplane.rs`), and its
    /// latest collection's programs when they take other units (`gc_planes.rs`).
    multiplane: multiplane::MultiPlane,
    gc_planes: gc_planes::GcPlanes,
    /// MQSim's page-offset rule for those programs (`gc_planes.rs`; empty by default).
    same_offset: gc_planes::SameOffset,
    /// MQSim's erase hold on those joins (`erase_hold.rs`; empty by default).
    erase_hold: erase_hold::EraseHold,
    /// Whole-page programs: each die's open pages (`program.rs`; empty by default).
    pages: program::PagePrograms,
    /// `timing.gc.collections_first`: completions recorded when their slot frees, since a
    /// collection may move them back (`gc_first.rs`); None when off.
    deferred: Option<gc_first::Completions>,
}

impl Engine {
    pub fn new(t: &TimingConfig, g: &Geometry) -> Self {
        let upp = (t.nand.flash_page_bytes / g.page_size_bytes).max(1) as u64;
        let dies = t.dies();
        let us = |v: f64| (v * 1000.0).round() as u64;
        let unit_bytes = g.page_size_bytes as f64;
        let slc = t.slc.enabled.then(|| Slc::new(&t.slc, g, upp));
        let power_loss_protected = t.buffer.power_loss_protected;
        Engine {
            upp,
            ppb: g.pages_per_block as u64,
            dies,
            read_page_ns: us(t.nand.read_us),
            read_unit_ns: us(t.nand.read_us) / upp,
            program_unit_ns: us(t.nand.program_us) / upp,
            program_page_ns: us(t.nand.program_us),
            erase_ns: {
                // the share of a die's erase block that one FTL block holds on each die
                let per_die = (g.pages_per_block as f64 * unit_bytes / dies as f64)
                    .max(t.nand.flash_page_bytes as f64);
                let share = (per_die / t.nand.die_block_bytes as f64).min(1.0);
                (t.nand.erase_us * 1000.0 * share).round() as u64
            },
            channel_unit_ns: (unit_bytes / (t.nand.channel_mb_s * 1e6) * NS).round() as u64,
            overhead_ns: us(t.host.command_overhead_us),
            die_busy: vec![0; dies as usize],
            link: link::HostLink::new(t.host.link_mb_s, t.host.link_booking),
            buffer_units: (t.buffer.bytes / g.page_size_bytes as u64) as usize,
            buffered: buffer::BufferSlots::new(dies as usize),
            write_through: t.host.write_through && !power_loss_protected,
            slc,
            mode: t.host.mode,
            queue_depth: t.host.queue_depth,
            slots: (0..t.host.queue_depth).map(|_| Reverse(0)).collect(),
            arrival_gap_ns: NS / t.host.arrival_iops,
            arrivals: 0,
            now: 0,
            interval_ns: ((t.interval_s * NS).round() as u64).max(1),
            intervals: Vec::new(),
            boundaries: Vec::new(),
            latency: LatencyHistogram::default(),
            read_latency: LatencyHistogram::default(),
            first_gc_ns: None,
            ios: 0,
            die_work_ns: vec![0; dies as usize],
            round_drive_writes: t.state_round_drive_writes,
            round: None,
            measured: None,
            contexts: {
                let c = &t.controller;
                let costs = c.command_us + c.data_us_per_4kib + c.map_update_us;
                let n = if costs > 0.0 { c.contexts } else { 0 };
                (0..n).map(|_| Reverse(0)).collect()
            },
            command_ns: us(t.controller.command_us),
            data_ns_per_4kib: us(t.controller.data_us_per_4kib),
            map_update_ns: us(t.controller.map_update_us),
            flush_busy: 0,
            metadata_pages: t.flush.metadata_flash_pages,
            metadata_die: 0,
            flush_pages: Vec::new(),
            domain_free: match t.gc.blocking {
                GcBlocking::None => Vec::new(),
                GcBlocking::Domain => {
                    let n = if t.gc.domains == 0 {
                        dies
                    } else {
                        t.gc.domains
                    };
                    vec![(0, 0); n as usize]
                }
            },
            gc_next_domain: 0,
            gc_blocked: match t.gc.blocking {
                GcBlocking::None => None,
                GcBlocking::Domain => Some(gc_blocked::GcBlockedAcc::new(
                    if t.gc.domains == 0 {
                        dies
                    } else {
                        t.gc.domains
                    } as usize,
                    0,
                ))
                .map(|a| match t.gc.lockstep_figures {
                    false => a,
                    true => a.with_lockstep(Some([0; 5])),
                }),
            },
            in_flight: gc_in_flight::InFlight::new(t.gc.collections_in_flight),
            lockstep_figures: t.gc.lockstep_figures,
            paired_reads: t.gc.paired_reads,
            gc_writer: t.gc.trigger == GcTrigger::Writer,
            writer_slots: std::collections::VecDeque::new(),
            plane_pools: 0,
            multiplane: multiplane::MultiPlane::new(t.nand.planes_per_die, dies),
            gc_planes: gc_planes::GcPlanes::new(
                t.gc.multiplane && t.gc.multiplane_offsets == 0,
                t.nand.planes_per_die,
                dies,
            ),
            same_offset: gc_planes::SameOffset::new(
                t.gc.multiplane,
                t.gc.multiplane_offsets,
                t.nand.planes_per_die,
                dies,
            )
            .relocations_at_trigger(t.gc.relocations_at_trigger),
            erase_hold: erase_hold::EraseHold::new(t.gc.erase_hold, dies),
            pages: program::PagePrograms::new(
                t.nand.program_granularity == ProgramGranularity::Page,
                upp,
                dies,
            ),
            deferred: t.gc.collections_first.then(Default::default),
        }
    }

    /// Hold a controller context for a command of `bytes` making `map_updates` mapping
    /// changes, from `ready` on; returns when its processing ends (`ready` with no controller).
    #[inline]
    fn controller(&mut self, ready: u64, bytes: u64, map_updates: u64) -> u64 {
        let Some(Reverse(free)) = self.contexts.pop() else {
            return ready;
        };
        let end = ready.max(free)
            + self.command_ns
            + bytes.div_ceil(4096) * self.data_ns_per_4kib
            + map_updates * self.map_update_ns;
        self.contexts.push(Reverse(end));
        end
    }

    /// A write-through write on a drive without power-loss protection: after the previous
    /// flush, its pages (`flush_pages`, one mapping unit each) are programmed on whole flash
    /// pages (a partial page padded), then the metadata pages one after another on one die.
    fn flush(&mut self, arrived: u64, page_ns: u64) -> u64 {
        let start = arrived.max(self.flush_busy);
        let mut done = start;
        let pages = std::mem::take(&mut self.flush_pages);
        let mut last_flash_page = None;
        for &p in &pages {
            let flash_page = p as u64 / self.upp;
            if last_flash_page != Some(flash_page) {
                last_flash_page = Some(flash_page);
                done = done.max(self.program(p, start, page_ns));
            }
        }
        self.flush_pages = pages;
        self.flush_pages.clear();
        for _ in 0..self.metadata_pages {
            let die = self.metadata_die;
            let loaded = self.transfer(die, done);
            done = self.on_die(die, loaded, self.program_page_ns);
        }
        self.metadata_die = (self.metadata_die + 1) % self.dies as usize;
        self.flush_busy = done;
        done
    }

    /// Issue time of the latest request (simulated ns).
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    /// The host layer (`crate::host`) issues the requests itself: a request was issued at `t`.
    pub(crate) fn issued_at(&mut self, t: u64) {
        self.now = self.now.max(t);
    }

    /// When garbage collection first ran on this drive (simulated ns).
    pub fn first_gc_ns(&self) -> Option<u64> {
        self.first_gc_ns
    }

    /// The host layer: garbage collection first ran on a member at `t` (ends the FOB state).
    pub(crate) fn note_gc(&mut self, t: u64) {
        self.first_gc_ns.get_or_insert(t);
    }

    /// GC and wear-levelling operations (relocations, erases) starting no earlier than `t`.
    pub fn background_ops(&mut self, ops: &[NandOp], t: u64) {
        if !self.domain_free.is_empty() {
            return self.gc_jobs(ops, t, false);
        }
        let mut src = 0;
        for op in ops {
            match *op {
                NandOp::RelocRead(p) => src = p,
                NandOp::RelocProgram(p) => self.relocate(src, p, t),
                NandOp::Erase(b) => self.erase(b, t),
                NandOp::HostProgram(_) => {}
            }
        }
    }

    /// When every request issued so far has completed (and the host has issued its last).
    fn drained_at(&self) -> u64 {
        self.slots
            .iter()
            .map(|Reverse(t)| *t)
            .max()
            .unwrap_or(self.now)
            .max(self.now)
    }

    /// Share of the simulated time each die was busy.
    pub fn die_utilisation(&self) -> Vec<f64> {
        let t = self.now.max(1) as f64;
        self.die_work_ns.iter().map(|&w| w as f64 / t).collect()
    }

    /// When every die has finished its queued work.
    pub fn dies_idle_at(&self) -> u64 {
        self.die_busy.iter().copied().max().unwrap_or(0)
    }

    /// The next request's issue time: when a queue slot frees (closed loop) or the next arrival.
    pub fn next_issue(&mut self) -> u64 {
        let t = match self.mode {
            HostMode::Closed => {
                let t = self.slots.pop().map_or(self.now, |Reverse(t)| t);
                self.record_completions(t);
                t
            }
            HostMode::Open => {
                let t = (self.arrivals as f64 * self.arrival_gap_ns) as u64;
                self.arrivals += 1;
                t
            }
        };
        self.now = self.now.max(t);
        self.now
    }

    /// Record the FTL counters at every interval boundary up to `t` (call before a request).
    pub fn tick(&mut self, t: u64, counters: &Counters) {
        while (self.boundaries.len() as u64) * self.interval_ns <= t {
            self.boundaries.push(*counters);
        }
    }

    /// A host write issued at `t` whose FTL work produced `ops`; returns its completion time.
    pub fn write(&mut self, t: u64, ops: &[NandOp], bytes: u64, free_units: u64) -> u64 {
        let mut t0 = t + self.overhead_ns;
        if !self.contexts.is_empty() {
            let updates = ops
                .iter()
                .filter(|op| matches!(op, NandOp::HostProgram(_) | NandOp::RelocProgram(_)))
                .count() as u64;
            t0 = self.controller(t0, bytes, updates);
        }
        let arrived = self.on_link(t0, bytes, link::Direction::ToDevice);
        let mut done = arrived;
        let mut src = 0;
        let mut flush_page_ns = 0;
        let blocking = !self.domain_free.is_empty();
        if blocking {
            if self.gc_writer && self.same_offset.enabled() {
                // the units' places, drawn in the order their programs take them below
                self.writer_slots.clear();
                for op in ops {
                    if let NandOp::HostProgram(_) = op {
                        let slot = self.same_offset.place();
                        self.writer_slots.push_back(slot);
                    }
                }
            }
            self.gc_jobs(ops, t0, self.gc_writer);
        }
        for op in ops {
            match *op {
                NandOp::RelocRead(p) => src = p,
                NandOp::RelocProgram(_) | NandOp::Erase(_) if blocking => {}
                NandOp::RelocProgram(p) => self.relocate(src, p, t0),
                NandOp::Erase(b) => self.erase(b, t0),
                NandOp::HostProgram(p) => {
                    let ns = self.host_program_ns(free_units, t0);
                    if self.write_through {
                        // programmed by the flush below, on its own padded pages
                        self.flush_pages.push(p);
                        flush_page_ns = flush_page_ns.max(ns.1);
                    } else if self.same_offset.enabled() {
                        done = done.max(self.program_host_by_address(p, arrived, ns.0));
                    } else if self.buffer_units == 0 {
                        let ready = self.domain_ready(p, arrived);
                        done = done.max(self.program_host(p, ready, ns.0));
                    } else {
                        done = done.max(self.buffered_write(p, arrived, ns));
                    }
                }
            }
        }
        if self.write_through {
            done = done.max(self.flush(arrived, flush_page_ns));
        }
        done
    }

    /// A host read of the given pages (None: unmapped, answered without NAND) issued at `t`.
    pub fn read(&mut self, t: u64, pages: &[Option<u32>], bytes: u64) -> u64 {
        let t0 = self.controller(t + self.overhead_ns, bytes, 0);
        let mut ready = t0;
        for p in pages.iter().flatten() {
            let die = self.die_of(*p);
            ready = ready.max(self.sense(die, t0, self.read_page_ns));
        }
        self.on_link(ready, bytes, link::Direction::ToHost)
    }

    /// A request issued at `issue` completed at `done`.
    pub fn complete(&mut self, issue: u64, done: u64, is_read: bool, bytes: u64) {
        if self.mode == HostMode::Closed {
            self.slots.push(Reverse(done));
        }
        match &mut self.deferred {
            Some(c) => c.push(issue, done, is_read, bytes),
            None => self.record(issue, done, is_read, bytes),
        }
    }

    /// Count a completion in the run's, round's, interval's and measured phase's figures.
    fn record(&mut self, issue: u64, done: u64, is_read: bool, bytes: u64) {
        let latency = done.saturating_sub(issue);
        if let Some(r) = self.round.as_mut().filter(|_| is_read) {
            r.read_latency.record(latency);
            r.read_latency_sum_ns += latency as u128;
            r.read_ios += 1;
        } else if let Some(r) = &mut self.round {
            r.latency.record(latency);
            r.latency_sum_ns += latency as u128;
            r.ios += 1;
            r.bytes += bytes;
            let s = ((done - r.start_ns) / 1_000_000_000) as usize;
            if s >= r.per_second.len() {
                r.per_second.resize(s + 1, 0);
            }
            r.per_second[s] += 1;
        }
        self.latency.record(latency);
        if is_read {
            self.read_latency.record(latency);
        }
        if let Some(m) = &mut self.measured {
            m.record(latency, done, is_read);
        }
        self.ios += 1;
        let i = (done / self.interval_ns) as usize;
        if i >= self.intervals.len() {
            self.intervals.resize_with(i + 1, IntervalAcc::default);
        }
        let acc = &mut self.intervals[i];
        if is_read {
            acc.reads += 1;
        } else {
            acc.writes += 1;
        }
        acc.bytes += bytes;
        acc.latency.record(latency);
    }

    /// From now on, completions count in the measured phase's summary as well.
    pub fn start_measured(&mut self) {
        self.record_completions(self.now);
        self.measured = Some(measured::MeasuredAcc::starting_at(self.now));
        if let Some(acc) = &mut self.gc_blocked {
            *acc = gc_blocked::GcBlockedAcc::new(self.domain_free.len(), self.now);
            if self.lockstep_figures {
                let mix = self.same_offset.enabled();
                *acc =
                    std::mem::take(acc).with_lockstep(mix.then(|| self.same_offset.program_mix()));
            }
        }
    }
}
