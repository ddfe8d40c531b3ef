//! Multi-plane programs (`timing.nand.planes_per_die`): a die of P planes programs up to P
//! host pages, one per plane, in one program time when that many wait for it.
//!
//! ONFI's multi-plane program (ONFI 4.2, "Multi-plane Operations": program commands to
//! several planes of one LUN, each page loaded into its plane's register, then one tPROG for
//! all of them) and MQSim's transaction scheduler (Tavakkol et al., "MQSim", FAST 2018: the
//! TSU combines the transactions waiting for one die into a multi-plane command) make a die's
//! write throughput grow with the number of writes waiting for it: one plane's rate at queue
//! depth 1, up to P planes' rate once P writes wait. The FTL stripes its frontier pages over
//! the planes, so the writes waiting for a die fill its planes in turn.
//!
//! On the engine's resource timelines (booked in request order) a die's latest program is a
//! *batch*: when it starts, when it ends, how many host units it holds. A host unit whose data
//! is ready by the batch's start joins it while it has a free plane and nothing else has been
//! booked on the die after it (a GC job, a read or an erase closes it); it completes with the
//! batch, whose end moves by the unit's transfer (pages are loaded one after another before
//! the one program). Otherwise it opens a new batch. Only host programs combine: GC
//! relocations (a plane's own collection, MQSim's per-plane GC) and folds keep their die time.
//! With one plane (the default) nothing here runs and the timing is the single-plane one.

#[derive(Debug, Clone, Copy, Default)]
struct Batch {
    start_ns: u64,
    end_ns: u64,
    units: u32,
}

/// The open batch of each die (empty with one plane per die).
#[derive(Debug, Clone, Default)]
pub(super) struct MultiPlane {
    planes: u32,
    batches: Vec<Batch>,
}

impl MultiPlane {
    pub(super) fn new(planes_per_die: u32, dies: u32) -> Self {
        let planes = planes_per_die.max(1);
        let batches = if planes > 1 {
            vec![Batch::default(); dies as usize]
        } else {
            Vec::new()
        };
        MultiPlane { planes, batches }
    }

    #[inline]
    pub(super) fn enabled(&self) -> bool {
        !self.batches.is_empty()
    }

    /// A host unit on `die` whose data is ready at `ready_ns`, the die busy until
    /// `die_busy_ns`: the batch's end if it joins the die's open batch (the caller then books
    /// `transfer_ns` more on the die and the batch's end moves with it), else None.
    #[inline]
    pub(super) fn join(
        &mut self,
        die: usize,
        ready_ns: u64,
        die_busy_ns: u64,
        transfer_ns: u64,
    ) -> Option<u64> {
        let b = self.batches.get_mut(die)?;
        if b.units == 0
            || b.units >= self.planes
            || b.start_ns < ready_ns
            || b.end_ns != die_busy_ns
        {
            return None;
        }
        b.units += 1;
        b.end_ns += transfer_ns;
        Some(b.end_ns)
    }

    /// A new batch on `die`: its program runs from `start_ns` to `end_ns`, one unit so far.
    #[inline]
    pub(super) fn open(&mut self, die: usize, start_ns: u64, end_ns: u64) {
        if let Some(b) = self.batches.get_mut(die) {
            *b = Batch {
                start_ns,
                end_ns,
                units: 1,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MultiPlane;

    #[test]
    fn one_plane_never_batches() {
        let mut m = MultiPlane::new(1, 4);
        assert!(!m.enabled());
        m.open(0, 0, 100);
        assert_eq!(m.join(0, 0, 100, 0), None);
    }

    #[test]
    fn a_batch_takes_one_unit_per_plane_ready_before_it_starts() {
        let mut m = MultiPlane::new(2, 1);
        m.open(0, 10, 110);
        // ready after the program started: cannot join
        assert_eq!(m.join(0, 11, 110, 0), None);
        // ready in time: joins, its transfer moves the end
        assert_eq!(m.join(0, 10, 110, 5), Some(115));
        // both planes taken
        assert_eq!(m.join(0, 0, 115, 5), None);
    }

    #[test]
    fn work_booked_after_the_batch_closes_it() {
        let mut m = MultiPlane::new(4, 2);
        m.open(1, 0, 100);
        // a GC job has been booked after the batch: the die is busy past its end
        assert_eq!(m.join(1, 0, 250, 0), None);
        // another die's batch is its own
        assert_eq!(m.join(0, 0, 0, 0), None);
    }
}
