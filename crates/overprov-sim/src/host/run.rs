//! A timed run with the host layer: `numjobs` closed-loop jobs (`Jobs`) issuing to one drive or
//! to an array of drives (`Array`), moved through precondition → warm-up → measurement by the
//! same stepper as one drive (`crate::phases`); its report is built from its members' reports.
//!
//! The host's view is kept here: its queue (the jobs' slots), the latency of every request
//! from issue to its last member's completion, IOPS and performance states per interval (an
//! `Engine` used only as the accountant of those series), and the array's phases counted in
//! pages the host wrote to the array. Each member keeps its own FTL and NAND timing.

use crate::config::{ArrayConfig, HostMode, Layout, Pattern, RaidLevel, SimConfig, ValidConfig};
use crate::error::{Error, Result};
use crate::ftl::Counters;
use crate::geometry::Geometry;
use crate::phases::{self, Phase, PhasePlan, Phased, Stepper};
use crate::report::{HostReport, JobReport, MemberReport, Report};
use crate::sim::Simulator;
use crate::stats::{Delta, Interval, Snapshot};
use crate::timing::Engine;
use crate::workload::Op;

use super::array::{Array, READ_POLICY};
use super::jobs::{job_seed, Jobs};

#[derive(Debug, Clone)]
pub struct HostRun {
    config: SimConfig,
    array_geom: Geometry,
    array: Array,
    jobs: Jobs,
    /// Series of the host's view (issue, completion, latency); books no NAND work.
    acct: Engine,
    /// The phases, counted in array pages: the fill, then pages the host wrote.
    stepper: Stepper,
    /// Pages the host wrote to the array in warm-up and measurement.
    written: u64,
    /// Bytes the host wrote to the array.
    host_bytes: u64,
    read_pages: u64,
    requests: u64,
    filled: u64,
    next_interval_at: u64,
    last_interval: Snapshot,
    intervals: Vec<Interval>,
    /// Each phase's start: the members' summed snapshot.
    phase_starts: Vec<(Phase, Snapshot)>,
    /// Each member's snapshot, and the array's host bytes, when measurement started.
    member_starts: Vec<Snapshot>,
    measure_host_bytes: Option<u64>,
    time_end_ns: Option<u64>,
    gc_seen: bool,
}

/// The configuration of one member: the same drive, one queue, no array; the workload only
/// shapes its precondition and its write streams (zones kept, per-LBA tables dropped).
fn member_config(config: &SimConfig) -> SimConfig {
    let mut c = config.clone();
    c.timing.host.numjobs = 1;
    c.timing.host.array = ArrayConfig::default();
    if c.workload.pattern == Pattern::Zipf {
        c.workload.pattern = Pattern::Uniform;
    }
    c.workload.random_map = false;
    c
}

impl HostRun {
    pub fn new(config: SimConfig) -> Result<Self> {
        Self::from_valid(ValidConfig::new(config)?)
    }

    /// The run of a configuration validated before (not validated again; its members'
    /// configuration is validated once for all of them).
    pub fn from_valid(valid: ValidConfig) -> Result<Self> {
        let (config, member_geom) = valid.into_parts();
        let h = &config.timing.host;
        if !config.timing.enabled || h.mode != HostMode::Closed {
            return Err(Error::State(
                "the host layer needs a timed, closed-loop run".into(),
            ));
        }
        let layout = Layout::new(&h.array, &member_geom);
        let array_geom = Geometry {
            user_pages: layout.array_pages() as u32,
            ..member_geom
        };
        let mc = ValidConfig::new(member_config(&config))?;
        let members = (0..h.drives())
            .map(|_| Simulator::from_valid(mc.clone()))
            .collect::<Result<Vec<_>>>()?;
        let array = Array::new(layout, members, member_geom.page_size_bytes);
        let interval_ns = ((config.timing.interval_s * 1e9).round() as u64).max(1);
        let jobs = Jobs::new(&config, &array_geom, h.numjobs, h.queue_depth, interval_ns)?;
        let mut acct_timing = config.timing.clone();
        acct_timing.host.mode = HostMode::Open; // its queue is the jobs' slots
        acct_timing.host.queue_depth = h.numjobs * h.queue_depth;
        let acct = Engine::new(&acct_timing, &array_geom);
        let plan = PhasePlan::new(&config, array_geom.user_pages as u64);
        let mut run = HostRun {
            array_geom,
            array,
            jobs,
            acct,
            stepper: Stepper::new(plan),
            written: 0,
            host_bytes: 0,
            read_pages: 0,
            requests: 0,
            filled: 0,
            next_interval_at: 0,
            last_interval: Snapshot::default(),
            intervals: Vec::new(),
            phase_starts: Vec::new(),
            member_starts: Vec::new(),
            measure_host_bytes: None,
            time_end_ns: config.timing.duration_s.map(|d| (d * 1e9).round() as u64),
            gc_seen: false,
            config,
        };
        if plan.fill_pages == 0 {
            run.fill(); // the members still start logging their NAND operations
        }
        phases::start(&mut run);
        Ok(run)
    }

