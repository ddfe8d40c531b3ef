//! Per-block state as flat arrays indexed by block number, and the indexes GC policies read:
//! valid-count buckets (greedy in O(1)), a dense list of closed blocks (random sampling) and,
//! when asked for, the oldest close time in each bucket (cost-benefit in O(pages per block)).

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
    // bucket ages (kept only with `with_bucket_ages(true)`): per valid count, the earliest close
    // time among its blocks, how many blocks share it and one of them; a bucket whose earliest
    // block left is stale until `refresh_bucket_ages` walks it again
    bucket_ages: bool,
    oldest_at: Vec<u64>,
    oldest_count: Vec<u32>,
    oldest_block: Vec<u32>,
    age_stale: Vec<bool>,
    stale_buckets: Vec<u32>,
}

/// The earliest-closed blocks of one valid-count bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BucketOldest {
    /// Their close time (host-write clock).
    pub closed_at: u64,
    /// How many blocks of the bucket closed then.
    pub count: u32,
    /// One of them (the only one when `count` is 1).
    pub block: u32,
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
            bucket_ages: false,
            oldest_at: Vec::new(),
            oldest_count: Vec::new(),
            oldest_block: Vec::new(),
            age_stale: Vec::new(),
            stale_buckets: Vec::new(),
        }
    }

    /// Keep the oldest close time of each valid-count bucket (a cost for every page
    /// invalidated, so only for a policy that reads it). Call before any block is closed.
    pub fn with_bucket_ages(mut self, on: bool) -> Self {
        debug_assert!(self.closed.is_empty());
        let buckets = self.pages_per_block as usize + 1;
        self.bucket_ages = on;
        if on {
            self.oldest_at = vec![u64::MAX; buckets];
            self.oldest_count = vec![0; buckets];
            self.oldest_block = vec![NIL; buckets];
            self.age_stale = vec![false; buckets];
            self.stale_buckets = Vec::with_capacity(buckets);
        }
        self
    }

    /// Whether [`BlockTable::bucket_oldest`] can be read: bucket ages are kept and every
    /// bucket has been refreshed since its earliest block left it.
    pub fn bucket_ages_ready(&self) -> bool {
        self.bucket_ages && self.stale_buckets.is_empty()
    }

    /// Recompute the buckets whose earliest block left them (a walk of each such bucket).
    pub fn refresh_bucket_ages(&mut self) {
        while let Some(v) = self.stale_buckets.pop() {
            let v = v as usize;
            let (mut at, mut count, mut block) = (u64::MAX, 0, NIL);
            let mut b = self.bucket_head[v];
            while b != NIL {
                let c = self.closed_at[b as usize];
                if c < at {
                    (at, count, block) = (c, 1, b);
                } else if c == at {
                    count += 1;
                }
                b = self.bucket_next[b as usize];
            }
            self.oldest_at[v] = at;
            self.oldest_count[v] = count;
            self.oldest_block[v] = block;
            self.age_stale[v] = false;
        }
    }

    /// The earliest-closed blocks of the bucket of `valid` valid pages, if it has any. Needs
    /// [`BlockTable::bucket_ages_ready`].
    #[inline]
    pub fn bucket_oldest(&self, valid: u32) -> Option<BucketOldest> {
        debug_assert!(self.bucket_ages_ready());
        let v = valid as usize;
        (self.oldest_count[v] > 0).then(|| BucketOldest {
            closed_at: self.oldest_at[v],
            count: self.oldest_count[v],
            block: self.oldest_block[v],
        })
    }

    /// Position of closed block `b` in [`BlockTable::closed_blocks`].
    #[inline]
    pub fn closed_position(&self, b: u32) -> u32 {
        self.closed_pos[b as usize]
    }

    /// The next block after `b` in its valid-count bucket (`NIL` at the end); with
    /// [`BlockTable::bucket_first`], a walk of a bucket without allocating.
    #[inline]
    pub fn bucket_next(&self, b: u32) -> u32 {
        self.bucket_next[b as usize]
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
        if self.bucket_ages {
            self.age_linked(b, v);
        }
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
        if self.bucket_ages {
            self.age_unlinked(b, v);
        }
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

    /// Block `b` (closed at its `closed_at`) joined bucket `v`.
    #[inline(always)]
    fn age_linked(&mut self, b: u32, v: u32) {
        let v = v as usize;
        if self.age_stale[v] {
            return;
        }
        let c = self.closed_at[b as usize];
        if c < self.oldest_at[v] {
            self.oldest_at[v] = c;
            self.oldest_count[v] = 1;
            self.oldest_block[v] = b;
        } else if c == self.oldest_at[v] {
            self.oldest_count[v] += 1;
        }
    }

    /// Block `b` left bucket `v`: if it was among the earliest, the bucket is stale.
    #[inline(always)]
    fn age_unlinked(&mut self, b: u32, v: u32) {
        let v = v as usize;
        if !self.age_stale[v] && self.closed_at[b as usize] == self.oldest_at[v] {
            self.age_stale[v] = true;
            self.stale_buckets.push(v as u32);
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
            if self.bucket_ages {
                super::prefetch::prefetch(&self.closed_at[i]);
            }
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
