//! Issue times taken from the workload: a trace replayed in open loop issues each request at
//! its own arrival time instead of at a fixed rate.

use super::Engine;

impl Engine {
    /// The issue time of a request arriving at `arrival_ns` (open loop): its arrival, or the
    /// latest issue when arrivals are out of order (traces merged from several clocks), so
    /// simulated time never runs backwards.
    pub fn issue_at(&mut self, arrival_ns: u64) -> u64 {
        self.now = self.now.max(arrival_ns);
        self.now
    }
}
