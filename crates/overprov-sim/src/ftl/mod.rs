//! Page-mapped flash translation layer: logical-to-physical map, write frontiers, free-block
//! pool, garbage collection and wear levelling.
//!
//! Core state, per physical page: the reverse map (4 bytes), a valid bit (1/8 byte), and per user
//! page the forward map (4 bytes); per block ~29 bytes. At ρ = 0.28 and 256 pages per block that
//! is 4/1.28 + 4 + 0.125 + 0.11 ≈ 7.4 bytes per physical page.

pub mod blocks;
mod channel_pools;
pub mod gc;
pub mod huge_pages;
mod invariants;
mod per_write_gc;
mod plane_pools;
pub mod prefetch;
mod relocation;
pub mod wear;

use serde::Serialize;

use crate::config::{CollectionTrigger, GcFrontier, Isolation, SimConfig};
use crate::geometry::{FastDiv, Geometry};
use crate::rng::Rng;
use blocks::{BlockTable, NIL};
use channel_pools::ChannelPools;
use gc::{Policy, VictimContext, VictimPolicy};
use plane_pools::PlanePools;
use wear::FreePool;

/// An unmapped logical page.
pub const UNMAPPED: u32 = u32::MAX;

/// Cumulative page-level counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Pages programmed on behalf of host writes.
    pub host_pages: u64,
    /// Pages programmed by garbage collection (relocations).
    pub gc_pages: u64,
    /// Pages programmed by static wear levelling (migrations).
    pub wl_pages: u64,
    /// Block erases.
    pub erases: u64,
    /// GC victims collected.
    pub victims: u64,
    /// Logical pages trimmed (that were mapped).
    pub trimmed_pages: u64,
}

impl Counters {
    /// All NAND page programs.
    pub fn nand_pages(&self) -> u64 {
        self.host_pages + self.gc_pages + self.wl_pages
    }
}

/// A NAND operation the FTL performed, reported to the timing layer when the log is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NandOp {
    /// A host write programmed this page.
    HostProgram(u32),
    /// GC or wear levelling read this page to relocate it...
    RelocRead(u32),
    /// ...and programmed this page with it.
    RelocProgram(u32),
    /// This block was erased.
    Erase(u32),
}

#[derive(Debug, Clone, Copy)]
struct Frontier {
    block: u32,
    /// Next page to program in `block`; `pages_per_block` means "needs a new block".
    next: u32,
}

/// Which frontier GC writes a victim's valid pages to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GcTarget {
    /// The GC frontier of the victim's stream (`streams + stream`).
    PerStream,
    /// The host frontier of the victim's stream.
    Shared,
    /// One GC frontier for every stream (`streams`): placement's initially isolated handles.
    Common,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relocation {
    Gc,
    WearLevelling,
}

