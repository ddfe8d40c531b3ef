//! MQSim's per-plane free pools (`ftl.plane_pools`, ftl/plane_pools.rs): a pool, a host and a
//! GC frontier a plane, victims collected within the pool that ran low.

use overprov_sim::config::{PolicyKind, SimConfig};
use overprov_sim::Simulator;

use crate::common::{self, run, steady};

/// MQSim's layout with its page-offset rule (one die of two planes, a GC domain a plane, 32
/// page offsets), small: 2^15 user pages of 32-page blocks.
fn drive(op: f64, pools: u32) -> SimConfig {
    let mut c = common::mqsim_offset_drive(op, 32);
    c.geometry.user_pages = Some(1 << 15);
    c.geometry.pages_per_block = 32;
    (c.ftl.policy, c.ftl.d_choices, c.ftl.gc_free_blocks) = (PolicyKind::DChoices, 10, 8);
    c.ftl.plane_pools = pools;
    c
}

/// `base`'s report (JSON), checked: `base` does not echo `ftl.key`, and a config with the key
/// set to its off `value` runs byte for byte as `base`.
fn off_is_byte_identical(base: &SimConfig, key: &str, value: serde_json::Value) -> String {
    let text = serde_json::to_string(base).unwrap();
    assert!(!text.contains(key), "off is not echoed");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["ftl"][key] = value;
    let explicit: SimConfig = serde_json::from_value(v).unwrap();
    let a = serde_json::to_string(&run(base.clone())).unwrap();
    assert_eq!(a, serde_json::to_string(&run(explicit)).unwrap());
    a
}

#[test]
fn off_reports_are_byte_identical_to_a_config_without_the_key() {
    off_is_byte_identical(&drive(0.1, 0), "plane_pools", 0.into());
}

#[test]
fn two_pools_move_the_timing_not_the_waf_scale() {
    // (the FTL's invariants and each page's pool: ftl/plane_pools.rs's unit test) the pools
    // change the victims and the planes collecting, so the figures move, the WAF barely
    let (off, waf_off) = steady(&run(drive(0.1, 0)));
    let (on, waf_on) = steady(&run(drive(0.1, 2)));
    println!(
        "spare 0.1 QD32: one pool {off:.1} IOPS (WAF {waf_off:.3}), two {on:.1} ({waf_on:.3})"
    );
    assert!(on > 0.0 && waf_on > 1.0);
    assert!(
        (waf_on / waf_off - 1.0).abs() < 0.25,
        "{waf_on} vs {waf_off}"
    );
    assert_ne!(on, off, "the pools changed nothing");
}

#[test]
fn pools_must_be_the_planes_under_the_offset_rule_naming_the_field() {
    let cases = [
        (4, PolicyKind::DChoices),
        (2, PolicyKind::Greedy),
        (1, PolicyKind::DChoices),
    ];
    for (pools, policy) in cases {
        let mut c = drive(0.1, pools);
        c.ftl.policy = policy;
        let err = Simulator::new(c).unwrap_err();
        assert!(err.to_string().contains("ftl.plane_pools"), "{err}");
    }
}

#[test]
fn skipping_full_victims_off_is_byte_identical_and_on_moves_the_run() {
    // ftl.gc_skip_full_victim (ftl/plane_pools.rs): off is not echoed and a config with it
    // false runs byte for byte as one without the key; on, at MQSim's native spare, the
    // checks whose victim holds no invalid page start no collection and the run moves
    let base = drive(0.07, 2);
    let a = off_is_byte_identical(&base, "gc_skip_full_victim", false.into());
    let mut on = base;
    on.ftl.gc_skip_full_victim = true;
    assert_ne!(
        a,
        serde_json::to_string(&run(on)).unwrap(),
        "skipping changed nothing"
    );
}
