//! Non-preemptive GC per domain (`gc.blocking = "domain"`): each collection as one job on a GC
//! domain — the victim block's, or with `gc.trigger = "writer"` the triggering host unit's —
//! and when a domain accepts host writes again.

use super::Engine;
use crate::ftl::NandOp;

impl Engine {
    /// Non-preemptive GC: each collection in `ops` (relocations up to and including an erase)
    /// as one job on the victim's domain (`block % domains`: a domain collects its own
    /// blocks; relocations without an erase go to the domains in turn), no earlier than `t`;
    /// the same die time as the operations booked one by one. `writer`: a collection followed
    /// by a host unit in `ops` (the unit whose placement started it) runs on that unit's domain.
    pub(super) fn gc_jobs(&mut self, ops: &[NandOp], t: u64, writer: bool) {
        if self.in_flight.enabled() {
            self.start_held_collections(t);
        }
        let erase_ns = self.erase_ns * self.ppb.div_ceil(self.upp).min(self.dies as u64);
        let mut relocs = 0u64;
        let mut host = 0;
        for (i, op) in ops.iter().enumerate() {
            match *op {
                NandOp::RelocProgram(_) => relocs += 1,
                NandOp::Erase(b) => {
                    let victim = b as usize % self.domain_free.len();
                    let d = match writer {
                        true => self.writer_domain(&ops[i + 1..], host).unwrap_or(victim),
                        false => victim,
                    };
                    self.gc_job(d, relocs, erase_ns, t);
                    relocs = 0;
                }
                NandOp::HostProgram(_) => host += 1,
                NandOp::RelocRead(_) => {}
            }
        }
        if relocs > 0 {
            let d = self.gc_next_domain;
            self.gc_next_domain = (d + 1) % self.domain_free.len();
            self.gc_job(d, relocs, 0, t);
        }
    }

    /// The GC domain of the first host unit in `rest`, the write's `host`-th (0-based): its
    /// slot's with the page-offset rule, else its flash page's; None without one.
    fn writer_domain(&self, rest: &[NandOp], host: usize) -> Option<usize> {
        let n = self.domain_free.len();
        let p = rest.iter().find_map(|op| match *op {
            NandOp::HostProgram(p) => Some(p),
            _ => None,
        })?;
        if self.same_offset.enabled() {
            return self.writer_slots.get(host).map(|&s| s as usize % n);
        }
        Some(self.host_domain(p))
    }

    /// The GC domain of host page `ppn`: its flash page's (`flash page % domains`); with the
    /// writer trigger the stripe is turned by one domain per block, since the unit that opens
    /// a block (the one whose placement starts a collection) would otherwise always fall on
    /// the same domain.
    #[inline]
    fn host_domain(&self, ppn: u32) -> usize {
        let n = self.domain_free.len() as u64;
        let turn = if self.gc_writer {
            ppn as u64 / self.ppb
        } else {
            0
        };
        ((ppn as u64 / self.upp + turn) % n) as usize
    }

    /// A collection of `relocs` relocations and an erase of `erase_ns` on domain `d`; its
    /// relocations first take free planes of the die's latest collection (`gc_planes.rs`).
    fn gc_job(&mut self, d: usize, relocs: u64, erase_ns: u64, t: u64) {
        if !self.in_flight.enabled() {
            return self.book_collection(d, relocs, erase_ns, t);
        }
        if !self.in_flight.hold(d, (relocs, erase_ns), t) {
            return self.book_collection(d, relocs, erase_ns, t);
        }
        // at most N held: the oldest beyond them is booked now (the die time is all charged)
        if let Some((r, e)) = self.in_flight.over_held(d) {
            self.book_collection(d, r, e, t);
        }
    }

