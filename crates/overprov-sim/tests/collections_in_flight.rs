//! MQSim's collections in flight (`timing.gc.collections_in_flight`, timing/gc_in_flight.rs),
//! reads shared by paired relocations (`timing.gc.paired_reads`, timing/gc_jobs.rs) and the
//! lockstep figures (`timing.gc.lockstep_figures`, timing/gc_blocked.rs): off (the default),
//! the core before them (the goldens of tests/data/relocations_queued are unchanged, and a
//! config that states them off gives the same report byte for byte); the figures change no
//! booking; on, the FTL does the same work and only when the die runs it changes
//! (bench/foreign/results/mqlockstep/).

use overprov_sim::config::{from_json, GcBlocking, SimConfig};
use overprov_sim::error::Error;
use overprov_sim::sim::Report;
use serde_json::Value;

use crate::common::{self, run};
use crate::relocations_at_trigger::comparable;

/// mqmid's MQSim twin, small (`collections_first`'s drive: one die of two planes, 32 page
/// offsets, a free pool a plane, relocations queued at the trigger and run ahead of the queued
/// writes, 2^15 user pages of 32-page blocks, d-choices victims, QD32).
fn drive(op: f64) -> SimConfig {
    crate::collections_first::drive(op, true)
}

fn with(mut c: SimConfig, in_flight: u32, paired_reads: bool, figures: bool) -> SimConfig {
    c.timing.gc.collections_in_flight = in_flight;
    c.timing.gc.paired_reads = paired_reads;
    c.timing.gc.lockstep_figures = figures;
    c
}

#[test]
fn off_is_not_echoed_and_stated_off_gives_the_same_report() {
    let c = drive(0.05);
    let s = serde_json::to_string(&c).unwrap();
    for key in ["collections_in_flight", "paired_reads", "lockstep_figures"] {
        assert!(!s.contains(key), "{key} off is not echoed");
    }
    let mut v: Value = serde_json::from_str(&s).unwrap();
    v["timing"]["gc"]["collections_in_flight"] = 0.into();
    v["timing"]["gc"]["paired_reads"] = false.into();
    v["timing"]["gc"]["lockstep_figures"] = false.into();
    let stated = from_json(&v.to_string()).unwrap();
    assert!(stated == c);
    assert_eq!(comparable(&run(c)), comparable(&run(stated)));
}

#[test]
fn the_figures_change_no_booking() {
    let off = comparable(&run(drive(0.05)));
    let mut on = comparable(&run(with(drive(0.05), 0, false, true)));
    let g = on["timed"]["gc_blocked"].as_object_mut().unwrap();
    for key in ["in_flight_s", "triggers", "program_mix"] {
        let v = g.remove(key).unwrap_or_else(|| panic!("{key} reported"));
        assert_eq!(
            v.as_array().unwrap().len(),
            if key == "program_mix" { 5 } else { 2 }
        );
    }
    assert!(
        !g.contains_key("held_at_end"),
        "nothing held without the cap"
    );
    on["config"]["timing"]["gc"]
        .as_object_mut()
        .unwrap()
        .remove("lockstep_figures");
    assert_eq!(off, on);
}

#[test]
fn they_need_their_domains_or_offsets() {
    let mut no_domains = with(drive(0.05), 2, false, false);
    no_domains.timing.gc.blocking = GcBlocking::None;
    (no_domains.ftl.plane_pools, no_domains.timing.gc.multiplane) = (0, false);
    (
        no_domains.timing.gc.multiplane_offsets,
        no_domains.timing.gc.relocations_at_trigger,
    ) = (0, false);
    no_domains.timing.gc.collections_first = false;
    let mut figures = no_domains.clone();
    (
        figures.timing.gc.collections_in_flight,
        figures.timing.gc.lockstep_figures,
    ) = (0, true);
    let mut reads = with(drive(0.05), 0, true, false);
    (reads.timing.gc.multiplane_offsets, reads.ftl.plane_pools) = (0, 0);
    (
        reads.timing.gc.relocations_at_trigger,
        reads.timing.gc.collections_first,
    ) = (false, false);
    let mut too_many = with(drive(0.05), 1025, false, false);
    too_many.timing.gc.lockstep_figures = false;
    for (c, want) in [
        (no_domains, "timing.gc.collections_in_flight"),
        (figures, "timing.gc.lockstep_figures"),
        (reads, "timing.gc.paired_reads"),
        (too_many, "timing.gc.collections_in_flight"),
    ] {
        match c.validate() {
            Err(Error::Config { field, .. }) => assert_eq!(field, want),
            other => panic!("expected a config error on {want}, got {other:?}"),
        }
    }
    assert!(with(drive(0.05), 2, true, true).validate().is_ok());
}

/// Programs paired (two units or more) over all programs, and the share of time both planes
/// were collecting.
fn lockstep(r: &Report) -> (f64, f64) {
    let g = r.timed.as_ref().unwrap().gc_blocked.as_ref().unwrap();
    let mix = &g.program_mix;
    let paired = mix[2..].iter().sum::<u64>() as f64 / mix.iter().sum::<u64>() as f64;
    (paired, g.seconds_with_k_blocked[2] / g.span_s)
}

#[test]
fn two_in_flight_a_plane_the_planes_collect_and_pair_together_the_ftl_unchanged() {
    // at 0.05 spare (a 0% level of the small drive) the collections of one trigger no longer
    // run back to back on one plane: both planes collect at once and their relocations pair
    // (measured: paired 0.41 -> 0.65, both collecting 0.32 -> 0.65, 179.6 -> 206.4 IOPS)
    let off = run(with(drive(0.05), 0, false, true));
    let on = run(with(drive(0.05), 2, false, true));
    let ((iops_off, waf_off), (iops_on, waf_on)) = (common::steady(&off), common::steady(&on));
    let ((p_off, b_off), (p_on, b_on)) = (lockstep(&off), lockstep(&on));
    println!("spare 0.05 QD32: off {iops_off:.1} IOPS paired {p_off:.2} both {b_off:.2}; two in flight {iops_on:.1} paired {p_on:.2} both {b_on:.2} (WAF {waf_on:.3})");
    assert_eq!(waf_off, waf_on, "the FTL does the same work");
    assert!(p_on > p_off + 0.1 && b_on > b_off + 0.1);
    assert!(iops_on > iops_off, "on {iops_on} vs off {iops_off}");
    // every collection the FTL made is booked but those held at the end, at most 32 a plane
    let g = on.timed.as_ref().unwrap().gc_blocked.as_ref().unwrap();
    assert!(
        g.held_at_end.iter().all(|&h| h <= 2 * 32),
        "{:?}",
        g.held_at_end
    );
    let g_off = off.timed.as_ref().unwrap().gc_blocked.as_ref().unwrap();
    let held: u64 = g.held_at_end.iter().sum();
    assert!(g.relocations + held * 32 >= g_off.relocations * 99 / 100);
}

#[test]
fn shared_reads_cost_the_die_less_for_the_same_ftl_work() {
    let (iops_off, waf_off) = common::steady(&run(with(drive(0.05), 2, false, false)));
    let (iops_on, waf_on) = common::steady(&run(with(drive(0.05), 2, true, false)));
    println!("spare 0.05 QD32, two in flight: {iops_off:.1} IOPS, reads shared {iops_on:.1}");
    assert_eq!(waf_off, waf_on);
    assert!(iops_on > iops_off, "on {iops_on} vs off {iops_off}");
}
