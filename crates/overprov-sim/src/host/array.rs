//! An array of identical simulated drives. Each member is a whole `Simulator` (its own FTL,
//! write buffer, controller and NAND dies); the array maps a host request onto member requests
//! (`Layout`), books them on the members at the host's issue time, and completes the request
//! when its last member request completes.
//!
//! * Writes go to every copy (RAID-1: every member; RAID-10: both members of the pair), so a
//!   mirrored write completes with its slowest member.
//! * Reads go to one copy: the member with the fewest outstanding requests, ties to the lower
//!   member — Linux md raid1's `read_balance` for non-rotational members (it keeps the disk
//!   with the least pending I/O, the first found on a tie).
//! * TRIM goes to every copy.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::sim::Simulator;
use crate::workload::{Op, Request};

use crate::config::Layout;

/// How a read picks its copy, as the report states it.
pub const READ_POLICY: &str =
    "fewest outstanding requests, ties to the lower member (md raid1 read_balance)";

#[derive(Debug, Clone)]
pub struct Array {
    pub layout: Layout,
    pub members: Vec<Simulator>,
    /// Completion times of each member's outstanding requests.
    outstanding: Vec<BinaryHeap<Reverse<u64>>>,
    /// Reads each member served.
    pub reads: Vec<u64>,
    page_bytes: u32,
}

impl Array {
    pub fn new(layout: Layout, members: Vec<Simulator>, page_bytes: u32) -> Self {
        let n = members.len();
        Array {
            layout,
            members,
            outstanding: vec![BinaryHeap::new(); n],
            reads: vec![0; n],
            page_bytes,
        }
    }

    /// Requests issued to `member` before `t` that are still in flight at `t`.
    fn pending(&mut self, member: usize, t: u64) -> usize {
        let q = &mut self.outstanding[member];
        while q.peek().is_some_and(|Reverse(d)| *d <= t) {
            q.pop();
        }
        q.len()
    }

    /// The copy a read goes to: fewest outstanding requests, ties to the lower member.
    fn read_member(&mut self, set: u32, t: u64) -> usize {
        let mut best = (usize::MAX, 0);
        for m in self.layout.copies(set) {
            let p = self.pending(m as usize, t);
            if p < best.0 {
                best = (p, m as usize);
            }
        }
        best.1
    }

    /// Serve host request `r` issued at `t`; returns when its last member request completes.
    pub fn serve(&mut self, t: u64, r: &Request) -> u64 {
        let mut extents = Vec::with_capacity(2);
        self.layout.split(r.lpn, r.pages, |e| extents.push(e));
        let whole = extents.len() == 1;
        let mut done = t;
        for e in extents {
            let bytes = if whole {
                r.bytes
            } else {
                e.pages * self.page_bytes
            };
            let sub = Request {
                lpn: e.lpn,
                pages: e.pages,
                bytes,
                ..*r
            };
            let mut book = |a: &mut Array, m: usize| {
                a.pending(m, t); // drop what completed, so the queue stays short
                let d = a.members[m].serve(t, &sub);
                a.outstanding[m].push(Reverse(d));
                done = done.max(d);
            };
            if r.op == Op::Read {
                let m = self.read_member(e.set, t);
                self.reads[m] += 1;
                book(self, m);
            } else {
                for m in self.layout.copies(e.set) {
                    book(self, m as usize);
                }
            }
        }
        done
    }
}