/// The FTL. All state lives in flat vectors indexed by page or block number.
#[derive(Debug, Clone)]
pub struct Ftl {
    geom: Geometry,
    ppb: u32,
    block_of: FastDiv,
    l2p: Vec<u32>,
    p2l: Vec<u32>,
    valid: Vec<u64>,
    blocks: BlockTable,
    free: FreePool,
    /// Host frontiers `0..streams`, then GC frontiers `streams..2*streams` if separate.
    frontiers: Vec<Frontier>,
    streams: usize,
    gc_target: GcTarget,
    /// With placement: the handle whose host write each logical page holds, and per handle the
    /// host pages written and the pages GC relocated (all empty without placement).
    owner: Vec<u8>,
    handle_host_pages: Vec<u64>,
    handle_gc_pages: Vec<u64>,
    policy: Policy,
    gc_free_blocks: usize,
    /// Once triggered, GC collects until the free pool holds more than this (`gc_free_blocks`
    /// without `ftl.gc_until_free_fraction`, WiscSim's low mark).
    gc_until_free_blocks: usize,
    /// `ftl.gc_trigger = "per-write"`: one victim after each host page write under the trigger
    /// (`per_write_gc.rs`) instead of victims back to back when a host block fills.
    per_write_gc: bool,
    /// The victim floor: invalid pages a victim needs unless the pool is at `gc_forced_free_blocks`
    /// or fewer (0 and 0 without a floor: every victim qualifies).
    gc_min_invalid_pages: u32,
    gc_forced_free_blocks: usize,
    static_threshold: u32,
    static_check_erases: u64,
    next_static_check: u64,
    rng: Rng,
    counters: Counters,
    victim_valid_hist: Vec<u64>,
    /// Operation log for the timing layer (off in untimed runs: one predictable branch).
    log_ops: bool,
    ops: Vec<NandOp>,
    /// Scratch list of a victim's valid pages (reused; at most a block's pages).
    reloc_sources: Vec<u32>,
    /// `ftl.plane_pools`: the per-plane free pools (`plane_pools.rs`; None by default, and the
    /// free blocks are then `free`'s).
    pools: Option<Box<PlanePools>>,
    /// `ftl.channel_pools`: a free pool per channel (`channel_pools.rs`; None by default).
    channels: Option<Box<ChannelPools>>,
    /// `ftl.gc_batch_victims`: victims between stop checks (0: the stop before each victim).
    gc_batch_victims: u32,
    /// Test audit (feature `audit`): the host-write sequence number each physical page holds,
    /// carried along by relocations, so tests can prove every LBA maps to its latest write.
    #[cfg(feature = "audit")]
    stamp: Vec<u64>,
}

