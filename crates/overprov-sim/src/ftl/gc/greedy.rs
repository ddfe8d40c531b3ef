//! Greedy: collect the closed block with the fewest valid pages.
//!
//! The classic policy analysed by Bux & Iliadis, "Performance of greedy garbage collection in
//! flash-based solid-state drives", Performance Evaluation 67(11), 2010, and Desnoyers,
//! "Analytic modeling of SSD write performance", SYSTOR 2012. O(1) per pick amortised: the block
//! table keeps closed blocks in buckets by valid count, so the pick is the first non-empty bucket.

use super::{VictimContext, VictimPolicy};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

impl VictimPolicy for Greedy {
    fn choose(&mut self, ctx: &VictimContext<'_>, _rng: &mut Rng) -> Option<u32> {
        (0..=ctx.blocks.pages_per_block()).find_map(|v| ctx.blocks.bucket_first(v))
    }
}