    pub fn phase(&self) -> Phase {
        self.stepper.phase()
    }
    pub fn config(&self) -> &SimConfig {
        &self.config
    }
    /// The member drives.
    pub fn members(&self) -> &[Simulator] {
        &self.array.members
    }

    /// Progress as (done, planned): array pages (the fill counted once), or simulated
    /// microseconds when the run is limited by simulated time and past its precondition.
    pub fn progress(&self) -> (u64, u64) {
        match self.time_end_ns {
            Some(end) if self.phase() != Phase::Precondition => {
                ((self.acct.now_ns() / 1000).min(end / 1000), end / 1000)
            }
            _ => (self.pages(), self.stepper.plan().planned()),
        }
    }

    /// The members' counters summed (the report's `totals`).
    pub fn totals(&self) -> Counters {
        self.snapshot().counters
    }

    /// The members' counters and host bytes, summed.
    fn snapshot(&self) -> Snapshot {
        let mut s = Snapshot::default();
        for m in &self.array.members {
            let x = m.snapshot();
            let (a, b) = (&mut s.counters, &x.counters);
            *a = Counters {
                host_pages: a.host_pages + b.host_pages,
                gc_pages: a.gc_pages + b.gc_pages,
                wl_pages: a.wl_pages + b.wl_pages,
                erases: a.erases + b.erases,
                victims: a.victims + b.victims,
                trimmed_pages: a.trimmed_pages + b.trimmed_pages,
            };
            s.host_bytes += x.host_bytes;
        }
        s
    }

    /// The precondition: each member fills itself (as the array's initial sync or a fill
    /// through it would).
    fn fill(&mut self) {
        for m in &mut self.array.members {
            m.fill_all();
        }
        self.filled = self.stepper.plan().fill_pages;
    }

    fn record_interval(&mut self) {
        let now = self.snapshot();
        if now.counters.host_pages == self.last_interval.counters.host_pages {
            return;
        }
        let free = self.array.members.iter().map(|m| m.ftl().free_blocks());
        self.intervals.push(Interval {
            phase: self.phase().name(),
            host_pages_total: self.written,
            drive_writes_total: self.written as f64 / self.array_geom.user_pages as f64,
            delta: Delta::between(&self.last_interval, &now, self.array_geom.page_size_bytes),
            free_blocks: free.min().unwrap_or(0),
        });
        self.last_interval = now;
        self.next_interval_at = self.written + self.stepper.plan().interval_pages;
    }

    /// Run up to `budget` more array pages (at least one request; the precondition in one go).
    /// Returns true when the whole run is done.
    pub fn step(&mut self, budget: u64) -> Result<bool> {
        phases::step(self, budget)
    }

    /// Run to the end.
    pub fn run(&mut self) -> Result<Report> {
        while !self.step(u64::MAX)? {}
        Ok(self.report())
    }

    /// Serve the jobs' requests until `limit` pages (fill included) or the simulated time's end.
    fn run_timed(&mut self, limit: u64) {
        while self.pages() < limit {
            if self
                .time_end_ns
                .is_some_and(|end| self.acct.now_ns() >= end)
            {
                self.stepper.end_at(self.pages());
                return;
            }
            let (t, job) = self.jobs.next();
            self.acct.issued_at(t);
            let counters = self.snapshot().counters;
            self.acct.tick(t, &counters);
            let r = self.jobs.request(job);
            self.requests += 1;
            let done = self.array.serve(t, &r);
            match r.op {
                Op::Write => {
                    self.written += r.pages as u64;
                    self.host_bytes += r.bytes as u64;
                }
                Op::Read => self.read_pages += r.pages as u64,
                Op::Trim => {}
            }
            self.acct
                .complete(t, done, r.op == Op::Read, r.bytes as u64);
            self.jobs.complete(job, done);
            if !self.gc_seen {
                let first = self.array.members.iter();
                if let Some(g) = first.filter_map(|m| m.timing()?.first_gc_ns()).min() {
                    self.acct.note_gc(g);
                    self.gc_seen = true;
                }
            }
            if self.written >= self.next_interval_at {
                self.record_interval();
            }
        }
    }

