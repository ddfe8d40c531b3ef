//! A min-priority queue of times for the write buffer's completion times (`Engine::buffered`):
//! a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the shortest path
//! problem", J. ACM 37(2), 1990). A key goes to the bucket of the highest bit where it differs
//! from the last key popped, so a pop redistributes one bucket instead of sifting a binary heap.
//! It needs every pushed key at least the last popped one; the write buffer keeps that (a unit
//! is accepted no earlier than the slot it waited for and programmed after it is accepted), and
//! a push below it re-buckets the whole queue around the new key, so the order is exact anyway.

/// Bucket 0 holds keys equal to `last`; bucket i (1..=64) keys whose highest bit differing from
/// `last` is bit i-1. Every key is >= `last`.
#[derive(Debug, Clone)]
pub(super) struct RadixHeap {
    last: u64,
    len: usize,
    buckets: [Vec<u64>; 65],
}

impl RadixHeap {
    pub(super) fn new() -> Self {
        Self {
            last: 0,
            len: 0,
            buckets: std::array::from_fn(|_| Vec::new()),
        }
    }

    #[inline]
    fn bucket(last: u64, key: u64) -> usize {
        (u64::BITS - (key ^ last).leading_zeros()) as usize
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(super) fn push(&mut self, key: u64) {
        if key < self.last {
            self.rebase(key);
        }
        self.buckets[Self::bucket(self.last, key)].push(key);
        self.len += 1;
    }

    /// The smallest key, without removing it.
    #[inline]
    pub(super) fn peek(&mut self) -> Option<u64> {
        self.refill();
        self.buckets[0].last().copied()
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<u64> {
        self.refill();
        let key = self.buckets[0].pop()?;
        self.len -= 1;
        Some(key)
    }

    /// The largest key (a scan: for the rare flush command).
    pub(super) fn max(&self) -> Option<u64> {
        self.buckets.iter().flatten().copied().max()
    }

    /// With bucket 0 empty, moves the smallest key's bucket down around that key.
    #[inline]
    fn refill(&mut self) {
        if !self.buckets[0].is_empty() || self.len == 0 {
            return;
        }
        let Some(i) = self.buckets.iter().position(|b| !b.is_empty()) else {
            return;
        };
        let mut moved = std::mem::take(&mut self.buckets[i]);
        self.last = moved.iter().copied().min().unwrap_or(self.last);
        for key in moved.drain(..) {
            self.buckets[Self::bucket(self.last, key)].push(key);
        }
        // keep the emptied bucket's capacity for its next fill
        if self.buckets[i].is_empty() {
            self.buckets[i] = moved;
        }
    }

    /// A key below `last`: every queued key is above it, so re-bucket them all around it.
    #[cold]
    fn rebase(&mut self, key: u64) {
        let keys: Vec<u64> = self.buckets.iter_mut().flat_map(|b| b.drain(..)).collect();
        self.last = key;
        for k in keys {
            self.buckets[Self::bucket(key, k)].push(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RadixHeap;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The same pushes and pops as a binary heap, including pushes below the last pop.
    #[test]
    fn pops_in_the_order_of_a_binary_heap() {
        let mut radix = RadixHeap::new();
        let mut binary = BinaryHeap::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for step in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 3 == 0 {
                assert_eq!(radix.pop(), binary.pop().map(|Reverse(k)| k), "step {step}");
            } else {
                // mostly near the last pop, sometimes below it, sometimes far above
                let base = radix.peek().unwrap_or(step * 50);
                let key = match x % 7 {
                    0 => base.saturating_sub(x % 1000),
                    1 => base + (x >> 20),
                    _ => base + x % 5000,
                };
                radix.push(key);
                binary.push(Reverse(key));
            }
            assert_eq!(radix.len(), binary.len());
            assert_eq!(radix.peek(), binary.peek().map(|r| r.0));
            assert_eq!(radix.max(), binary.iter().map(|r| r.0).max());
        }
        while let Some(Reverse(k)) = binary.pop() {
            assert_eq!(radix.pop(), Some(k));
        }
        assert_eq!(radix.pop(), None);
    }
}
