//! The FTL's invariants, checked from scratch (the tests and property checks call it after
//! every step they take): the maps agree with each other, the valid counts with the maps, and
//! every block is in exactly one of the free pool, a frontier or the closed buckets.

use super::blocks::{BlockState, NIL};
use super::{Ftl, UNMAPPED};

impl Ftl {
    /// Check the FTL invariants from scratch; returns the first violation found.
    /// Every mapped LBA points at a valid page whose reverse map names it; each block's valid
    /// count equals the pages mapped into it; free + open + closed = all blocks; the greedy
    /// buckets hold exactly the closed blocks under their valid counts.
    pub fn check_invariants(&self) -> Result<(), String> {
        let ppb = self.ppb as usize;
        let mut per_block = vec![0u32; self.blocks.len()];
        let mut mapped = 0u64;
        for (lpn, &ppn) in self.l2p.iter().enumerate() {
            if ppn == UNMAPPED {
                continue;
            }
            mapped += 1;
            if ppn as u64 >= self.geom.physical_pages() {
                return Err(format!("lpn {lpn} maps to out-of-range page {ppn}"));
            }
            if self.valid[(ppn >> 6) as usize] >> (ppn & 63) & 1 == 0 {
                return Err(format!(
                    "lpn {lpn} maps to page {ppn}, which is not marked valid"
                ));
            }
            if self.p2l[ppn as usize] as usize != lpn {
                return Err(format!(
                    "lpn {lpn} maps to page {ppn}, whose reverse map names lpn {}",
                    self.p2l[ppn as usize]
                ));
            }
            per_block[ppn as usize / ppb] += 1;
        }
        let valid_bits: u64 = self.valid.iter().map(|w| w.count_ones() as u64).sum();
        if valid_bits != mapped {
            return Err(format!(
                "{valid_bits} pages marked valid but {mapped} LBAs mapped"
            ));
        }
        for (b, &n) in per_block.iter().enumerate() {
            if self.blocks.valid[b] != n {
                return Err(format!(
                    "block {b}: valid count {} but {n} LBAs map into it",
                    self.blocks.valid[b]
                ));
            }
        }
        let (mut free, mut open, mut closed) = (0usize, 0usize, 0usize);
        for s in &self.blocks.state {
            match s {
                BlockState::Free => free += 1,
                BlockState::Open => open += 1,
                BlockState::Closed => closed += 1,
                BlockState::Collecting => return Err("a block was left mid-collection".into()),
            }
        }
        if free != self.free_blocks() {
            return Err(format!(
                "{free} blocks in state free but the free pool holds {}",
                self.free_blocks()
            ));
        }
        let open_frontiers = self.frontiers.iter().filter(|f| f.block != NIL).count();
        if open != open_frontiers {
            return Err(format!(
                "{open} open blocks but {open_frontiers} frontiers hold a block"
            ));
        }
        if free + open + closed != self.blocks.len() {
            return Err(format!(
                "free {free} + open {open} + closed {closed} != {} blocks",
                self.blocks.len()
            ));
        }
        if self.blocks.closed_blocks().len() != closed {
            return Err("closed-block list out of step with block states".into());
        }
        let mut in_buckets = 0;
        for v in 0..=self.ppb {
            for b in self.blocks.bucket_members(v) {
                if self.blocks.state[b as usize] != BlockState::Closed
                    || self.blocks.valid[b as usize] != v
                {
                    return Err(format!(
                        "block {b} in bucket {v} is not a closed block with {v} valid pages"
                    ));
                }
                in_buckets += 1;
            }
        }
        if in_buckets != closed {
            return Err(format!("{in_buckets} blocks in buckets, {closed} closed"));
        }
        Ok(())
    }
}
