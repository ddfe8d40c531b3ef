//! Whole-page programs without program suspend (`timing.nand.program_granularity = "page"`).
//!
//! By default (`"unit"`) a program is charged to its die per mapping unit: each buffered host
//! unit or GC relocation costs tPROG/u as it is booked, u = `flash_page_bytes / page_size`. The
//! die time is exact, the moment within the page is not: a read booked between two units of a
//! page waits for at most one unit's share of the program, as if the die had suspended its
//! program for the read.
//!
//! A NAND die does not work that way unless its controller makes it: ONFI's page program
//! leaves the LUN busy (status RDY cleared) for tPROG, and a read to the LUN waits until the
//! program ends; suspending the program for a read is a separate technique (Wu & He,
//! "Reducing SSD Read Latency via NAND Flash Program and Erase Suspension", FAST 2012) that
//! needs the NAND's suspend command and the controller's use of it. With `"page"`:
//!
//! - a die's buffered host units are gathered in the write buffer until a flash page is full
//!   (TLC mode: u units; SLC mode: the SLC page of `slc.rs`, a third of the flash page, at
//!   least one unit), then the page's transfers and one whole program time are booked on the
//!   die; its units leave the buffer when the program ends. A read booked after that waits
//!   for the whole program (no suspend).
//! - GC relocations and SLC folds (data moved inside the drive, TLC programs) are gathered the
//!   same way, per die, in a page of their own; GC reads keep tR/u per unit.
//! - what `"unit"` already books whole is unchanged: write-through flushes (their own padded
//!   pages), erases, and the jobs of non-preemptive GC (`gc.blocking = "domain"`).
//!
//! A unit that straddles two SLC pages (u not a multiple of 3) leaves the buffer with the
//! first; its share of the second is programmed with the next page. A page still gathering
//! waits for more units, through host idle time too (idle time folds the SLC cache but does not
//! pad open pages), and is not programmed if the run ends first. Host writes without a write buffer (`buffer.bytes = 0`) and
//! multi-plane programs are refused with this option (config validation): a write waiting for
//! NAND would wait for writes issued after it.

use super::Engine;

/// Where a unit's data comes from: each has its own open page per die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    HostTlc = 0,
    HostSlc = 1,
    /// GC relocations and SLC folds.
    Internal = 2,
}

#[derive(Debug, Clone, Copy, Default)]
struct OpenPage {
    /// Parts of the page filled (a page has u parts; a TLC unit fills 1, an SLC unit 3).
    parts: u32,
    /// Units waiting for this page's program.
    units: u32,
    /// When the latest of them was ready.
    ready_ns: u64,
}

/// A page filled: its units (their transfers, and their release from the buffer) and when the
/// last of them was ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FullPage {
    pub(super) units: u32,
    pub(super) ready_ns: u64,
}

/// The open pages of each die (empty with `"unit"` granularity).
#[derive(Debug, Clone, Default)]
pub(super) struct PagePrograms {
    parts_per_page: u32,
    slc_parts_per_unit: u32,
    open: Vec<[OpenPage; 3]>,
    /// Host units gathered and not yet programmed (they hold write-buffer slots).
    pending_host_units: usize,
}

impl PagePrograms {
    pub(super) fn new(whole_pages: bool, units_per_page: u64, dies: u32) -> Self {
        let parts = units_per_page.max(1) as u32;
        PagePrograms {
            parts_per_page: parts,
            // an SLC page holds a third of the flash page's units, at least one
            slc_parts_per_unit: parts.min(3),
            open: if whole_pages {
                vec![[OpenPage::default(); 3]; dies as usize]
            } else {
                Vec::new()
            },
            pending_host_units: 0,
        }
    }

    #[inline]
    pub(super) fn enabled(&self) -> bool {
        !self.open.is_empty()
    }

    /// Host units in the buffer waiting for their page to fill.
    #[inline]
    pub(super) fn pending_host_units(&self) -> usize {
        self.pending_host_units
    }

    /// A unit of `stream` for `die`, ready at `ready_ns`: the page it fills, if it fills one.
    pub(super) fn add(&mut self, die: usize, stream: Stream, ready_ns: u64) -> Option<FullPage> {
        let page = &mut self.open[die][stream as usize];
        page.parts += if stream == Stream::HostSlc {
            self.slc_parts_per_unit
        } else {
            1
        };
        page.units += 1;
        page.ready_ns = page.ready_ns.max(ready_ns);
        let host = stream != Stream::Internal;
        if page.parts < self.parts_per_page {
            self.pending_host_units += host as usize;
            return None;
        }
        // a straddling unit's share of the next page stays as that page's first parts
        page.parts -= self.parts_per_page;
        let full = FullPage {
            units: page.units,
            ready_ns: page.ready_ns,
        };
        page.units = 0;
        if host {
            self.pending_host_units -= full.units as usize - 1;
        }
        Some(full)
    }
}

