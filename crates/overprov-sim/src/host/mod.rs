//! The host side beyond one queue on one drive (`[timing.host]`: `numjobs`, `array`): several
//! closed-loop jobs, each with its own random stream (fio's numjobs × iodepth), issuing to one
//! drive or to an array of identical drives (md RAID-0, RAID-1, RAID-10), each member a whole
//! simulated drive. docs/simulator.md describes the model.
//!
//! `Run` is the one entry point for any configuration: a `Simulator` for one job on one drive
//! (the hot loop, untouched by this layer), a `HostRun` otherwise.

mod array;
mod jobs;
mod layout;
mod report;
mod run;

pub use jobs::job_seed;
pub use layout::{Extent, Layout};
pub use report::{HostReport, JobReport, MemberReport};
pub use run::HostRun;

use crate::config::SimConfig;
use crate::error::{Error, Result};
use crate::round::RoundRequest;
use crate::sim::{Phase, Report, Simulator};
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
        if config.timing.host.layered() {
            config.validate()?;
            Ok(Run::Host(Box::new(HostRun::new(config)?)))
        } else {
            Ok(Run::Drive(Box::new(Simulator::new(config)?)))
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
