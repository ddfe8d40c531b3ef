//! Whole-page programs without program suspend (`timing.nand.program_granularity = "page"`,
//! `src/timing/program.rs`): host units gathered per die until a flash page (an SLC page in SLC
//! mode) is full, the die then busy for one whole program time, reads to it waiting for the
//! end; and the default (`"unit"`) giving, byte for byte, the reports the core gave before the
//! option existed (tests/data/program_unit holds reports written by that core: GC-heavy writes
//! on the consumer drive with a static SLC region, write-through, non-preemptive GC without a
//! write buffer, multi-plane programs).

use overprov_sim::config::{
    from_json, GcBlocking, HostMode, Precondition, ProgramGranularity, SimConfig, SlcDynamicSpace,
};
use overprov_sim::sim::{Report, Simulator};
use serde_json::Value;

use crate::common;

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
        (
            "two_planes_unbuffered",
            small_unbuffered(GcBlocking::None, 2),
        ),
    ]
}

fn comparable(r: &Report) -> Value {
    let mut v: Value = serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap();
    // wall-clock figures are the machine's, not the simulation's
    let o = v.as_object_mut().unwrap();
    o.remove("wall_seconds");
    o.remove("host_pages_per_wall_second");
    // the blocking GC domains' figures came after these reports were written: a description of
    // the run that changes none of its bookings (timing/gc_blocked.rs)
    if let Some(t) = o.get_mut("timed").and_then(Value::as_object_mut) {
        t.remove("gc_blocked");
    }
    v
}

#[test]
fn the_default_gives_the_reports_written_before_the_option_existed() {
    common::check_goldens(
        DIR,
        "OVERPROV_WRITE_PROGRAM_GOLDEN",
        golden_cases(),
        comparable,
    );
}

fn with_granularity(c: &SimConfig, g: ProgramGranularity) -> SimConfig {
    let mut c = c.clone();
    c.timing.nand.program_granularity = g;
    c
}

fn timed(r: &Report) -> &overprov_sim::timing::TimedReport {
    r.timed.as_ref().expect("a timed run")
}

#[test]
fn unit_granularity_stated_is_the_default_and_is_not_echoed() {
    let c = consumer_mix();
    let text = serde_json::to_string(&c).unwrap();
    assert!(
        !text.contains("program_granularity"),
        "the default is not echoed"
    );
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["timing"]["nand"]["program_granularity"] = "unit".into();
    let explicit = from_json(&v.to_string()).unwrap();
    assert_eq!(explicit, with_granularity(&c, ProgramGranularity::Unit));
    assert_eq!(comparable(&run(c)), comparable(&run(explicit)));
}

/// One die, 32 KiB pages of 4 KiB units (u = 8), a filled 64 MiB drive at ρ 0.5 (no GC in the
/// run), closed loop at `qd`, `read_percent` reads, 1 simulated second.
fn one_die(qd: u32, read_percent: f64) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 14);
    c.geometry.op_ratio = Some(0.5);
    c.geometry.pages_per_block = 256;
    c.workload.read_percent = read_percent;
    c.timing.enabled = true;
    c.timing.host.queue_depth = qd;
    c.timing.nand.channels = 1;
    c.timing.nand.dies_per_channel = 1;
    c.timing.nand.flash_page_bytes = 32_768;
    c.timing.duration_s = Some(1.0);
    c.run.warmup_drive_writes = 0.0;
    c
}

#[test]
fn a_read_waits_for_the_whole_page_program_only_without_suspend() {
    // 50:50 arriving every 100 µs (open loop): a unit's share of tPROG (87.5 µs) is over before
    // the next request, so by unit a read waits for at most one share; by page a read arriving
    // 100 µs after the eighth write of a page waits for the rest of the 700 µs program.
    let mut c = one_die(1, 50.0);
    c.timing.host.mode = HostMode::Open;
    c.timing.host.arrival_iops = 10_000.0;
    let (t_r, t_prog) = (c.timing.nand.read_us, c.timing.nand.program_us);
    let unit = run(with_granularity(&c, ProgramGranularity::Unit));
    let page = run(with_granularity(&c, ProgramGranularity::Page));
    let max = |r: &Report| timed(r).read_latency_us.as_ref().unwrap().max;
    let p99 = |r: &Report| timed(r).read_latency_us.as_ref().unwrap().p99;
    println!(
        "read latency max/p99: unit {:.0}/{:.0} µs, page {:.0}/{:.0} µs",
        max(&unit),
        p99(&unit),
        max(&page),
        p99(&page)
    );
    assert!(max(&unit) < t_r + t_prog / 8.0 + 50.0, "{}", max(&unit));
    assert!(max(&page) > t_r + 0.8 * t_prog, "{}", max(&page));
    // a page every 16 arrivals or so, 7 arrivals during its program: many reads wait
    assert!(p99(&page) > t_r + 0.5 * t_prog, "{}", p99(&page));
}

