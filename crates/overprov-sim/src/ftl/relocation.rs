//! Relocation: a GC victim's (or a static wear-levelling block's) valid pages moved to a write
//! frontier (or, with channel pools, round-robin over the channels' open blocks) and the block
//! erased back to its free pool.

use super::blocks::BlockState;
use super::{prefetch, Frontier, Ftl, GcTarget, NandOp, Relocation};

/// Valid pages of a GC victim whose forward-map entries are prefetched ahead of the one being
/// moved: enough misses in flight to fill the core's miss buffers.
const RELOCATION_PREFETCH_WINDOW: usize = 16;

impl Ftl {
    /// Move every valid page of closed block `b` to the GC frontier of its stream; erase it.
    pub(super) fn relocate_and_erase(&mut self, b: u32, why: Relocation) {
        debug_assert_eq!(self.blocks.state[b as usize], BlockState::Closed);
        self.blocks.remove_closed(b);
        let stream = self.blocks.stream[b as usize] as usize;
        let target = match self.gc_target {
            GcTarget::PerStream => self.streams + stream,
            GcTarget::Shared => stream,
            GcTarget::Common => self.streams,
        };
        // the valid pages, in page order; their forward-map entries are prefetched a window
        // ahead of the moves (the map writes are the misses of a relocation)
        let mut sources = std::mem::take(&mut self.reloc_sources);
        sources.clear();
        let start = b * self.ppb;
        let end = start + self.ppb;
        // the victim's reverse-map entries, read below for every valid page: one request per
        // cache line now, so they arrive while the valid pages are listed
        for p in (start..end).step_by(16) {
            prefetch::prefetch(&self.p2l[p as usize]);
        }
        let mut p = start;
        while p < end {
            let bit = p & 63;
            let span = (64 - bit).min(end - p);
            let in_block = if span < 64 {
                ((1u64 << span) - 1) << bit
            } else {
                u64::MAX
            };
            // the victim's valid bits are read here and cleared (it is erased after the moves)
            let w = &mut self.valid[(p >> 6) as usize];
            let mut word = (*w & in_block) >> bit;
            *w &= !in_block;
            while word != 0 {
                sources.push(p + word.trailing_zeros());
                word &= word - 1;
            }
            p += span;
        }
        for &src in sources.iter().take(RELOCATION_PREFETCH_WINDOW) {
            prefetch::prefetch(&self.l2p[self.p2l[src as usize] as usize]);
        }
        // the moves, a run of pages at a time: as many as the target frontier's block has room
        // for (the block's valid count is added once per run, before the block can close);
        // with channel pools, each page to the next page of the round-robin instead
        let mut i = match self.channels {
            None => 0,
            Some(_) => {
                self.move_round_robin(&sources);
                sources.len()
            }
        };
        while i < sources.len() {
            if self.frontiers[target].next == self.ppb {
                self.advance(target, false);
            }
            let Frontier { block, next } = self.frontiers[target];
            let run = ((self.ppb - next) as usize).min(sources.len() - i);
            let first = block * self.ppb + next;
            for (k, &src) in sources[i..i + run].iter().enumerate() {
                if let Some(&ahead) = sources.get(i + k + RELOCATION_PREFETCH_WINDOW) {
                    prefetch::prefetch(&self.l2p[self.p2l[ahead as usize] as usize]);
                }
                let lpn = self.p2l[src as usize];
                let dst = first + k as u32;
                self.l2p[lpn as usize] = dst;
                self.p2l[dst as usize] = lpn;
                self.valid[(dst >> 6) as usize] |= 1u64 << (dst & 63);
                self.log(NandOp::RelocRead(src));
                self.log(NandOp::RelocProgram(dst));
                #[cfg(feature = "audit")]
                {
                    self.stamp[dst as usize] = self.stamp[src as usize];
                }
            }
            self.frontiers[target].next += run as u32;
            self.blocks.valid[block as usize] += run as u32;
            i += run;
        }
        let moved = sources.len() as u64;
        if !self.owner.is_empty() {
            self.count_relocated_by_handle(&sources);
        }
        self.reloc_sources = sources;
        match why {
            Relocation::Gc => self.counters.gc_pages += moved,
            Relocation::WearLevelling => self.counters.wl_pages += moved,
        }
        self.blocks.erase(b);
        self.counters.erases += 1;
        self.log(NandOp::Erase(b));
        let erases = self.blocks.erase_count[b as usize];
        match (&mut self.pools, &mut self.channels) {
            (Some(p), _) => p.push(b, erases),
            (None, Some(c)) => c.push(b),
            (None, None) => self.free.push(b, erases),
        }
    }

    /// With placement: count relocated pages against the handle whose host write they hold
    /// (the source pages' reverse map still names the logical pages moved). Out of line, so the
    /// relocation loop compiles as it does without placement.
    #[cold]
    #[inline(never)]
    fn count_relocated_by_handle(&mut self, sources: &[u32]) {
        for &src in sources {
            let lpn = self.p2l[src as usize];
            self.handle_gc_pages[self.owner[lpn as usize] as usize] += 1;
        }
    }
}
