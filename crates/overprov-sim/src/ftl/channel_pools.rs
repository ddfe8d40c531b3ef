//! A free pool per channel (`ftl.channel_pools` = N ≥ 2), as WiscSim's block pool allocates
//! (junhe/wiscsee, wiscsim/devblockpool.py `next_ppns`, `remove_full_cur_blocks`;
//! bench/foreign/results/wiscvictim/DIAGNOSIS.md, "(B)"): every block belongs to one channel and
//! a channel takes new blocks only from its own free blocks, the lowest-numbered first
//! (`next_ppns`); each channel has one open block
//! that host and GC pages share; pages go round-robin over the channels one at a time, and a
//! channel whose open block is full and whose pool is dry is skipped; victims are chosen by the
//! greedy over all channels, ties to the lowest-numbered block (WiscSim's `VictimBlocks` heap
//! of (valid ratio, block): ties decide which channels' pools refill, so they move the WAF),
//! and an erased victim returns to its own channel's pool. The
//! trigger (`gc_free_blocks`) is checked after each host page over all the pools together, as
//! WiscSim's `Cleaner` checks its high mark after each write; a collection first closes the full
//! open blocks (`remove_full_cur_blocks`). Not carried: WiscSim's 10-page sleep after a
//! collection (a collection ends above the trigger, so it cannot retrigger within it).
//!
//! Channel `c` holds contiguous block numbers: with B blocks, the first N − (B mod N) channels
//! hold ⌊B/N⌋ blocks each and the rest one more (a WiscSim drive with one translation block held
//! in each of its first h channels is N × per − h blocks: those channels one short).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::blocks::NIL;
use super::{Frontier, Ftl};
use crate::config::SimConfig;

/// The channels' free blocks and the round-robin turn.
#[derive(Debug, Clone)]
pub(super) struct ChannelPools {
    /// Per channel its free blocks, the lowest-numbered on top.
    free: Vec<BinaryHeap<Reverse<u32>>>,
    /// Blocks of each of the first `short` channels (the others hold one more).
    base: u32,
    short: u32,
    /// The channel the next page tries first.
    turn: usize,
}

impl ChannelPools {
    /// The pools of a drive of `blocks` blocks, all free; None when the option is off.
    pub(super) fn from_config(config: &SimConfig, blocks: u32) -> Option<Box<Self>> {
        let n = config.ftl.channel_pools;
        if n < 2 {
            return None;
        }
        let mut pools = ChannelPools {
            free: (0..n).map(|_| BinaryHeap::new()).collect(),
            base: blocks / n,
            short: n - blocks % n,
            turn: 0,
        };
        for b in 0..blocks {
            let c = pools.channel_of(b);
            pools.free[c].push(Reverse(b));
        }
        Some(Box::new(pools))
    }

    /// The channel block `b` belongs to.
    pub(super) fn channel_of(&self, b: u32) -> usize {
        let low = self.short * self.base;
        (if b < low {
            b / self.base
        } else {
            self.short + (b - low) / (self.base + 1)
        }) as usize
    }

    /// Free blocks in every channel's pool.
    pub(super) fn free_blocks(&self) -> usize {
        self.free.iter().map(BinaryHeap::len).sum()
    }

    /// An erased block returns to its channel's pool.
    pub(super) fn push(&mut self, block: u32) {
        let c = self.channel_of(block);
        self.free[c].push(Reverse(block));
    }
}

impl Ftl {
    /// The next page of the round-robin, host or GC: the channel whose turn it is, if its open
    /// block has room or its pool a free block (its full block is then closed), else the next
    /// channel. Returns (page, block). Out of line, so the default write path compiles as it
    /// did without channel pools.
    #[inline(never)]
    pub(super) fn program_round_robin(&mut self) -> (u32, u32) {
        let n = self.frontiers.len();
        for _ in 0..n {
            let pools = self.channels.as_mut().expect("channel pools");
            let c = pools.turn;
            pools.turn = (c + 1) % n;
            let f = self.frontiers[c];
            if f.block == NIL || f.next == self.ppb {
                let Some(Reverse(b)) = pools.free[c].pop() else {
                    continue; // a dry channel is skipped
                };
                self.close_frontier(c);
                self.blocks.open(b, c as u8);
                self.frontiers[c] = Frontier { block: b, next: 0 };
            }
            let f = &mut self.frontiers[c];
            let ppn = f.block * self.ppb + f.next;
            f.next += 1;
            return (ppn, f.block);
        }
        panic!("no channel has room: validation keeps spare blocks for GC");
    }

