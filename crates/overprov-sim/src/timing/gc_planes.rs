//! Multi-plane programs that take GC relocations (`timing.gc.multiplane`, with non-preemptive
//! GC, `timing.gc.blocking = "domain"`, and `timing.nand.planes_per_die` above 1).
//!
//! A collection relocates its victim's valid units within one plane (a GC domain's own
//! collection, as MQSim's per-plane GC relocates within the victim's plane), so each of its
//! relocation programs uses one plane of the die and leaves the others free. MQSim's
//! transaction scheduler (`TSU_Base::issue_command_to_chip`, with the GC write queue as its
//! first source when GC is non-preemptive, `TSU_Priority_OutOfOrder::service_write_transaction`)
//! fills those planes: a program command takes the front GC write and then one more write per
//! other plane of the die, GC writes of other collections first, host writes second. Here a
//! die's latest collection is a *window* of relocation programs, evenly spaced over its
//! relocations' die time (each slot a relocation's read, transfers and program); a host unit
//! of another GC domain on that die, or a relocation of another collection booked there, whose
//! data is ready by a slot's start takes a free plane of the earliest such slot: it completes
//! with that program and costs the die only its transfers (a relocation also its read). MQSim
//! requires the pages of one command to have the same page offset in their blocks; the window
//! ignores it (any free plane is taken), so it pairs at least as often as MQSim's scheduler
//! can — the offset rule is the option below. Host units of the collecting domain stay blocked until the
//! collection ends (`gc.blocking`), so they never join its window.
//!
//! **One page offset** (`timing.gc.multiplane_offsets` = N > 0, [`SameOffset`]): MQSim's rule
//! in full. A command takes its front transaction's die and page offset (the page's index in
//! its block) and then at most one ready transaction per other plane of that die *at the same
//! offset*; a host write's plane is fixed by its logical address (`CWDP`) and its page is the
//! next of that plane's frontier, a relocation's the next of its plane's GC frontier. Here each
//! host unit is placed on a die and plane by address — a pseudo-random slot per unit, as `CWDP`
//! places uniformly random logical pages — and takes the next offset of its plane's host
//! counter (mod N); a collection's relocations take the next offsets of its plane's GC
//! counter. Every program booked on a die and not yet started is kept under its offset with
//! the planes it uses; a unit (host or relocation) ready by such a program's start, at the same
//! offset, on a free plane, joins it (the earliest one) and costs the die its transfers only.
//! Otherwise it books a program of its own, which later units may join. Each plane's counters
//! advance on their own, so the planes' offsets drift apart and a unit finds its offset among
//! the other planes' waiting programs about as often as they hold programs per N offsets: few
//! at low queue depth, most at high. This path replaces the host batches of `multiplane.rs`
//! and the windows above (units join any program at their offset, not only the latest).

use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, Default)]
struct Window {
    start_ns: u64,
    slot_ns: u64,
    programs: u64,
    /// The earliest program that may still have a free plane, and the planes it uses.
    cursor: u64,
    used: u32,
}

/// Each die's latest window of GC programs (empty when the option is off).
#[derive(Debug, Clone, Default)]
pub(super) struct GcPlanes {
    planes: u32,
    windows: Vec<Window>,
}

impl GcPlanes {
    pub(super) fn new(enabled: bool, planes_per_die: u32, dies: u32) -> Self {
        let windows = if enabled && planes_per_die > 1 {
            vec![Window::default(); dies as usize]
        } else {
            Vec::new()
        };
        GcPlanes {
            planes: planes_per_die,
            windows,
        }
    }

    /// A unit on `die` whose data is ready at `ready_ns` takes a free plane of the die's
    /// earliest GC program starting at or after it: that program's end, or None when the
    /// window has none left.
    pub(super) fn take(&mut self, die: usize, ready_ns: u64) -> Option<u64> {
        let planes = self.planes;
        let w = self.windows.get_mut(die)?;
        if w.programs == 0 {
            return None;
        }
        let first = ready_ns.saturating_sub(w.start_ns).div_ceil(w.slot_ns);
        if first > w.cursor {
            (w.cursor, w.used) = (first, 1);
        }
        if w.used >= planes {
            (w.cursor, w.used) = (w.cursor + 1, 1);
        }
        if w.cursor >= w.programs {
            return None;
        }
        w.used += 1;
        Some(w.start_ns + (w.cursor + 1) * w.slot_ns)
    }

