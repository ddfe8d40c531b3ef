//! A simulated drive driven request by request, as a block device is: the host submits a
//! write, read, trim or flush of a logical page range at a host time (simulated ns) and gets
//! its completion time back. The FTL does each request's work and the timing engine schedules
//! its NAND operations, as in a timed simulation (`crate::sim`), but the host — not a
//! workload generator — decides what is sent and when. In the host's idle time between
//! requests the drive folds its SLC cache and collects victims in the background, as in an
//! open-loop run. Data contents are not simulated: the caller keeps them.

use serde::Serialize;

use crate::config::{HostMode, SimConfig};
use crate::error::{Error, Result};
use crate::ftl::{Counters, Ftl};
use crate::geometry::Geometry;
use crate::sim::{idle_work, timed_request};
use crate::timing::{Engine, TimedReport};
use crate::workload::{Op, Request};

/// A host command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Write,
    Read,
    Trim,
    Flush,
}

impl Command {
    pub fn parse(name: &str) -> Result<Self> {
        Ok(match name {
            "write" => Command::Write,
            "read" => Command::Read,
            "trim" => Command::Trim,
            "flush" => Command::Flush,
            _ => {
                return Err(Error::State(format!(
                    "device command {name:?}: expected write, read, trim or flush"
                )))
            }
        })
    }
}

/// The drive's counters, SMART-like: what the host sent and what the NAND did.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceCounters {
    /// Simulated time of the latest request (ns).
    pub now_ns: u64,
    pub page_size_bytes: u32,
    pub user_pages: u32,
    pub physical_pages: u64,
    /// Host commands by kind.
    pub writes: u64,
    pub reads: u64,
    pub trims: u64,
    pub flushes: u64,
    pub host_written_bytes: u64,
    pub host_read_bytes: u64,
    /// Logical pages mapped (written and not trimmed since).
    pub valid_pages: u64,
    pub free_blocks: usize,
    /// FTL counters: host, GC and wear-levelling programs, erases, trimmed pages.
    pub totals: Counters,
    /// All NAND page programs / host page programs (None before the first write).
    pub waf: Option<f64>,
    pub slc_used_bytes: Option<u64>,
    pub slc_max_bytes: Option<u64>,
}

/// One drive that the host drives request by request.
#[derive(Debug, Clone)]
pub struct Device {
    geom: Geometry,
    ftl: Ftl,
    eng: Engine,
    power_loss_protected: bool,
    background_gc_free_blocks: usize,
    pages: Vec<Option<u32>>,
    writes: u64,
    reads: u64,
    trims: u64,
    flushes: u64,
    host_written_bytes: u64,
    host_read_bytes: u64,
    valid_pages: u64,
}

