//! FIFO (circular log): collect the block closed longest ago, whatever it holds.
//!
//! Analysed as "LRU" by Desnoyers, SYSTOR 2012, and by Xiang & Kurkoski, "An improved analytic
//! expression for write amplification in NAND flash", ICNC 2012: WAF = α/(α + W₀(−α e^−α)).

use std::collections::VecDeque;

use super::{VictimContext, VictimPolicy};
use crate::ftl::blocks::BlockState;
use crate::rng::Rng;

/// Keeps blocks in the order they were closed; entries made stale by another route (a block
/// erased by wear levelling, then reused) are skipped by comparing the close time.
#[derive(Debug, Clone, Default)]
pub struct Fifo {
    order: VecDeque<(u32, u64)>,
}

impl VictimPolicy for Fifo {
    fn choose(&mut self, ctx: &VictimContext<'_>, _rng: &mut Rng) -> Option<u32> {
        while let Some(&(b, at)) = self.order.front() {
            let live = ctx.blocks.state[b as usize] == BlockState::Closed
                && ctx.blocks.closed_at[b as usize] == at;
            if live {
                self.order.pop_front();
                return Some(b);
            }
            self.order.pop_front();
        }
        None
    }
    fn on_close(&mut self, block: u32, closed_at: u64) {
        self.order.push_back((block, closed_at));
    }
    fn put_back(&mut self, block: u32, closed_at: u64) {
        self.order.push_front((block, closed_at));
    }
}
