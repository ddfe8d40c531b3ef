//! Random: collect a closed block chosen uniformly at random. WAF = α/(α−1) for uniform
//! random writes (e.g. Van Houdt, "A mean field model for a class of garbage collection
//! algorithms in flash-based solid state drives", SIGMETRICS 2013, d = 1).

use super::{VictimContext, VictimPolicy};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, Default)]
pub struct RandomVictim;

impl VictimPolicy for RandomVictim {
    fn choose(&mut self, ctx: &VictimContext<'_>, rng: &mut Rng) -> Option<u32> {
        let closed = ctx.blocks.closed_blocks();
        if closed.is_empty() {
            return None;
        }
        Some(closed[rng.below(closed.len() as u64) as usize])
    }
}
