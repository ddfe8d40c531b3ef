//! The per-write GC trigger (`ftl.gc_trigger = "per-write"`): one victim after each host page
//! write that leaves `gc_free_blocks` blocks' worth of free pages or fewer, as SSDsim's
//! pagemap.c `get_ppn()` queues one uninterruptible collection per write that leaves its plane
//! under its threshold. The victim's valid pages go through its GC target, which with
//! `gc_frontier = "shared"` is the host frontier, so one victim's survivors and the host pages
//! that spend the space it freed share blocks (`uninterrupt_gc()` moves them into the active
//! block the host writes fill). The batched trigger (`collect_garbage`) instead collects
//! victims back to back when a host write fills its block.

use super::Ftl;

impl Ftl {
    /// Pages that can still be programmed without an erase: the free pool's blocks and the
    /// open frontier blocks' unwritten pages (SSDsim's plane `free_page`).
    pub(super) fn free_pages(&self) -> u64 {
        let open: u64 = self
            .frontiers
            .iter()
            .map(|f| (self.ppb - f.next) as u64)
            .sum();
        self.free.len() as u64 * self.ppb as u64 + open
    }

    /// After a host page write: collect one victim if the free pages are at or under the
    /// trigger (`gc_free_blocks` blocks' worth), then the static wear-levelling check.
    #[cold]
    #[inline(never)]
    pub(super) fn collect_after_host_write(&mut self) {
        if self.free_pages() > self.gc_free_blocks as u64 * self.ppb as u64 {
            return;
        }
        self.collect_victim();
        self.static_wear_levelling();
    }

    /// A host frontier needs a block: should the pool hold one or none, collect victims back
    /// to back until a block stays free once it opens, so a collection (which may open one
    /// block for its moves before it erases its victim) always finds one.
    pub(super) fn reserve_before_open(&mut self) {
        while self.free.len() < 2 && self.collect_victim() {}
    }
}
