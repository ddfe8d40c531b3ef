//! The phases of a run — precondition → warm-up → measurement → done — and the one stepper that
//! moves a run through them in budgeted steps, so a caller can show progress and stop early.
//!
//! A run (one drive, `crate::sim::Simulator`, or several jobs and drives, `crate::host`)
//! counts pages its own way and does its own work in each phase; the stepper holds which phase
//! it is in, where that phase ends, the order of the phases and the budget of a step.

use serde::Serialize;

use crate::config::{Precondition, SimConfig};
use crate::error::Result;
use crate::report::PhaseReport;
use crate::stats::{Delta, Snapshot};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Precondition,
    Warmup,
    Measure,
    Done,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Precondition => "precondition",
            Phase::Warmup => "warmup",
            Phase::Measure => "measure",
            Phase::Done => "done",
        }
    }

    /// The phase after this one.
    pub fn next(self) -> Phase {
        match self {
            Phase::Precondition => Phase::Warmup,
            Phase::Warmup => Phase::Measure,
            Phase::Measure | Phase::Done => Phase::Done,
        }
    }
}

/// How long each phase lasts, in the pages the run counts, and its series' interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhasePlan {
    pub fill_pages: u64,
    pub warmup_pages: u64,
    pub measure_pages: u64,
    /// Pages between two points of the interval series.
    pub interval_pages: u64,
    /// The measured phase ends by simulated time (`timing.duration_s`), not by pages.
    pub timed_end: bool,
}

impl PhasePlan {
    /// The plan `config.run` and `config.precondition` give a run addressing `user_pages`.
    pub fn new(config: &SimConfig, user_pages: u64) -> Self {
        let u = user_pages as f64;
        let r = &config.run;
        PhasePlan {
            fill_pages: match config.precondition.kind {
                Precondition::None => 0,
                _ => user_pages,
            },
            warmup_pages: (r.warmup_drive_writes * u).round() as u64,
            measure_pages: ((r.drive_writes * u).round() as u64).max(1),
            interval_pages: ((r.interval_percent / 100.0 * u).round() as u64).max(1),
            timed_end: config.timing.enabled && config.timing.duration_s.is_some(),
        }
    }

    /// Pages of all phases.
    pub fn planned(&self) -> u64 {
        self.fill_pages
            .saturating_add(self.warmup_pages)
            .saturating_add(self.measure_pages)
    }
}

/// Which phase a run is in and where it ends.
#[derive(Debug, Clone)]
pub struct Stepper {
    plan: PhasePlan,
    phase: Phase,
    end: u64,
}

