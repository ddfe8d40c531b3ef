//! The SLC write cache: host writes programmed one bit per cell while the cache has room.
//!
//! The cache has two parts. A *static* (default) region (`slc.static_bytes`) is kept whatever
//! the free space: it lives in blocks of its own. The *dynamic* part (up to `max_bytes -
//! static_bytes`) is free space run in SLC mode, at most a third of it (an SLC cell holds a
//! third of a TLC cell's data): of the FTL's free blocks (`dynamic_space = "free"`), or of the
//! free blocks beyond the native spare, the user capacity not yet written (`"unwritten"`), so
//! that it vanishes on a full drive. Samsung documents its TurboWrite cache this way: a fixed
//! default region plus an "Intelligent TurboWrite" region on unused capacity that does not
//! function when the drive lacks free space (Myce, "Samsung 860 EVO 250GB SATA SSD Review",
//! <https://www.myce.com/reviews/samsung-860-evo-250gb-sata-ssd-review-83537/>).
//!
//! When the cache is full, host writes are programmed in TLC directly and the cache is folded
//! (SLC read + TLC program) only in idle time (`Engine::idle_fold`): AnandTech, "Samsung SSD
//! 850 EVO Review" (<https://www.anandtech.com/show/8747/samsung-ssd-850-evo-review/2>): "All
//! writes hit the SLC buffer first, from which they then get moved to the TLC array during
//! idle time", a sustained write beyond the buffer being "written straight to the TLC
//! portion". The one fold that competes with host writes is of what no longer fits when the
//! dynamic part shrinks with free space. Without a static region and with `"free"` (the
//! defaults) this is the dynamic cache the core always had, operation for operation.

use crate::config::{SlcConfig, SlcDynamicSpace};
use crate::geometry::Geometry;

use super::Engine;

#[derive(Debug, Clone)]
pub(super) struct Slc {
    pub(super) max_units: u64,
    /// The static region, kept whatever the free space.
    static_units: u64,
    /// Free units the dynamic part does not draw on (the native spare with `"unwritten"`).
    reserve_units: u64,
    pub(super) used: u64,
    pub(super) program_unit_ns: u64,
    pub(super) program_page_ns: u64,
    read_unit_ns: u64,
    pub(super) written_units: u64,
    pub(super) folded_units: u64,
    next_fold_die: u32,
}

impl Slc {
    pub(super) fn new(c: &SlcConfig, g: &Geometry, upp: u64) -> Self {
        // an SLC page stores a third of a TLC page's data
        let slc_units_per_page = (upp as f64 / 3.0).max(1.0);
        let unit = g.page_size_bytes as u64;
        Slc {
            max_units: c.max_bytes / unit,
            static_units: (c.static_bytes / unit).min(c.max_bytes / unit),
            reserve_units: match c.dynamic_space {
                SlcDynamicSpace::Free => 0,
                SlcDynamicSpace::Unwritten => g.physical_pages() - g.user_pages as u64,
            },
            used: 0,
            program_unit_ns: (c.program_us * 1000.0 / slc_units_per_page).round() as u64,
            program_page_ns: (c.program_us * 1000.0).round() as u64,
            read_unit_ns: (c.read_us * 1000.0 / slc_units_per_page).round() as u64,
            written_units: 0,
            folded_units: 0,
            next_fold_die: 0,
        }
    }

    /// The units the cache may hold with `free_units` free in the FTL: the static region plus
    /// a third of the free space the dynamic part draws on, at most `max_units` in all.
    pub(super) fn capacity(&self, free_units: u64) -> u64 {
        let dynamic = free_units.saturating_sub(self.reserve_units) / 3;
        self.static_units + dynamic.min(self.max_units - self.static_units)
    }

    /// A host write's unit: whether it goes to SLC (taking a unit of the cache), and how many
    /// units the cache holds beyond its capacity (to fold now).
    pub(super) fn admit(&mut self, free_units: u64) -> (bool, u64) {
        let cap = self.capacity(free_units);
        let in_slc = self.used < cap;
        if in_slc {
            self.used += 1;
            self.written_units += 1;
        }
        (in_slc, self.used.saturating_sub(cap))
    }
}

impl Engine {
    /// Die time (per unit, per whole page) for a host write and whether it goes to SLC,
    /// choosing SLC while the cache has room; folds what no longer fits when free space (and
    /// the dynamic part) shrinks.
    pub(super) fn host_program_ns(&mut self, free_units: u64, t: u64) -> (u64, u64, bool) {
        let tlc = (self.program_unit_ns, self.program_page_ns, false);
        let Some(slc) = &mut self.slc else { return tlc };
        let (in_slc, excess) = slc.admit(free_units);
        let ns = if in_slc {
            (slc.program_unit_ns, slc.program_page_ns, true)
        } else {
            tlc
        };
        if excess > 0 {
            self.fold(excess, t);
        }
        ns
    }