    /// Up to `n` units ready at `ready_ns` (another collection's relocations) take free planes:
    /// how many did, and when the last of their programs ends (`ready_ns` if none).
    pub(super) fn take_up_to(&mut self, die: usize, ready_ns: u64, n: u64) -> (u64, u64) {
        let (mut taken, mut end) = (0, ready_ns);
        while taken < n {
            let Some(e) = self.take(die, ready_ns) else {
                break;
            };
            (taken, end) = (taken + 1, end.max(e));
        }
        (taken, end)
    }

    /// A collection's `programs` relocations on `die` from `start_ns`, one every `slot_ns`,
    /// each using one plane: the die's new window.
    pub(super) fn open(&mut self, die: usize, start_ns: u64, slot_ns: u64, programs: u64) {
        if let Some(w) = self.windows.get_mut(die) {
            *w = Window {
                start_ns,
                slot_ns: slot_ns.max(1),
                programs,
                cursor: 0,
                used: 1,
            };
        }
    }
}

/// A program booked on a die and not yet started: when it runs and which planes it uses.
#[derive(Debug, Clone, Copy)]
struct Pending {
    start_ns: u64,
    end_ns: u64,
    planes: u32,
    /// It holds a relocation (a GC program), not host units only (`erase_hold.rs`).
    gc: bool,
    /// It holds a host unit (for the program mix only, `gc_blocked.rs`).
    host: bool,
}

impl Pending {
    /// Its place in [`SameOffset::program_mix`]: a relocation alone, a host unit alone, then
    /// programs of two or more units: relocations only, relocations and host units, host
    /// units only.
    fn mix(&self) -> usize {
        match (self.planes.count_ones() > 1, self.gc, self.host) {
            (false, true, _) => 0,
            (false, false, _) => 1,
            (true, true, false) => 2,
            (true, true, true) => 3,
            (true, false, _) => 4,
        }
    }
}

/// MQSim's page-offset rule (`timing.gc.multiplane_offsets`); empty when off.
#[derive(Debug, Clone, Default)]
pub(super) struct SameOffset {
    offsets: u32,
    planes: u32,
    dies: u32,
    state: u64,
    /// Per die × plane: the next host offset and the next GC offset.
    host: Vec<u32>,
    gc: Vec<u32>,
    /// Per die × offset: programs booked and not yet started, in booking order.
    pending: Vec<VecDeque<Pending>>,
    /// `timing.gc.relocations_at_trigger`: a collection's relocations are ready at its trigger.
    at_trigger: bool,
    /// Programs booked so far by what they hold (figures only: `program_mix`).
    mix: [u64; 5],
}

impl SameOffset {
    pub(super) fn new(multiplane: bool, offsets: u32, planes: u32, dies: u32) -> Self {
        if !multiplane || offsets == 0 || planes <= 1 {
            return SameOffset::default();
        }
        let units = (dies * planes) as usize;
        SameOffset {
            offsets,
            planes,
            dies,
            state: 0x9E37_79B9_7F4A_7C15,
            host: vec![0; units],
            gc: vec![0; units],
            pending: vec![VecDeque::new(); dies as usize * offsets as usize],
            at_trigger: false,
            mix: [0; 5],
        }
    }

    /// The programs booked so far by what they hold at the last unit that joined them: a
    /// relocation alone, a host unit alone, relocations only (two planes or more), relocations
    /// and host units, host units only (figures only, `gc_blocked.rs`).
    pub(super) fn program_mix(&self) -> [u64; 5] {
        self.mix
    }

    /// With `on` (`timing.gc.relocations_at_trigger`), a collection's relocations are queued
    /// at its trigger: they join programs from then on (`gc_jobs.rs`).
    pub(super) fn relocations_at_trigger(mut self, on: bool) -> Self {
        self.at_trigger = on && self.enabled();
        self
    }

    #[inline]
    pub(super) fn at_trigger(&self) -> bool {
        self.at_trigger
    }

    #[inline]
    pub(super) fn enabled(&self) -> bool {
        self.offsets > 0
    }

    /// A host unit's place by address: a slot in 0..dies·planes (die = slot % dies, plane =
    /// slot / dies), uniformly at random (splitmix64), as a random logical page's.
    pub(super) fn place(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (((z >> 32) * (self.dies * self.planes) as u64) >> 32) as u32
    }

    /// The die and plane of a slot.
    #[inline]
    pub(super) fn die_plane(&self, slot: u32) -> (usize, u32) {
        (
            (slot % self.dies) as usize,
            (slot / self.dies) % self.planes,
        )
    }

