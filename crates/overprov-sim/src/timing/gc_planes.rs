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
//! requires the pages of one command to have the same page offset in their blocks; no
//! offset is modelled here (any free plane is taken), so the window pairs at least as often as
//! MQSim's scheduler can. Host units of the collecting domain stay blocked until the
//! collection ends (`gc.blocking`), so they never join its window.

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

#[cfg(test)]
mod tests {
    use super::GcPlanes;

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
