//! Cost-benefit's pick from the bucket ages (`ftl/gc/cost_benefit.rs`) against its definition,
//! the scan over every closed block, at every pick of random workloads: uniform and skewed
//! overwrites, with and without TRIM, on several geometries. The block table is driven as the
//! FTL drives it (blocks opened, filled, closed at the host-write clock, pages invalidated,
//! victims removed, relocated to a GC frontier and erased), so blocks close at the same clock
//! during a collection (ties the pick must break as the scan does), empty blocks appear under
//! TRIM, and the closed list is reordered by every removal.

use std::collections::VecDeque;

use overprov_sim::ftl::blocks::{BlockTable, NIL};
use overprov_sim::ftl::gc::{cost_benefit_by_scan, CostBenefit, VictimContext, VictimPolicy};
use overprov_sim::rng::Rng;

/// How the host picks the page it overwrites.
#[derive(Debug, Clone, Copy)]
enum Skew {
    Uniform,
    /// `hot_share` of the writes go to the first `hot_fraction` of the pages.
    HotCold {
        hot_share: f64,
        hot_fraction: f64,
    },
}

#[derive(Debug, Default)]
struct Tally {
    picks: u64,
    /// Picks where several blocks of the winning valid count closed at the winner's clock (the
    /// closed list's order broke the tie).
    tied: u64,
    /// Picks with an empty block to take.
    empty: u64,
}

/// A page-mapped drive reduced to what the block table sees.
struct Drive {
    t: BlockTable,
    ppb: u32,
    /// (block, slot) of each logical page, `NIL` block if unmapped.
    loc: Vec<(u32, u32)>,
    /// The logical page each slot of a block was written with.
    slots: Vec<Vec<u32>>,
    free: VecDeque<u32>,
    host: u32,
    gc: u32,
    now: u64,
    gc_free_blocks: usize,
    policy: CostBenefit,
    rng: Rng,
    tally: Tally,
}

impl Drive {
    fn new(blocks: u32, ppb: u32, user_pages: u32, seed: u64) -> Self {
        Drive {
            t: BlockTable::new(blocks, ppb).with_bucket_ages(true),
            ppb,
            loc: vec![(NIL, 0); user_pages as usize],
            slots: vec![Vec::new(); blocks as usize],
            free: (0..blocks).collect(),
            host: NIL,
            gc: NIL,
            now: 0,
            gc_free_blocks: 2,
            policy: CostBenefit,
            rng: Rng::new(seed),
            tally: Tally::default(),
        }
    }

    /// Program `lpn` at the host (false) or GC (true) frontier.
    fn program(&mut self, lpn: u32, gc: bool) {
        let mut f = if gc { self.gc } else { self.host };
        if f == NIL || self.slots[f as usize].len() == self.ppb as usize {
            if f != NIL {
                self.t.close(f, self.now);
            }
            f = self.free.pop_front().expect("a free block");
            self.t.open(f, 0);
            self.slots[f as usize].clear();
            if gc {
                self.gc = f;
            } else {
                self.host = f;
            }
        }
        let slot = self.slots[f as usize].len() as u32;
        self.slots[f as usize].push(lpn);
        self.t.valid[f as usize] += 1;
        self.loc[lpn as usize] = (f, slot);
    }

    fn unmap(&mut self, lpn: u32) {
        let (b, _) = self.loc[lpn as usize];
        if b != NIL {
            self.t.invalidate_one(b);
            self.loc[lpn as usize] = (NIL, 0);
        }
    }

    fn write(&mut self, lpn: u32) {
        self.unmap(lpn);
        self.program(lpn, false);
        self.now += 1;
        while self.free.len() <= self.gc_free_blocks {
            let Some(victim) = self.pick() else { break };
            // now and then the victim is refused and left in place (as under a victim floor),
            // and picked again
            if self.rng.below(10) == 0 {
                continue;
            }
            self.collect(victim);
        }
    }

    /// The pick from the bucket ages, checked against the scan.
    fn pick(&mut self) -> Option<u32> {
        self.t.refresh_bucket_ages();
        self.check_bucket_ages();
        let ctx = VictimContext {
            blocks: &self.t,
            now: self.now,
        };
        let got = self.policy.choose(&ctx, &mut self.rng);
        let want = cost_benefit_by_scan(&self.t, self.now);
        assert_eq!(got, want, "pick {} at clock {}", self.tally.picks, self.now);
        self.tally.picks += 1;
        if let Some(b) = got {
            let v = self.t.valid[b as usize];
            let oldest = self.t.bucket_oldest(v).expect("the winner's bucket");
            if v == 0 {
                self.tally.empty += 1;
            } else if oldest.count > 1 && oldest.closed_at == self.t.closed_at[b as usize] {
                self.tally.tied += 1;
            }
        }
        got
    }

