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

/// The profiler's rounds (`Simulator::run_round`) generate their requests ahead at the
/// simulator's depth too: the same figures, round by round, and the same drive after them.
#[test]
fn profiler_rounds_match_the_unbatched_loop() {
    use overprov_sim::config::Precondition;
    use overprov_sim::round::RoundRequest;

    let rounds = |depth: usize| {
        let mut c = base();
        c.timing.enabled = true;
        c.precondition.kind = Precondition::None;
        let mut sim = Simulator::with_lookahead(c, depth).expect("valid config");
        let mut figures = Vec::new();
        for (n, (sequential, span_pages, seconds)) in [
            (true, 60_000, None),
            (false, 60_000, None),
            (false, 45_000, Some(0.05)),
            (false, 30_000, Some(0.2)),
        ]
        .into_iter()
        .enumerate()
        {
            let r = RoundRequest {
                sequential,
                request_bytes: 4096,
                queue_depth: 16,
                offset_pages: 0,
                span_pages,
                seconds,
                seed: 7 + n as u64,
                idle_seconds: 0.0,
                read_percent: 0.0,
            };
            let f = sim.run_round(&r).expect("round");
            assert!(f.ios > 0, "round {n} wrote nothing");
            figures.push(serde_json::to_string(&f).expect("json"));
        }
        let totals = serde_json::to_string(&sim.totals()).expect("json"); // (no wall clock)
        (figures, totals)
    };
    let (unbatched, unbatched_drive) = rounds(0);
    for depth in [1, overprov_sim::workload::lookahead::DEFAULT_DEPTH] {
        let (batched, batched_drive) = rounds(depth);
        assert_eq!(unbatched, batched, "round figures differ at depth {depth}");
        assert_eq!(
            unbatched_drive, batched_drive,
            "the drive differs at depth {depth}"
        );
    }
}
