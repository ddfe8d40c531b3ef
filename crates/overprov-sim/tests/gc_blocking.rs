//! Non-preemptive GC per domain (`timing.gc.blocking = "domain"`): off, the timing is exactly
//! the default's; on, IOPS depend on queue depth and fall faster than 1/WAF.

use overprov_sim::config::{GcBlocking, SimConfig};
use overprov_sim::{Report, Simulator};

use crate::common;

fn drive(op: f64, qd: u32, blocking: GcBlocking) -> SimConfig {
    drive_with(op, qd, blocking, 2)
}

/// 8 dies; `domains` GC domains (fewer than the dies: collections run on fewer dies than host
/// writes, the way a plane's GC without multi-plane operations does).
fn drive_with(op: f64, qd: u32, blocking: GcBlocking, domains: u32) -> SimConfig {
    common::blocking_drive(op, qd, blocking, domains)
}

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

/// Mean IOPS over the measured part (after 2 drive writes of warm-up) and its WAF.
fn figures(r: &Report) -> (f64, f64) {
    let t = r.timed.as_ref().expect("timed");
    let iops = t
        .measured
        .as_ref()
        .and_then(|m| m.iops)
        .expect("measured IOPS");
    (iops, r.measured.as_ref().unwrap().ftl_waf.unwrap())
}

#[test]
fn blocking_off_is_bit_identical_to_the_default() {
    let base = run(drive_with(0.1, 32, GcBlocking::None, 0));
    let mut c = drive_with(0.1, 32, GcBlocking::None, 0);
    c.timing.gc.domains = 5; // inert while blocking is off
    let other = run(c);
    let json = |r: &Report| {
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("config");
        v
    };
    assert_eq!(json(&base), json(&other));
    assert_eq!(
        serde_json::to_value(&base.config.timing.gc).unwrap(),
        serde_json::json!({"blocking": "none", "domains": 0})
    );
}

#[test]
fn blocking_gc_makes_iops_rise_with_queue_depth_and_fall_faster_than_waf() {
    let (lo64, waf_lo) = figures(&run(drive(0.07, 64, GcBlocking::Domain)));
    let (hi4, _) = figures(&run(drive(0.4, 4, GcBlocking::Domain)));
    let (hi64, waf_hi) = figures(&run(drive(0.4, 64, GcBlocking::Domain)));
    let (off_lo, _) = figures(&run(drive(0.07, 64, GcBlocking::None)));
    let (off_hi, _) = figures(&run(drive(0.4, 64, GcBlocking::None)));
    println!(
        "blocking: QD64 {lo64:.0} at 7%; QD4 {hi4:.0}, QD64 {hi64:.0} at 40%; WAF {waf_lo:.2} / \
         {waf_hi:.2}; off: {off_lo:.0} / {off_hi:.0}"
    );
    assert!(hi64 > 1.3 * hi4, "QD64 {hi64} vs QD4 {hi4}");
    let waf_ratio = waf_lo / waf_hi;
    assert!(
        hi64 / lo64 > 1.2 * waf_ratio,
        "IOPS ratio {} vs WAF ratio {waf_ratio}",
        hi64 / lo64
    );
    // without blocking the same drive is die-bound: IOPS track 1/WAF
    let off_ratio = off_hi / off_lo;
    assert!(
        (off_ratio / waf_ratio - 1.0).abs() < 0.15,
        "off: IOPS ratio {off_ratio} vs WAF ratio {waf_ratio}"
    );
    // blocking never makes the drive faster than the same NAND work spread over the dies
    assert!(lo64 <= off_lo * 1.02 && hi64 <= off_hi * 1.02);
}
