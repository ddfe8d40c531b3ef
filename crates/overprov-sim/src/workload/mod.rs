//! Synthetic host workloads, deterministic for a seed: uniform random (optionally with a random
//! map), sequential, hot/cold, zoned, Zipf(θ) and JESD219; an LBA-span limit; a read/write/trim
//! mix; requests spanning several pages (fixed size or a bssplit mix). [`lookahead`] generates
//! them ahead of use so the simulator can prefetch.

pub mod lookahead;
pub mod permutation;
pub mod ran;
pub mod trace;
pub mod zipf;

use crate::config::{Pattern, SimConfig, Zone};
use crate::error::{Error, Result};
use crate::geometry::Geometry;
use crate::rng::Rng;
use permutation::{Permutation, RandomMap};
use zipf::Zipf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Write,
    Read,
    Trim,
}

/// One host request: `pages` logical pages from `lpn`; `bytes` is what the host asked for
/// (less than a page for sub-page writes); `class` is the workload's temperature class (zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    pub lpn: u32,
    pub pages: u32,
    pub bytes: u32,
    pub class: u8,
}

#[derive(Debug, Clone)]
struct ZoneRange {
    start: u32,
    len: u32,
    /// Cumulative access probability up to and including this zone, scaled to 2⁶⁴.
    until: u64,
    map: Option<RandomMap>,
    /// A sequential zone: its next offset (pages from `start`).
    next: Option<u32>,
}

#[derive(Debug, Clone)]
enum Address {
    Uniform(Option<RandomMap>),
    Sequential(u64),
    /// The zones, and the scatter of their pages over the span when they are scattered.
    Zoned(Vec<ZoneRange>, Option<Permutation>),
    Zipf(Zipf, Permutation),
}

/// Generates requests.
#[derive(Debug, Clone)]
pub struct Workload {
    rng: Rng,
    span: u32,
    /// First LBA of the span (rounds of a profile may cover part of the drive).
    offset: u32,
    address: Address,
    /// (bytes, pages, cumulative probability scaled to 2⁶⁴)
    sizes: Vec<(u32, u32, u64)>,
    /// Random-map slot size in pages for fixed-size requests (1 otherwise).
    slot_pages: u32,
    read_until: u64,
    trim_until: u64,
}

