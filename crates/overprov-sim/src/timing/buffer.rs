//! The write buffer's slots: when each buffered unit reaches NAND, kept per die. A die books its
//! programs one after another, so its completion times mostly arrive in order; the earliest of
//! all is found in a tournament tree over the dies' first ones instead of a binary heap over
//! every buffered unit (65,536 of them in a 256 MiB buffer). A time below its die's last one is
//! inserted in order, so the queue stays exact whatever the booking.

use std::collections::VecDeque;

use crate::ftl::prefetch::prefetch;

#[derive(Debug, Clone)]
pub(super) struct BufferSlots {
    by_die: Vec<VecDeque<u64>>,
    /// Tournament tree: `tree[leaves + d]` is die d's first time (u64::MAX when empty), each
    /// inner node the die with the least first time below it.
    tree: Vec<(u64, u32)>,
    leaves: usize,
    len: usize,
}

impl BufferSlots {
    pub(super) fn new(dies: usize) -> Self {
        let leaves = dies.max(1).next_power_of_two();
        let mut tree = vec![(u64::MAX, 0u32); 2 * leaves];
        for (d, leaf) in tree[leaves..].iter_mut().enumerate() {
            leaf.1 = d as u32;
        }
        for i in (1..leaves).rev() {
            tree[i] = tree[2 * i].min(tree[2 * i + 1]);
        }
        Self {
            by_die: vec![VecDeque::new(); dies.max(1)],
            tree,
            leaves,
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn update(&mut self, die: usize) {
        let mut i = self.leaves + die;
        self.tree[i].0 = self.by_die[die].front().copied().unwrap_or(u64::MAX);
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].min(self.tree[2 * i + 1]);
        }
    }

    /// A unit on `die` that leaves the buffer at `end_ns`.
    #[inline]
    pub(super) fn push(&mut self, die: usize, end_ns: u64) {
        let q = &mut self.by_die[die];
        let first = q.front().copied();
        if q.back().is_none_or(|&last| last <= end_ns) {
            q.push_back(end_ns);
        } else {
            let at = q.partition_point(|&t| t <= end_ns);
            q.insert(at, end_ns);
        }
        self.len += 1;
        if q.front().copied() != first {
            self.update(die);
        }
    }

    /// When the first unit leaves the buffer.
    #[inline]
    pub(super) fn peek(&self) -> Option<u64> {
        (self.len > 0).then(|| self.tree[1].0)
    }

    /// Frees the slot that frees first; returns when it does.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        let die = self.tree[1].1 as usize;
        let q = &mut self.by_die[die];
        let t = q.pop_front();
        // The die's new first time is read now (`update`); the one after it when this die's
        // slot frees next, some dies' slots later: bring its cache line in meanwhile (a
        // deep buffer's queues do not stay cached beside the FTL's tables).
        if let Some(next) = q.get(1) {
            prefetch(next);
        }
        self.len -= 1;
        self.update(die);
        t
    }

    /// When the last unit leaves the buffer.
    pub(super) fn max(&self) -> Option<u64> {
        self.by_die.iter().filter_map(|q| q.back().copied()).max()
    }
}

#[cfg(test)]
mod tests {
    use super::BufferSlots;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The same times in the same order as a binary heap, out-of-order pushes included.
    #[test]
    fn frees_slots_in_the_order_of_a_binary_heap() {
        for dies in [1, 3, 4] {
            let mut slots = BufferSlots::new(dies);
            let mut heap = BinaryHeap::new();
            let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
            let mut die_clock = vec![0u64; dies];
            for step in 0..20_000usize {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 3 == 0 {
                    assert_eq!(slots.pop(), heap.pop().map(|Reverse(t)| t), "step {step}");
                } else {
                    let die = (x >> 8) as usize % dies;
                    // mostly later than the die's last time, one in seven earlier
                    let t = if x % 7 == 0 {
                        die_clock[die].saturating_sub(x % 900)
                    } else {
                        die_clock[die] += x % 500;
                        die_clock[die]
                    };
                    slots.push(die, t);
                    heap.push(Reverse(t));
                }
                assert_eq!(slots.len(), heap.len());
                assert_eq!(slots.peek(), heap.peek().map(|r| r.0));
                assert_eq!(slots.max(), heap.iter().map(|r| r.0).max());
            }
        }
    }
}
