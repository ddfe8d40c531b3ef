//! A whole simulation of one drive: precondition → warm-up → measurement, moved through its
//! phases in budgeted steps by `crate::phases`, so a caller can show progress and stop early.

mod member;
mod placement;
mod replay;
mod round;

use crate::config::{HostStreams, Precondition, SimConfig, ValidConfig};
use crate::error::{Error, Result};
use crate::ftl::wear::erase_summary;
use crate::ftl::{Counters, Ftl};
use crate::geometry::Geometry;
pub use crate::phases::Phase;
use crate::phases::{self, PhasePlan, Phased, Stepper};
pub use crate::report::{GeometryReport, HandleReport, PhaseReport, PlacementReport, Report};
use crate::stats::{erase_histogram, Delta, Interval, Snapshot, WearReport};
use crate::timing::Engine;
use crate::workload::lookahead::{Lookahead, DEFAULT_DEPTH};
use crate::workload::permutation::Permutation;
use crate::workload::ran::WorkloadRan;
use crate::workload::trace::TraceSource;
use crate::workload::{Op, Request, Workload};

#[derive(Debug, Clone)]
pub struct Simulator {
    config: SimConfig,
    geom: Geometry,
    ftl: Ftl,
    /// The workload, generated some requests ahead so their FTL state can be prefetched.
    workload: Lookahead,
    stream_by_class: bool,
    stepper: Stepper,
    fill_next: u32,
    fill_map: Option<Permutation>,
    phase_starts: Vec<(Phase, Snapshot)>,
    host_bytes: u64,
    read_pages: u64,
    requests: u64,
    next_interval_at: u64,
    last_interval: Snapshot,
    intervals: Vec<Interval>,
    timed: Option<Engine>,
    /// Simulated time at which the timed part stops (ns), if limited by time.
    time_end_ns: Option<u64>,
    background_gc_free_blocks: usize,
    /// The workload when it is a trace (`config.trace.path`); `workload` is then unused.
    trace: Option<TraceSource>,
    /// Host writes' reclaim-unit handles (when placement is on).
    placement: Option<placement::Routing>,
}

impl Simulator {
    pub fn new(config: SimConfig) -> Result<Self> {
        Self::with_lookahead(config, DEFAULT_DEPTH)
    }

    /// A simulator that generates the workload `depth` requests ahead of the one it serves and
    /// prefetches their mapping state; 0 serves each request as it is generated. Results are
    /// the same for every depth (only the speed differs).
    pub fn with_lookahead(config: SimConfig, depth: usize) -> Result<Self> {
        Self::build(ValidConfig::new(config)?, depth)
    }

    /// A simulator of a configuration validated before (not validated again).
    pub fn from_valid(config: ValidConfig) -> Result<Self> {
        Self::build(config, DEFAULT_DEPTH)
    }