    /// The next page offset of a host unit (`gc`: a relocation) on `die`'s `plane`.
    pub(super) fn next_offset(&mut self, die: usize, plane: u32, gc: bool) -> u32 {
        let i = die * self.planes as usize + plane as usize;
        let c = if gc {
            &mut self.gc[i]
        } else {
            &mut self.host[i]
        };
        let k = *c;
        *c = (k + 1) % self.offsets;
        k
    }

    /// A unit at `offset` on `die`'s `plane`, ready at `ready_ns`, joins the earliest program
    /// at that offset not started before `ready_ns` whose plane is free: its end, or None.
    /// Programs that started before `now_ns` (no later unit can be ready by them) are dropped.
    /// `gc`: the unit is a relocation (the program becomes a GC program); `held(start)`: a
    /// host-only program starting then takes no host unit (`erase_hold.rs`).
    pub(super) fn join(
        &mut self,
        at: (usize, u32, u32),
        times: (u64, u64),
        gc: bool,
        held: impl FnMut(u64) -> bool,
    ) -> Option<u64> {
        self.joined(at, times, gc, held).map(|(_, end, _)| end)
    }

    /// As `join`: the program's start and end, and whether it held host units only before.
    pub(super) fn joined(
        &mut self,
        (die, plane, offset): (usize, u32, u32),
        (ready_ns, now_ns): (u64, u64),
        gc: bool,
        mut held: impl FnMut(u64) -> bool,
    ) -> Option<(u64, u64, bool)> {
        let q = &mut self.pending[die * self.offsets as usize + offset as usize];
        while q.front().is_some_and(|p| p.start_ns < now_ns) {
            q.pop_front();
        }
        let bit = 1 << plane;
        let p = q.iter_mut().find(|p| {
            p.start_ns >= ready_ns && p.planes & bit == 0 && (gc || p.gc || !held(p.start_ns))
        })?;
        let host_only = !p.gc;
        let before = p.mix();
        p.planes |= bit;
        p.gc |= gc;
        p.host |= !gc;
        let (before, after, times) = (before, p.mix(), (p.start_ns, p.end_ns));
        self.mix[before] -= 1;
        self.mix[after] += 1;
        Some((times.0, times.1, host_only))
    }

    /// The earliest start at or after `from_ns` of a host-only program booked on `die` and
    /// not yet started (`gc_first.rs`).
    pub(super) fn first_host_start(&self, die: usize, from_ns: u64) -> Option<u64> {
        let o = self.offsets as usize;
        self.pending[die * o..(die + 1) * o]
            .iter()
            .flatten()
            .filter(|p| !p.gc && p.start_ns >= from_ns)
            .map(|p| p.start_ns)
            .min()
    }

    /// Re-time the programs booked on `die` that start at or after `from_ns` (`gc_first.rs`):
    /// one in `moved` (old start, new start, new end) takes its new times, every other
    /// host-only one starts `by(start)` later; GC programs keep theirs. Returns each re-timed
    /// program's (old end, new end); each offset's programs stay in order of start.
    pub(super) fn retime(
        &mut self,
        die: usize,
        from_ns: u64,
        moved: &[(u64, u64, u64)],
        by: impl Fn(u64) -> u64,
    ) -> Vec<(u64, u64)> {
        let o = self.offsets as usize;
        let mut ends = Vec::new();
        for q in &mut self.pending[die * o..(die + 1) * o] {
            for p in q.iter_mut().filter(|p| p.start_ns >= from_ns) {
                let new = match moved.iter().find(|m| m.0 == p.start_ns) {
                    Some(&(_, s, e)) => (s, e),
                    None if !p.gc => (p.start_ns + by(p.start_ns), p.end_ns + by(p.start_ns)),
                    None => continue,
                };
                ends.push((p.end_ns, new.1));
                (p.start_ns, p.end_ns) = new;
            }
            q.make_contiguous().sort_by_key(|p| p.start_ns);
        }
        ends
    }

    /// A program of one unit (`gc`: a relocation) at `offset` on `die`'s `plane`, from
    /// `start_ns` to `end_ns`.
    pub(super) fn book(
        &mut self,
        (die, plane, offset): (usize, u32, u32),
        (start_ns, end_ns): (u64, u64),
        gc: bool,
    ) {
        let p = Pending {
            start_ns,
            end_ns,
            planes: 1 << plane,
            gc,
            host: !gc,
        };
        self.mix[p.mix()] += 1;
        self.pending[die * self.offsets as usize + offset as usize].push_back(p);
    }
}

