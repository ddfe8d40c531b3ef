//! The host side beyond one queue on one drive (`[timing.host]`: `numjobs`, `array`): several
//! closed-loop jobs, each with its own random stream (fio's numjobs × iodepth), issuing to one
//! drive or to an array of identical drives (md RAID-0, RAID-1, RAID-10), each member a whole
//! simulated drive. docs/simulator.md describes the model.
//!
//! `Run` is the one entry point for any configuration: a `Simulator` for one job on one drive
//! (the hot loop, untouched by this layer), a `HostRun` otherwise.

mod array;
mod jobs;
mod run;

pub use crate::config::{Extent, Layout};
pub use crate::report::{HostReport, JobReport, MemberReport};
pub use jobs::job_seed;
pub use run::HostRun;

use crate::config::{SimConfig, ValidConfig};
use crate::error::{Error, Result};
use crate::ftl::Counters;
use crate::phases::Phase;
use crate::report::Report;
use crate::round::RoundRequest;
use crate::sim::Simulator;
use crate::timing::RoundFigures;

/// A simulation of any configuration.
#[derive(Debug, Clone)]
pub enum Run {
    Drive(Box<Simulator>),
    Host(Box<HostRun>),
}

impl Run {
    /// Validate `config` and build the run it describes.
    pub fn new(config: SimConfig) -> Result<Self> {
        Self::from_valid(ValidConfig::new(config)?)
    }

    /// The run a configuration validated before describes (not validated again).
    pub fn from_valid(config: ValidConfig) -> Result<Self> {
        if config.config().timing.host.layered() {
            Ok(Run::Host(Box::new(HostRun::from_valid(config)?)))
        } else {
            Ok(Run::Drive(Box::new(Simulator::from_valid(config)?)))
        }
    }

    pub fn step(&mut self, budget: u64) -> Result<bool> {
        match self {
            Run::Drive(s) => s.step(budget),
            Run::Host(h) => h.step(budget),
        }
    }

    pub fn run(&mut self) -> Result<Report> {
        match self {
            Run::Drive(s) => s.run(),
            Run::Host(h) => h.run(),
        }
    }

    pub fn progress(&self) -> (u64, u64) {
        match self {
            Run::Drive(s) => s.progress(),
            Run::Host(h) => h.progress(),
        }
    }

    pub fn phase(&self) -> Phase {
        match self {
            Run::Drive(s) => s.phase(),
            Run::Host(h) => h.phase(),
        }
    }

    /// The run's counters so far: the report's `totals`, without building the report.
    pub fn totals(&self) -> Counters {
        match self {
            Run::Drive(s) => s.totals(),
            Run::Host(h) => h.totals(),
        }
    }

    pub fn report(&self) -> Report {
        match self {
            Run::Drive(s) => s.report(),
            Run::Host(h) => h.report(),
        }
    }

    /// Discard logical pages (one drive only).
    pub fn trim_range(&mut self, start: u64, count: u64) -> Result<()> {
        match self {
            Run::Drive(s) => s.trim_range(start, count),
            Run::Host(_) => Err(unsupported("trim")),
        }
    }

    /// One profiler round (one drive only).
    pub fn run_round(&mut self, round: &RoundRequest) -> Result<RoundFigures> {
        match self {
            Run::Drive(s) => s.run_round(round),
            Run::Host(_) => Err(unsupported("profiler rounds")),
        }
    }
}

fn unsupported(what: &str) -> Error {
    Error::State(format!(
        "{what} run on one drive with one job; this run has several jobs or an array"
    ))
}