    fn build(valid: ValidConfig, depth: usize) -> Result<Self> {
        let (config, geom) = valid.into_parts();
        if config.timing.host.layered() {
            return Err(Error::State(
                "several jobs or an array of drives run in overprov_sim::host::Run, not Simulator"
                    .into(),
            ));
        }
        let workload = Lookahead::new(Workload::new(&config, &geom)?, depth);
        let placement = placement::Routing::new(&config, workload.workload(), geom.user_pages);
        let ftl = Ftl::new(&config, geom);
        let mut plan = PhasePlan::new(&config, geom.user_pages as u64);
        let trace = match config.trace.enabled() {
            true => Some(TraceSource::open(&config.trace, &geom)?),
            false => None,
        };
        // a trace's phases end with its passes, not after a number of host writes
        if let Some(t) = &trace {
            plan.warmup_pages = if t.has_warmup() { u64::MAX } else { 0 };
            plan.measure_pages = u64::MAX;
        }
        let fill_map = (config.precondition.kind == Precondition::Random)
            .then(|| Permutation::new(geom.user_pages, config.run.seed ^ 0x66696c6c));
        let mut sim = Simulator {
            stream_by_class: config.ftl.host_streams == HostStreams::Workload,
            config,
            geom,
            ftl,
            workload,
            stepper: Stepper::new(plan),
            fill_next: 0,
            fill_map,
            phase_starts: Vec::new(),
            host_bytes: 0,
            read_pages: 0,
            requests: 0,
            next_interval_at: plan.interval_pages,
            last_interval: Snapshot::default(),
            intervals: Vec::new(),
            timed: None,
            time_end_ns: None,
            background_gc_free_blocks: 0,
            trace,
            placement,
        };
        let t = &sim.config.timing;
        if t.enabled {
            sim.timed = Some(Engine::new(t, &geom).with_plane_pools(sim.config.ftl.plane_pools));
            sim.time_end_ns = t.duration_s.map(|d| (d * 1e9).round() as u64);
            sim.background_gc_free_blocks = t
                .background_gc_free_blocks
                .map_or(4 * sim.config.ftl.gc_free_blocks as usize, |b| b as usize);
        }
        phases::start(&mut sim);
        Ok(sim)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }
    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }
    /// The timing engine, in timed runs.
    pub fn timing(&self) -> Option<&Engine> {
        self.timed.as_ref()
    }
    pub fn phase(&self) -> Phase {
        self.stepper.phase()
    }
    pub fn config(&self) -> &SimConfig {
        &self.config
    }
    /// Progress as (done, planned): host pages, or simulated microseconds when the run is
    /// limited by simulated time and past its precondition.
    pub fn progress(&self) -> (u64, u64) {
        match (&self.timed, self.time_end_ns) {
            (Some(e), Some(end)) if self.phase() != Phase::Precondition => {
                ((e.now_ns() / 1000).min(end / 1000), end / 1000)
            }
            _ => match &self.trace {
                Some(t) => self.trace_progress(t),
                None => (
                    self.ftl.counters().host_pages,
                    self.stepper.plan().planned(),
                ),
            },
        }
    }

    /// Counters and host bytes now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            counters: *self.ftl.counters(),
            host_bytes: self.host_bytes,
        }
    }

    fn record_interval(&mut self) {
        let now = self.snapshot();
        if now.counters.host_pages == self.last_interval.counters.host_pages {
            return;
        }
        self.intervals.push(Interval {
            phase: self.phase().name(),
            host_pages_total: now.counters.host_pages,
            drive_writes_total: now.counters.host_pages as f64 / self.geom.user_pages as f64,
            delta: Delta::between(&self.last_interval, &now, self.geom.page_size_bytes),
            free_blocks: self.ftl.free_blocks(),
        });
        self.last_interval = now;
        self.next_interval_at = now.counters.host_pages + self.stepper.plan().interval_pages;
    }

    /// Run up to `budget` more host page writes (at least one request). Returns true when the
    /// whole run is done.
    pub fn step(&mut self, budget: u64) -> Result<bool> {
        phases::step(self, budget)
    }

    /// Run to the end.
    pub fn run(&mut self) -> Result<Report> {
        while !self.step(u64::MAX)? {}
        Ok(self.report())
    }

    fn run_fill(&mut self, limit: u64) {
        let page = self.geom.page_size_bytes as u64;
        while self.ftl.counters().host_pages < limit && self.fill_next < self.geom.user_pages {
            let i = self.fill_next;
            let lpn = match &self.fill_map {
                Some(p) => p.apply(i),
                None => i,
            };
            let stream = match &self.placement {
                Some(p) => p.route_fill(&mut self.ftl, lpn),
                None => 0,
            };
            self.ftl.write(lpn, stream);
            self.host_bytes += page;
            self.fill_next += 1;
            if self.ftl.counters().host_pages >= self.next_interval_at {
                self.record_interval();
            }
        }
        if self.fill_next == self.geom.user_pages {
            // done even if a trim shortened it
            self.stepper.end_at(self.ftl.counters().host_pages);
        }
    }

    #[inline(never)]
    fn run_workload(&mut self, limit: u64) {
        if self.timed.is_some() {
            return self.run_timed(limit);
        }
        while self.ftl.counters().host_pages < limit {
            let r = next_request(&mut self.workload, &self.ftl);
            self.requests += 1;
            match r.op {
                Op::Write => {
                    let stream = match self.placement.as_mut() {
                        Some(p) => p.route(&mut self.ftl, &r),
                        None if self.stream_by_class => r.class as usize,
                        None => 0,
                    };
                    for i in 0..r.pages {
                        self.ftl.write(r.lpn + i, stream);
                    }
                    self.host_bytes += r.bytes as u64;
                }
                Op::Trim => {
                    for i in 0..r.pages {
                        self.ftl.trim(r.lpn + i);
                    }
                }
                Op::Read => self.read_pages += r.pages as u64,
            }
            if self.ftl.counters().host_pages >= self.next_interval_at {
                self.record_interval();
            }
        }
    }

    /// The workload in simulated time: each request is issued when the host may (a free queue
    /// slot, or its arrival), its FTL work is done, and the timing engine schedules the NAND
    /// operations that work produced.
    fn run_timed(&mut self, limit: u64) {
        let stream_by_class = self.stream_by_class;
        let mut pages: Vec<Option<u32>> = Vec::new();
        while self.ftl.counters().host_pages < limit {
            let Some(eng) = self.timed.as_mut() else {
                return;
            };
            if self.time_end_ns.is_some_and(|end| eng.now_ns() >= end) {
                self.stepper.end_at(self.ftl.counters().host_pages);
                return;
            }
            let t = eng.next_issue();
            if self.config.timing.host.mode == crate::config::HostMode::Open {
                idle_work(&mut self.ftl, eng, t, self.background_gc_free_blocks);
            }
            eng.tick(t, self.ftl.counters());
            let r = next_request(&mut self.workload, &self.ftl);
            self.requests += 1;
            let bytes = r.bytes as u64;
            tally(&mut self.host_bytes, &mut self.read_pages, &r);
            let stream = match self.placement.as_mut() {
                Some(p) => p.route(&mut self.ftl, &r),
                None if stream_by_class => r.class as usize,
                None => 0,
            };
            let done = timed_request(&mut self.ftl, eng, t, &r, stream, &mut pages);
            eng.complete(t, done, r.op == Op::Read, bytes);
            if self.ftl.counters().host_pages >= self.next_interval_at {
                self.record_interval();
            }
        }
    }

    /// The run's counters so far (the report's `totals`).
    pub fn totals(&self) -> Counters {
        *self.ftl.counters()
    }

    pub fn report(&self) -> Report {
        let now = self.snapshot();
        let page = self.geom.page_size_bytes;
        let (phases, measured) = phases::phase_reports(&self.phase_starts, &now, page);
        let blocks = self.ftl.blocks();
        let state_bytes = self.ftl.state_bytes();
        Report {
            simulator: "overprov-sim",
            version: crate::VERSION,
            done: self.phase() == Phase::Done,
            geometry: GeometryReport {
                page_size_bytes: page,
                pages_per_block: self.geom.pages_per_block,
                blocks: self.geom.blocks,
                user_pages: self.geom.user_pages,
                physical_pages: self.geom.physical_pages(),
                user_bytes: self.geom.user_bytes(),
                physical_bytes: self.geom.physical_bytes(),
                rho: self.geom.op_ratio(),
                spare_factor: self.geom.spare_factor(),
                spare_blocks: self.geom.spare_blocks(),
                span_pages: match self.trace {
                    Some(_) => self.geom.user_pages,
                    None => self.workload.workload().span_pages(),
                },
            },
            config: self.config.clone(),
            phases,
            measured,
            totals: *self.ftl.counters(),
            host_bytes: self.host_bytes,
            read_pages: self.read_pages,
            requests: self.requests,
            wear: WearReport {
                erase_count: erase_summary(blocks),
                erase_histogram: erase_histogram(&blocks.erase_count),
            },
            victim_valid_histogram: self.ftl.victim_valid_histogram().to_vec(),
            intervals: self.intervals.clone(),
            state_bytes,
            state_bytes_per_physical_page: state_bytes as f64 / self.geom.physical_pages() as f64,
            timed: self
                .timed
                .as_ref()
                .map(|e| e.report(&self.geom, self.ftl.counters())),
            host: None,
            trace: self.trace.as_ref().map(TraceSource::report),
            workload: match &self.trace {
                Some(t) => {
                    WorkloadRan::trace(t.report(), &self.config.trace, self.geom.user_bytes())
                }
                None => WorkloadRan::synthetic(&self.config.workload),
            },
            placement: self
                .placement
                .as_ref()
                .map(|p| p.report(&self.ftl, &self.config)),
        }
    }
}

