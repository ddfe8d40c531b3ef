//! Cost-benefit: collect the block maximising age·(1−u)/(2u), u its valid fraction (benefit:
//! free space gained, weighted by how long it has stayed cold; cost: reading the block and
//! writing back its live data). Rosenblum & Ousterhout, "The design and implementation of a
//! log-structured file system", ACM TOCS 10(1), 1992. Age is the time since the block was closed,
//! in host page writes. A scan over closed blocks per pick: O(blocks).

use super::{VictimContext, VictimPolicy};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, Default)]
pub struct CostBenefit;

impl VictimPolicy for CostBenefit {
    fn choose(&mut self, ctx: &VictimContext<'_>, _rng: &mut Rng) -> Option<u32> {
        let ppb = ctx.blocks.pages_per_block() as f64;
        let mut best: Option<(f64, u32)> = None;
        for &b in ctx.blocks.closed_blocks() {
            let v = ctx.blocks.valid[b as usize];
            if v == 0 {
                return Some(b); // nothing to copy: free space at no cost
            }
            let u = v as f64 / ppb;
            let age = (ctx.now - ctx.blocks.closed_at[b as usize]) as f64 + 1.0;
            let score = age * (1.0 - u) / (2.0 * u);
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, b));
            }
        }
        best.map(|(_, b)| b)
    }
}
