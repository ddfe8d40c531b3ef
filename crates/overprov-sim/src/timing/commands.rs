//! Commands the host sends a drive outside its reads and writes, for a drive driven request by
//! request (`crate::device`): a cache flush, and the SLC cache's fill as a figure.

use super::Engine;

impl Engine {
    /// A flush (cache flush command) issued at `t`; returns its completion time. A drive
    /// with power-loss protection, or one writing through, acknowledges it after the command
    /// overhead. Otherwise it waits for the buffered writes to reach NAND, then programs the
    /// mapping/journal metadata pages (`flush.metadata_flash_pages`) after the previous
    /// flush, as a write-through write does; with nothing buffered it completes at once.
    pub fn flush_cache(&mut self, t: u64, power_loss_protected: bool) -> u64 {
        let t0 = t + self.overhead_ns;
        if power_loss_protected || self.write_through {
            return t0;
        }
        let pending = self.buffered.max().unwrap_or(0);
        if pending <= t0 {
            return t0;
        }
        self.flush(pending, 0)
    }

    /// Bytes the SLC cache holds that are not folded yet (None without an SLC cache).
    pub fn slc_used_bytes(&self, page_bytes: u64) -> Option<u64> {
        self.slc.as_ref().map(|s| s.used * page_bytes)
    }

    /// The SLC cache's capacity in bytes (None without an SLC cache).
    pub fn slc_max_bytes(&self, page_bytes: u64) -> Option<u64> {
        self.slc.as_ref().map(|s| s.max_units * page_bytes)
    }
}