    pub fn report(&self) -> Report {
        let now = self.snapshot();
        let page = self.array_geom.page_size_bytes;
        let (phases, measured) = phases::phase_reports(&self.phase_starts, &now, page);
        let reports: Vec<Report> = self.array.members.iter().map(|m| m.report()).collect();
        let mut timed = self.acct.report(&self.array_geom, &now.counters);
        let sum = |f: fn(&Report) -> Option<u64>| reports.iter().map(f).sum::<Option<u64>>();
        timed.slc_written_bytes = sum(|r| r.timed.as_ref()?.slc_written_bytes);
        timed.slc_folded_bytes = sum(|r| r.timed.as_ref()?.slc_folded_bytes);
        // the blocking GC domains' figures are a drive's: an array's members' are not summed
        timed.gc_blocked = match reports.as_slice() {
            [one] => one.timed.as_ref().and_then(|t| t.gc_blocked.clone()),
            _ => None,
        };
        let h = &self.config.timing.host;
        let secs = timed.simulated_s;
        let jobs = (0..self.jobs.count())
            .map(|j| JobReport {
                job: j as u32,
                seed: job_seed(self.config.run.seed, j as u32),
                ios: self.jobs.ios(j),
                iops: if secs > 0.0 {
                    self.jobs.ios(j) as f64 / secs
                } else {
                    0.0
                },
                steady_iops: timed.steady_window.map(|[a, b]| {
                    self.jobs.ios_in(j, a, b) as f64 / ((b - a + 1) as f64 * timed.interval_s)
                }),
            })
            .collect();
        let member_figures = reports
            .iter()
            .enumerate()
            .map(|(i, r)| MemberReport {
                member: i as u32,
                measured: self
                    .member_starts
                    .get(i)
                    .map(|s| Delta::between(s, &self.array.members[i].snapshot(), page)),
                reads: self.array.reads[i],
                erase_count: r.wear.erase_count,
            })
            .collect();
        let array_host_bytes = self.measure_host_bytes.map_or(0, |b| self.host_bytes - b);
        let array_nand_bytes = measured.map_or(0, |d| d.nand_pages * page as u64);
        let mut victims: Vec<u64> = Vec::new();
        for r in &reports {
            let v = &r.victim_valid_histogram;
            if victims.len() < v.len() {
                victims.resize(v.len(), 0);
            }
            for (a, b) in victims.iter_mut().zip(v) {
                *a += b;
            }
        }
        let state_bytes: u64 = reports.iter().map(|r| r.state_bytes).sum();
        let physical: u64 = reports.iter().map(|r| r.geometry.physical_pages).sum();
        let first = &reports[0];
        let mut geometry = first.geometry.clone();
        geometry.span_pages = self.jobs.span_pages();
        let striped = matches!(h.array.raid, RaidLevel::Raid0 | RaidLevel::Raid10);
        Report {
            simulator: first.simulator,
            version: first.version,
            done: self.phase() == Phase::Done,
            geometry,
            config: self.config.clone(),
            phases,
            measured,
            totals: now.counters,
            host_bytes: now.host_bytes,
            read_pages: self.read_pages,
            requests: self.requests,
            wear: first.wear.clone(),
            victim_valid_histogram: victims,
            trace: None,
            workload: crate::workload::ran::WorkloadRan::synthetic(&self.config.workload),
            placement: None,
            intervals: self.intervals.clone(),
            state_bytes,
            state_bytes_per_physical_page: state_bytes as f64 / physical.max(1) as f64,
            timed: Some(timed),
            host: Some(HostReport {
                numjobs: h.numjobs,
                iodepth: h.queue_depth,
                outstanding: h.numjobs * h.queue_depth,
                jobs,
                raid: h.array.raid.name(),
                members: h.drives(),
                chunk_bytes: striped.then_some(h.array.chunk_bytes),
                array_user_bytes: self.array_geom.user_bytes(),
                read_policy: READ_POLICY,
                array_host_bytes,
                array_nand_bytes,
                array_waf: (array_host_bytes > 0)
                    .then(|| array_nand_bytes as f64 / array_host_bytes as f64),
                member_figures,
            }),
        }
    }
}

impl Phased for HostRun {
    fn stepper(&self) -> &Stepper {
        &self.stepper
    }
    fn stepper_mut(&mut self) -> &mut Stepper {
        &mut self.stepper
    }
    fn pages(&self) -> u64 {
        self.filled + self.written
    }

    fn advance(&mut self, phase: Phase, limit: u64) -> Result<()> {
        match phase {
            Phase::Precondition => self.fill(),
            Phase::Warmup | Phase::Measure => self.run_timed(limit),
            Phase::Done => {}
        }
        Ok(())
    }

    fn leaving(&mut self) {
        if self.phase_starts.is_empty() {
            self.last_interval = self.snapshot(); // the series starts after the fill
        } else {
            self.record_interval();
        }
    }

    fn entered(&mut self, phase: Phase) {
        if phase == Phase::Precondition {
            return; // the members fill themselves: no phase of the array's own
        }
        if phase == Phase::Measure {
            self.member_starts = self.array.members.iter().map(|m| m.snapshot()).collect();
            self.measure_host_bytes = Some(self.host_bytes);
        }
        self.next_interval_at = self.written + self.stepper.plan().interval_pages;
        self.phase_starts.push((phase, self.snapshot()));
    }
}
