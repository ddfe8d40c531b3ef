//! Statistics: write amplification overall, per phase and per interval; erase-count spread;
//! victim valid-page histogram.

use serde::Serialize;

use crate::ftl::wear::EraseSummary;
use crate::ftl::Counters;

/// Counters at one moment, with the host bytes the requests asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Snapshot {
    pub counters: Counters,
    pub host_bytes: u64,
}

/// What happened between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta {
    pub host_pages: u64,
    pub host_bytes: u64,
    pub nand_pages: u64,
    pub gc_pages: u64,
    pub wl_pages: u64,
    pub erases: u64,
    /// NAND bytes written / host bytes written (docs/concepts.md).
    pub waf: Option<f64>,
    /// NAND pages programmed / host pages programmed (equals `waf` for page-sized requests).
    pub ftl_waf: Option<f64>,
}

impl Delta {
    pub fn between(a: &Snapshot, b: &Snapshot, page_size_bytes: u32) -> Delta {
        let host_pages = b.counters.host_pages - a.counters.host_pages;
        let nand_pages = b.counters.nand_pages() - a.counters.nand_pages();
        let host_bytes = b.host_bytes - a.host_bytes;
        Delta {
            host_pages,
            host_bytes,
            nand_pages,
            gc_pages: b.counters.gc_pages - a.counters.gc_pages,
            wl_pages: b.counters.wl_pages - a.counters.wl_pages,
            erases: b.counters.erases - a.counters.erases,
            waf: (host_bytes > 0)
                .then(|| (nand_pages as f64 * page_size_bytes as f64) / host_bytes as f64),
            ftl_waf: (host_pages > 0).then(|| nand_pages as f64 / host_pages as f64),
        }
    }
}

/// One recorded interval (every `interval_percent` of user capacity written by the host).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub phase: &'static str,
    /// Cumulative host pages at the end of the interval.
    pub host_pages_total: u64,
    /// Cumulative host writes at the end, in user capacities (drive writes).
    pub drive_writes_total: f64,
    pub delta: Delta,
    pub free_blocks: usize,
}

/// Wear summary with the spread.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WearReport {
    pub erase_count: EraseSummary,
    /// Histogram of erase counts: (erase count, blocks).
    pub erase_histogram: Vec<(u32, u64)>,
}

pub fn erase_histogram(counts: &[u32]) -> Vec<(u32, u64)> {
    let mut sorted: Vec<u32> = counts.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u32, u64)> = Vec::new();
    for e in sorted {
        match out.last_mut() {
            Some((v, n)) if *v == e => *n += 1,
            _ => out.push((e, 1)),
        }
    }
    out
}

/// A mergeable log-bucketed latency histogram (nanoseconds): exact below 16 ns, then 16
/// buckets per power of two (bucket width ≤ 6.25% of its value), as HdrHistogram does with
/// 4 significant bits. Merging is adding counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LatencyHistogram {
    counts: Vec<u64>,
    total: u64,
    max_ns: u64,
}

impl LatencyHistogram {
    #[inline]
    pub fn index(ns: u64) -> usize {
        if ns < 16 {
            return ns as usize;
        }
        let msb = 63 - ns.leading_zeros() as u64;
        (((msb - 3) << 4) | ((ns >> (msb - 4)) & 15)) as usize
    }

    /// Inclusive upper bound of bucket `i` in nanoseconds.
    pub fn upper_ns(i: usize) -> u64 {
        if i < 16 {
            return i as u64;
        }
        let msb = (i >> 4) as u64 + 3;
        let sub = (i & 15) as u64;
        ((16 + sub) << (msb - 4)) + (1u64 << (msb - 4)) - 1
    }

    #[inline]
    pub fn record(&mut self, ns: u64) {
        let i = Self::index(ns);
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
        self.max_ns = self.max_ns.max(ns);
    }

    pub fn merge(&mut self, other: &LatencyHistogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
        self.max_ns = self.max_ns.max(other.max_ns);
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    pub fn max_ns(&self) -> u64 {
        self.max_ns
    }

    /// The latency below which a fraction `q` (0..=1) of samples fall: the upper bound of the
    /// bucket holding the q-quantile (never above the largest sample).
    pub fn quantile_ns(&self, q: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(Self::upper_ns(i).min(self.max_ns));
            }
        }
        Some(self.max_ns)
    }

    /// Percentiles in microseconds: p50, p90, p99, p99.9, p99.99 and max.
    pub fn summary_us(&self) -> Option<LatencySummary> {
        let q = |p: f64| self.quantile_ns(p).map(|ns| ns as f64 / 1000.0);
        Some(LatencySummary {
            p50: q(0.50)?,
            p90: q(0.90)?,
            p99: q(0.99)?,
            p99_9: q(0.999)?,
            p99_99: q(0.9999)?,
            max: self.max_ns as f64 / 1000.0,
            mean: None,
        })
    }

    /// Non-empty buckets as (upper bound in µs, count), for plotting a CDF.
    pub fn buckets_us(&self) -> Vec<(f64, u64)> {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (Self::upper_ns(i) as f64 / 1000.0, c))
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatencySummary {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p99_9: f64,
    pub p99_99: f64,
    pub max: f64,
    pub mean: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous_and_tight() {
        let mut prev_upper = None;
        for i in 0..700 {
            let up = LatencyHistogram::upper_ns(i);
            if let Some(p) = prev_upper {
                assert_eq!(LatencyHistogram::index(p + 1), i, "bucket {i}");
            }
            assert_eq!(LatencyHistogram::index(up), i);
            if i >= 16 {
                let lower = LatencyHistogram::upper_ns(i - 1) + 1;
                assert!((up - lower) as f64 <= 0.0625 * lower as f64 + 1.0);
            }
            prev_upper = Some(up);
        }
    }

    #[test]
    fn quantiles_and_merge() {
        let mut a = LatencyHistogram::default();
        let mut b = LatencyHistogram::default();
        for v in 1..=1000u64 {
            a.record(v * 1000);
        }
        b.record(5_000_000);
        let p50 = a.quantile_ns(0.5).unwrap();
        assert!((500_000..=532_000).contains(&p50), "{p50}");
        a.merge(&b);
        assert_eq!(a.count(), 1001);
        assert_eq!(a.quantile_ns(1.0), Some(5_000_000));
        assert_eq!(a.max_ns(), 5_000_000);
    }
}
