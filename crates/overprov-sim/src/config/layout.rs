//! Where an array's logical pages live on its members, as Linux md lays them out.
//!
//! * RAID-0: chunk k of the array is chunk ⌊k/N⌋ of member k mod N (md raid0 with identical
//!   members: one zone).
//! * RAID-1: every member holds page p at page p.
//! * RAID-10: md raid10's "near 2" layout on an even number N of members: chunk k's two copies
//!   sit side by side on members 2(k mod N/2) and 2(k mod N/2) + 1, at row ⌊k/(N/2)⌋ — a stripe
//!   over N/2 mirrored pairs.
//!
//! The capacity is whole chunks: the part of a member beyond its last whole chunk is unused,
//! as md rounds each member down to a multiple of the chunk.

use std::ops::Range;

use super::{ArrayConfig, RaidLevel};
use crate::geometry::Geometry;

/// A piece of a host request that lies on one set of copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// The stripe unit: the member (RAID-0), the mirrored pair (RAID-10), or 0.
    pub set: u32,
    /// First page on the member(s).
    pub lpn: u32,
    pub pages: u32,
}

/// An array's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub raid: RaidLevel,
    pub members: u32,
    /// Stripe chunk in pages (RAID-0 and RAID-10).
    pub chunk_pages: u32,
    /// User pages of one member.
    pub member_pages: u32,
}

impl Layout {
    pub fn new(a: &ArrayConfig, member: &Geometry) -> Self {
        let chunk = (a.chunk_bytes / member.page_size_bytes as u64).clamp(1, u32::MAX as u64);
        Layout {
            raid: a.raid,
            members: if a.raid == RaidLevel::None {
                1
            } else {
                a.members
            },
            chunk_pages: chunk as u32,
            member_pages: member.user_pages,
        }
    }

    /// Stripe units a chunk row spans: members (RAID-0), pairs (RAID-10), else 1 (no striping).
    pub fn ways(&self) -> u32 {
        match self.raid {
            RaidLevel::Raid0 => self.members,
            RaidLevel::Raid10 => self.members / 2,
            RaidLevel::None | RaidLevel::Raid1 => 1,
        }
    }

    fn striped(&self) -> bool {
        matches!(self.raid, RaidLevel::Raid0 | RaidLevel::Raid10)
    }

    /// Pages of one member the array uses.
    pub fn used_member_pages(&self) -> u32 {
        if self.striped() {
            self.member_pages / self.chunk_pages * self.chunk_pages
        } else {
            self.member_pages
        }
    }

    /// User pages of the array.
    pub fn array_pages(&self) -> u64 {
        self.ways() as u64 * self.used_member_pages() as u64
    }

    /// The members holding the copies of stripe unit `set`.
    pub fn copies(&self, set: u32) -> Range<u32> {
        match self.raid {
            RaidLevel::None => 0..1,
            RaidLevel::Raid0 => set..set + 1,
            RaidLevel::Raid1 => 0..self.members,
            RaidLevel::Raid10 => 2 * set..2 * set + 2,
        }
    }

    /// Split array pages `lpn .. lpn + pages` into extents, in order.
    pub fn split(&self, lpn: u32, pages: u32, mut f: impl FnMut(Extent)) {
        if !self.striped() {
            f(Extent { set: 0, lpn, pages });
            return;
        }
        let (chunk, ways) = (self.chunk_pages as u64, self.ways() as u64);
        let mut l = lpn as u64;
        let end = l + pages as u64;
        while l < end {
            let (stripe, within) = (l / chunk, l % chunk);
            let n = (chunk - within).min(end - l);
            f(Extent {
                set: (stripe % ways) as u32,
                lpn: ((stripe / ways) * chunk + within) as u32,
                pages: n as u32,
            });
            l += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(raid: RaidLevel, members: u32, chunk_pages: u32, member_pages: u32) -> Layout {
        Layout {
            raid,
            members,
            chunk_pages,
            member_pages,
        }
    }

    fn extents(l: &Layout, lpn: u32, pages: u32) -> Vec<Extent> {
        let mut v = Vec::new();
        l.split(lpn, pages, |e| v.push(e));
        v
    }

    #[test]
    fn raid0_stripes_chunks_round_robin() {
        let l = layout(RaidLevel::Raid0, 3, 4, 10);
        assert_eq!(l.array_pages(), 24); // 2 whole chunks per member
        let e = extents(&l, 3, 6); // pages 3..9: chunk 0 (member 0), chunk 1 (member 1), chunk 2
        assert_eq!(
            e,
            vec![
                Extent {
                    set: 0,
                    lpn: 3,
                    pages: 1
                },
                Extent {
                    set: 1,
                    lpn: 0,
                    pages: 4
                },
                Extent {
                    set: 2,
                    lpn: 0,
                    pages: 1
                },
            ]
        );
        // chunk 4 is the second chunk of member 1
        assert_eq!(
            extents(&l, 17, 1),
            vec![Extent {
                set: 1,
                lpn: 5,
                pages: 1
            }]
        );
        assert_eq!(l.copies(2), 2..3);
    }

    #[test]
    fn every_array_page_has_one_place() {
        for (raid, members) in [
            (RaidLevel::Raid0, 3),
            (RaidLevel::Raid10, 4),
            (RaidLevel::Raid10, 6),
        ] {
            let l = layout(raid, members, 4, 13);
            let mut seen = std::collections::HashSet::new();
            for p in 0..l.array_pages() as u32 {
                let e = extents(&l, p, 1);
                assert_eq!(e.len(), 1);
                assert!(e[0].lpn < l.used_member_pages());
                for m in l.copies(e[0].set) {
                    assert!(m < members);
                    assert!(seen.insert((m, e[0].lpn)), "{raid:?} page {p} collides");
                }
            }
            let copies = if raid == RaidLevel::Raid10 { 2 } else { 1 };
            assert_eq!(seen.len() as u64, copies * l.array_pages());
        }
    }

    #[test]
    fn raid10_near2_mirrors_pairs() {
        let l = layout(RaidLevel::Raid10, 4, 2, 8);
        assert_eq!(l.array_pages(), 16);
        // chunk 0 on members 0 and 1, chunk 1 on 2 and 3, chunk 2 on 0 and 1 at row 1
        assert_eq!(
            extents(&l, 4, 1),
            vec![Extent {
                set: 0,
                lpn: 2,
                pages: 1
            }]
        );
        assert_eq!(l.copies(0), 0..2);
        assert_eq!(l.copies(1), 2..4);
    }

    #[test]
    fn raid1_mirrors_whole_members() {
        let l = layout(RaidLevel::Raid1, 2, 128, 100);
        assert_eq!(l.array_pages(), 100);
        assert_eq!(
            extents(&l, 7, 50),
            vec![Extent {
                set: 0,
                lpn: 7,
                pages: 50
            }]
        );
        assert_eq!(l.copies(0), 0..2);
    }
}