#[cfg(test)]
mod tests {
    use super::{GcPlanes, SameOffset};

    #[test]
    fn same_offset_is_off_without_planes_or_offsets() {
        assert!(!SameOffset::new(true, 0, 2, 1).enabled());
        assert!(!SameOffset::new(false, 32, 2, 1).enabled());
        assert!(!SameOffset::new(true, 32, 1, 1).enabled());
        assert!(SameOffset::new(true, 32, 2, 1).enabled());
    }

    #[test]
    fn units_join_only_programs_at_their_own_offset_on_a_free_plane() {
        let mut s = SameOffset::new(true, 4, 2, 1);
        let free = |_| false;
        s.book((0, 0, 1), (100, 200), false);
        // another offset, or the same plane: no
        assert_eq!(s.join((0, 1, 2), (0, 0), false, free), None);
        assert_eq!(s.join((0, 0, 1), (0, 0), false, free), None);
        // ready after the program started: no
        assert_eq!(s.join((0, 1, 1), (101, 0), false, free), None);
        // the other plane at its offset, ready in time: joins; then both planes are taken
        assert_eq!(s.join((0, 1, 1), (100, 0), false, free), Some(200));
        assert_eq!(s.join((0, 1, 1), (0, 0), false, free), None);
        // a program started before now is dropped
        s.book((0, 0, 3), (300, 400), false);
        assert_eq!(s.join((0, 1, 3), (0, 301), false, free), None);
    }

    #[test]
    fn a_held_host_program_takes_relocations_but_no_host_unit() {
        let mut s = SameOffset::new(true, 4, 4, 1);
        let held = |start: u64| start >= 100;
        s.book((0, 0, 1), (100, 200), false);
        assert_eq!(s.join((0, 1, 1), (0, 0), false, held), None);
        // a relocation joins it, and then it is a GC program: host units join it too
        assert_eq!(s.join((0, 2, 1), (0, 0), true, held), Some(200));
        assert_eq!(s.join((0, 1, 1), (0, 0), false, held), Some(200));
        // a GC program is never held; one starting before the hold is not either
        s.book((0, 0, 2), (150, 250), true);
        assert_eq!(s.join((0, 1, 2), (0, 0), false, held), Some(250));
        s.book((0, 0, 3), (50, 150), false);
        assert_eq!(s.join((0, 1, 3), (0, 0), false, held), Some(150));
    }

    #[test]
    fn each_plane_counts_its_offsets_and_places_are_uniform() {
        let mut s = SameOffset::new(true, 3, 2, 2);
        let ks: Vec<u32> = (0..4).map(|_| s.next_offset(1, 1, false)).collect();
        assert_eq!(ks, vec![0, 1, 2, 0]);
        assert_eq!(s.next_offset(1, 0, false), 0); // another plane's counter
        assert_eq!(s.next_offset(1, 1, true), 0); // the GC counter is its own
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            counts[s.place() as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(s.die_plane(3), (1, 1));
        assert_eq!(s.die_plane(2), (0, 1));
    }

    #[test]
    fn off_or_one_plane_never_pairs() {
        for (on, planes) in [(false, 2), (true, 1)] {
            let mut g = GcPlanes::new(on, planes, 1);
            assert!(g.windows.is_empty());
            g.open(0, 0, 10, 4);
            assert_eq!(g.take(0, 0), None);
        }
    }

    #[test]
    fn units_fill_the_free_planes_of_programs_starting_after_they_are_ready() {
        let mut g = GcPlanes::new(true, 2, 2);
        g.open(0, 100, 10, 3); // programs end at 110, 120, 130
        assert_eq!(g.take(0, 0), Some(110)); // ready before the window: the first program
        assert_eq!(g.take(0, 0), Some(120)); // its second plane is taken: the next one
        assert_eq!(g.take(0, 111), Some(130)); // ready after the second started: the third
        assert_eq!(g.take(0, 0), None); // no program left
        assert_eq!(g.take(1, 0), None); // another die has no window
    }

    #[test]
    fn four_planes_take_three_units_a_program() {
        let mut g = GcPlanes::new(true, 4, 1);
        g.open(0, 0, 10, 2);
        let ends: Vec<_> = (0..7).map(|_| g.take(0, 0)).collect();
        let want = [
            Some(10),
            Some(10),
            Some(10),
            Some(20),
            Some(20),
            Some(20),
            None,
        ];
        assert_eq!(ends, want);
    }
}
