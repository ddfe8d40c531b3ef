//! Host idle time before a profiler round (`RoundRequest::idle_seconds`): the drive spends it on
//! background garbage collection, so a round after idle time runs faster than one without —
//! and only when background GC is on (`timing.background_gc_free_blocks`).

use overprov_sim::config::{Precondition, SimConfig};
use overprov_sim::round::RoundRequest;
use overprov_sim::timing::RoundFigures;
use overprov_sim::Simulator;

/// A small timed drive whose only idle-time work is GC: no SLC cache, a write buffer of one
/// flash page per die (nothing to drain worth measuring).
fn drive(background_gc_free_blocks: Option<u32>) -> Simulator {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 16);
    c.geometry.op_ratio = Some(0.07);
    c.geometry.pages_per_block = 256;
    c.precondition.kind = Precondition::None;
    c.timing.enabled = true;
    c.timing.buffer.bytes = 8 * c.timing.nand.flash_page_bytes as u64;
    c.timing.background_gc_free_blocks = background_gc_free_blocks;
    c.ftl.gc_free_blocks = 2;
    Simulator::new(c).unwrap()
}

fn round(sim: &mut Simulator, seconds: Option<f64>, idle_seconds: f64, seed: u64) -> RoundFigures {
    let r = RoundRequest {
        sequential: false,
        request_bytes: 4096,
        queue_depth: 8,
        offset_pages: 0,
        span_pages: 1 << 16,
        seconds,
        seed,
        idle_seconds,
        read_percent: 0.0,
    };
    sim.run_round(&r).unwrap()
}

/// Fill once, then random writes to a steady state (three more passes over the span, then
/// timed rounds).
fn steady(sim: &mut Simulator) {
    for seed in 1..5 {
        round(sim, None, 0.0, seed);
    }
    // and two timed rounds: the first after whole passes runs faster than the rest
    round(sim, Some(1.0), 0.0, 5);
    round(sim, Some(1.0), 0.0, 6);
}

/// Mean IOPS of one-second bursts of random writes (steady state) without idle time before
/// them and after 5 s of it, alternating, three of each.
fn bursts(sim: &mut Simulator) -> (f64, f64) {
    let (mut busy, mut rested) = (0.0, 0.0);
    for k in 0..3 {
        busy += round(sim, Some(1.0), 0.0, 100 + 2 * k).iops / 3.0;
        rested += round(sim, Some(1.0), 5.0, 101 + 2 * k).iops / 3.0;
    }
    (busy, rested)
}

#[test]
fn background_gc_in_idle_time_speeds_up_the_next_round() {
    let mut on = drive(None);
    steady(&mut on);
    let (busy, rested) = bursts(&mut on);
    println!("background GC on: {busy:.0} IOPS without idle time, {rested:.0} after 5 s");
    assert!(rested > busy * 1.15, "{rested} vs {busy}");
    // a larger background reserve recovers more
    let mut more = drive(Some(32));
    steady(&mut more);
    let (busy_more, rested_more) = bursts(&mut more);
    println!("reserve of 32 blocks: {busy_more:.0} → {rested_more:.0}");
    assert!(rested_more / busy_more > rested / busy + 0.1);
}

#[test]
fn without_background_gc_idle_time_changes_nothing() {
    let mut off = drive(Some(0));
    steady(&mut off);
    let gc_before = off.ftl().counters().gc_pages;
    // an idle period and then one request: whatever GC ran, ran while idle (one write
    // triggers at most one victim's relocations; none here, the pool is above the trigger)
    round(&mut off, Some(1e-9), 5.0, 99);
    assert_eq!(
        off.ftl().counters().gc_pages,
        gc_before,
        "GC ran while idle"
    );
    let (busy, rested) = bursts(&mut off);
    println!("background GC off: {busy:.0} IOPS without idle time, {rested:.0} after 5 s");
    assert!((rested / busy - 1.0).abs() < 0.03, "{rested} vs {busy}");
}

#[test]
fn idle_time_moves_the_round_start_and_collects_victims() {
    let mut on = drive(None);
    steady(&mut on);
    let victims = on.ftl().counters().victims;
    let before = on.timing().unwrap().now_ns();
    round(&mut on, Some(1e-9), 2.0, 7);
    let after = on.timing().unwrap().now_ns();
    assert!(after - before >= 2_000_000_000, "{before} → {after}");
    // background GC collected victims past the foreground trigger (up to four times it)
    assert!(on.ftl().counters().victims > victims);
}

#[test]
fn a_negative_idle_time_is_refused() {
    let mut sim = drive(None);
    let r = RoundRequest::from_json(
        r#"{"request_bytes": 4096, "queue_depth": 1, "span_pages": 16, "idle_seconds": -1}"#,
    )
    .unwrap();
    let e = sim.run_round(&r).unwrap_err();
    assert!(e.to_string().contains("idle_seconds"), "{e}");
}