impl Phased for Simulator {
    fn stepper(&self) -> &Stepper {
        &self.stepper
    }
    fn stepper_mut(&mut self) -> &mut Stepper {
        &mut self.stepper
    }
    fn pages(&self) -> u64 {
        self.ftl.counters().host_pages
    }

    fn advance(&mut self, phase: Phase, limit: u64) -> Result<()> {
        match phase {
            Phase::Precondition => self.run_fill(limit),
            Phase::Warmup | Phase::Measure if self.trace.is_some() => self.run_trace(limit)?,
            Phase::Warmup | Phase::Measure => self.run_workload(limit),
            Phase::Done => {}
        }
        Ok(())
    }

    fn leaving(&mut self) {
        if !self.phase_starts.is_empty() {
            self.record_interval(); // close the partial interval of the phase that ends
        }
    }

    fn entered(&mut self, phase: Phase) {
        if phase == Phase::Measure {
            self.ftl.reset_victim_histogram();
            if let Some(p) = self.placement.as_mut() {
                p.start_measured(&self.ftl);
            }
            if let Some(eng) = self.timed.as_mut() {
                eng.start_measured();
            }
        }
        if self.timed.is_some() && matches!(phase, Phase::Warmup | Phase::Measure) {
            self.ftl.set_op_log(true);
        }
        let now = self.ftl.counters().host_pages;
        self.next_interval_at = now + self.stepper.plan().interval_pages;
        self.phase_starts.push((phase, self.snapshot()));
    }
}

