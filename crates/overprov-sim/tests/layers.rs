//! The layers a run is built from: one phase stepper for one drive and for the host layer (a
//! run's report does not depend on how its steps were budgeted), the counters a profiler round
//! reads without the report, and a configuration validated once.

use overprov_sim::config::{Precondition, RaidLevel, SimConfig, ValidConfig};
use overprov_sim::host::{HostRun, Run};
use overprov_sim::phases::Phase;
use serde_json::Value;

fn drive() -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 14);
    c.geometry.pages_per_block = 64;
    c.geometry.op_ratio = Some(0.2);
    c.run.warmup_drive_writes = 0.5;
    c.run.drive_writes = 1.0;
    c.run.interval_percent = 10.0;
    c
}

fn timed(mut c: SimConfig) -> SimConfig {
    c.timing.enabled = true;
    c.timing.interval_s = 0.01;
    c.timing.state_round_drive_writes = 0.1;
    c
}

fn mirror() -> SimConfig {
    let mut c = timed(drive());
    c.timing.host.numjobs = 2;
    c.timing.host.array.raid = RaidLevel::Raid1;
    c.timing.host.array.members = 2;
    c
}

fn json(r: &overprov_sim::Report) -> Value {
    serde_json::to_value(r).unwrap()
}

/// The report of `config` run in steps of `budget` pages.
fn stepped(config: &SimConfig, budget: u64) -> Value {
    let mut run = Run::new(config.clone()).unwrap();
    let mut steps = 0;
    while !run.step(budget).unwrap() {
        steps += 1;
        assert!(steps < 1_000_000, "the run never ends");
    }
    assert_eq!(run.phase(), Phase::Done);
    json(&run.report())
}

#[test]
fn a_report_does_not_depend_on_the_step_budget() {
    let without_fill = {
        let mut c = timed(drive());
        c.precondition.kind = Precondition::None;
        c
    };
    for (name, c) in [
        ("drive", drive()),
        ("timed drive", timed(drive())),
        ("timed drive, no fill", without_fill),
        ("mirror of two, two jobs", mirror()),
    ] {
        let whole = json(&Run::new(c.clone()).unwrap().run().unwrap());
        for budget in [1_000, 7_777, 1 << 14, 40_000] {
            assert!(
                stepped(&c, budget) == whole,
                "{name}: steps of {budget} pages change the report"
            );
        }
    }
}

#[test]
fn phases_are_reported_in_order_by_both_layers() {
    let drive = Run::new(timed(drive())).unwrap().run().unwrap();
    let names: Vec<_> = drive.phases.iter().map(|p| p.phase).collect();
    assert_eq!(names, ["precondition", "warmup", "measure"]);
    // the host layer's members fill themselves: its phases start at warm-up
    let array = HostRun::new(mirror()).unwrap().run().unwrap();
    let names: Vec<_> = array.phases.iter().map(|p| p.phase).collect();
    assert_eq!(names, ["warmup", "measure"]);
    assert!(drive.done && array.done);
}

#[test]
fn totals_are_the_reports_totals_at_every_step() {
    for c in [drive(), timed(drive()), mirror()] {
        let mut run = Run::new(c).unwrap();
        loop {
            assert_eq!(run.totals(), run.report().totals);
            if run.step(5_000).unwrap() {
                break;
            }
        }
        assert_eq!(run.totals(), run.report().totals);
        assert!(run.totals().host_pages > 0);
    }
}

#[test]
fn a_validated_config_builds_the_same_run_and_a_bad_one_names_its_field() {
    for c in [drive(), mirror()] {
        let a = Run::new(c.clone()).unwrap().run().unwrap();
        let valid = ValidConfig::new(c).unwrap();
        let b = Run::from_valid(valid.clone()).unwrap().run().unwrap();
        assert!(json(&a) == json(&b));
        // a handle builds any number of runs
        let again = Run::from_valid(valid).unwrap().run().unwrap();
        assert!(json(&a) == json(&again));
    }
    let mut bad = mirror();
    bad.timing.host.array.members = 65;
    let e = ValidConfig::new(bad.clone()).unwrap_err().to_string();
    assert!(e.starts_with("timing.host.array.members"), "{e}");
    assert_eq!(e, Run::new(bad).unwrap_err().to_string());
}
