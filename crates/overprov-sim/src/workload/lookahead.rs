//! The workload generated a fixed number of requests ahead of the one being served, so the
//! simulator can prefetch what upcoming requests will touch (see `ftl::prefetch`).
//!
//! The workload's random streams are its own (nothing the FTL does feeds back into it), so
//! generating requests early hands out exactly the sequence that generating them on demand
//! would: the results of a run do not depend on the depth.

use super::{Request, Workload};

/// Requests generated ahead by default: enough for the map misses of many requests to be in
/// flight at once, few enough that the prefetched lines are still cached when used.
pub const DEFAULT_DEPTH: usize = 16;

/// A workload with a ring of requests generated ahead.
#[derive(Debug, Clone)]
pub struct Lookahead {
    workload: Workload,
    /// Ring of `mask + 1` slots (a power of two); `len` requests from `head` are pending.
    ring: Vec<Request>,
    mask: usize,
    head: usize,
    len: usize,
    depth: usize,
}

impl Lookahead {
    /// `depth` requests ahead; 0 generates each request when it is asked for.
    pub fn new(workload: Workload, depth: usize) -> Self {
        let slots = (depth + 1).next_power_of_two();
        Lookahead {
            workload,
            ring: Vec::with_capacity(slots),
            mask: slots - 1,
            head: 0,
            len: 0,
            depth,
        }
    }

    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// Requests kept generated ahead.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The next request, in the workload's order. `fresh` is called with each request as it is
    /// generated (`depth` requests before it is returned), `midway` with the request `depth / 2`
    /// places before it is returned (0 depth: neither is called).
    #[inline]
    pub fn next(
        &mut self,
        mut fresh: impl FnMut(&Request),
        mut midway: impl FnMut(&Request),
    ) -> Request {
        if self.depth == 0 {
            return self.workload.next_request();
        }
        while self.len <= self.depth {
            let r = self.workload.next_request();
            fresh(&r);
            let slot = (self.head + self.len) & self.mask;
            if slot < self.ring.len() {
                self.ring[slot] = r;
            } else {
                self.ring.push(r);
            }
            self.len += 1;
        }
        let r = self.ring[self.head];
        self.head = (self.head + 1) & self.mask;
        self.len -= 1;
        midway(&self.ring[(self.head + self.depth / 2) & self.mask]);
        r
    }
}
