//! MQSim's die order for a collection (`timing.gc.collections_first`, with
//! `relocations_at_trigger`, one die and a closed loop): a collection runs ahead of the host
//! programs queued on its die at its trigger, not behind them.
//!
//! What MQSim does (CMU-SAFARI/MQSim `7ec40e3b`, `src/ssd/`;
//! bench/foreign/results/mqmid/DIAGNOSIS.md): a collection submits its reads and its erase at once
//! (`GC_and_WL_Unit_Page_Level::Check_gc_required`); the chip serves reads first, GC reads
//! first among them (`TSU_Priority_OutOfOrder::Schedule`, `service_read_transaction`), then
//! programs with the GC write queue first and host writes only as their partners at the front's
//! page offset, and no program while an erase waits (`service_write_transaction`,
//! `TSU_Base::issue_command_to_chip`). So the host writes queued at a collection's start wait
//! behind it, save those a relocation takes as its partner. With them held, one plane's
//! collection completes almost no host write, the closed loop sends almost no new ones, and the
//! other plane's pool does not drain: the planes rarely collect together at 10–30% extra OP.
//!
//! The core books in request order and reports a write's completion as it books it
//! (`timing/mod.rs`), so a collection triggered at `t` lands behind the host programs booked
//! before `t` and not started. With the option, the collection's die time is put ahead of them:
//! from the start of the first of them (`s0`) the die runs the collection — each relocation's
//! read and transfers, its program alone, or with a queued host program of another plane at its
//! offset taken into the collection (MQSim's partner), or joined to a program of an earlier
//! collection — then its erase; every other queued host program, and the completion the closed
//! loop frees a queue slot at, moves back by the die time put ahead of it. Completions are
//! therefore recorded (latency, intervals, rounds, the measured phase) only when their queue
//! slot frees ([`Completions`]): no completion at or before the issue time moves again. The
//! die's total work is the same as booked in request order; what changes is who waits.
//! Completions are matched by their time, which on one die is unique to a program.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::Engine;

/// Completions not yet recorded: (done, issue, is a read, bytes), earliest first.
#[derive(Debug, Clone, Default)]
pub(super) struct Completions {
    pending: BinaryHeap<Reverse<(u64, u64, bool, u64)>>,
}

impl Completions {
    pub(super) fn push(&mut self, issue: u64, done: u64, is_read: bool, bytes: u64) {
        self.pending.push(Reverse((done, issue, is_read, bytes)));
    }

    /// The next completion done at or before `upto`, removed.
    fn pop_until(&mut self, upto: u64) -> Option<(u64, u64, bool, u64)> {
        if self.pending.peek().is_some_and(|Reverse(c)| c.0 <= upto) {
            return self.pending.pop().map(|Reverse(c)| c);
        }
        None
    }

    fn retime(&mut self, moved: impl Fn(u64) -> u64) {
        let old = std::mem::take(&mut self.pending);
        self.pending = old
            .into_iter()
            .map(|Reverse((d, i, r, b))| Reverse((moved(d), i, r, b)))
            .collect();
    }

    pub(super) fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

impl Engine {
    /// Record the completions done at or before `upto` (with the option; nothing without).
    pub(super) fn record_completions(&mut self, upto: u64) {
        while let Some((done, issue, is_read, bytes)) =
            self.deferred.as_mut().and_then(|c| c.pop_until(upto))
        {
            self.record(issue, done, is_read, bytes);
        }
    }

