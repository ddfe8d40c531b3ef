//! The dies' timelines: a unit's transfer, program, sense, relocation and erase booked on the
//! die it lands on (`Engine::on_die`), and a host unit's program on its own, joined to a
//! multi-plane batch (`multiplane.rs`) or placed by address under MQSim's page-offset rule
//! (`gc_planes.rs`).

use super::{link, Engine};

impl Engine {
    #[inline]
    pub(super) fn die_of(&self, ppn: u32) -> usize {
        ((ppn as u64 / self.upp) % self.dies as u64) as usize
    }

    #[inline]
    pub(super) fn on_die(&mut self, die: usize, ready: u64, duration: u64) -> u64 {
        let end = ready.max(self.die_busy[die]) + duration;
        self.die_busy[die] = end;
        self.die_work_ns[die] += duration;
        end
    }

    /// Move one unit between the controller and `die` once the die (its page register) is
    /// free, no earlier than `ready`; the die is held during the transfer. Each die moves data
    /// at the channel rate; contention between dies sharing a channel is not modelled (a
    /// resource timeline cannot book the gaps between operations booked out of time order, and
    /// at these rates a transfer is 1–3% of a program), so channels never limit throughput.
    #[inline]
    pub(super) fn transfer(&mut self, die: usize, ready: u64) -> u64 {
        self.on_die(die, ready, self.channel_unit_ns)
    }

    /// Move `bytes` over the host link once ready (`link.rs`: in request order, or in gaps).
    #[inline]
    pub(super) fn on_link(&mut self, ready: u64, bytes: u64, direction: link::Direction) -> u64 {
        self.link.transfer(self.now, ready, bytes, direction)
    }

    /// Program one unit at `ppn` whose data is ready at `ready`: transfer in, then program.
    #[inline]
    pub(super) fn program(&mut self, ppn: u32, ready: u64, die_ns: u64) -> u64 {
        let die = self.die_of(ppn);
        let loaded = self.transfer(die, ready);
        self.on_die(die, loaded, die_ns)
    }

    /// Program a host unit: as `program`, or joining the die's multi-plane batch
    /// (`multiplane.rs`) when its data is ready before the batch starts.
    #[inline]
    pub(super) fn program_host(&mut self, ppn: u32, ready: u64, die_ns: u64) -> u64 {
        let die = self.die_of(ppn);
        if let Some(end) = self.gc_planes.take(die, ready) {
            self.on_die(die, ready, self.channel_unit_ns);
            return end;
        }
        if !self.multiplane.enabled() {
            return self.program(ppn, ready, die_ns);
        }
        let busy = self.die_busy[die];
        if let Some(end) = self.multiplane.join(die, ready, busy, self.channel_unit_ns) {
            self.on_die(die, busy, self.channel_unit_ns);
            return end;
        }
        let (loaded, end) = self.own_program(die, ready, die_ns);
        self.multiplane.open(die, loaded, end);
        end
    }

    /// A host unit's program of its own on `die`: its transfer from `ready`, then `die_ns`;
    /// returns when it starts (loaded) and ends.
    #[inline]
    pub(super) fn own_program(&mut self, die: usize, ready: u64, die_ns: u64) -> (u64, u64) {
        let loaded = self.transfer(die, ready);
        (loaded, self.on_die(die, loaded, die_ns))
    }

    /// With the FTL's per-plane pools (`ftl.plane_pools` = N ≥ 2): under the page-offset rule
    /// a host unit takes its block's pool as its die and plane slot.
    pub fn with_plane_pools(mut self, pools: u32) -> Self {
        self.plane_pools = if pools >= 2 { pools as u64 } else { 0 };
        self
    }

    /// A host unit under MQSim's page-offset rule (`gc_planes.rs`, `SameOffset`), its data
    /// arrived at `arrived`: placed on a die and plane by address, accepted once its GC domain
    /// (`slot % domains`) is not collecting, then joined to a program at its offset or
    /// programmed on its own.
    pub(super) fn program_host_by_address(&mut self, ppn: u32, arrived: u64, die_ns: u64) -> u64 {
        let slot = match self.writer_slots.pop_front() {
            Some(s) => s,
            None if self.plane_pools > 0 => (ppn as u64 / self.ppb % self.plane_pools) as u32,
            None => self.same_offset.place(),
        };
        let (die, plane) = self.same_offset.die_plane(slot);
        let ready = match self.domain_free.len() {
            0 => arrived,
            n => arrived.max(self.domain_accepts(slot as usize % n)),
        };
        if let Some(acc) = &mut self.gc_blocked {
            acc.host_unit(arrived, ready);
        }
        let at = (die, plane, self.same_offset.next_offset(die, plane, false));
        let now = self.now;
        let hold = &mut self.erase_hold;
        if let Some(end) = self
            .same_offset
            .join(at, (ready, now), false, |s| hold.holds(die, s, now))
        {
            self.on_die(die, ready, self.channel_unit_ns);
            return end;
        }
        let (loaded, end) = self.own_program(die, ready, die_ns);
        self.same_offset.book(at, (loaded, end), false);
        end
    }

    /// Sense a page (or a unit's share of one) on `die` and transfer the unit out.
    #[inline]
    pub(super) fn sense(&mut self, die: usize, ready: u64, sense_ns: u64) -> u64 {
        let sensed = self.on_die(die, ready, sense_ns);
        self.transfer(die, sensed)
    }

    /// A GC relocation: read on the source die, program on the destination die. The program
    /// is not made to wait for the read: the controller buffers GC data and fills each die's
    /// queue with other work meanwhile, which booking on per-die timelines cannot express —
    /// coupling them would leave holes no real die has. Both dies are charged in full.
    pub(super) fn relocate(&mut self, src: u32, dst: u32, t: u64) {
        self.sense(self.die_of(src), t, self.read_unit_ns);
        self.program_internal(self.die_of(dst), t);
        self.first_gc_ns.get_or_insert(t);
    }

    pub(super) fn erase(&mut self, block: u32, t: u64) {
        let first = block as u64 * self.ppb / self.upp;
        let pages = self.ppb.div_ceil(self.upp);
        for k in 0..pages.min(self.dies as u64) {
            let die = ((first + k) % self.dies as u64) as usize;
            self.on_die(die, t, self.erase_ns);
        }
    }
}