    /// After a host page with channel pools: collect if all the pools together hold the
    /// trigger's blocks or fewer.
    #[inline(never)]
    pub(super) fn collect_after_channel_write(&mut self) {
        if self.free_blocks() <= self.gc_free_blocks {
            self.collect_garbage();
        }
    }

    /// A collection's start: full open blocks become closed blocks, so they can be victims
    /// (WiscSim's `remove_full_cur_blocks`).
    pub(super) fn close_full_channel_blocks(&mut self) {
        for c in 0..self.frontiers.len() {
            if self.frontiers[c].block != NIL && self.frontiers[c].next == self.ppb {
                self.close_frontier(c);
            }
        }
    }

    /// The victim: the closed block with the fewest valid pages, the lowest-numbered of those.
    pub(super) fn lowest_numbered_greedy(&self) -> Option<u32> {
        let blocks = &self.blocks;
        let first = (0..=self.ppb).find_map(|v| blocks.bucket_first(v))?;
        let (mut best, mut b) = (first, blocks.bucket_next(first));
        while b != NIL {
            best = best.min(b);
            b = blocks.bucket_next(b);
        }
        Some(best)
    }

    /// A victim's valid pages, `sources`, each to the next page of the round-robin.
    pub(super) fn move_round_robin(&mut self, sources: &[u32]) {
        for &src in sources {
            let (dst, block) = self.program_round_robin();
            let lpn = self.p2l[src as usize];
            self.place(lpn, dst, block);
            self.log(super::NandOp::RelocRead(src));
            self.log(super::NandOp::RelocProgram(dst));
            #[cfg(feature = "audit")]
            {
                self.stamp[dst as usize] = self.stamp[src as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{GcFrontier, SimConfig};
    use crate::ftl::Ftl;

    fn config(channels: u32, batch: u32) -> SimConfig {
        let mut c = SimConfig::default();
        c.geometry.physical_bytes = Some(63 * 32 * 4096);
        c.geometry.user_pages = Some(40 * 32);
        c.geometry.pages_per_block = 32;
        c.geometry.page_size_bytes = 4096;
        c.ftl.gc_free_blocks = 6;
        c.ftl.gc_until_free_fraction = Some(0.25);
        c.ftl.gc_frontier = GcFrontier::Shared;
        c.ftl.channel_pools = channels;
        c.ftl.gc_batch_victims = batch;
        c
    }

    fn random_writes(ftl: &mut Ftl, user: u32, writes: u32, mut each: impl FnMut(&Ftl, u64)) {
        let mut x = 12345u64;
        for _ in 0..writes {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let before = ftl.counters().victims;
            ftl.write(((x >> 33) % user as u64) as u32, 0);
            each(ftl, before);
        }
    }

    #[test]
    fn blocks_stay_in_their_channel_and_pages_go_round_robin() {
        let c = config(4, 0);
        let g = c.validate().expect("valid");
        let mut ftl = Ftl::new(&c, g);
        let pools = ftl.channels.as_ref().expect("pools");
        // 63 blocks over 4 channels: the first one holds 15, the others 16
        let sizes: Vec<usize> = (0..4)
            .map(|ch| (0..63).filter(|&b| pools.channel_of(b) == ch).count())
            .collect();
        assert_eq!(sizes, [15, 16, 16, 16]);
        // the sequential fill: page i lands in channel i % 4 (no channel is dry yet)
        for lpn in 0..64 {
            ftl.write(lpn, 0);
            let b = ftl.lookup(lpn).expect("mapped") / 32;
            assert_eq!(
                ftl.channels.as_ref().unwrap().channel_of(b),
                lpn as usize % 4
            );
        }
        random_writes(&mut ftl, g.user_pages, 10 * g.user_pages, |_, _| {});
        ftl.check_invariants().expect("invariants");
        assert!(ftl.counters().victims > 0 && ftl.counters().gc_pages > 0);
        // every open block is its channel's
        for (ch, f) in ftl.frontiers.iter().enumerate() {
            if f.block != super::NIL {
                assert_eq!(ftl.channels.as_ref().unwrap().channel_of(f.block), ch);
            }
        }
    }

    #[test]
    fn victims_tie_to_the_lowest_block_and_channels_take_their_lowest_free_block() {
        let c = config(4, 0);
        let g = c.validate().expect("valid");
        let mut ftl = Ftl::new(&c, g);
        // the fill: each channel's blocks are taken lowest first (channel 0: 0..15, 1: 15..31)
        for lpn in 0..4 * 32 {
            ftl.write(lpn, 0);
        }
        let opened: Vec<u32> = ftl.frontiers.iter().map(|f| f.block).collect();
        assert_eq!(opened, [0, 15, 31, 47]);
        // rewrite every page of the four blocks once more: they close with 0 valid pages, all
        // tied; the lowest-numbered is the victim
        for lpn in 0..4 * 32 {
            ftl.write(lpn, 0);
        }
        assert_eq!(ftl.lowest_numbered_greedy(), Some(0));
    }

    #[test]
    fn a_dry_channel_is_skipped() {
        let c = config(4, 0);
        let g = c.validate().expect("valid");
        let mut ftl = Ftl::new(&c, g);
        // channel 1 runs dry: its blocks are taken out of its pool
        let pools = ftl.channels.as_mut().expect("pools");
        pools.free[1].clear();
        for lpn in 0..30 {
            ftl.write(lpn, 0);
            let b = ftl.lookup(lpn).expect("mapped") / 32;
            assert_ne!(ftl.channels.as_ref().unwrap().channel_of(b), 1);
        }
    }

    #[test]
    fn the_batch_stop_collects_whole_batches() {
        for batch in [1, 5] {
            let c = config(4, batch);
            let g = c.validate().expect("valid");
            let mut ftl = Ftl::new(&c, g);
            let until = (0.25 * 63.0) as usize;
            let mut collections = 0;
            random_writes(&mut ftl, g.user_pages, 10 * g.user_pages, |ftl, before| {
                let got = ftl.counters().victims - before;
                if got > 0 {
                    collections += 1;
                    assert_eq!(got % batch as u64, 0, "{got} victims, batch {batch}");
                    assert!(ftl.free_blocks() > until);
                }
            });
            assert!(collections > 5, "{collections} collections");
            ftl.check_invariants().expect("invariants");
        }
    }

    #[test]
    fn channel_pools_and_batches_are_checked() {
        assert!(config(4, 8).validate().is_ok());
        assert!(config(1, 0).validate().is_err());
        assert!(config(65, 0).validate().is_err());
        let mut c = config(4, 0);
        c.ftl.gc_frontier = GcFrontier::Separate;
        assert!(c.validate().is_err());
        let mut c = config(4, 0);
        c.ftl.gc_trigger = crate::config::CollectionTrigger::PerWrite;
        c.ftl.gc_until_free_fraction = None;
        assert!(c.validate().is_err());
        let mut c = config(4, 0);
        c.ftl.policy = crate::config::PolicyKind::DChoices;
        assert!(c.validate().is_err());
        let mut c = config(4, 0);
        c.wear.dynamic = true;
        assert!(c.validate().is_err());
        let mut c = config(0, 4);
        c.ftl.gc_trigger = crate::config::CollectionTrigger::PerWrite;
        c.ftl.gc_until_free_fraction = None;
        assert!(c.validate().is_err());
    }
}
