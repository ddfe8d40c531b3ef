//! The batched hot loop (requests generated ahead, their mapping state prefetched) gives exactly
//! the results of the unbatched loop (each request generated when served): same seeds, same
//! report to the last digit, for several workloads, run in one go or in small steps.

use overprov_sim::config::{Pattern, PolicyKind, SimConfig};
use overprov_sim::{Report, Simulator};

fn base() -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(60_000);
    c.geometry.op_ratio = Some(0.12);
    c.geometry.pages_per_block = 64;
    c.run.warmup_drive_writes = 1.0;
    c.run.drive_writes = 2.0;
    c.run.interval_percent = 25.0;
    c.run.seed = 11;
    c
}

fn workloads() -> Vec<(&'static str, SimConfig)> {
    let uniform = base();
    let mut hot_cold = base();
    hot_cold.workload.pattern = Pattern::HotCold;
    let mut zipf = base();
    zipf.workload.pattern = Pattern::Zipf;
    zipf.ftl.policy = PolicyKind::CostBenefit;
    let mut trims = base();
    trims.workload.trim_percent = 15.0;
    trims.workload.read_percent = 10.0;
    trims.workload.bssplit = Some("4k/60:16k/30:128k/10".into());
    let mut jesd = base();
    jesd.workload.pattern = Pattern::Jesd219;
    jesd.workload.random_map = true;
    jesd.ftl.policy = PolicyKind::DChoices;
    vec![
        ("uniform", uniform),
        ("hot/cold", hot_cold),
        ("zipf", zipf),
        ("trims", trims),
        ("jesd219", jesd),
    ]
}

fn run(c: &SimConfig, depth: usize, step_pages: Option<u64>) -> Report {
    let mut sim = Simulator::with_lookahead(c.clone(), depth).expect("valid config");
    match step_pages {
        None => sim.run().expect("run"),
        Some(budget) => {
            while !sim.step(budget).expect("step") {}
            sim.report()
        }
    }
}

fn assert_same(name: &str, a: &Report, b: &Report, what: &str) {
    let (ja, jb) = (
        serde_json::to_string(a).expect("json"),
        serde_json::to_string(b).expect("json"),
    );
    let waf = |r: &Report| r.measured.and_then(|m| m.waf);
    assert_eq!(waf(a), waf(b), "{name}: measured WAF differs ({what})");
    assert!(
        a.measured.is_some_and(|m| m.host_pages > 0),
        "{name}: measured nothing"
    );
    assert_eq!(ja, jb, "{name}: reports differ ({what})");
}

#[test]
fn batched_loop_matches_the_unbatched_loop() {
    for (name, c) in workloads() {
        let unbatched = run(&c, 0, None);
        for depth in [1, 5, overprov_sim::workload::lookahead::DEFAULT_DEPTH, 64] {
            let batched = run(&c, depth, None);
            assert_same(name, &unbatched, &batched, &format!("depth {depth}"));
        }
        // stopping and resuming (phase ends, progress steps) keeps the requests generated ahead
        let stepped = run(&c, 16, Some(777));
        assert_same(name, &unbatched, &stepped, "depth 16 in steps of 777 pages");
    }
}

#[test]
fn timed_runs_match_too() {
    let mut c = base();
    c.workload.read_percent = 30.0;
    c.timing.enabled = true;
    c.run.drive_writes = 1.0;
    let unbatched = run(&c, 0, None);
    let batched = run(&c, 16, None);
    assert!(batched.timed.is_some());
    assert_same("timed", &unbatched, &batched, "depth 16");
}
