//! Wear: the free-block pool (oldest-freed first, or least-worn first for dynamic wear
//! levelling) and the static wear-levelling trigger.
//!
//! Dynamic and static wear levelling as surveyed by Chang, Hsieh & Kuo, "Efficient wear
//! leveling in NAND flash memory", in "Inside Solid State Drives" (Springer 2013): dynamic WL
//! only steers new writes to young blocks; static WL also moves cold data off young blocks.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::blocks::{BlockState, BlockTable};

/// Erased blocks waiting for a frontier.
#[derive(Debug, Clone)]
pub enum FreePool {
    /// Oldest-freed first.
    Fifo(VecDeque<u32>),
    /// Least-worn first (dynamic wear levelling).
    LeastWorn(BinaryHeap<Reverse<(u32, u32)>>),
}

impl FreePool {
    pub fn new(dynamic: bool, blocks: u32) -> Self {
        if dynamic {
            FreePool::LeastWorn((0..blocks).map(|b| Reverse((0, b))).collect())
        } else {
            FreePool::Fifo((0..blocks).collect())
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            FreePool::Fifo(q) => q.len(),
            FreePool::LeastWorn(h) => h.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        match self {
            FreePool::Fifo(q) => q.pop_front(),
            FreePool::LeastWorn(h) => h.pop().map(|Reverse((_, b))| b),
        }
    }
    #[inline]
    pub fn push(&mut self, block: u32, erase_count: u32) {
        match self {
            FreePool::Fifo(q) => q.push_back(block),
            FreePool::LeastWorn(h) => h.push(Reverse((erase_count, block))),
        }
    }
}

/// The closed block static wear levelling should migrate, if the spread of erase counts
/// (max over all blocks − min over closed blocks) exceeds `threshold`.
pub fn static_wl_candidate(blocks: &BlockTable, threshold: u32) -> Option<u32> {
    let max = *blocks.erase_count.iter().max()?;
    let (min, b) = blocks
        .closed_blocks()
        .iter()
        .map(|&b| (blocks.erase_count[b as usize], b))
        .min()?;
    debug_assert_eq!(blocks.state[b as usize], BlockState::Closed);
    (max - min > threshold).then_some(b)
}

/// Erase-count distribution over all blocks.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct EraseSummary {
    pub min: u32,
    pub max: u32,
    pub mean: f64,
    pub stddev: f64,
}

pub fn erase_summary(blocks: &BlockTable) -> EraseSummary {
    let n = blocks.erase_count.len().max(1) as f64;
    let (mut min, mut max, mut sum, mut sq) = (u32::MAX, 0u32, 0f64, 0f64);
    for &e in &blocks.erase_count {
        min = min.min(e);
        max = max.max(e);
        sum += e as f64;
        sq += e as f64 * e as f64;
    }
    let mean = sum / n;
    let var = (sq / n - mean * mean).max(0.0);
    EraseSummary {
        min: if min == u32::MAX { 0 } else { min },
        max,
        mean,
        stddev: var.sqrt(),
    }
}
