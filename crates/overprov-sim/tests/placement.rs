//! Data placement (reclaim-unit handles): routing of host writes, the two isolation types, and
//! runs without placement giving the very reports the simulator gave before placement existed
//! (tests/data/placement_off holds reports written by the core before placement was added).

use overprov_sim::config::{
    from_json, Isolation, Pattern, PlacementRange, PlacementSource, SimConfig, Zone,
};
use overprov_sim::sim::{Report, Simulator};
use serde_json::Value;

fn run(c: SimConfig) -> (Report, Simulator) {
    let mut sim = Simulator::new(c).unwrap();
    let report = sim.run().unwrap();
    (report, sim)
}

fn small() -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(32_768);
    c.geometry.pages_per_block = 64;
    c.geometry.op_ratio = Some(0.12);
    c.run.drive_writes = 2.0;
    c.run.warmup_drive_writes = 1.0;
    c
}

/// Drop from `now` every object field `golden` does not have (recursively).
fn keep_fields_of(now: &mut Value, golden: &Value) {
    if let (Value::Object(n), Value::Object(g)) = (now, golden) {
        n.retain(|k, _| g.contains_key(k));
        for (k, v) in n.iter_mut() {
            keep_fields_of(v, &g[k]);
        }
    }
}

#[test]
fn reports_without_placement_are_unchanged() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/placement_off");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let config = from_json(&golden["config"].to_string()).unwrap();
        let (report, _) = run(config);
        // both sides parsed from their JSON text by the same parser
        let mut now: Value =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        // the report echoes its config: a config section added since (at its default, off) is
        // not a change of the figures, so the echo is compared on the golden's own fields
        keep_fields_of(&mut now["config"], &golden["report"]["config"]);
        assert!(
            now == golden["report"],
            "{}: the report differs from the one written before placement existed",
            path.display()
        );
        seen += 1;
    }
    assert_eq!(seen, 4);
}

#[test]
fn one_persistently_isolated_handle_is_the_drive_without_placement() {
    // one handle: host frontier 0 and its own GC frontier, as the default FTL has
    let off = run(small()).0;
    let mut c = small();
    c.placement.enabled = true;
    c.placement.isolation = Isolation::PersistentlyIsolated;
    c.placement.source = PlacementSource::Ranges;
    c.placement.ranges = vec![PlacementRange {
        start_percent: 0.0,
        end_percent: 100.0,
        id: 0,
    }];
    let on = run(c).0;
    assert_eq!(on.totals, off.totals);
    let p = on.placement.unwrap();
    assert_eq!(p.handles.len(), 1);
    let m = on.measured.unwrap();
    assert_eq!(p.handles[0].host_pages, m.host_pages);
    assert_eq!(p.handles[0].relocated_pages, m.gc_pages);
}

#[test]
fn a_range_map_routes_writes_by_lba() {
    let mut c = small();
    c.placement.enabled = true;
    c.placement.source = PlacementSource::Ranges;
    c.placement.ranges = vec![
        PlacementRange {
            start_percent: 0.0,
            end_percent: 25.0,
            id: 1,
        },
        PlacementRange {
            start_percent: 25.0,
            end_percent: 100.0,
            id: 2,
        },
    ];
    let (report, _) = run(c);
    let p = report.placement.unwrap();
    assert_eq!(p.handles.len(), 3);
    // nothing is written outside the map, so handle 0 gets nothing
    assert_eq!(p.handles[0].host_pages, 0);
    let share = p.handles[1].host_share_percent;
    assert!((share - 25.0).abs() < 1.0, "{share}");
    let m = report.measured.unwrap();
    let host: u64 = p.handles.iter().map(|h| h.host_pages).sum();
    let moved: u64 = p.handles.iter().map(|h| h.relocated_pages).sum();
    assert_eq!((host, moved), (m.host_pages, m.gc_pages));
    let writes: u64 = p.handles.iter().map(|h| h.write_requests).sum();
    assert_eq!(writes, m.host_pages); // 4 KiB writes: one page each
}

/// Closed blocks holding valid pages of more than one handle.
fn mixed_blocks(sim: &Simulator) -> usize {
    let ftl = sim.ftl();
    let ppb = ftl.geometry().pages_per_block;
    let blocks = ftl.blocks();
    blocks
        .closed_blocks()
        .iter()
        .filter(|&&b| {
            let mut owners = (b * ppb..(b + 1) * ppb).filter_map(|p| ftl.handle_of_page(p));
            let first = owners.next();
            owners.any(|o| Some(o) != first)
        })
        .count()
}

fn three_streams(isolation: Isolation) -> SimConfig {
    let mut c = small();
    c.workload.pattern = Pattern::Zoned;
    let zone = |access_percent, space_percent, sequential| Zone {
        access_percent,
        space_percent,
        sequential,
    };
    c.workload.zones = vec![
        zone(60.0, 10.0, false),
        zone(30.0, 30.0, true),
        zone(10.0, 60.0, false),
    ];
    c.placement.enabled = true;
    c.placement.isolation = isolation;
    c
}

#[test]
fn isolation_decides_whether_gc_mixes_handles() {
    let (init_report, init) = run(three_streams(Isolation::InitiallyIsolated));
    let (pers_report, pers) = run(three_streams(Isolation::PersistentlyIsolated));
    assert_eq!(
        mixed_blocks(&pers),
        0,
        "persistently isolated handles mixed"
    );
    assert!(
        mixed_blocks(&init) > 0,
        "initially isolated: GC's common frontier never mixed handles"
    );
    for r in [&init_report, &pers_report] {
        let p = r.placement.as_ref().unwrap();
        assert_eq!(p.handles.len(), 3);
        let shares: Vec<f64> = p.handles.iter().map(|h| h.host_share_percent).collect();
        assert!((shares[0] - 60.0).abs() < 1.0, "{shares:?}");
        assert!((shares[1] - 30.0).abs() < 1.0, "{shares:?}");
    }
}

#[test]
fn placement_keeps_the_ftl_consistent_under_audit() {
    for iso in Isolation::ALL {
        let (_, sim) = run(three_streams(iso));
        sim.ftl().check_invariants().unwrap();
    }
}

#[test]
fn profiler_rounds_are_routed_by_the_range_map() {
    let mut c = small();
    c.precondition.kind = overprov_sim::config::Precondition::None;
    c.timing.enabled = true;
    c.placement.enabled = true;
    c.placement.source = PlacementSource::Ranges;
    c.placement.ranges = vec![PlacementRange {
        start_percent: 50.0,
        end_percent: 100.0,
        id: 1,
    }];
    let mut sim = Simulator::new(c).unwrap();
    let round = overprov_sim::round::RoundRequest {
        sequential: true,
        request_bytes: 4096,
        queue_depth: 4,
        offset_pages: 16_384,
        span_pages: 16_384,
        seconds: None,
        seed: 1,
        idle_seconds: 0.0,
        read_percent: 0.0,
    };
    sim.run_round(&round).unwrap();
    let (host, _) = sim.ftl().handle_pages();
    assert_eq!(host, &[0, 16_384]);
}
