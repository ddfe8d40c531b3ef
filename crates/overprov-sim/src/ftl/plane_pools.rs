//! Per-plane free-block pools (`ftl.plane_pools` = N ≥ 2), as MQSim's FTL keeps them
//! (CMU-SAFARI/MQSim `7ec40e3b`, `src/ssd/`): each plane has its own free blocks and its own
//! user and GC write frontiers (`Flash_Block_Manager_Base`, `PlaneBookKeepingType`), a host page
//! goes to the plane its address maps to (`CWDP`), and `GC_and_WL_Unit_Page_Level::
//! Check_gc_required` collects on a plane, a victim among that plane's blocks, when the plane's
//! pool falls under its threshold as its frontier takes a block.
//!
//! Here block `b` is in pool `b % N`; the pools are the FTL's streams (host frontier `p`, GC
//! frontier `N + p`, so a victim's valid pages stay in its pool); a host page goes to pool
//! `lpn % N`; when a pool's host frontier needs a block, that pool collects victims — d-choices
//! sampled within the pool — until it holds more than `gc_free_blocks / N` free blocks. Under
//! uniform writes the pools run low at the same rate, so their collections come together, as
//! MQSim's planes' do. Not carried: MQSim's up to ten collections in flight a plane (a
//! collection here is one step of the FTL; the timing runs a domain's one at a time).

use super::blocks::NIL;
use super::wear::FreePool;
use super::{Frontier, Ftl, Relocation};
use crate::config::{PolicyKind, SimConfig};
use crate::rng::Rng;

/// Samples tried per victim choice, per sample wanted, before a scan of the pool's blocks.
const TRIES_PER_SAMPLE: u32 = 32;

/// The pools' free blocks and victim sampling.
#[derive(Debug, Clone)]
pub(super) struct PlanePools {
    free: Vec<FreePool>,
    /// A pool collects while it holds this many free blocks or fewer.
    trigger: usize,
    /// Victim samples within the pool (d-choices' d; 1 for random).
    d: u32,
    /// `ftl.gc_skip_full_victim`: a check whose victim has no invalid page collects nothing.
    skip_full_victim: bool,
    /// Checks that started no collection (`skip_full_victim`).
    skipped_checks: u64,
    rng: Rng,
}

impl PlanePools {
    /// The pools of a drive of `blocks` blocks, all free; None when the option is off.
    pub(super) fn from_config(config: &SimConfig, blocks: u32) -> Option<Box<Self>> {
        let n = config.ftl.plane_pools;
        if n < 2 {
            return None;
        }
        let dynamic = config.wear.dynamic;
        let mut free: Vec<FreePool> = (0..n).map(|_| FreePool::new(dynamic, 0)).collect();
        for b in 0..blocks {
            free[(b % n) as usize].push(b, 0);
        }
        Some(Box::new(PlanePools {
            free,
            trigger: (config.ftl.gc_free_blocks / n).max(1) as usize,
            d: match config.ftl.policy {
                PolicyKind::DChoices => config.ftl.d_choices.max(1),
                _ => 1,
            },
            skip_full_victim: config.ftl.gc_skip_full_victim,
            skipped_checks: 0,
            rng: Rng::derive(config.run.seed, 0x706c_616e),
        }))
    }

    pub(super) fn pools(&self) -> usize {
        self.free.len()
    }

    /// Free blocks in every pool.
    pub(super) fn free_blocks(&self) -> usize {
        self.free.iter().map(FreePool::len).sum()
    }

    /// An erased block returns to its pool.
    pub(super) fn push(&mut self, block: u32, erase_count: u32) {
        let n = self.free.len() as u32;
        self.free[(block % n) as usize].push(block, erase_count);
    }
}

impl Ftl {
    /// The pool (stream) of a host write of `lpn`: `lpn % N` with pools, else `stream`.
    #[inline(always)]
    pub(super) fn pool_stream(&self, lpn: u32, stream: usize) -> usize {
        match &self.pools {
            Some(p) => lpn as usize % p.pools(),
            None => stream,
        }
    }

    /// Frontier `idx` (host frontier of pool `idx % N`, or its GC frontier) is full: close it;
    /// a host frontier's pool first collects victims of its own while at its trigger; then the
    /// frontier takes a block of its pool.
    #[cold]
    #[inline(never)]
    pub(super) fn advance_in_pool(&mut self, idx: usize, host: bool) {
        self.close_frontier(idx);
        let pool = idx % self.streams;
        if host {
            while self.pool_len(pool) <= self.pool_trigger() && self.collect_in_pool(pool) {}
            self.static_wear_levelling();
        }
        let pools = self
            .pools
            .as_mut()
            .expect("advance_in_pool needs the pools");
        let b = pools.free[pool]
            .pop()
            .expect("a plane's free pool is empty: its trigger keeps blocks for its GC");
        self.blocks.open(b, pool as u8);
        self.frontiers[idx] = Frontier { block: b, next: 0 };
    }

    fn pool_len(&self, pool: usize) -> usize {
        self.pools.as_ref().map_or(0, |p| p.free[pool].len())
    }

    /// Checks that started no collection (`ftl.gc_skip_full_victim`); 0 without pools.
    #[cfg(test)]
    pub(crate) fn skipped_checks(&self) -> u64 {
        self.pools.as_ref().map_or(0, |p| p.skipped_checks)
    }

    fn pool_trigger(&self) -> usize {
        self.pools.as_ref().map_or(0, |p| p.trigger)
    }

