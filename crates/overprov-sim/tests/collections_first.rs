//! A collection ahead of the host programs queued on its die at its trigger
//! (`timing.gc.collections_first`, timing/gc_first.rs): MQSim serves a collection's reads and
//! writes before the host writes queued when it starts
//! (bench/foreign/results/mqmid/DIAGNOSIS.md). Off (the default) the core is the one before the option (the goldens of
//! tests/data/relocations_queued and the others are unchanged); on, the FTL does the same work
//! and only the die's order, and so who waits, changes.

use overprov_sim::config::{from_json, HostMode, PolicyKind, SimConfig};
use overprov_sim::error::Error;
use serde_json::Value;

use crate::common::{self, run};

/// MQSim's layout with its page-offset rule and a free pool a plane, small: 2^15 user pages of
/// 32-page blocks, d-choices victims, relocations queued at the trigger.
pub(crate) fn drive(op: f64, first: bool) -> SimConfig {
    let mut c = common::mqsim_offset_drive(op, 32);
    c.geometry.user_pages = Some(1 << 15);
    c.geometry.pages_per_block = 32;
    (c.ftl.policy, c.ftl.d_choices, c.ftl.gc_free_blocks) = (PolicyKind::DChoices, 10, 8);
    c.ftl.plane_pools = 2;
    c.timing.gc.relocations_at_trigger = true;
    c.timing.gc.collections_first = first;
    c
}

#[test]
fn off_is_not_echoed_and_stated_off_is_the_default() {
    let c = drive(0.1, false);
    let text = serde_json::to_string(&c).unwrap();
    assert!(!text.contains("collections_first"), "off is not echoed");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["timing"]["gc"]["collections_first"] = false.into();
    assert!(from_json(&v.to_string()).unwrap() == c);
}

#[test]
fn it_needs_relocations_at_trigger_one_die_and_a_closed_loop() {
    let mut no_trigger = drive(0.1, true);
    no_trigger.timing.gc.relocations_at_trigger = false;
    let mut two_dies = drive(0.1, true);
    (
        two_dies.timing.nand.dies_per_channel,
        two_dies.ftl.plane_pools,
    ) = (2, 0);
    let mut open = drive(0.1, true);
    open.timing.host.mode = HostMode::Open;
    for c in [no_trigger, two_dies, open] {
        match c.validate() {
            Err(Error::Config { field, .. }) => assert_eq!(field, "timing.gc.collections_first"),
            other => panic!("expected a config error, got {other:?}"),
        }
    }
    assert!(drive(0.1, true).validate().is_ok());
}

#[test]
fn ahead_of_the_queue_the_ftl_does_the_same_work_and_the_planes_pair_less() {
    // with the queued writes behind each collection the other plane's pool drains less during
    // it, so the planes collect, and pair, together less: fewer IOPS for the same WAF
    // (measured: 231.8 -> 179.6 IOPS at spare 0.05, 740.2 -> 617.8 at 0.2)
    for op in [0.05, 0.2] {
        let (iops_off, waf_off) = common::steady(&run(drive(op, false)));
        let (iops_on, waf_on) = common::steady(&run(drive(op, true)));
        println!("spare {op} QD32: at trigger {iops_off:.1} IOPS (WAF {waf_off:.3}), collections first {iops_on:.1} ({waf_on:.3})");
        assert_eq!(waf_off, waf_on, "the FTL does the same work");
        assert!(iops_on < iops_off, "on {iops_on} vs off {iops_off}");
    }
}
