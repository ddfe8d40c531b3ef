//! Per-block state as flat arrays indexed by block number, and the indexes GC policies read:
//! valid-count buckets (greedy in O(1)) and a dense list of closed blocks (random sampling).

/// "No block" in the intrusive lists.
pub const NIL: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockState {
    /// Erased, in the free pool.
    Free = 0,
    /// A write frontier is programming it.
    Open = 1,
    /// Fully programmed; a GC candidate.
    Closed = 2,
    /// Chosen as a victim; its valid pages are being relocated before the erase.
    Collecting = 3,
}

/// Block table. About 29 bytes per block (0.11 bytes per page at 256 pages per block).
#[derive(Debug, Clone)]
pub struct BlockTable {
    pages_per_block: u32,
    /// Valid pages in each block.
    pub valid: Vec<u32>,
    /// Program/erase cycles of each block.
    pub erase_count: Vec<u32>,
    pub state: Vec<BlockState>,
    /// Write stream whose data the block holds (host stream of the data, for GC routing).
    pub stream: Vec<u8>,
    /// Host-write clock when the block was closed (its age for cost-benefit and FIFO).
    pub closed_at: Vec<u64>,
    // valid-count buckets: doubly linked lists of closed blocks, one list per valid count
    bucket_head: Vec<u32>,
    bucket_prev: Vec<u32>,
    bucket_next: Vec<u32>,
    // dense list of closed blocks with each block's position in it
    closed: Vec<u32>,
    closed_pos: Vec<u32>,
}

impl BlockTable {
    pub fn new(blocks: u32, pages_per_block: u32) -> Self {
        let n = blocks as usize;
        BlockTable {
            pages_per_block,
            valid: vec![0; n],
            erase_count: vec![0; n],
            state: vec![BlockState::Free; n],
            stream: vec![0; n],
            closed_at: vec![0; n],
            bucket_head: vec![NIL; pages_per_block as usize + 1],
            bucket_prev: vec![NIL; n],
            bucket_next: vec![NIL; n],
            closed: Vec::with_capacity(n),
            closed_pos: vec![NIL; n],
        }
    }

    pub fn len(&self) -> usize {
        self.valid.len()
    }

    pub fn is_empty(&self) -> bool {
        self.valid.is_empty()
    }

    pub fn pages_per_block(&self) -> u32 {
        self.pages_per_block
    }

    /// Closed blocks, in no particular order.
    pub fn closed_blocks(&self) -> &[u32] {
        &self.closed
    }

    /// A closed block with `valid` valid pages, if any (the head of that bucket).
    #[inline]
    pub fn bucket_first(&self, valid: u32) -> Option<u32> {
        let b = self.bucket_head[valid as usize];
        (b != NIL).then_some(b)
    }

    /// Blocks in the bucket of `valid` valid pages (for invariant checks).
    pub fn bucket_members(&self, valid: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut b = self.bucket_head[valid as usize];
        while b != NIL {
            out.push(b);
            b = self.bucket_next[b as usize];
        }
        out
    }

    #[inline(always)]
    fn link(&mut self, b: u32, v: u32) {
        let head = self.bucket_head[v as usize];
        self.bucket_prev[b as usize] = NIL;
        self.bucket_next[b as usize] = head;
        if head != NIL {
            self.bucket_prev[head as usize] = b;
        }
        self.bucket_head[v as usize] = b;
    }

    #[inline(always)]
    fn unlink(&mut self, b: u32, v: u32) {
        let prev = self.bucket_prev[b as usize];
        let next = self.bucket_next[b as usize];
        if prev == NIL {
            self.bucket_head[v as usize] = next;
        } else {
            self.bucket_next[prev as usize] = next;
        }
        if next != NIL {
            self.bucket_prev[next as usize] = prev;
        }
    }

    /// Prefetch the entries of block `b` that invalidating one of its pages touches.
    #[inline(always)]
    pub fn prefetch_block(&self, b: u32) {
        let i = b as usize;
        if i < self.valid.len() {
            super::prefetch::prefetch(&self.valid[i]);
            super::prefetch::prefetch(&self.state[i]);
            super::prefetch::prefetch(&self.bucket_prev[i]);
            super::prefetch::prefetch(&self.bucket_next[i]);
        }
    }

    /// One page of block `b` became invalid.
    #[inline(always)]
    pub fn invalidate_one(&mut self, b: u32) {
        let v = self.valid[b as usize];
        debug_assert!(
            v > 0,
            "invalidating a page of block {b} with no valid pages"
        );
        self.valid[b as usize] = v - 1;
        if self.state[b as usize] == BlockState::Closed {
            self.unlink(b, v);
            self.link(b, v - 1);
        }
    }

    /// A frontier took block `b` from the free pool.
    pub fn open(&mut self, b: u32, stream: u8) {
        debug_assert_eq!(self.state[b as usize], BlockState::Free);
        self.state[b as usize] = BlockState::Open;
        self.stream[b as usize] = stream;
    }

    /// Block `b` is fully programmed.
    pub fn close(&mut self, b: u32, now: u64) {
        debug_assert_eq!(self.state[b as usize], BlockState::Open);
        self.state[b as usize] = BlockState::Closed;
        self.closed_at[b as usize] = now;
        let v = self.valid[b as usize];
        self.link(b, v);
        self.closed_pos[b as usize] = self.closed.len() as u32;
        self.closed.push(b);
    }

    /// Closed block `b` was chosen for erasure: take it out of the indexes.
    pub fn remove_closed(&mut self, b: u32) {
        debug_assert_eq!(self.state[b as usize], BlockState::Closed);
        let v = self.valid[b as usize];
        self.unlink(b, v);
        let pos = self.closed_pos[b as usize] as usize;
        let last = self.closed.pop().expect("closed list holds b");
        if last != b {
            self.closed[pos] = last;
            self.closed_pos[last as usize] = pos as u32;
        }
        self.closed_pos[b as usize] = NIL;
        self.state[b as usize] = BlockState::Collecting;
    }

    /// Erase block `b` (its valid pages have been relocated).
    pub fn erase(&mut self, b: u32) {
        debug_assert_eq!(self.state[b as usize], BlockState::Collecting);
        self.valid[b as usize] = 0;
        self.erase_count[b as usize] += 1;
        self.state[b as usize] = BlockState::Free;
    }
}
