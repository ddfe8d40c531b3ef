//! Cost-benefit: collect the block maximising age·(1−u)/(2u), u its valid fraction (benefit:
//! free space gained, weighted by how long it has stayed cold; cost: reading the block and
//! writing back its live data). Rosenblum & Ousterhout, "The design and implementation of a
//! log-structured file system", ACM TOCS 10(1), 1992. Age is the time since the block was closed,
//! in host page writes, plus one.
//!
//! The choice is defined by a scan of the closed blocks in [`BlockTable::closed_blocks`] order:
//! the first block with no valid page at once, else the first block with the greatest score.
//! The pick makes that same choice in O(pages per block): for a fixed valid count the score
//! grows strictly with age, so only the earliest-closed blocks of each valid-count bucket
//! ([`BlockTable::bucket_oldest`]) can reach the greatest score; among the blocks that reach it,
//! the one earliest in the closed list is taken, as the scan takes it. (Strictly: two ages
//! below 2^50 never round to the same score; beyond that clock, or without the bucket ages,
//! the pick is the scan itself.)

use super::{VictimContext, VictimPolicy};
use crate::ftl::blocks::{BlockTable, NIL};
use crate::rng::Rng;

/// Host-write clock up to which distinct ages of one valid count give distinct scores.
const EXACT_AGE_CLOCK: u64 = 1 << 50;

#[derive(Debug, Clone, Copy, Default)]
pub struct CostBenefit;

impl VictimPolicy for CostBenefit {
    fn choose(&mut self, ctx: &VictimContext<'_>, _rng: &mut Rng) -> Option<u32> {
        if ctx.blocks.bucket_ages_ready() && ctx.now < EXACT_AGE_CLOCK {
            choose_by_bucket_ages(ctx.blocks, ctx.now)
        } else {
            choose_by_scan(ctx.blocks, ctx.now)
        }
    }
}

/// The score of a closed block with `valid` of `pages_per_block` pages valid, closed at
/// `closed_at`, at host-write clock `now` (`valid` > 0).
#[inline]
fn score(valid: u32, pages_per_block: f64, closed_at: u64, now: u64) -> f64 {
    let u = valid as f64 / pages_per_block;
    let age = (now - closed_at) as f64 + 1.0;
    age * (1.0 - u) / (2.0 * u)
}

/// The choice by definition: one pass over every closed block, O(blocks).
pub fn choose_by_scan(blocks: &BlockTable, now: u64) -> Option<u32> {
    let ppb = blocks.pages_per_block() as f64;
    let mut best: Option<(f64, u32)> = None;
    for &b in blocks.closed_blocks() {
        let v = blocks.valid[b as usize];
        if v == 0 {
            return Some(b); // nothing to copy: free space at no cost
        }
        let s = score(v, ppb, blocks.closed_at[b as usize], now);
        if best.is_none_or(|(top, _)| s > top) {
            best = Some((s, b));
        }
    }
    best.map(|(_, b)| b)
}

/// The block of bucket `valid` closed at `closed_at` that comes first in the closed list.
fn first_closed_at(blocks: &BlockTable, valid: u32, closed_at: u64) -> (u32, u32) {
    let mut best = (u32::MAX, NIL);
    let mut b = blocks.bucket_first(valid).unwrap_or(NIL);
    while b != NIL {
        if blocks.closed_at[b as usize] == closed_at {
            best = best.min((blocks.closed_position(b), b));
        }
        b = blocks.bucket_next(b);
    }
    best
}

/// The scan's choice from the bucket ages: O(pages per block), plus a walk of a bucket where
/// several blocks closed at once reach the greatest score, or of the empty blocks' bucket.
fn choose_by_bucket_ages(blocks: &BlockTable, now: u64) -> Option<u32> {
    let ppb = blocks.pages_per_block();
    if let Some(first) = blocks.bucket_first(0) {
        // the scan's first empty block, whatever its close time: the whole bucket
        let mut best = (u32::MAX, NIL);
        let mut b = first;
        while b != NIL {
            best = best.min((blocks.closed_position(b), b));
            b = blocks.bucket_next(b);
        }
        return Some(best.1);
    }
    // (score, closed-list position, block) of the best so far
    let mut best: Option<(f64, u32, u32)> = None;
    for v in 1..ppb {
        let Some(oldest) = blocks.bucket_oldest(v) else {
            continue;
        };
        let s = score(v, ppb as f64, oldest.closed_at, now);
        if best.is_some_and(|(top, _, _)| s < top) {
            continue;
        }
        let (pos, b) = if oldest.count == 1 {
            (blocks.closed_position(oldest.block), oldest.block)
        } else {
            first_closed_at(blocks, v, oldest.closed_at)
        };
        if best.is_none_or(|(top, top_pos, _)| s > top || pos < top_pos) {
            best = Some((s, pos, b));
        }
    }
    // with no block partly valid, every closed block is full and scores 0: the scan keeps the
    // first
    best.map(|(_, _, b)| b)
        .or_else(|| blocks.closed_blocks().first().copied())
}
