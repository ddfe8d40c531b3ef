//! A collection's relocations ready at its trigger (`timing.gc.relocations_at_trigger`,
//! timing/gc_jobs.rs): under MQSim's page-offset rule a collection's relocations may join
//! any program booked on the die and not yet started at their offset from the moment the FTL
//! triggered it, not from the end of the domain's previous collection. Off (the default), the
//! reports the core gave before the option existed (tests/data/relocations_queued holds
//! reports written by that core: MQSim's two-plane die with and without per-plane pools).

use overprov_sim::config::{from_json, PolicyKind, SimConfig};
use overprov_sim::sim::Report;
use serde_json::Value;

use crate::common::{self, run};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/relocations_queued");

/// MQSim's layout with its page-offset rule (one die of two planes, a GC domain a plane, 32
/// page offsets), small: 2^15 user pages of 32-page blocks, d-choices victims; `pools`
/// per-plane free pools (`ftl.plane_pools`, 0: one pool).
fn drive(op: f64, qd: u32, pools: u32) -> SimConfig {
    let mut c = common::mqsim_offset_drive(op, qd);
    c.geometry.user_pages = Some(1 << 15);
    c.geometry.pages_per_block = 32;
    (c.ftl.policy, c.ftl.d_choices, c.ftl.gc_free_blocks) = (PolicyKind::DChoices, 10, 8);
    c.ftl.plane_pools = pools;
    (c.run.interval_percent, c.timing.interval_s) = (10.0, 20.0);
    c
}

fn golden_cases() -> Vec<(&'static str, SimConfig)> {
    vec![
        ("plane_pools_qd32", drive(0.05, 32, 2)),
        ("one_pool_qd4", drive(0.1, 4, 0)),
    ]
}

pub(crate) fn comparable(r: &Report) -> Value {
    let mut v: Value = serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap();
    // wall-clock figures are the machine's, not the simulation's
    let o = v.as_object_mut().unwrap();
    o.remove("wall_seconds");
    o.remove("host_pages_per_wall_second");
    v
}

#[test]
fn off_gives_the_reports_written_before_the_option_existed() {
    common::check_goldens(
        DIR,
        "OVERPROV_WRITE_RELOCATIONS_GOLDEN",
        golden_cases(),
        comparable,
    );
}

#[test]
fn off_is_not_echoed_and_stated_off_is_the_default() {
    let c = drive(0.05, 32, 2);
    let text = serde_json::to_string(&c).unwrap();
    assert!(
        !text.contains("relocations_at_trigger"),
        "off is not echoed"
    );
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["timing"]["gc"]["relocations_at_trigger"] = false.into();
    assert!(from_json(&v.to_string()).unwrap() == c);
}

#[test]
fn queued_at_the_trigger_the_planes_pair_more_the_ftl_unchanged() {
    // the same FTL work (WAF), the relocations taking programs of the other plane that they
    // could not take when ready only after their plane's previous collection: less die time
    // a host page, so more IOPS at a deep queue with both planes collecting
    let mut on = drive(0.05, 32, 2);
    on.timing.gc.relocations_at_trigger = true;
    let (iops_off, waf_off) = common::steady(&run(drive(0.05, 32, 2)));
    let (iops_on, waf_on) = common::steady(&run(on));
    println!("spare 0.05 QD32, two pools: off {iops_off:.1} IOPS (WAF {waf_off:.3}), on {iops_on:.1} ({waf_on:.3})");
    assert_eq!(waf_off, waf_on, "the FTL does the same work");
    assert!(iops_on > iops_off, "on {iops_on} vs off {iops_off}");
}

#[test]
fn the_option_without_the_offset_rule_is_refused_naming_the_field() {
    let mut c = drive(0.1, 8, 0);
    c.timing.gc.relocations_at_trigger = true;
    c.timing.gc.multiplane_offsets = 0;
    let err = overprov_sim::Simulator::new(c).unwrap_err();
    assert!(
        err.to_string().contains("timing.gc.relocations_at_trigger"),
        "{err}"
    );
}
