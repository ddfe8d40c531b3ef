//! MQSim's collections in flight (`timing.gc.collections_in_flight` = N ≥ 1, with
//! non-preemptive GC per domain, `timing.gc.blocking = "domain"`): a GC domain has at most N
//! collections in flight; one triggered while N are is held and starts when the earliest of
//! them ends (at most N are held: beyond them the oldest starts at once); the domain does not
//! refuse host writes.
//!
//! What MQSim does (CMU-SAFARI/MQSim `7ec40e3b`, `src/ssd/GC_and_WL_Unit_Page_Level.cpp`;
//! bench/foreign/results/mqstatic/DIAGNOSIS.md): `Check_gc_required` runs at each block a
//! plane's frontier allocates and at each erase's completion, and starts one collection while
//! the plane's pool is under its threshold and fewer than `max_ongoing_gc_reqs_per_plane` (10)
//! run there. Its host writes are not refused: they wait in the chip's queues, programmed as
//! partners of GC writes while an erase is queued (timing/erase_hold.rs, timing/gc_first.rs).
//! So at 0% extra OP, with the pool below the threshold, each plane keeps ten collections in
//! flight, one starting as one ends: both planes collect all the time and their relocations
//! pair.
//!
//! The core's FTL collects at once (`ftl/plane_pools.rs`: a pool collects victims until it is
//! above its trigger), so one host write that opens a block starts a burst of about WAF
//! collections on one plane, all at one instant (bench/foreign/results/mqlockstep/DIAGNOSIS.md:
//! 15.8 a trigger at 0% on 512 × 32). Without the option a domain books them all at the
//! trigger and refuses its host writes until the last has ended. With it the first N are booked
//! at the trigger and each of the others when one in flight ends — at the first request issued
//! at or after that end, since bookings are made in request order — so a plane's collections
//! are spread over time as MQSim's are; the FTL's work is the same. A domain holds at most N
//! (beyond them the oldest is booked at once), so every collection's die time is booked within
//! N collections of its trigger; those still held when the run ends are not booked.

use std::collections::VecDeque;

use super::Engine;

/// At most this many collections held for each one in flight (a bound on the FTL's lead).
const HELD_PER_IN_FLIGHT: usize = 32;

/// Each domain's latest collections' ends and the collections it holds (empty when off).
#[derive(Debug, Clone, Default)]
pub(super) struct InFlight {
    cap: usize,
    /// Per domain: the ends of its latest `cap` collections booked, in booking order (a
    /// domain's collections end in that order, `gc_jobs.rs`).
    ends: Vec<VecDeque<u64>>,
    /// Per domain: collections held, oldest first (relocations, erase time).
    held: Vec<VecDeque<(u64, u64)>>,
}

impl InFlight {
    pub(super) fn new(cap: u32) -> Self {
        InFlight {
            cap: cap as usize,
            ..InFlight::default()
        }
    }

    #[inline]
    pub(super) fn enabled(&self) -> bool {
        self.cap > 0
    }

    fn ensure(&mut self, d: usize) {
        if self.ends.len() <= d {
            self.ends.resize_with(d + 1, VecDeque::new);
            self.held.resize_with(d + 1, VecDeque::new);
        }
    }

    /// A collection of domain `d` triggered at `t`: true when it is held (N in flight at `t`,
    /// or earlier ones held), false when it is to be booked now.
    pub(super) fn hold(&mut self, d: usize, job: (u64, u64), t: u64) -> bool {
        self.ensure(d);
        let in_flight = self.ends[d].iter().filter(|&&e| e > t).count();
        if self.held[d].is_empty() && in_flight < self.cap {
            return false;
        }
        self.held[d].push_back(job);
        true
    }

    /// Domain `d`'s oldest held collection when it holds more than N (then booked at once, so
    /// that the FTL's collections are all charged within N of their trigger).
    pub(super) fn over_held(&mut self, d: usize) -> Option<(u64, u64)> {
        match self.held[d].len() > self.cap * HELD_PER_IN_FLIGHT {
            true => self.held[d].pop_front(),
            false => None,
        }
    }

    /// The collections each domain holds (empty when off).
    pub(super) fn held_counts(&self) -> Vec<u64> {
        self.held.iter().map(|h| h.len() as u64).collect()
    }

    /// Domain `d` booked a collection ending at `end`.
    pub(super) fn booked(&mut self, d: usize, end: u64) {
        if !self.enabled() {
            return;
        }
        self.ensure(d);
        let ends = &mut self.ends[d];
        ends.push_back(end);
        if ends.len() > self.cap {
            ends.pop_front();
        }
    }

    /// When domain `d`'s oldest held collection may start (fewer than N in flight from then
    /// on), and the collection; None when it holds none.
    fn next(&self, d: usize) -> Option<u64> {
        self.held.get(d)?.front()?;
        let ends = &self.ends[d];
        Some(match ends.len() < self.cap {
            true => 0,
            false => ends[ends.len() - self.cap],
        })
    }
}

impl Engine {
    /// Book, at `t`, every held collection whose start has come (`collections_in_flight`).
    pub(super) fn start_held_collections(&mut self, t: u64) {
        for d in 0..self.in_flight.held.len() {
            while self.in_flight.next(d).is_some_and(|s| s <= t) {
                let Some((relocs, erase_ns)) = self.in_flight.held[d].pop_front() else {
                    break;
                };
                self.book_collection(d, relocs, erase_ns, t);
            }
        }
    }

    /// From when GC domain `d` accepts host writes: once all its collections have ended; with
    /// `collections_in_flight`, at once (MQSim refuses none: they wait on the die, behind the
    /// collections booked there).
    #[inline]
    pub(super) fn domain_accepts(&self, d: usize) -> u64 {
        if self.in_flight.enabled() {
            return 0;
        }
        self.domain_free[d].0
    }
}

#[cfg(test)]
mod tests {
    use super::InFlight;

    #[test]
    fn off_holds_nothing() {
        let mut f = InFlight::new(0);
        assert!(!f.enabled());
        f.booked(0, 100);
        assert!(f.ends.is_empty());
    }

    #[test]
    fn a_collection_beyond_the_cap_is_held_until_the_earliest_in_flight_ends() {
        let mut f = InFlight::new(2);
        assert!(!f.hold(0, (4, 1), 0));
        f.booked(0, 100);
        assert!(!f.hold(0, (4, 1), 0));
        f.booked(0, 200);
        // two in flight at 50: held; another domain is not
        assert!(f.hold(0, (5, 1), 50));
        assert!(!f.hold(1, (4, 1), 50));
        // at 150 one has ended, but an earlier one is held: held behind it
        assert!(f.hold(0, (6, 1), 150));
        assert_eq!(f.next(0), Some(100));
        f.held[0].pop_front();
        f.booked(0, 300);
        // the next starts when the second of the latest two ends
        assert_eq!(f.next(0), Some(200));
        assert_eq!(f.held[0].front(), Some(&(6, 1)));
        assert_eq!(f.next(1), None);
    }
}