    /// Book domain `d`'s collection triggered (or, held by `collections_in_flight`, started)
    /// at `t`.
    pub(super) fn book_collection(&mut self, d: usize, relocs: u64, erase_ns: u64, t: u64) {
        let reloc_ns = self.read_unit_ns + self.program_unit_ns + 2 * self.channel_unit_ns;
        let n = self.domain_free.len();
        let (free, jobs) = self.domain_free[d];
        let dies = self.dies as usize;
        let die = if n >= dies {
            d % dies
        } else {
            // the domain's dies d, d + n, ... in turn
            let own = (dies - d).div_ceil(n) as u64;
            d + n * (jobs % own) as usize
        };
        let ready = t.max(free);
        if self.deferred.is_some() {
            // ahead of the die's queued host programs (`collections_first`, `gc_first.rs`)
            let plane = self.same_offset.die_plane(d as u32).1;
            if let Some(end) = self.collection_first((die, plane), relocs, erase_ns, t) {
                self.collection_booked(d, (relocs, erase_ns), (t, free, ready), end.max(free));
                return;
            }
        }
        // queued at the trigger (`relocations_at_trigger`), its relocations may take programs
        // booked on the die from `t` on, before the domain's previous collection has ended
        let from = if self.same_offset.at_trigger() {
            t
        } else {
            ready
        };
        // with one page offset: the relocations' offsets, those that joined a program dropped
        let mut own = Vec::new();
        // (relocations that joined a relocation program: with `paired_reads`, their reads shared)
        let mut shared_reads = 0;
        let (paired, mut end) = if self.same_offset.enabled() {
            let plane = self.same_offset.die_plane(d as u32).1;
            let (mut paired, mut end) = (0, from);
            for _ in 0..relocs {
                let at = (die, plane, self.same_offset.next_offset(die, plane, true));
                match self
                    .same_offset
                    .joined(at, (from, self.now), true, |_| false)
                {
                    Some((_, e, host_only)) => {
                        (paired, end) = (paired + 1, end.max(e));
                        shared_reads += u64::from(self.paired_reads && !host_only);
                    }
                    None => own.push(at),
                }
            }
            (paired, end)
        } else {
            self.gc_planes.take_up_to(die, from, relocs)
        };
        let rest = relocs - paired;
        let paired_ns = paired * (self.read_unit_ns + 2 * self.channel_unit_ns)
            - shared_reads * self.read_unit_ns;
        let start = from.max(self.die_busy[die]) + paired_ns;
        end = end.max(self.on_die(die, from, paired_ns + rest * reloc_ns + erase_ns));
        if erase_ns > 0 {
            // MQSim queues the erase at the collection's start (`erase_hold.rs`)
            self.erase_hold.queue(die, t, self.die_busy[die] - erase_ns);
        }
        for (j, at) in own.into_iter().enumerate() {
            let s = start + j as u64 * reloc_ns;
            self.same_offset.book(at, (s, s + reloc_ns), true);
        }
        if rest > 0 {
            self.gc_planes.open(die, start, reloc_ns, rest);
        }
        // (an end before the previous collection's only when queued at the trigger)
        self.collection_booked(d, (relocs, erase_ns), (t, free, ready), end.max(free));
    }

    /// Domain `d`'s collection of `relocs` relocations and an erase of `erase_ns`, triggered
    /// at `t` (the domain free at `free`, ready at `ready`), ends at `end`: the domain accepts
    /// host writes from then on.
    fn collection_booked(
        &mut self,
        d: usize,
        (relocs, erase_ns): (u64, u64),
        (t, free, ready): (u64, u64, u64),
        end: u64,
    ) {
        let reloc_ns = self.read_unit_ns + self.program_unit_ns + 2 * self.channel_unit_ns;
        let jobs = self.domain_free[d].1;
        self.domain_free[d] = (end, jobs + 1);
        self.in_flight.booked(d, end);
        if let Some(acc) = &mut self.gc_blocked {
            acc.relocations(relocs);
            acc.job(d, (t, free, ready), relocs * reloc_ns + erase_ns, end);
            acc.in_flight(d, t, end);
        }
        self.first_gc_ns.get_or_insert(t);
    }