fn scaled(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else {
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

impl Workload {
    pub fn new(config: &SimConfig, geom: &Geometry) -> Result<Self> {
        let w = &config.workload;
        let seed = config.run.seed;
        let span = config.span_pages(geom) as u32;
        let page = geom.page_size_bytes;
        let raw = config.request_sizes()?;
        let total: f64 = raw.iter().map(|s| s.1).sum();
        let mut acc = 0.0;
        let sizes: Vec<(u32, u32, u64)> = raw
            .iter()
            .map(|&(bytes, weight)| {
                acc += weight / total;
                (bytes, bytes.div_ceil(page), scaled(acc))
            })
            .collect();
        let slot_pages = if sizes.len() == 1 { sizes[0].1 } else { 1 };
        let slots = span / slot_pages;
        let address = match w.pattern {
            Pattern::Uniform => {
                Address::Uniform(w.random_map.then(|| RandomMap::new(slots, seed ^ 0x6d6170)))
            }
            Pattern::Sequential => Address::Sequential(0),
            Pattern::Zipf => {
                Address::Zipf(Zipf::new(span as u64, w.zipf_theta), scatter(span, seed))
            }
            Pattern::HotCold | Pattern::Zoned | Pattern::Jesd219 => {
                let zones = config.zones().unwrap_or_default();
                Address::Zoned(
                    zone_ranges(&zones, span, w.random_map, seed)?,
                    w.zones_scattered.then(|| scatter(span, seed)),
                )
            }
        };
        let read = w.read_percent / 100.0;
        let trim = w.trim_percent / 100.0;
        Ok(Workload {
            rng: Rng::derive(seed, 0x776b6c64),
            span,
            offset: 0,
            address,
            sizes,
            slot_pages,
            read_until: if read > 0.0 { scaled(read) } else { 0 },
            trim_until: if trim > 0.0 { scaled(read + trim) } else { 0 },
        })
    }

    /// Pages in the accessed span.
    pub fn span_pages(&self) -> u32 {
        self.span
    }

    /// The zones' pages as (first page, end page, zone index), for a zoned pattern whose zones
    /// are not scattered.
    pub fn zone_bounds(&self) -> Option<Vec<(u32, u32, u8)>> {
        match &self.address {
            Address::Zoned(zones, None) => Some(
                zones
                    .iter()
                    .enumerate()
                    .map(|(i, z)| {
                        (
                            z.start + self.offset,
                            z.start + z.len + self.offset,
                            i as u8,
                        )
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    #[inline]
    pub fn next_request(&mut self) -> Request {
        let op = if self.trim_until == 0 && self.read_until == 0 {
            Op::Write
        } else {
            let u = self.rng.next_u64();
            if u < self.read_until {
                Op::Read
            } else if u < self.trim_until {
                Op::Trim
            } else {
                Op::Write
            }
        };
        let (bytes, pages) = if self.sizes.len() == 1 {
            (self.sizes[0].0, self.sizes[0].1)
        } else {
            let u = self.rng.next_u64();
            let i = self
                .sizes
                .iter()
                .position(|s| u < s.2)
                .unwrap_or(self.sizes.len() - 1);
            (self.sizes[i].0, self.sizes[i].1)
        };
        let (lpn, class) = self.address(pages);
        Request {
            op,
            lpn: lpn + self.offset,
            pages,
            bytes,
            class,
        }
    }

    /// A workload of one profiler round: writes of `request_bytes` over pages
    /// `offset .. offset + span`, sequential or uniform random (with a random map: every request
    /// slot once per pass, as fio does by default), `read_percent` % of them reads (drawn as
    /// [`Workload::new`] draws a mix's; 0: no draw, writes only).
    pub fn round(
        seed: u64,
        offset: u32,
        span: u32,
        request_bytes: u32,
        page_size_bytes: u32,
        sequential: bool,
        read_percent: f64,
    ) -> Self {
        let read = read_percent / 100.0;
        let pages = request_bytes.div_ceil(page_size_bytes).max(1);
        let slots = (span / pages).max(1);
        Workload {
            rng: Rng::derive(seed, 0x726f756e64),
            span,
            offset,
            address: if sequential {
                Address::Sequential(0)
            } else {
                Address::Uniform(Some(RandomMap::new(slots, seed ^ 0x726d6170)))
            },
            sizes: vec![(request_bytes, pages, u64::MAX)],
            slot_pages: pages,
            read_until: if read > 0.0 { scaled(read) } else { 0 },
            trim_until: 0,
        }
    }

    #[inline]
    fn address(&mut self, pages: u32) -> (u32, u8) {
        let span = self.span;
        let (raw, class) = match &mut self.address {
            Address::Uniform(None) => (self.rng.below(span as u64) as u32, 0),
            Address::Uniform(Some(map)) => (map.next_index() * self.slot_pages, 0),
            Address::Sequential(next) => {
                if *next + pages as u64 > span as u64 {
                    *next = 0;
                }
                let a = *next as u32;
                *next += pages as u64;
                return (a, 0);
            }
            Address::Zoned(zones, scattered) => {
                let u = self.rng.next_u64();
                let i = zones
                    .iter()
                    .position(|z| u < z.until)
                    .unwrap_or(zones.len() - 1);
                let z = &mut zones[i];
                if let Some(next) = &mut z.next {
                    // a sequential stream: the next pages of the zone, wrapping around
                    let n = pages.min(z.len);
                    if *next + n > z.len {
                        *next = 0;
                    }
                    let a = z.start + *next;
                    *next += n;
                    return (a.min(span - pages), i as u8);
                }
                let off = match &mut z.map {
                    Some(m) => m.next_index(),
                    None => self.rng.below(z.len as u64) as u32,
                };
                let page = z.start + off;
                (scattered.as_ref().map_or(page, |s| s.apply(page)), i as u8)
            }
            Address::Zipf(zipf, scatter) => {
                let rank = zipf.sample(&mut self.rng) as u32;
                (scatter.apply(rank - 1), 0)
            }
        };
        if pages == 1 {
            return (raw, class); // already inside the span; skips a division per request
        }
        // align to the request size (like fio with bs) and keep the request inside the span
        let aligned = raw - raw % pages;
        (aligned.min(span - pages), class)
    }
}

/// The permutation that scatters Zipf's ranks, and scattered zones' pages, over the span.
fn scatter(span: u32, seed: u64) -> Permutation {
    Permutation::new(span, seed ^ 0x7a697066)
}

fn zone_ranges(zones: &[Zone], span: u32, random_map: bool, seed: u64) -> Result<Vec<ZoneRange>> {
    let mut out = Vec::with_capacity(zones.len());
    let (mut space_acc, mut access_acc) = (0.0f64, 0.0f64);
    let mut start = 0u32;
    for (i, z) in zones.iter().enumerate() {
        space_acc += z.space_percent / 100.0;
        access_acc += z.access_percent / 100.0;
        let end = if i + 1 == zones.len() {
            span
        } else {
            (space_acc * span as f64).round() as u32
        };
        if end <= start {
            return Err(Error::config(
                format!("workload.zones[{i}].space_percent"),
                format!("zone {i} holds no page of the {span}-page span"),
            ));
        }
        let len = end - start;
        out.push(ZoneRange {
            start,
            len,
            until: if i + 1 == zones.len() {
                u64::MAX
            } else {
                scaled(access_acc)
            },
            map: (random_map && !z.sequential)
                .then(|| RandomMap::new(len, seed ^ (0x7a6f6e65 + i as u64))),
            next: z.sequential.then_some(0),
        });
        start = end;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;

    fn workload(f: impl FnOnce(&mut SimConfig)) -> (Workload, Geometry) {
        let mut c = SimConfig::default();
        c.geometry.user_pages = Some(10_000);
        f(&mut c);
        let g = c.validate().unwrap();
        (Workload::new(&c, &g).unwrap(), g)
    }

    #[test]
    fn span_limit_is_respected() {
        let (mut w, _) = workload(|c| c.workload.span_percent = 30.0);
        for _ in 0..50_000 {
            assert!(w.next_request().lpn < 3_000);
        }
    }

    #[test]
    fn hot_cold_sends_the_right_share_to_the_hot_zone() {
        let (mut w, _) = workload(|c| c.workload.pattern = Pattern::HotCold);
        let n = 100_000;
        let hot = (0..n).filter(|_| w.next_request().lpn < 2_000).count();
        assert!((hot as f64 / n as f64 - 0.8).abs() < 0.01, "{hot}");
    }

    #[test]
    fn jesd219_mix_and_skew() {
        let (mut w, _) = workload(|c| c.workload.pattern = Pattern::Jesd219);
        let n = 200_000;
        let reqs: Vec<Request> = (0..n).map(|_| w.next_request()).collect();
        let first5 = reqs.iter().filter(|r| r.lpn < 500).count() as f64 / n as f64;
        assert!((first5 - 0.5).abs() < 0.01, "{first5}");
        let four_k = reqs.iter().filter(|r| r.bytes == 4096).count() as f64 / n as f64;
        assert!((four_k - 0.67).abs() < 0.01, "{four_k}");
        let sub = reqs.iter().filter(|r| r.bytes < 4096).count() as f64 / n as f64;
        assert!((sub - 0.10).abs() < 0.01, "{sub}");
        assert!(reqs
            .iter()
            .all(|r| r.lpn + r.pages <= 10_000 && r.lpn % r.pages == 0));
    }

    #[test]
    fn op_mix_and_sequential() {
        let (mut w, _) = workload(|c| {
            c.workload.pattern = Pattern::Sequential;
            c.workload.read_percent = 20.0;
            c.workload.trim_percent = 10.0;
            c.workload.request_bytes = 8192;
        });
        let reqs: Vec<Request> = (0..100_000).map(|_| w.next_request()).collect();
        let reads = reqs.iter().filter(|r| r.op == Op::Read).count() as f64 / 1e5;
        let trims = reqs.iter().filter(|r| r.op == Op::Trim).count() as f64 / 1e5;
        assert!((reads - 0.2).abs() < 0.01 && (trims - 0.1).abs() < 0.01);
        assert_eq!((reqs[0].lpn, reqs[1].lpn, reqs[2].lpn), (0, 2, 4));
        assert_eq!(reqs[5_000].lpn, 0); // wrapped after 10_000 pages
    }

    #[test]
    fn random_map_covers_each_lba_once_per_pass() {
        let (mut w, _) = workload(|c| c.workload.random_map = true);
        let mut seen = vec![0u8; 10_000];
        for _ in 0..10_000 {
            seen[w.next_request().lpn as usize] += 1;
        }
        assert!(seen.iter().all(|&s| s == 1));
    }

    #[test]
    fn scattered_zones_draw_the_same_pages_through_zipfs_scatter() {
        // the same draws (zone, offset) as the zones in LBA order, each page mapped by the
        // permutation Zipf's ranks go through: the unscattered stream is unchanged
        let zoned = |scattered: bool| {
            workload(|c| {
                c.workload.pattern = Pattern::HotCold;
                c.workload.zones_scattered = scattered;
            })
            .0
        };
        let (mut in_order, mut spread) = (zoned(false), zoned(true));
        let perm = scatter(10_000, SimConfig::default().run.seed);
        for _ in 0..20_000 {
            let (a, b) = (in_order.next_request(), spread.next_request());
            assert_eq!((b.lpn, b.class), (perm.apply(a.lpn), a.class));
        }
        assert!(in_order.zone_bounds().is_some() && spread.zone_bounds().is_none());
        let text = serde_json::to_string(&SimConfig::default()).unwrap();
        assert!(
            !text.contains("zones_scattered"),
            "a default config's text is unchanged"
        );
    }

    #[test]
    fn a_scattered_zone_spreads_over_the_span() {
        let (mut w, _) = workload(|c| {
            c.workload.pattern = Pattern::HotCold;
            c.workload.zones_scattered = true;
        });
        // the hot zone (20% of the pages, 80% of the writes): its pages in every tenth of the
        // span, about a fifth of each tenth
        let mut hot: [std::collections::HashSet<u32>; 10] = Default::default();
        for _ in 0..100_000 {
            let r = w.next_request();
            if r.class == 0 {
                hot[(r.lpn / 1_000) as usize].insert(r.lpn);
            }
        }
        for (tenth, pages) in hot.iter().enumerate() {
            let share = pages.len() as f64 / 1_000.0;
            assert!((share - 0.2).abs() < 0.05, "tenth {tenth}: {share}");
        }
    }

    #[test]
    fn scattered_zones_are_refused_where_they_mean_nothing() {
        let mut c = SimConfig::default();
        c.geometry.user_pages = Some(10_000);
        c.workload.zones_scattered = true;
        assert!(c.validate().is_err(), "uniform has no zones");
        c.workload.pattern = Pattern::Zoned;
        c.workload.zones = [(60.0, 5.0, false), (40.0, 95.0, true)]
            .map(|(access_percent, space_percent, sequential)| Zone {
                access_percent,
                space_percent,
                sequential,
            })
            .to_vec();
        assert!(
            c.validate().is_err(),
            "a sequential zone is a stream in LBA order"
        );
        c.workload.zones[1].sequential = false;
        assert!(c.validate().is_ok());
    }
}