    /// Collect one victim of `pool`; false if it has no closed block, or (with
    /// `gc_skip_full_victim`, the pool holding two free blocks or more) if the victim has no
    /// invalid page: the check then starts no collection.
    fn collect_in_pool(&mut self, pool: usize) -> bool {
        let Some(victim) = self.choose_in_pool(pool) else {
            return false;
        };
        let v = self.blocks.valid[victim as usize];
        let full = v >= self.ppb;
        if full && self.pool_len(pool) >= 2 {
            if let Some(p) = self.pools.as_mut().filter(|p| p.skip_full_victim) {
                p.skipped_checks += 1;
                return false;
            }
        }
        self.victim_valid_hist[v as usize] += 1;
        self.counters.victims += 1;
        self.relocate_and_erase(victim, Relocation::Gc);
        true
    }

    /// d-choices within `pool`: d closed blocks of the pool sampled uniformly (with
    /// replacement, by rejection from all closed blocks), the one with the fewest valid pages;
    /// if the samples run out first, the pool's closed block with the fewest.
    fn choose_in_pool(&mut self, pool: usize) -> Option<u32> {
        let pools = self.pools.as_mut()?;
        let n = pools.free.len() as u32;
        let closed = self.blocks.closed_blocks();
        if closed.is_empty() {
            return None;
        }
        let valid = &self.blocks.valid;
        let (mut best, mut found, mut tries) = (NIL, 0, 0);
        while found < pools.d && tries < TRIES_PER_SAMPLE * pools.d {
            tries += 1;
            let b = closed[pools.rng.below(closed.len() as u64) as usize];
            if (b % n) as usize == pool {
                found += 1;
                if best == NIL || valid[b as usize] < valid[best as usize] {
                    best = b;
                }
            }
        }
        if best != NIL {
            return Some(best);
        }
        closed
            .iter()
            .copied()
            .filter(|&b| (b % n) as usize == pool)
            .min_by_key(|&b| valid[b as usize])
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{PolicyKind, SimConfig};
    use crate::ftl::Ftl;

    fn config(pools: u32) -> SimConfig {
        let mut c = SimConfig::default();
        c.geometry.physical_bytes = Some(64 * 32 * 4096);
        c.geometry.user_pages = Some(52 * 32);
        c.geometry.pages_per_block = 32;
        c.geometry.page_size_bytes = 4096;
        c.ftl.policy = PolicyKind::DChoices;
        c.ftl.d_choices = 4;
        c.ftl.gc_free_blocks = 4;
        c.ftl.plane_pools = pools;
        c
    }

    #[test]
    fn each_pool_keeps_its_own_blocks_and_collects_its_own_victims() {
        let ftl = written(&config(2));
        let user = ftl.geom.user_pages;
        assert!(ftl.counters().victims > 0);
        // every mapped page is in the pool of its address: blocks of pool lpn % 2
        let mut mapped = 0;
        for lpn in 0..user {
            if let Some(p) = ftl.lookup(lpn) {
                assert_eq!((p / 32) % 2, lpn % 2, "lpn {lpn} at page {p}");
                mapped += 1;
            }
        }
        assert!(mapped > user * 9 / 10, "{mapped} of {user} mapped");
        let pools = ftl.pools.as_ref().expect("pools");
        for (i, f) in pools.free.iter().enumerate() {
            assert!(f.len() >= pools.trigger, "pool {i}: {} free", f.len());
        }
    }

    /// The FTL of `c` after `8 × user` uniform random writes.
    fn written(c: &SimConfig) -> Ftl {
        let g = c.validate().expect("valid");
        let mut ftl = Ftl::new(c, g);
        let user = g.user_pages;
        let mut x = 12345u64;
        for _ in 0..8 * user {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ftl.write(((x >> 33) % user as u64) as u32, 0);
        }
        ftl.check_invariants().expect("invariants");
        ftl
    }

    #[test]
    fn a_check_whose_victim_has_no_invalid_page_starts_no_collection() {
        // few samples and a thin spare, so that victims without an invalid page come up
        let mut c = config(2);
        c.geometry.user_pages = Some(54 * 32);
        c.ftl.d_choices = 2;
        let off = written(&c);
        assert_eq!(off.skipped_checks(), 0);
        let full_off = off.victim_valid_hist[32];
        assert!(
            full_off > 0,
            "no full victim collected: the test shows nothing"
        );
        c.ftl.gc_skip_full_victim = true;
        let on = written(&c);
        let skipped = on.skipped_checks();
        let full_on = on.victim_valid_hist[32];
        assert!(skipped > 0, "no check skipped");
        // a full victim is collected only by a pool under two free blocks
        assert!(
            full_on < full_off,
            "{full_on} full victims collected, off {full_off}"
        );
        assert_ne!(on.counters(), off.counters());
        let pools = on.pools.as_ref().expect("pools");
        for (i, f) in pools.free.iter().enumerate() {
            assert!(!f.is_empty(), "pool {i} ran dry");
        }
    }

    #[test]
    fn plane_pools_are_checked() {
        let mut c = config(2);
        c.ftl.policy = PolicyKind::Greedy;
        assert!(c.validate().is_err());
        let mut c = config(1);
        assert!(c.validate().is_err());
        c.ftl.plane_pools = 0;
        assert!(c.validate().is_ok());
        let c = config(17);
        assert!(c.validate().is_err());
        let mut c = config(0);
        c.ftl.gc_skip_full_victim = true;
        let err = c.validate().unwrap_err().to_string();
        assert!(err.contains("ftl.gc_skip_full_victim"), "{err}");
    }
}