    /// When the GC domain holding `ppn` accepts a host write arriving at `ready`: once the
    /// collections triggered there have finished.
    #[inline]
    pub(super) fn domain_ready(&mut self, ppn: u32, ready: u64) -> u64 {
        if self.domain_free.is_empty() {
            return ready;
        }
        let d = self.host_domain(ppn);
        let accepted = ready.max(self.domain_accepts(d));
        if let Some(acc) = &mut self.gc_blocked {
            acc.host_unit(ready, accepted);
        }
        accepted
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::Engine;
    use crate::config::{GcBlocking, TimingConfig};
    use crate::ftl::NandOp;
    use crate::geometry::Geometry;

    /// MQSim's die: one die of two planes, a GC domain a plane, 32 page offsets, no buffer;
    /// `first`: collections ahead of the queued writes too (`gc_first.rs`).
    pub(in crate::timing) fn mqsim_die(at_trigger: bool, first: bool) -> Engine {
        let mut t = TimingConfig {
            enabled: true,
            ..TimingConfig::default()
        };
        let n = &mut t.nand;
        (n.channels, n.dies_per_channel, n.planes_per_die) = (1, 1, 2);
        n.flash_page_bytes = 4096;
        t.buffer.bytes = 0;
        let gc = &mut t.gc;
        (gc.blocking, gc.domains, gc.multiplane) = (GcBlocking::Domain, 2, true);
        (gc.multiplane_offsets, gc.relocations_at_trigger) = (32, at_trigger);
        gc.collections_first = first;
        let g = Geometry {
            page_size_bytes: 4096,
            pages_per_block: 32,
            blocks: 64,
            user_pages: 1024,
        };
        Engine::new(&t, &g)
    }

    /// A collection of `relocs` relocations and the erase of `victim` (its plane: victim % 2).
    fn collection(victim: u32, relocs: usize) -> Vec<NandOp> {
        let mut ops = [NandOp::RelocRead(0), NandOp::RelocProgram(0)].repeat(relocs);
        ops.push(NandOp::Erase(victim));
        ops
    }

    /// The die time a collection booked at `t` adds.
    fn booked(e: &mut Engine, victim: u32, relocs: usize, t: u64) -> u64 {
        let before = e.die_work_ns[0];
        e.gc_jobs(&collection(victim, relocs), t, false);
        e.die_work_ns[0] - before
    }

    #[test]
    fn a_second_plane_pairs_its_relocations_with_the_first_planes_when_both_are_ready() {
        for at_trigger in [false, true] {
            let mut e = mqsim_die(at_trigger, false);
            let reloc_ns = e.read_unit_ns + e.program_unit_ns + 2 * e.channel_unit_ns;
            let joined_ns = e.read_unit_ns + 2 * e.channel_unit_ns;
            let erase_ns = e.erase_ns;
            // plane 0 collects 16 relocations (offsets 0..15), on its own programs
            assert_eq!(booked(&mut e, 0, 16, 0), 16 * reloc_ns + erase_ns);
            // plane 1, its domain free, collects 4 (offsets 0..3): they join plane 0's
            // programs at their offsets, not yet started, and cost the die no program
            assert_eq!(booked(&mut e, 1, 4, 0), 4 * joined_ns + erase_ns);
            // plane 1 again (offsets 4..7), triggered while its first collection runs: ready
            // at the trigger it joins plane 0's programs 4..7, which start after it; ready
            // when the first ends (after its erase, booked behind all of plane 0's programs)
            // it finds every one started and programs on its own
            let want = if at_trigger { joined_ns } else { reloc_ns };
            assert_eq!(booked(&mut e, 3, 4, 0), 4 * want + erase_ns, "{at_trigger}");
            // a domain accepts host writes once all its collections have ended
            assert!(e.domain_free[1].0 >= e.domain_free[0].0.min(e.die_busy[0]) - erase_ns);
        }
    }
}