impl Ftl {
    /// Build an empty (fresh, all-erased) drive. `config` must have been validated.
    pub fn new(config: &SimConfig, geom: Geometry) -> Self {
        let ppb = geom.pages_per_block;
        let pools = PlanePools::from_config(config, geom.blocks);
        let channels = ChannelPools::from_config(config, geom.blocks);
        let mut streams = config.stream_count().unwrap_or(1);
        let mut gc_target = match (config.placement.enabled, config.placement.isolation) {
            (true, Isolation::InitiallyIsolated) => GcTarget::Common,
            (true, Isolation::PersistentlyIsolated) => GcTarget::PerStream,
            (false, _) if config.ftl.gc_frontier == GcFrontier::Separate => GcTarget::PerStream,
            (false, _) => GcTarget::Shared,
        };
        let handles = if config.placement.enabled { streams } else { 0 };
        let mut frontier_count = config.frontier_count(streams);
        if let Some(p) = &pools {
            // the pools are the streams: a host and a GC frontier each
            (streams, gc_target, frontier_count) = (p.pools(), GcTarget::PerStream, 2 * p.pools());
        }
        let physical = geom.physical_pages() as usize;
        let policy = Policy::from_config(&config.ftl);
        Ftl {
            geom,
            ppb,
            block_of: FastDiv::new(ppb),
            l2p: huge_pages::filled_vec(geom.user_pages as usize, UNMAPPED),
            p2l: huge_pages::filled_vec(physical, 0),
            valid: huge_pages::filled_vec(physical.div_ceil(64), 0),
            blocks: BlockTable::new(geom.blocks, ppb).with_bucket_ages(policy.reads_bucket_ages()),
            free: FreePool::new(
                config.wear.dynamic,
                if pools.is_some() || channels.is_some() {
                    0
                } else {
                    geom.blocks
                },
            ),
            frontiers: vec![
                Frontier {
                    block: NIL,
                    next: ppb
                };
                frontier_count
            ],
            streams,
            gc_target,
            owner: match handles {
                0 => Vec::new(),
                _ => vec![0; geom.user_pages as usize],
            },
            handle_host_pages: vec![0; handles],
            handle_gc_pages: vec![0; handles],
            policy,
            gc_free_blocks: config.ftl.gc_free_blocks as usize,
            gc_until_free_blocks: config
                .ftl
                .until_free_blocks(geom.blocks)
                .expect("validated config") as usize,
            per_write_gc: config.ftl.gc_trigger == CollectionTrigger::PerWrite,
            gc_min_invalid_pages: config.ftl.victim_min_invalid_pages(ppb),
            gc_forced_free_blocks: config.ftl.gc_forced_free_blocks.unwrap_or(0) as usize,
            static_threshold: config.wear.static_threshold,
            static_check_erases: config.wear.static_check_erases.max(1) as u64,
            next_static_check: config.wear.static_check_erases.max(1) as u64,
            rng: Rng::derive(config.run.seed, 0x6763),
            counters: Counters::default(),
            victim_valid_hist: vec![0; ppb as usize + 1],
            log_ops: false,
            ops: Vec::new(),
            reloc_sources: Vec::with_capacity(ppb as usize),
            pools,
            channels,
            gc_batch_victims: config.ftl.gc_batch_victims,
            #[cfg(feature = "audit")]
            stamp: vec![0; physical],
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }
    pub fn counters(&self) -> &Counters {
        &self.counters
    }
    pub fn blocks(&self) -> &BlockTable {
        &self.blocks
    }
    /// How many victims had each valid-page count (index = valid pages at collection).
    pub fn victim_valid_histogram(&self) -> &[u64] {
        &self.victim_valid_hist
    }
    pub fn reset_victim_histogram(&mut self) {
        self.victim_valid_hist.iter_mut().for_each(|c| *c = 0);
    }
    pub fn free_blocks(&self) -> usize {
        match (&self.pools, &self.channels) {
            (Some(p), _) => p.free_blocks(),
            (None, Some(c)) => c.free_blocks(),
            (None, None) => self.free.len(),
        }
    }
    pub fn streams(&self) -> usize {
        self.streams
    }
    /// Physical page holding logical page `lpn`, if mapped.
    pub fn lookup(&self, lpn: u32) -> Option<u32> {
        let p = self.l2p[lpn as usize];
        (p != UNMAPPED).then_some(p)
    }
    /// Bytes held by the core state vectors (what dominates memory).
    pub fn state_bytes(&self) -> u64 {
        let b = &self.blocks;
        (self.l2p.capacity() * 4
            + self.p2l.capacity() * 4
            + self.valid.capacity() * 8
            + b.len() * (4 + 4 + 1 + 1 + 8 + 4 + 4 + 4 + 4)
            + self.free.len() * 8) as u64
    }

    /// Record NAND operations from now on (timed runs).
    pub fn set_op_log(&mut self, on: bool) {
        self.log_ops = on;
        self.ops.clear();
    }

    /// The operations logged since the last call; the caller hands the vector back with
    /// [`Ftl::return_ops`] so no allocation happens per request.
    pub fn take_ops(&mut self) -> Vec<NandOp> {
        std::mem::take(&mut self.ops)
    }

    pub fn return_ops(&mut self, mut ops: Vec<NandOp>) {
        ops.clear();
        self.ops = ops;
    }

    #[inline(always)]
    fn log(&mut self, op: NandOp) {
        if self.log_ops {
            self.ops.push(op);
        }
    }

    /// With placement: host pages written and pages relocated by GC, per reclaim-unit handle
    /// (GC's pages are counted against the handle whose host write they hold).
    pub fn handle_pages(&self) -> (&[u64], &[u64]) {
        (&self.handle_host_pages, &self.handle_gc_pages)
    }

    /// With placement: the handle whose host write physical page `ppn` holds, if it is valid.
    pub fn handle_of_page(&self, ppn: u32) -> Option<u8> {
        let valid = self.valid[(ppn >> 6) as usize] >> (ppn & 63) & 1 == 1;
        (valid && !self.owner.is_empty()).then(|| self.owner[self.p2l[ppn as usize] as usize])
    }

    /// With placement: record that pages `lpn .. lpn + pages` are about to be written by the
    /// host through handle `handle` (call before writing them to stream `handle`).
    #[inline]
    pub fn tag_host(&mut self, lpn: u32, pages: u32, handle: usize) {
        if self.owner.is_empty() {
            return;
        }
        self.owner[lpn as usize..(lpn + pages) as usize].fill(handle as u8);
        self.handle_host_pages[handle] += pages as u64;
    }

    /// Host write of logical page `lpn` into host stream `stream` (< `streams()`).
    #[inline]
    pub fn write(&mut self, lpn: u32, stream: usize) {
        self.write_one(lpn, stream);
    }

    /// Host writes of logical pages `lpn .. lpn + pages`, in order, into host stream `stream`:
    /// `write` for each page, one call for the whole run.
    #[inline(never)]
    pub fn write_pages(&mut self, lpn: u32, pages: u32, stream: usize) {
        for i in 0..pages {
            self.write_one(lpn + i, stream);
        }
    }

    #[inline(always)]
    fn write_one(&mut self, lpn: u32, stream: usize) {
        let stream = self.pool_stream(lpn, stream);
        debug_assert!(stream < self.streams);
        let old = self.l2p[lpn as usize];
        if old != UNMAPPED {
            self.invalidate(old);
        }
        let (ppn, block) = match self.channels {
            None => self.program(stream, true),
            Some(_) => self.program_round_robin(),
        };
        self.place(lpn, ppn, block);
        self.counters.host_pages += 1;
        self.log(NandOp::HostProgram(ppn));
        #[cfg(feature = "audit")]
        {
            self.stamp[ppn as usize] = self.counters.host_pages;
        }
        if self.per_write_gc {
            self.collect_after_host_write();
        } else if self.channels.is_some() {
            self.collect_after_channel_write();
        }
    }

    /// (feature `audit`) The host-write number (1-based count of host page writes) whose data
    /// logical page `lpn` maps to, if mapped.
    #[cfg(feature = "audit")]
    pub fn stamp_of(&self, lpn: u32) -> Option<u64> {
        self.lookup(lpn).map(|p| self.stamp[p as usize])
    }

    /// TRIM/discard of logical page `lpn`: its data is no longer needed.
    #[inline]
    pub fn trim(&mut self, lpn: u32) {
        let old = self.l2p[lpn as usize];
        if old != UNMAPPED {
            self.invalidate(old);
            self.l2p[lpn as usize] = UNMAPPED;
            self.counters.trimmed_pages += 1;
        }
    }

    #[inline(always)]
    fn invalidate(&mut self, ppn: u32) {
        self.valid[(ppn >> 6) as usize] &= !(1u64 << (ppn & 63));
        let b = self.block_of.div(ppn);
        self.blocks.invalidate_one(b);
    }

    #[inline(always)]
    fn place(&mut self, lpn: u32, ppn: u32, block: u32) {
        self.l2p[lpn as usize] = ppn;
        self.p2l[ppn as usize] = lpn;
        self.valid[(ppn >> 6) as usize] |= 1u64 << (ppn & 63);
        self.blocks.valid[block as usize] += 1;
    }

    /// Next page of frontier `idx`; returns (page, block).
    #[inline(always)]
    fn program(&mut self, idx: usize, host: bool) -> (u32, u32) {
        if self.frontiers[idx].next == self.ppb {
            self.advance(idx, host);
        }
        let f = &mut self.frontiers[idx];
        let ppn = f.block * self.ppb + f.next;
        f.next += 1;
        (ppn, f.block)
    }

    fn stream_of_frontier(&self, idx: usize) -> u8 {
        (if idx >= self.streams {
            idx - self.streams
        } else {
            idx
        }) as u8
    }

    fn close_frontier(&mut self, idx: usize) {
        let f = self.frontiers[idx];
        if f.block != NIL {
            let now = self.counters.host_pages;
            self.blocks.close(f.block, now);
            self.policy.on_close(f.block, now);
        }
        self.frontiers[idx] = Frontier {
            block: NIL,
            next: self.ppb,
        };
    }

    /// Frontier `idx` is full: close its block, collect garbage if a host frontier needs space,
    /// and open a free block.
    #[cold]
    #[inline(never)]
    fn advance(&mut self, idx: usize, host: bool) {
        if self.pools.is_some() {
            return self.advance_in_pool(idx, host);
        }
        self.close_frontier(idx);
        if host && self.per_write_gc {
            self.reserve_before_open();
        } else if host {
            self.collect_garbage();
        }
        // With a shared frontier, GC may have opened (or even filled) a block for this frontier.
        if self.frontiers[idx].next == self.ppb {
            self.close_frontier(idx);
            let b = self
                .free
                .pop()
                .expect("free pool empty: validation guarantees spare blocks for GC");
            self.blocks.open(b, self.stream_of_frontier(idx));
            self.frontiers[idx] = Frontier { block: b, next: 0 };
        }
    }

    /// Collect one victim chosen by the policy; false if there is no closed block, or the
    /// victim falls short of the victim floor while the free pool is above the forced count
    /// (it is then left where it is, as FEMU's background GC leaves a victim with fewer than
    /// 1/8 of its pages invalid).
    fn collect_victim(&mut self) -> bool {
        self.blocks.refresh_bucket_ages();
        let ctx = VictimContext {
            blocks: &self.blocks,
            now: self.counters.host_pages,
        };
        let chosen = match self.channels {
            None => self.policy.choose(&ctx, &mut self.rng),
            Some(_) => self.lowest_numbered_greedy(),
        };
        let Some(victim) = chosen else {
            return false;
        };
        let v = self.blocks.valid[victim as usize];
        if self.ppb - v < self.gc_min_invalid_pages
            && self.free_blocks() > self.gc_forced_free_blocks
        {
            let closed_at = self.blocks.closed_at[victim as usize];
            self.policy.put_back(victim, closed_at);
            return false;
        }
        self.victim_valid_hist[v as usize] += 1;
        self.counters.victims += 1;
        self.relocate_and_erase(victim, Relocation::Gc);
        true
    }

    /// Background GC (idle time): collect one victim if the free pool holds `free_blocks` or
    /// fewer (and it passes the victim floor, if any). Returns whether a victim was collected.
    pub fn collect_background(&mut self, free_blocks: usize) -> bool {
        self.free_blocks() <= free_blocks && self.collect_victim()
    }

    /// At the trigger, collect victims until the free pool is above the low mark (the trigger
    /// without one), or (with a victim floor) the victim falls short of the floor above the
    /// forced count; with `gc_batch_victims` = k the stop is checked only between batches of k
    /// victims (WiscSim's `Cleaner`); then static wear levelling.
    fn collect_garbage(&mut self) {
        if self.free_blocks() <= self.gc_free_blocks {
            if self.channels.is_some() {
                self.close_full_channel_blocks();
            }
            match self.gc_batch_victims {
                0 => {
                    while self.free_blocks() <= self.gc_until_free_blocks && self.collect_victim() {
                    }
                }
                k => {
                    'batches: while self.free_blocks() <= self.gc_until_free_blocks {
                        for _ in 0..k {
                            if !self.collect_victim() {
                                break 'batches;
                            }
                        }
                    }
                }
            }
        }
        self.static_wear_levelling();
    }

    /// Static wear levelling, every `static_check_erases` erases: migrate the data of the
    /// least-worn closed block when the wear spread is above the threshold.
    fn static_wear_levelling(&mut self) {
        if self.static_threshold > 0 && self.counters.erases >= self.next_static_check {
            self.next_static_check = self.counters.erases + self.static_check_erases;
            if let Some(b) = wear::static_wl_candidate(&self.blocks, self.static_threshold) {
                self.relocate_and_erase(b, Relocation::WearLevelling);
            }
        }
    }
}