impl Stepper {
    /// Before the first phase is entered (`start`).
    pub fn new(plan: PhasePlan) -> Self {
        Stepper {
            plan,
            phase: Phase::Precondition,
            end: 0,
        }
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn plan(&self) -> &PhasePlan {
        &self.plan
    }
    /// The page count at which the current phase ends.
    pub fn end(&self) -> u64 {
        self.end
    }
    /// The current phase ends at `pages` (its fill done early, its trace passes or its
    /// simulated time run out).
    pub fn end_at(&mut self, pages: u64) {
        self.end = pages;
    }

    fn set(&mut self, phase: Phase, now: u64) {
        let p = &self.plan;
        self.phase = phase;
        self.end = match phase {
            Phase::Precondition => now.saturating_add(p.fill_pages),
            Phase::Warmup => now.saturating_add(p.warmup_pages),
            Phase::Measure if p.timed_end => u64::MAX,
            Phase::Measure => now.saturating_add(p.measure_pages),
            Phase::Done => now,
        };
    }
}

/// A run the stepper moves through its phases.
pub(crate) trait Phased {
    fn stepper(&self) -> &Stepper;
    fn stepper_mut(&mut self) -> &mut Stepper;
    /// Pages counted so far (the plan's unit).
    fn pages(&self) -> u64;
    /// Run `phase` on up to `limit` pages, or to its end if that comes first.
    fn advance(&mut self, phase: Phase, limit: u64) -> Result<()>;
    /// The current phase is about to end (the stepper still names it).
    fn leaving(&mut self);
    /// `phase` has begun (the stepper names it and where it ends).
    fn entered(&mut self, phase: Phase);
}

/// Enter the first phase: the precondition, or warm-up when there is no fill.
pub(crate) fn start<P: Phased>(run: &mut P) {
    let first = match run.stepper().plan.fill_pages {
        0 => Phase::Warmup,
        _ => Phase::Precondition,
    };
    enter(run, first);
}

/// Enter `phase`; a warm-up of no pages is entered and left at once.
pub(crate) fn enter<P: Phased>(run: &mut P, phase: Phase) {
    run.leaving();
    let now = run.pages();
    run.stepper_mut().set(phase, now);
    run.entered(phase);
    if phase == Phase::Warmup && run.stepper().plan.warmup_pages == 0 {
        enter(run, Phase::Measure);
    }
}

/// Run up to `budget` more pages (at least one request). Returns true when the whole run is
/// done.
pub(crate) fn step<P: Phased>(run: &mut P, budget: u64) -> Result<bool> {
    if run.stepper().phase == Phase::Done {
        return Ok(true);
    }
    let stop = run.pages().saturating_add(budget.max(1));
    while run.stepper().phase != Phase::Done && run.pages() < stop {
        let phase = run.stepper().phase;
        run.advance(phase, stop.min(run.stepper().end))?;
        if run.pages() >= run.stepper().end {
            enter(run, phase.next());
        }
    }
    Ok(run.stepper().phase == Phase::Done)
}

/// Each phase's figures from the snapshots at the phases' starts and `now` (the done phase
/// left out), and the measured phase's if it wrote anything.
pub(crate) fn phase_reports(
    starts: &[(Phase, Snapshot)],
    now: &Snapshot,
    page_bytes: u32,
) -> (Vec<PhaseReport>, Option<Delta>) {
    let mut phases = Vec::new();
    for (i, (phase, start)) in starts.iter().enumerate() {
        if *phase == Phase::Done {
            continue;
        }
        let end = starts.get(i + 1).map_or(now, |p| &p.1);
        phases.push(PhaseReport {
            phase: phase.name(),
            delta: Delta::between(start, end, page_bytes),
        });
    }
    let measured = phases
        .iter()
        .find(|p| p.phase == "measure")
        .map(|p| p.delta)
        .filter(|d| d.host_pages > 0);
    (phases, measured)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run that writes one page per `advance` call, recording what the stepper did.
    struct Counter {
        stepper: Stepper,
        pages: u64,
        log: Vec<String>,
    }

    impl Phased for Counter {
        fn stepper(&self) -> &Stepper {
            &self.stepper
        }
        fn stepper_mut(&mut self) -> &mut Stepper {
            &mut self.stepper
        }
        fn pages(&self) -> u64 {
            self.pages
        }
        fn advance(&mut self, _: Phase, limit: u64) -> Result<()> {
            self.pages = limit;
            Ok(())
        }
        fn leaving(&mut self) {
            self.log
                .push(format!("leave {}", self.stepper.phase().name()));
        }
        fn entered(&mut self, phase: Phase) {
            self.log
                .push(format!("enter {}@{}", phase.name(), self.pages));
        }
    }

    fn counter(fill: u64, warmup: u64, measure: u64) -> Counter {
        let plan = PhasePlan {
            fill_pages: fill,
            warmup_pages: warmup,
            measure_pages: measure,
            interval_pages: 1,
            timed_end: false,
        };
        let mut c = Counter {
            stepper: Stepper::new(plan),
            pages: 0,
            log: Vec::new(),
        };
        start(&mut c);
        c
    }

    #[test]
    fn phases_follow_in_order_and_end_at_their_pages() {
        let mut c = counter(10, 5, 7);
        assert!(!step(&mut c, 12).unwrap());
        assert_eq!((c.stepper.phase(), c.pages), (Phase::Warmup, 12));
        assert!(step(&mut c, u64::MAX).unwrap());
        assert_eq!(c.pages, 22);
        assert_eq!(
            c.log,
            [
                "leave precondition",
                "enter precondition@0",
                "leave precondition",
                "enter warmup@10",
                "leave warmup",
                "enter measure@15",
                "leave measure",
                "enter done@22",
            ]
        );
        assert!(step(&mut c, 1).unwrap(), "a done run stays done");
    }

    #[test]
    fn no_fill_starts_in_warmup_and_an_empty_warmup_is_passed_through() {
        let c = counter(0, 0, 3);
        assert_eq!(c.stepper.phase(), Phase::Measure);
        assert_eq!(c.stepper.end(), 3);
        assert_eq!(c.log[1], "enter warmup@0");
        assert_eq!(c.log[3], "enter measure@0");
    }

    #[test]
    fn a_timed_measurement_ends_only_when_the_run_says_so() {
        let mut c = counter(0, 2, 3);
        c.stepper.plan.timed_end = true;
        assert!(!step(&mut c, 2).unwrap());
        assert!(!step(&mut c, 1000).unwrap());
        assert_eq!(c.stepper.end(), u64::MAX);
        c.stepper.end_at(c.pages);
        assert!(step(&mut c, 1).unwrap());
    }
}
