//! Software prefetch of the state an upcoming host request will touch, so that cache misses of
//! several requests overlap instead of following one another (memory-level parallelism).
//!
//! A request's host writes touch, in dependent order: the forward map entry `l2p[lpn]`, then,
//! through the old physical page it names, that page's valid bit and its block's entries (valid
//! count, state, valid-count bucket links). The caller knows the upcoming LBAs (the workload is
//! generated ahead), so it asks for the map entries of a request well ahead of time
//! ([`Ftl::prefetch_map`]) and, once those have arrived, for the old page's state
//! ([`Ftl::prefetch_old_pages`]). Garbage collection prefetches the map entries of all the
//! valid pages of a victim before moving them (see `relocate_and_erase`).
//!
//! Prefetches are hints: they never change a result, only when data arrives in the cache. On
//! targets other than x86-64 they compile to nothing.

use super::{Ftl, UNMAPPED};

/// Bring the cache line holding `*p` into the cache (a hint; no fault on any address).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is a hint; it never faults and has no architectural effect.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Forward-map entries per 64-byte cache line.
const MAP_ENTRIES_PER_LINE: u32 = 16;

/// A request wider than this many pages prefetches its first pages only: its later pages are
/// contiguous in the map and its own first misses already overlap the rest of the work.
const MAX_PREFETCH_PAGES: u32 = 64;

impl Ftl {
    /// Stage 1: prefetch the forward-map entries of logical pages `lpn .. lpn + pages`.
    #[inline(always)]
    pub fn prefetch_map(&self, lpn: u32, pages: u32) {
        let end = lpn.saturating_add(pages.min(MAX_PREFETCH_PAGES));
        let mut l = lpn;
        while l < end && (l as usize) < self.l2p.len() {
            prefetch(&self.l2p[l as usize]);
            l = (l | (MAP_ENTRIES_PER_LINE - 1)) + 1; // start of the next cache line
        }
    }

    /// Stage 2: for logical pages `lpn .. lpn + pages`, read the forward map (prefetched by
    /// stage 1) and prefetch the valid bit and block entries of the pages they map to now.
    #[inline(always)]
    pub fn prefetch_old_pages(&self, lpn: u32, pages: u32) {
        let end = lpn.saturating_add(pages.min(MAX_PREFETCH_PAGES));
        for l in lpn..end {
            let Some(&old) = self.l2p.get(l as usize) else {
                return;
            };
            if old == UNMAPPED {
                continue;
            }
            prefetch(&self.valid[(old >> 6) as usize]);
            let b = self.block_of.div(old);
            self.blocks.prefetch_block(b);
        }
    }
}
