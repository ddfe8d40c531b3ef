//! Garbage-collection victim policies. Each is a small strategy in its own file: it looks at the
//! block table and returns the block to collect; it never changes FTL state.

mod cost_benefit;
mod d_choices;
mod fifo;
mod greedy;
mod random;

pub use cost_benefit::{choose_by_scan as cost_benefit_by_scan, CostBenefit};
pub use d_choices::DChoices;
pub use fifo::Fifo;
pub use greedy::Greedy;
pub use random::RandomVictim;

use super::blocks::BlockTable;
use crate::config::{FtlConfig, PolicyKind};
use crate::rng::Rng;

/// What a victim policy sees when it chooses.
#[derive(Debug)]
pub struct VictimContext<'a> {
    pub blocks: &'a BlockTable,
    /// Host-write clock (pages written by the host so far).
    pub now: u64,
}

/// A GC victim selection strategy.
pub trait VictimPolicy {
    /// The closed block to collect next, or `None` if there is no closed block.
    fn choose(&mut self, ctx: &VictimContext<'_>, rng: &mut Rng) -> Option<u32>;
    /// Told when a block is closed (policies that keep their own order use it).
    fn on_close(&mut self, _block: u32, _closed_at: u64) {}
    /// The block just chosen was not collected (a victim floor refused it): a policy that
    /// removed it from its own order puts it back where it was.
    fn put_back(&mut self, _block: u32, _closed_at: u64) {}
}

/// The configured policy (enum dispatch: a choice is made once per victim, not per page).
#[derive(Debug, Clone)]
pub enum Policy {
    Greedy(Greedy),
    Fifo(Fifo),
    Random(RandomVictim),
    DChoices(DChoices),
    CostBenefit(CostBenefit),
}

impl Policy {
    pub fn from_config(c: &FtlConfig) -> Self {
        match c.policy {
            PolicyKind::Greedy => Policy::Greedy(Greedy),
            PolicyKind::Fifo => Policy::Fifo(Fifo::default()),
            PolicyKind::Random => Policy::Random(RandomVictim),
            PolicyKind::DChoices => Policy::DChoices(DChoices { d: c.d_choices }),
            PolicyKind::CostBenefit => Policy::CostBenefit(CostBenefit),
        }
    }

    /// Whether the policy reads the block table's bucket ages (the table then keeps them).
    pub fn reads_bucket_ages(&self) -> bool {
        matches!(self, Policy::CostBenefit(_))
    }
}

impl VictimPolicy for Policy {
    fn choose(&mut self, ctx: &VictimContext<'_>, rng: &mut Rng) -> Option<u32> {
        match self {
            Policy::Greedy(p) => p.choose(ctx, rng),
            Policy::Fifo(p) => p.choose(ctx, rng),
            Policy::Random(p) => p.choose(ctx, rng),
            Policy::DChoices(p) => p.choose(ctx, rng),
            Policy::CostBenefit(p) => p.choose(ctx, rng),
        }
    }
    #[inline]
    fn on_close(&mut self, block: u32, closed_at: u64) {
        if let Policy::Fifo(p) = self {
            p.on_close(block, closed_at);
        }
    }
    fn put_back(&mut self, block: u32, closed_at: u64) {
        if let Policy::Fifo(p) = self {
            p.put_back(block, closed_at);
        }
    }
}