    /// Each bucket's oldest close time and its count, recomputed from the bucket's members.
    fn check_bucket_ages(&self) {
        for v in 0..=self.ppb {
            let ats: Vec<u64> = self
                .t
                .bucket_members(v)
                .iter()
                .map(|&b| self.t.closed_at[b as usize])
                .collect();
            let want = ats.iter().min().map(|&m| {
                let count = ats.iter().filter(|&&c| c == m).count() as u32;
                (m, count)
            });
            let got = self.t.bucket_oldest(v).map(|o| {
                assert_eq!(self.t.closed_at[o.block as usize], o.closed_at);
                assert_eq!(self.t.valid[o.block as usize], v);
                (o.closed_at, o.count)
            });
            assert_eq!(got, want, "bucket {v}");
        }
    }

    fn collect(&mut self, victim: u32) {
        self.t.remove_closed(victim);
        let lpns = std::mem::take(&mut self.slots[victim as usize]);
        for (slot, &lpn) in lpns.iter().enumerate() {
            if self.loc[lpn as usize] == (victim, slot as u32) {
                self.program(lpn, true);
            }
        }
        self.t.erase(victim);
        self.free.push_back(victim);
    }
}

/// Fill the drive sequentially, then 20 times its size in overwrites (a share
/// `trim_share` of them TRIMs instead), checking every pick; returns the tally.
fn exercise(
    blocks: u32,
    ppb: u32,
    user_share: f64,
    skew: Skew,
    trim_share: f64,
    seed: u64,
) -> Tally {
    let user_pages = (blocks as f64 * ppb as f64 * user_share) as u32;
    let mut d = Drive::new(blocks, ppb, user_pages, seed);
    for lpn in 0..user_pages {
        d.write(lpn);
    }
    let mut rng = Rng::new(seed ^ 0x5eed);
    for _ in 0..user_pages as u64 * 20 {
        let lpn = match skew {
            Skew::Uniform => rng.below(user_pages as u64) as u32,
            Skew::HotCold {
                hot_share,
                hot_fraction,
            } => {
                let hot = ((user_pages as f64 * hot_fraction) as u64).max(1);
                if rng.unit() < hot_share {
                    rng.below(hot) as u32
                } else {
                    (hot + rng.below(user_pages as u64 - hot)) as u32
                }
            }
        };
        if rng.unit() < trim_share {
            d.unmap(lpn);
        } else {
            d.write(lpn);
        }
    }
    d.tally
}

const SKEWED: Skew = Skew::HotCold {
    hot_share: 0.8,
    hot_fraction: 0.2,
};

/// Blocks, pages per block and the share of the pages the host addresses.
const GEOMETRIES: [(u32, u32, f64); 3] = [(64, 8, 0.75), (160, 32, 0.85), (96, 4, 0.6)];

/// `exercise` on every geometry of `GEOMETRIES` (seeds `first_seed`, then the next ones):
/// enough picks on each, and a tie broken on at least one.
fn across_geometries(skew: Skew, first_seed: u64) {
    let mut tied = 0;
    for (seed, (blocks, ppb, user_share)) in (first_seed..).zip(GEOMETRIES) {
        let t = exercise(blocks, ppb, user_share, skew, 0.0, seed);
        println!("{skew:?} {blocks}x{ppb}: {t:?}");
        assert!(t.picks > 1000, "{t:?}");
        tied += t.tied;
    }
    assert!(tied > 0, "no pick broke a tie");
}

#[test]
fn the_pick_is_the_scans_under_uniform_overwrites() {
    across_geometries(Skew::Uniform, 1);
}

#[test]
fn the_pick_is_the_scans_under_skewed_overwrites() {
    across_geometries(SKEWED, 4);
}

#[test]
fn the_pick_is_the_scans_with_empty_blocks() {
    // under TRIM blocks empty out: the pick is then the first empty block of the closed list
    for (skew, seed) in [(Skew::Uniform, 7), (SKEWED, 8)] {
        let t = exercise(128, 4, 0.7, skew, 0.2, seed);
        println!("with TRIM: {t:?}");
        assert!(t.picks > 1000 && t.empty > 0, "{t:?}");
    }
}

#[test]
fn with_every_closed_block_full_the_pick_is_the_first_closed() {
    // every block fully valid scores 0: the scan keeps the first of the closed list
    let mut t = BlockTable::new(6, 4).with_bucket_ages(true);
    for b in [3, 1, 4, 0] {
        t.open(b, 0);
        t.valid[b as usize] = 4;
        t.close(b, 10 + b as u64);
    }
    t.remove_closed(3); // the last closed block takes its place at the head
    t.refresh_bucket_ages();
    let ctx = VictimContext {
        blocks: &t,
        now: 100,
    };
    let got = CostBenefit.choose(&ctx, &mut Rng::new(0));
    assert_eq!(got, Some(t.closed_blocks()[0]));
    assert_eq!(got, cost_benefit_by_scan(&t, 100));
    assert_eq!(got, Some(0));
}