impl Device {
    /// A fresh (all-erased) drive. Timing must be enabled in `config` (the device answers with
    /// completion times); the host mode is set to open loop (the caller sets the issue times).
    pub fn new(mut config: SimConfig) -> Result<Self> {
        if !config.timing.enabled {
            return Err(Error::Config {
                field: "timing.enabled".into(),
                message: "a device needs simulated time: set timing.enabled = true".into(),
            });
        }
        config.timing.host.mode = HostMode::Open;
        let geom = config.validate()?;
        let mut ftl = Ftl::new(&config, geom);
        ftl.set_op_log(true);
        let eng = Engine::new(&config.timing, &geom).with_plane_pools(config.ftl.plane_pools);
        let background_gc_free_blocks = config
            .timing
            .background_gc_free_blocks
            .map_or(4 * config.ftl.gc_free_blocks as usize, |b| b as usize);
        Ok(Device {
            geom,
            ftl,
            eng,
            power_loss_protected: config.timing.buffer.power_loss_protected,
            background_gc_free_blocks,
            pages: Vec::new(),
            writes: 0,
            reads: 0,
            trims: 0,
            flushes: 0,
            host_written_bytes: 0,
            host_read_bytes: 0,
            valid_pages: 0,
        })
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// Submit `command` on logical pages `lpn .. lpn + pages` at host time `t_ns`; returns
    /// the completion time (ns). Issue times earlier than an earlier request's are taken as
    /// that request's (time does not run backwards). A flush ignores the range.
    pub fn submit(&mut self, command: Command, lpn: u64, pages: u64, t_ns: u64) -> Result<u64> {
        let user = self.geom.user_pages as u64;
        if command != Command::Flush && (pages == 0 || lpn.saturating_add(pages) > user) {
            return Err(Error::State(format!(
                "device request of pages {lpn}..{}: the drive has {user} pages",
                lpn.saturating_add(pages)
            )));
        }
        let t = t_ns.max(self.eng.now_ns());
        // idle time before this request: fold the SLC cache, then background GC
        idle_work(
            &mut self.ftl,
            &mut self.eng,
            t,
            self.background_gc_free_blocks,
        );
        self.eng.issued_at(t);
        self.eng.tick(t, self.ftl.counters());
        let op = match command {
            Command::Flush => {
                self.flushes += 1;
                return Ok(self.eng.flush_cache(t, self.power_loss_protected));
            }
            Command::Write => Op::Write,
            Command::Read => Op::Read,
            Command::Trim => Op::Trim,
        };
        let (lpn, pages) = (lpn as u32, pages as u32);
        let mapped = (lpn..lpn + pages)
            .filter(|&p| self.ftl.lookup(p).is_some())
            .count() as u64;
        let bytes = pages * self.geom.page_size_bytes;
        match command {
            Command::Write => {
                self.writes += 1;
                self.host_written_bytes += bytes as u64;
                self.valid_pages += pages as u64 - mapped;
            }
            Command::Read => {
                self.reads += 1;
                self.host_read_bytes += bytes as u64;
            }
            _ => {
                self.trims += 1;
                self.valid_pages -= mapped;
            }
        }
        let request = Request {
            op,
            lpn,
            pages,
            bytes: if op == Op::Trim { 0 } else { bytes },
            class: 0,
        };
        let done = timed_request(
            &mut self.ftl,
            &mut self.eng,
            t,
            &request,
            0,
            &mut self.pages,
        );
        if op != Op::Trim {
            self.eng
                .complete(t, done, op == Op::Read, request.bytes as u64);
        }
        Ok(done)
    }

    pub fn counters(&self) -> DeviceCounters {
        let totals = *self.ftl.counters();
        let page = self.geom.page_size_bytes as u64;
        DeviceCounters {
            now_ns: self.eng.now_ns(),
            page_size_bytes: self.geom.page_size_bytes,
            user_pages: self.geom.user_pages,
            physical_pages: self.geom.physical_pages(),
            writes: self.writes,
            reads: self.reads,
            trims: self.trims,
            flushes: self.flushes,
            host_written_bytes: self.host_written_bytes,
            host_read_bytes: self.host_read_bytes,
            valid_pages: self.valid_pages,
            free_blocks: self.ftl.free_blocks(),
            totals,
            waf: (totals.host_pages > 0)
                .then(|| totals.nand_pages() as f64 / totals.host_pages as f64),
            slc_used_bytes: self.eng.slc_used_bytes(page),
            slc_max_bytes: self.eng.slc_max_bytes(page),
        }
    }

    /// The timing engine's report so far (IOPS and latency series, in simulated time).
    pub fn timed_report(&self) -> TimedReport {
        self.eng.report(&self.geom, self.ftl.counters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::from_json;

    fn device_with(extra_op_percent: f64, buffer: &str) -> Device {
        let config = from_json(&format!(
            r#"{{"geometry": {{"physical_bytes": 33554432, "advertised_bytes": 30000000,
                "page_size_bytes": 4096, "pages_per_block": 32,
                "extra_op_percent": {extra_op_percent}}},
               "timing": {{"enabled": true, "buffer": {buffer}}}}}"#
        ))
        .unwrap();
        Device::new(config).unwrap()
    }

    fn device(extra_op_percent: f64) -> Device {
        device_with(extra_op_percent, "{}")
    }

    #[test]
    fn writes_complete_later_and_trims_free_valid_pages() {
        let mut d = device(0.0);
        let done = d.submit(Command::Write, 0, 8, 1000).unwrap();
        assert!(done > 1000);
        assert_eq!(d.counters().valid_pages, 8);
        d.submit(Command::Write, 4, 8, done).unwrap();
        assert_eq!(d.counters().valid_pages, 12);
        d.submit(Command::Trim, 0, 6, done).unwrap();
        let c = d.counters();
        assert_eq!(c.valid_pages, 6);
        assert_eq!(c.totals.trimmed_pages, 6);
        assert_eq!((c.writes, c.trims), (2, 1));
    }

    #[test]
    fn reads_of_unwritten_pages_touch_no_nand_and_out_of_range_is_refused() {
        let mut d = device(0.0);
        let user = d.geometry().user_pages as u64;
        assert!(d.submit(Command::Read, user - 1, 2, 0).is_err());
        let unwritten = d.submit(Command::Read, 0, 1, 0).unwrap();
        let t = d.submit(Command::Write, 0, 1, unwritten).unwrap();
        let t = d.submit(Command::Flush, 0, 0, t).unwrap();
        let written = d.submit(Command::Read, 0, 1, t).unwrap() - t;
        assert!(written > unwritten, "{written} vs {unwritten}");
    }

    #[test]
    fn random_overwrites_cost_more_nand_at_less_op() {
        let waf = |op: f64| {
            let mut d = device(op);
            let user = d.geometry().user_pages as u64;
            let mut rng = crate::rng::Rng::derive(7, 1);
            let mut t = 0;
            for _ in 0..user * 3 {
                t = d.submit(Command::Write, rng.below(user), 1, t).unwrap();
            }
            d.counters().waf.unwrap()
        };
        let (low, high) = (waf(0.0), waf(30.0));
        assert!(
            low > high * 1.3,
            "WAF {low} at 0% vs {high} at 30% extra OP"
        );
    }

    #[test]
    fn a_flush_waits_for_buffered_writes_only_without_power_loss_protection() {
        let flush_ns = |protected: bool| {
            let buffer = format!(r#"{{"bytes": 1048576, "power_loss_protected": {protected}}}"#);
            let mut d = device_with(0.0, &buffer);
            let written = d.submit(Command::Write, 0, 16, 0).unwrap();
            let flushed = d.submit(Command::Flush, 0, 0, written).unwrap();
            assert_eq!(d.counters().flushes, 1);
            flushed - written
        };
        let (protected, volatile) = (flush_ns(true), flush_ns(false));
        // 16 buffered pages and the metadata pages to program: milliseconds, not microseconds
        assert!(
            volatile > 100 * protected,
            "{volatile} ns vs {protected} ns"
        );
        assert!(protected < 10_000, "{protected} ns");
    }
}
