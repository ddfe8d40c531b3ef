//! Whole-page programs without program suspend (`timing.nand.program_granularity = "page"`,
//! `src/timing/program.rs`): host units gathered per die until a flash page (an SLC page in SLC
//! mode) is full, the die then busy for one whole program time, reads to it waiting for the
//! end; and the default (`"unit"`) giving, byte for byte, the reports the core gave before the
//! option existed (tests/data/program_unit holds reports written by that core: GC-heavy writes
//! on the consumer drive with a static SLC region, write-through, non-preemptive GC without a
//! write buffer, multi-plane programs).

use overprov_sim::config::{from_json, GcBlocking, Precondition, SimConfig, SlcDynamicSpace};
use overprov_sim::sim::{Report, Simulator};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/program_unit");
const BASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/slc_dynamic/qd8_mix_filled.json"
);

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

/// consumer-tlc-sata at 1/512 scale, filled, QD8 70:30 (tests/data/slc_dynamic).
fn consumer_mix() -> SimConfig {
    let g: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    from_json(&g["config"].to_string()).unwrap()
}

/// 128 MiB of 4 KiB pages in 256-page blocks at ρ 0.1, no write buffer, 1 drive write of
/// warm-up and 0.5 measured.
fn small_unbuffered(blocking: GcBlocking, planes: u32) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 15);
    c.geometry.op_ratio = Some(0.1);
    c.geometry.pages_per_block = 256;
    c.timing.enabled = true;
    c.timing.host.queue_depth = 8;
    c.timing.gc.blocking = blocking;
    c.timing.buffer.bytes = 0;
    c.timing.nand.planes_per_die = planes;
    c.timing.state_round_drive_writes = 0.1;
    c.run.warmup_drive_writes = 1.0;
    c.run.drive_writes = 0.5;
    c
}

/// The cases the goldens hold: every path a NAND program takes (buffered host writes in SLC
/// and TLC mode, GC relocations and erases, forced folds, flushes, GC jobs, multi-plane
/// batches, host writes waiting for NAND).
fn golden_cases() -> Vec<(&'static str, SimConfig)> {
    let mut writes_gc = consumer_mix();
    writes_gc.workload.read_percent = 20.0;
    writes_gc.timing.host.queue_depth = 32;
    writes_gc.timing.slc.static_bytes = 12_000_000;
    writes_gc.timing.slc.dynamic_space = SlcDynamicSpace::Unwritten;
    writes_gc.timing.duration_s = Some(6.0);
    let mut purged_gc = consumer_mix();
    purged_gc.precondition.kind = Precondition::None;
    purged_gc.workload.read_percent = 0.0;
    purged_gc.timing.host.queue_depth = 32;
    purged_gc.timing.duration_s = Some(8.0);
    let mut write_through = consumer_mix();
    write_through.timing.host.write_through = true;
    write_through.timing.duration_s = Some(1.0);
    vec![
        ("filled_writes_gc_static_region", writes_gc),
        ("purged_writes_gc_dynamic_fold", purged_gc),
        ("write_through_mix", write_through),
        (
            "gc_domain_unbuffered",
            small_unbuffered(GcBlocking::Domain, 1),
        ),
        ("two_planes_unbuffered", small_unbuffered(GcBlocking::None, 2)),
    ]
}

fn comparable(r: &Report) -> Value {
    let mut v: Value = serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap();
    // wall-clock figures are the machine's, not the simulation's
    let o = v.as_object_mut().unwrap();
    o.remove("wall_seconds");
    o.remove("host_pages_per_wall_second");
    v
}

#[test]
fn the_default_gives_the_reports_written_before_the_option_existed() {
    let write = std::env::var_os("OVERPROV_WRITE_PROGRAM_GOLDEN").is_some();
    for (name, c) in golden_cases() {
        let path = format!("{DIR}/{name}.json");
        let report = comparable(&run(c.clone()));
        if write {
            let g = serde_json::json!({"config": c, "report": report});
            std::fs::write(&path, serde_json::to_string(&g).unwrap()).unwrap();
            continue;
        }
        let g: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(g["config"] == serde_json::to_value(&c).unwrap(), "{name}: config changed");
        assert!(
            report == g["report"],
            "{name}: the report differs from the one written before the option"
        );
    }
}