    /// A collection on domain `d` of die `die`, triggered at `t`: `relocs` relocations of
    /// `plane` and an erase of `erase_ns`, put ahead of the die's queued host programs. Its
    /// end, or None when no host program is queued there (then it is booked as before).
    pub(super) fn collection_first(
        &mut self,
        (die, plane): (usize, u32),
        relocs: u64,
        erase_ns: u64,
        t: u64,
    ) -> Option<u64> {
        let ch = self.channel_unit_ns;
        // a program whose transfer began before the trigger has started
        let s0 = self.same_offset.first_host_start(die, t + ch)?;
        let c0 = s0 - ch;
        let reloc_ns = self.read_unit_ns + self.program_unit_ns + 2 * ch;
        let paired_ns = self.read_unit_ns + 2 * ch;
        let now = self.now;
        // (old start, new start, new end) of the queued programs taken in; their die time
        let (mut moved, mut taken_ns) = (Vec::new(), Vec::new());
        let (mut c, mut own) = (c0, Vec::new());
        for _ in 0..relocs {
            let at = (die, plane, self.same_offset.next_offset(die, plane, true));
            match self.same_offset.joined(at, (t, now), true, |_| false) {
                Some((s, e, true)) if s >= s0 => {
                    // a queued host program: the relocation's partner, run in the collection
                    moved.push((s, c + paired_ns + ch, c + paired_ns + ch + (e - s)));
                    taken_ns.push((s, ch + e - s));
                    c += paired_ns + ch + (e - s);
                }
                // a program ahead of the queue (an earlier collection's): joined, its read
                // shared with `paired_reads` when it holds a relocation
                Some((_, _, host_only)) if self.paired_reads && !host_only => c += 2 * ch,
                Some(_) => c += paired_ns,
                None => {
                    own.push((at, c));
                    c += reloc_ns;
                }
            }
        }
        let end = c + erase_ns;
        let block_ns = end - c0;
        let later = |start: u64| -> u64 {
            let before: u64 = taken_ns.iter().filter(|m| m.0 < start).map(|m| m.1).sum();
            block_ns - before
        };
        let ends = self.same_offset.retime(die, s0, &moved, later);
        for (at, s) in own {
            self.same_offset.book(at, (s, s + reloc_ns), true);
        }
        let added = block_ns - taken_ns.iter().map(|m| m.1).sum::<u64>();
        self.on_die(die, t, added);
        let map: HashMap<u64, u64> = ends.into_iter().collect();
        let moved_to = |v: u64| map.get(&v).copied().unwrap_or(v);
        let slots = std::mem::take(&mut self.slots);
        self.slots = slots
            .into_iter()
            .map(|Reverse(v)| Reverse(moved_to(v)))
            .collect();
        if let Some(c) = &mut self.deferred {
            c.retime(moved_to);
        }
        if erase_ns > 0 {
            self.erase_hold.queue(die, t, end - erase_ns);
        }
        Some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::super::gc_jobs::tests::mqsim_die;
    use super::Engine;
    use crate::ftl::NandOp;
    use std::cmp::Reverse;

    fn engine() -> Engine {
        mqsim_die(true, true)
    }

    /// Queue four host programs of plane 1 at `offsets`, back to back from 1 ms, each a write
    /// in flight (its completion a queue slot); their ends.
    fn queue_host(e: &mut Engine, offsets: [u32; 4]) -> Vec<u64> {
        let (ch, prog) = (e.channel_unit_ns, e.program_unit_ns);
        let mut ends = Vec::new();
        e.slots.clear(); // the queue's idle slots: only these writes in flight
        e.die_busy[0] = 1_000_000;
        for k in offsets {
            let start = e.die_busy[0] + ch;
            let end = start + prog;
            e.die_busy[0] = end;
            e.same_offset.book((0, 1, k), (start, end), false);
            e.complete(0, end, false, 4096);
            ends.push(end);
        }
        ends
    }

    fn collection(relocs: usize) -> Vec<NandOp> {
        let mut ops = [NandOp::RelocRead(0), NandOp::RelocProgram(0)].repeat(relocs);
        ops.push(NandOp::Erase(0)); // block 0: plane 0's domain
        ops
    }

    fn slots(e: &Engine) -> Vec<u64> {
        let mut v: Vec<u64> = e.slots.iter().map(|Reverse(t)| *t).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn a_collection_runs_ahead_of_the_queued_host_programs_and_moves_them_back() {
        let mut e = engine();
        // plane 1's programs at offsets 10..13: plane 0's relocations (offsets 0..3) find none
        let ends = queue_host(&mut e, [10, 11, 12, 13]);
        let (tail, work) = (e.die_busy[0], e.die_work_ns[0]);
        let reloc_ns = e.read_unit_ns + e.program_unit_ns + 2 * e.channel_unit_ns;
        let block = 4 * reloc_ns + e.erase_ns;
        e.gc_jobs(&collection(4), 500_000, false);
        let c0 = 1_000_000;
        assert_eq!(
            e.domain_free[0].0,
            c0 + block,
            "the collection ends ahead of the queue"
        );
        let moved: Vec<u64> = ends.iter().map(|x| x + block).collect();
        assert_eq!(
            slots(&e),
            moved,
            "each queued write completes the collection's time later"
        );
        assert_eq!(e.die_busy[0], tail + block);
        assert_eq!(
            e.die_work_ns[0] - work,
            block,
            "the same die time as booked behind them"
        );
        // nothing recorded until a slot frees at or after a completion
        assert_eq!(e.ios, 0);
        assert_eq!(e.next_issue(), moved[0]);
        assert_eq!(e.ios, 1);
    }

    #[test]
    fn a_relocation_takes_the_queued_program_at_its_offset_into_the_collection() {
        let mut e = engine();
        // offsets 1 and 2 of plane 1 are the partners of plane 0's relocations 1 and 2
        let ends = queue_host(&mut e, [20, 1, 2, 21]);
        let (ch, read, prog) = (e.channel_unit_ns, e.read_unit_ns, e.program_unit_ns);
        let reloc_ns = read + prog + 2 * ch;
        let paired = read + 2 * ch;
        let work = e.die_work_ns[0];
        e.gc_jobs(&collection(4), 500_000, false);
        let c0 = 1_000_000;
        // relocation 0 alone, 1 and 2 each with its partner (read, transfers, the host's
        // transfer and program), 3 alone, then the erase
        let p1_end = c0 + reloc_ns + paired + ch + prog;
        let p2_end = p1_end + paired + ch + prog;
        let end = p2_end + reloc_ns + e.erase_ns;
        assert_eq!(e.domain_free[0].0, end);
        // the two programs not taken move back by the collection less the two taken ahead
        // of them (each its transfer and program): the die's tail grows by the relocations'
        // reads and transfers, two programs and the erase
        let added = end - c0 - 2 * (ch + prog);
        assert_eq!(e.die_work_ns[0] - work, added);
        let first_left = ends[0] + (end - c0);
        let last_left = ends[3] + added;
        assert_eq!(slots(&e), vec![p1_end, p2_end, first_left, last_left]);
        assert_eq!(e.die_busy[0], last_left);
    }

    #[test]
    fn with_no_host_program_queued_a_collection_is_booked_as_before() {
        let mut e = engine();
        let reloc_ns = e.read_unit_ns + e.program_unit_ns + 2 * e.channel_unit_ns;
        e.gc_jobs(&collection(4), 0, false);
        assert_eq!(e.die_busy[0], 4 * reloc_ns + e.erase_ns);
        assert_eq!(e.domain_free[0].0, e.die_busy[0]);
    }
}
