//! The host link (`timing.host.link_booking`): how a data transfer between host and drive is
//! booked on it.
//!
//! `in-order` (the default): one "busy until" time for both directions, booked in request
//! order. A read's transfer is booked when its data is ready, which may be milliseconds after
//! its issue (behind the programs queued on its die); every later transfer of any direction
//! then waits behind it, even one whose data was ready long before.
//!
//! `gaps`: the link is full duplex (PCIe, over which NVMe runs, carries each direction on its
//! own lanes: PCI Express Base Specification, "Link"), so a write's data (host to device) and a
//! read's data (device to host) are booked on separate timelines; each timeline books a
//! transfer in the earliest gap at or after its data is ready, so a transfer booked later in
//! request order but ready earlier goes first. Busy intervals ending at or before the latest
//! issue time are dropped (no later transfer can be ready before it, since a request is never
//! issued before the latest one), so a timeline holds only the transfers still ahead of the
//! clock. When transfers are booked with non-decreasing ready times (a write-only run) both
//! bookings give the same times.

use crate::config::LinkBooking;

/// One direction's busy intervals `(start, end)`, sorted, disjoint, merged when touching.
#[derive(Debug, Clone, Default)]
struct GapTimeline {
    busy: Vec<(u64, u64)>,
}

impl GapTimeline {
    /// Book `duration_ns` in the earliest gap at or after `ready`; intervals ending at or
    /// before `floor` are dropped first. Returns the transfer's end.
    fn book(&mut self, floor: u64, ready: u64, duration_ns: u64) -> u64 {
        let stale = self.busy.partition_point(|&(_, end)| end <= floor);
        if stale > 0 {
            self.busy.drain(..stale);
        }
        let mut start = ready;
        let mut at = self.busy.len();
        for (i, &(s, e)) in self.busy.iter().enumerate() {
            if e <= start {
                continue;
            }
            if s >= start + duration_ns {
                at = i;
                break;
            }
            start = start.max(e);
        }
        let end = start + duration_ns;
        if duration_ns == 0 {
            return end;
        }
        // insert at `at`, merging with a neighbour it touches
        let joins_prev = at > 0 && self.busy[at - 1].1 == start;
        let joins_next = at < self.busy.len() && self.busy[at].0 == end;
        match (joins_prev, joins_next) {
            (true, true) => {
                self.busy[at - 1].1 = self.busy[at].1;
                self.busy.remove(at);
            }
            (true, false) => self.busy[at - 1].1 = end,
            (false, true) => self.busy[at].0 = start,
            (false, false) => self.busy.insert(at, (start, end)),
        }
        end
    }
}

/// Which way the data moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// A write's data, host to device.
    ToDevice,
    /// A read's data, device to host.
    ToHost,
}

/// The host link's bookings.
#[derive(Debug, Clone)]
pub(crate) struct HostLink {
    ns_per_byte: f64,
    booking: LinkBooking,
    /// `in-order`: the link's busy-until time, both directions.
    busy: u64,
    /// `gaps`: one timeline per direction.
    to_device: GapTimeline,
    to_host: GapTimeline,
}

impl HostLink {
    pub(crate) fn new(link_mb_s: f64, booking: LinkBooking) -> Self {
        HostLink {
            ns_per_byte: super::NS / (link_mb_s * 1e6),
            booking,
            busy: 0,
            to_device: GapTimeline::default(),
            to_host: GapTimeline::default(),
        }
    }

    /// Move `bytes` in `direction` once they are ready at `ready`; `now` is the latest issue
    /// time (no later transfer is ready before it). Returns when the transfer ends.
    #[inline]
    pub(crate) fn transfer(
        &mut self,
        now: u64,
        ready: u64,
        bytes: u64,
        direction: Direction,
    ) -> u64 {
        let duration_ns = (bytes as f64 * self.ns_per_byte) as u64;
        match self.booking {
            LinkBooking::InOrder => {
                let end = ready.max(self.busy) + duration_ns;
                self.busy = end;
                end
            }
            LinkBooking::Gaps => match direction {
                Direction::ToDevice => self.to_device.book(now, ready, duration_ns),
                Direction::ToHost => self.to_host.book(now, ready, duration_ns),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_booking_ready_earlier_takes_the_gap_before() {
        let mut t = GapTimeline::default();
        assert_eq!(t.book(0, 1_000, 10), 1_010);
        // ready at 0: fits before 1000
        assert_eq!(t.book(0, 0, 10), 10);
        // ready at 995: no room before 1000 (needs 10), goes after 1010
        assert_eq!(t.book(0, 995, 10), 1_020);
        assert_eq!(t.busy, vec![(0, 10), (1_000, 1_020)]);
        // a gap of exactly 10 between 10 and 20 once 20..1000 is taken
        assert_eq!(t.book(0, 20, 980), 1_000);
        assert_eq!(t.busy, vec![(0, 10), (20, 1_020)]);
        assert_eq!(t.book(0, 5, 10), 20);
        assert_eq!(t.busy, vec![(0, 1_020)]);
    }

    #[test]
    fn intervals_behind_the_floor_are_dropped() {
        let mut t = GapTimeline::default();
        t.book(0, 0, 10);
        t.book(0, 100, 10);
        assert_eq!(t.book(50, 60, 10), 70);
        assert_eq!(t.busy, vec![(60, 70), (100, 110)]);
    }

    #[test]
    fn in_order_ready_times_book_alike_in_both_modes() {
        let mut a = HostLink::new(550.0, LinkBooking::InOrder);
        let mut b = HostLink::new(550.0, LinkBooking::Gaps);
        let mut ready = 0;
        for i in 0..1_000u64 {
            ready += (i * 7_919) % 9_000;
            let bytes = 4_096 * (1 + i % 3);
            let x = a.transfer(ready, ready, bytes, Direction::ToDevice);
            let y = b.transfer(ready, ready, bytes, Direction::ToDevice);
            assert_eq!(x, y);
        }
    }
}