    /// Fold `units` from SLC into TLC: read in SLC mode, program in TLC mode.
    pub(super) fn fold(&mut self, units: u64, t: u64) {
        let Some(slc) = &mut self.slc else { return };
        let units = units.min(slc.used);
        slc.used -= units;
        slc.folded_units += units;
        let (read_ns, mut die) = (slc.read_unit_ns, slc.next_fold_die);
        for _ in 0..units {
            let d = die as usize;
            let out = self.sense(d, t, read_ns);
            self.program_internal(d, out);
            die = (die + 1) % self.dies;
        }
        if let Some(slc) = &mut self.slc {
            slc.next_fold_die = die;
        }
    }

    /// Idle time before `until`: fold the SLC cache a flash page at a time while every die is
    /// idle. Returns whether any work was scheduled.
    pub fn idle_fold(&mut self, until: u64) -> bool {
        let mut worked = false;
        while self.slc.as_ref().is_some_and(|s| s.used > 0) && self.dies_idle_at() < until {
            let t = self.dies_idle_at();
            self.fold(self.upp * self.dies as u64, t);
            worked = true;
        }
        worked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> Geometry {
        // 1,000 blocks of 256 units, 900 blocks of user capacity: 25,600 units of spare
        Geometry {
            page_size_bytes: 4096,
            pages_per_block: 256,
            blocks: 1000,
            user_pages: 900 * 256,
        }
    }

    fn slc(static_bytes: u64, max_bytes: u64, space: SlcDynamicSpace) -> Slc {
        let c = SlcConfig {
            enabled: true,
            max_bytes,
            static_bytes,
            dynamic_space: space,
            ..SlcConfig::default()
        };
        Slc::new(&c, &geometry(), 8)
    }

    const UNIT: u64 = 4096;

    #[test]
    fn without_a_static_region_the_cache_is_a_third_of_free_space_up_to_its_size() {
        let s = slc(0, 10_000 * UNIT, SlcDynamicSpace::Free);
        assert_eq!(s.capacity(256_000), 10_000);
        assert_eq!(s.capacity(9_000), 3_000);
        assert_eq!(s.capacity(0), 0);
    }

    #[test]
    fn the_static_region_is_kept_whatever_the_free_space() {
        let s = slc(2_000 * UNIT, 10_000 * UNIT, SlcDynamicSpace::Free);
        assert_eq!(s.capacity(0), 2_000);
        assert_eq!(s.capacity(9_000), 5_000); // 2,000 + a third of 9,000
        assert_eq!(s.capacity(256_000), 10_000); // never beyond max_bytes
    }

    #[test]
    fn an_unwritten_dynamic_part_vanishes_once_free_space_is_down_to_the_spare() {
        let s = slc(2_000 * UNIT, 10_000 * UNIT, SlcDynamicSpace::Unwritten);
        let spare = 100 * 256;
        assert_eq!(s.capacity(spare), 2_000); // a filled drive: the default region alone
        assert_eq!(s.capacity(spare / 2), 2_000); // below the spare: still the region
        assert_eq!(s.capacity(spare + 9_000), 5_000);
        assert_eq!(s.capacity(256_000), 10_000); // purged: the whole cache
    }

    #[test]
    fn a_full_cache_sends_writes_to_tlc_and_folds_only_what_no_longer_fits() {
        let mut s = slc(2_000 * UNIT, 10_000 * UNIT, SlcDynamicSpace::Unwritten);
        let spare = 100 * 256;
        // the static region takes 2,000 writes, then writes go to TLC with nothing folded
        for _ in 0..2_000 {
            assert_eq!(s.admit(spare), (true, 0));
        }
        for _ in 0..100 {
            assert_eq!(s.admit(spare), (false, 0));
        }
        assert_eq!((s.used, s.written_units), (2_000, 2_000));
        // with free space, the dynamic part takes writes again
        assert_eq!(s.admit(spare + 9_000), (true, 0));
        assert_eq!(s.used, 2_001);
        // free space gone again: the dynamic part's unit no longer fits and is folded
        assert_eq!(s.admit(spare), (false, 1));
    }

    #[test]
    fn the_static_region_is_never_larger_than_the_cache() {
        let s = slc(20_000 * UNIT, 10_000 * UNIT, SlcDynamicSpace::Free);
        assert_eq!(s.capacity(0), 10_000);
    }
}
