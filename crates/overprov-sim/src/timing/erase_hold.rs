//! MQSim's erase hold (`timing.gc.erase_hold`, with `timing.gc.multiplane_offsets` above 0):
//! while a collection's erase is queued on a die and has not started, no host program starts
//! there except as a partner of a GC program.
//!
//! What MQSim holds (CMU-SAFARI/MQSim `7ec40e3b`, `src/ssd/`): a collection
//! (`GC_and_WL_Unit_Page_Level::Check_gc_required`) submits its victim's reads and its erase at
//! once (`tsu->Submit_transaction(gc_erase_tr)`), so the erase sits in the chip's
//! `GCEraseTRQueue` from the collection's start until it is issued after the last relocation.
//! With GC not preemptible (`GC_is_in_urgent_mode` is then always true),
//! `TSU_Priority_OutOfOrder::service_write_transaction` takes the GC write queue first and the
//! host write queue only as its second source, and when no GC write waits but an erase is
//! queued it returns without issuing any write (`else if (GCEraseTRQueue[..].size() > 0)
//! return false;`). `TSU_Base::issue_command_to_chip` fills the other planes of a command from
//! the second source only at the front's page offset. So from a collection's start until its
//! erase is issued, host writes to *any* plane of the chip (MQSim's chip is the core's die)
//! are programmed only as partners of GC writes at their page offset.
//!
//! What the core can hold. Its timelines are booked in request order and a host unit's
//! completion is known when it is booked (`timing/mod.rs`), so a collection booked at its
//! trigger time `t` cannot move programs booked before it. Everything booked after it already
//! waits for it: a host unit's own program starts when the die is free, after the collection's
//! erase. What remains is joining (`gc_planes.rs`, `SameOffset`): a host unit issued after `t`
//! may join a program booked earlier at its page offset that starts at or after its data is
//! ready — a host program that, in MQSim, would be held in the queue from `t` until the erase.
//! With the hold such a program, when it holds host units only and starts inside a *hold
//! window* of its die (from a collection's booking, `t`, to its erase's start), takes no more
//! host units; programs holding a relocation (GC programs) take them as before, and
//! relocations still join any program (a GC write with host partners is MQSim's command).
//! Not held, because already booked: the host programs booked before `t` themselves (MQSim
//! would run the collection's reads and writes ahead of them).

use std::collections::VecDeque;

/// Each die's hold windows (booked, erase start), oldest first; empty when the option is off.
#[derive(Debug, Clone, Default)]
pub(super) struct EraseHold {
    windows: Vec<VecDeque<(u64, u64)>>,
}

impl EraseHold {
    pub(super) fn new(enabled: bool, dies: u32) -> Self {
        let windows = if enabled {
            vec![VecDeque::new(); dies as usize]
        } else {
            Vec::new()
        };
        EraseHold { windows }
    }

    /// A collection booked at `booked_ns` on `die` whose erase starts at `erase_start_ns`.
    pub(super) fn queue(&mut self, die: usize, booked_ns: u64, erase_start_ns: u64) {
        if let Some(w) = self.windows.get_mut(die) {
            if booked_ns < erase_start_ns {
                w.push_back((booked_ns, erase_start_ns));
            }
        }
    }

    /// Whether a host-only program starting at `start_ns` on `die` starts while an erase is
    /// queued there (so it takes no more host units). Windows whose erase started before
    /// `now_ns` are dropped: no later program starts in them.
    pub(super) fn holds(&mut self, die: usize, start_ns: u64, now_ns: u64) -> bool {
        let Some(w) = self.windows.get_mut(die) else {
            return false;
        };
        while w.front().is_some_and(|&(_, e)| e <= now_ns) {
            w.pop_front();
        }
        w.iter().any(|&(b, e)| b <= start_ns && start_ns < e)
    }
}

#[cfg(test)]
mod tests {
    use super::EraseHold;

    #[test]
    fn off_holds_nothing() {
        let mut h = EraseHold::new(false, 2);
        assert!(h.windows.is_empty());
        h.queue(0, 0, 100);
        assert!(!h.holds(0, 50, 0));
    }

    #[test]
    fn a_program_starting_between_a_collections_booking_and_its_erase_is_held() {
        let mut h = EraseHold::new(true, 2);
        h.queue(0, 100, 400);
        assert!(
            !h.holds(0, 99, 0),
            "started before the collection was booked"
        );
        assert!(h.holds(0, 100, 0));
        assert!(h.holds(0, 399, 0));
        assert!(!h.holds(0, 400, 0), "the erase has started");
        assert!(!h.holds(1, 200, 0), "another die");
        // a second collection's window; the first is dropped once its erase has started
        h.queue(0, 500, 900);
        assert!(h.holds(0, 600, 401));
        assert!(!h.holds(0, 450, 401));
        assert_eq!(h.windows[0].len(), 1);
        // an erase that starts as it is booked holds nothing
        h.queue(1, 10, 10);
        assert!(h.windows[1].is_empty());
    }
}