impl Engine {
    /// With whole-page programs: add a unit of `stream` to `die`'s open page; when the page is
    /// full, book its transfers and one program of `page_ns` on the die. Returns the program's
    /// end and how many units it completes.
    pub(super) fn gather(
        &mut self,
        die: usize,
        stream: Stream,
        ready: u64,
        page_ns: u64,
    ) -> Option<(u64, u32)> {
        let full = self.pages.add(die, stream, ready)?;
        let transfers = full.units as u64 * self.channel_unit_ns;
        let loaded = self.on_die(die, full.ready_ns, transfers);
        Some((self.on_die(die, loaded, page_ns), full.units))
    }

    /// A host unit for `ppn` through the write buffer, its data arrived at `arrived`: waits
    /// for a free slot (and for its GC domain), then is programmed — by unit, or gathered into
    /// a whole page (`in_slc`: an SLC page). Returns when the buffer accepted it.
    pub(super) fn buffered_write(
        &mut self,
        ppn: u32,
        arrived: u64,
        (unit_ns, page_ns, in_slc): (u64, u64, bool),
    ) -> u64 {
        let mut accept = self.domain_ready(ppn, arrived);
        while self.buffered.peek().is_some_and(|end| end <= accept) {
            self.buffered.pop();
        }
        if self.buffered.len() + self.pages.pending_host_units() >= self.buffer_units {
            if let Some(c) = self.buffered.pop() {
                accept = accept.max(c);
            }
        }
        if !self.pages.enabled() {
            let end = self.program_host(ppn, accept, unit_ns);
            self.buffered.push(self.die_of(ppn), end);
            return accept;
        }
        let stream = if in_slc {
            Stream::HostSlc
        } else {
            Stream::HostTlc
        };
        let die = self.die_of(ppn);
        if let Some((end, units)) = self.gather(die, stream, accept, page_ns) {
            for _ in 0..units {
                self.buffered.push(die, end);
            }
        }
        accept
    }

    /// A moved unit's TLC program (a GC relocation or an SLC fold) on `die`, its data ready at
    /// `ready`: its share of a page, or gathered into a whole page.
    pub(super) fn program_internal(&mut self, die: usize, ready: u64) {
        if self.pages.enabled() {
            self.gather(die, Stream::Internal, ready, self.program_page_ns);
        } else {
            let loaded = self.transfer(die, ready);
            self.on_die(die, loaded, self.program_unit_ns);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tlc_page_fills_with_u_units_and_releases_them_together() {
        let mut p = PagePrograms::new(true, 4, 2);
        for t in 0..3 {
            assert_eq!(p.add(1, Stream::HostTlc, 10 * t), None);
        }
        assert_eq!(p.pending_host_units(), 3);
        // another die's page and another stream's are their own
        assert_eq!(p.add(0, Stream::HostTlc, 0), None);
        assert_eq!(p.add(1, Stream::Internal, 0), None);
        let full = p.add(1, Stream::HostTlc, 25).unwrap();
        assert_eq!(
            full,
            FullPage {
                units: 4,
                ready_ns: 25
            }
        );
        assert_eq!(p.pending_host_units(), 1); // die 0's unit
    }

    #[test]
    fn slc_pages_hold_a_third_of_the_units_and_keep_the_die_time() {
        // 8 units per flash page: an SLC page holds 8/3; 8 units make exactly 3 SLC pages
        let mut p = PagePrograms::new(true, 8, 1);
        let closed: Vec<u32> = (0..8)
            .filter_map(|_| p.add(0, Stream::HostSlc, 0))
            .map(|f| f.units)
            .collect();
        assert_eq!(closed, vec![3, 3, 2]);
        assert_eq!(p.pending_host_units(), 0);
        // fewer than 3 units per flash page: an SLC page holds one
        let mut one = PagePrograms::new(true, 2, 1);
        assert_eq!(one.add(0, Stream::HostSlc, 0).map(|f| f.units), Some(1));
    }

    #[test]
    fn internal_units_hold_no_buffer_slot() {
        let mut p = PagePrograms::new(true, 2, 1);
        assert_eq!(p.add(0, Stream::Internal, 0), None);
        assert_eq!(p.pending_host_units(), 0);
        assert!(p.add(0, Stream::Internal, 0).is_some());
        assert!(!PagePrograms::new(false, 2, 1).enabled());
    }
}
