//! d-choices: sample d closed blocks uniformly (with replacement) and collect the one with the
//! fewest valid pages. d = 1 is random, d → ∞ is greedy. Van Houdt, "A mean field model for a
//! class of garbage collection algorithms in flash-based solid state drives", SIGMETRICS 2013.

use super::{VictimContext, VictimPolicy};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy)]
pub struct DChoices {
    pub d: u32,
}

impl VictimPolicy for DChoices {
    fn choose(&mut self, ctx: &VictimContext<'_>, rng: &mut Rng) -> Option<u32> {
        let closed = ctx.blocks.closed_blocks();
        if closed.is_empty() {
            return None;
        }
        let n = closed.len() as u64;
        let mut best = closed[rng.below(n) as usize];
        for _ in 1..self.d {
            let b = closed[rng.below(n) as usize];
            if ctx.blocks.valid[b as usize] < ctx.blocks.valid[best as usize] {
                best = b;
            }
        }
        Some(best)
    }
}