#[test]
fn whole_pages_keep_the_die_time_of_writes_and_slc_pages() {
    // write-only QD32 on 4 dies from fresh: program-bound (4 dies × 8 units per 700 µs plus
    // transfers), the same IOPS by unit and by page; with an SLC cache too (a third of the
    // free space of this small drive, then TLC with folds: SLC pages of 8/3 units, TLC pages)
    let mut c = one_die(32, 0.0);
    c.timing.nand.channels = 4;
    c.precondition.kind = Precondition::None;
    c.timing.buffer.bytes = 1 << 20; // a small buffer: the dies, not the buffer, set the pace
    let mut slc = c.clone();
    slc.timing.slc.enabled = true;
    slc.timing.slc.max_bytes = 1 << 30;
    let bound = 4.0 * 8.0 / 700e-6;
    for (name, c) in [("tlc", c), ("slc then tlc", slc)] {
        let iops = |g| {
            let r = run(with_granularity(&c, g));
            timed(&r).measured.as_ref().unwrap().iops.unwrap()
        };
        let (unit, page) = (
            iops(ProgramGranularity::Unit),
            iops(ProgramGranularity::Page),
        );
        println!("{name}: unit {unit:.0} page {page:.0} (TLC program bound {bound:.0})");
        assert!((page / unit - 1.0).abs() < 0.01, "{name}: {unit} vs {page}");
        if name == "tlc" {
            assert!(page < bound && page > bound * 0.75, "{page} vs {bound}");
        }
    }
}

#[test]
fn garbage_collection_writes_the_same_pages_and_reads_wait_longer() {
    // the consumer drive with GC running: the FTL's work is the same (closed loop), only when
    // the dies do it differs; reads wait for whole relocation and host pages
    let mut c = consumer_mix();
    c.timing.duration_s = None; // the same host writes in both runs
    c.run.drive_writes = 0.3;
    c.workload.read_percent = 50.0;
    c.timing.host.queue_depth = 32;
    let unit = run(with_granularity(&c, ProgramGranularity::Unit));
    let page = run(with_granularity(&c, ProgramGranularity::Page));
    let waf = |r: &Report| r.measured.as_ref().unwrap().waf.unwrap();
    let p90 = |r: &Report| timed(r).read_latency_us.as_ref().unwrap().p90;
    println!(
        "WAF unit {} page {}; read latency p90 unit {:.0} page {:.0} µs",
        waf(&unit),
        waf(&page),
        p90(&unit),
        p90(&page)
    );
    assert!(waf(&page) > 1.2, "GC ran: {}", waf(&page));
    assert_eq!(waf(&unit), waf(&page));
    assert!(p90(&page) > p90(&unit));
}

#[test]
fn whole_pages_are_refused_without_room_to_gather_them_or_with_planes() {
    let mut c = with_granularity(&one_die(8, 0.0), ProgramGranularity::Page);
    c.timing.buffer.bytes = 32_768; // two pages per die are needed
    let err = Simulator::new(c.clone()).unwrap_err().to_string();
    assert!(
        err.contains("timing.nand.program_granularity") && err.contains("buffer"),
        "{err}"
    );
    c.timing.buffer.bytes = 1 << 20;
    c.timing.nand.planes_per_die = 2;
    let err = Simulator::new(c).unwrap_err().to_string();
    assert!(
        err.contains("timing.nand.program_granularity") && err.contains("planes"),
        "{err}"
    );
    let bad = r#"{"timing": {"nand": {"program_granularity": "half"}}}"#;
    let err = from_json(bad).unwrap_err().to_string();
    assert!(err.contains("timing.nand.program_granularity"), "{err}");
    assert!(
        err.contains("unit") && err.contains("page"),
        "names the choices: {err}"
    );
}
