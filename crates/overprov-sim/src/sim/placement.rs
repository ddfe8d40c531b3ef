//! Data placement in the simulation loop: each host write's placement ID (its workload stream,
//! or the LBA-range map), the handle's frontier it is written to, and the per-handle figures
//! (`crate::report::PlacementReport`).

use crate::config::{handle_of, PlacementSource, SimConfig};
use crate::ftl::Ftl;
use crate::report::{HandleReport, PlacementReport};
use crate::workload::{Op, Request, Workload};

/// Routes host writes to reclaim-unit handles and counts them.
#[derive(Debug, Clone)]
pub(crate) struct Routing {
    /// The request's workload stream is its placement ID (else the LBA-range map).
    by_class: bool,
    /// LBA-range map in pages (first, end, ID): the map itself, or the workload's streams
    /// (then used for the precondition fill, whose writes belong to no stream).
    ranges: Vec<(u32, u32, u8)>,
    write_requests: Vec<u64>,
    /// (host pages, relocated pages, write requests) per handle when measurement started.
    measure_start: Vec<(u64, u64, u64)>,
}

impl Routing {
    /// The routing a configuration asks for; None when placement is off.
    pub(crate) fn new(config: &SimConfig, workload: &Workload, user_pages: u32) -> Option<Self> {
        let p = &config.placement;
        if !p.enabled {
            return None;
        }
        let handles = config.stream_count().unwrap_or(1);
        let (by_class, ranges) = match p.source {
            PlacementSource::Workload => (true, workload.zone_bounds().unwrap_or_default()),
            PlacementSource::Ranges => (false, p.range_pages(user_pages)),
        };
        Some(Routing {
            by_class,
            ranges,
            write_requests: vec![0; handles],
            measure_start: vec![(0, 0, 0); handles],
        })
    }

    /// The handle of a host request (tagged in the FTL when it is a write).
    #[inline]
    pub(crate) fn route(&mut self, ftl: &mut Ftl, r: &Request) -> usize {
        let h = if self.by_class {
            r.class as usize
        } else {
            handle_of(&self.ranges, r.lpn) as usize
        };
        if r.op == Op::Write {
            self.write_requests[h] += 1;
            ftl.tag_host(r.lpn, r.pages, h);
        }
        h
    }

    /// The handle of a precondition write of `lpn` (tagged in the FTL).
    pub(crate) fn route_fill(&self, ftl: &mut Ftl, lpn: u32) -> usize {
        let h = handle_of(&self.ranges, lpn) as usize;
        ftl.tag_host(lpn, 1, h);
        h
    }

    pub(crate) fn start_measured(&mut self, ftl: &Ftl) {
        let (host, gc) = ftl.handle_pages();
        for (i, s) in self.measure_start.iter_mut().enumerate() {
            *s = (host[i], gc[i], self.write_requests[i]);
        }
    }

    /// Per-handle figures of the measured part.
    pub(crate) fn report(&self, ftl: &Ftl, config: &SimConfig) -> PlacementReport {
        let (host, gc) = ftl.handle_pages();
        let total_host: u64 = host
            .iter()
            .zip(&self.measure_start)
            .map(|(h, s)| h - s.0)
            .sum();
        let handles = (0..host.len())
            .map(|i| {
                let (h0, g0, r0) = self.measure_start[i];
                let host_pages = host[i] - h0;
                let relocated_pages = gc[i] - g0;
                HandleReport {
                    id: i as u8,
                    host_pages,
                    relocated_pages,
                    write_requests: self.write_requests[i] - r0,
                    host_share_percent: match total_host {
                        0 => 0.0,
                        t => 100.0 * host_pages as f64 / t as f64,
                    },
                    ftl_waf: (host_pages > 0)
                        .then(|| (host_pages + relocated_pages) as f64 / host_pages as f64),
                }
            })
            .collect();
        PlacementReport {
            isolation: config.placement.isolation,
            source: config.placement.source,
            reclaim_unit: "erase block",
            handles,
        }
    }
}