/// The next host request; the mapping state of requests further ahead is prefetched (their
/// forward-map entries as they are generated, their old pages' state halfway to being served).
#[inline(always)]
fn next_request(workload: &mut Lookahead, ftl: &Ftl) -> Request {
    workload.next(
        |r| {
            if r.op != Op::Read {
                ftl.prefetch_map(r.lpn, r.pages)
            }
        },
        |r| {
            if r.op != Op::Read {
                ftl.prefetch_old_pages(r.lpn, r.pages)
            }
        },
    )
}

/// A host write issued at `t` in simulated time: the FTL does its work (GC included) with the
/// operation log on, and the timing engine schedules the NAND operations that work produced.
/// Returns the completion time.
/// The drive's work in host idle time before `until`: fold the SLC cache, then collect
/// victims in the background while the free pool holds `free_blocks` or fewer and the dies
/// would otherwise be idle (open-loop gaps between arrivals; idle time before a round).
pub(crate) fn idle_work(ftl: &mut Ftl, eng: &mut Engine, until: u64, free_blocks: usize) {
    eng.idle_fold(until);
    while eng.dies_idle_at() < until && ftl.collect_background(free_blocks) {
        let ops = ftl.take_ops();
        let start = eng.dies_idle_at();
        eng.background_ops(&ops, start);
        ftl.return_ops(ops);
    }
}

/// One request's FTL work and NAND timing on this drive at simulated time `t` (a write to its
/// stream's frontier, a read of the pages it maps to, a trim); returns its completion time.
/// `pages` is the caller's buffer for a read's physical pages, reused from request to request.
pub(crate) fn timed_request(
    ftl: &mut Ftl,
    eng: &mut Engine,
    t: u64,
    r: &Request,
    stream: usize,
    pages: &mut Vec<Option<u32>>,
) -> u64 {
    match r.op {
        Op::Write => timed_write(ftl, eng, t, r, stream),
        Op::Read => {
            pages.clear();
            pages.extend((0..r.pages).map(|i| ftl.lookup(r.lpn + i)));
            eng.read(t, pages, r.bytes as u64)
        }
        Op::Trim => {
            for i in 0..r.pages {
                ftl.trim(r.lpn + i);
            }
            eng.read(t, &[], 0)
        }
    }
}

/// The host bytes written and pages read that a request adds to the run's totals.
fn tally(host_bytes: &mut u64, read_pages: &mut u64, r: &Request) {
    match r.op {
        Op::Write => *host_bytes += r.bytes as u64,
        Op::Read => *read_pages += r.pages as u64,
        Op::Trim => {}
    }
}

fn timed_write(ftl: &mut Ftl, eng: &mut Engine, t: u64, r: &Request, stream: usize) -> u64 {
    for i in 0..r.pages {
        ftl.write(r.lpn + i, stream);
    }
    let ops = ftl.take_ops();
    let free_units = ftl.free_blocks() as u64 * ftl.geometry().pages_per_block as u64;
    let done = eng.write(t, &ops, r.bytes as u64, free_units);
    ftl.return_ops(ops);
    done
}
