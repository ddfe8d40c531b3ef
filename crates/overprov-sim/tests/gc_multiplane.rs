//! Multi-plane programs that take GC relocations (`timing.gc.multiplane`): a collection's
//! relocation programs leave the die's other planes free, and host units of other GC domains
//! and other collections' relocations take them (timing/gc_planes.rs), as MQSim's transaction
//! scheduler pairs GC writes with host writes and with each other.

use overprov_sim::config::{GcBlocking, SimConfig};
use overprov_sim::{Report, Simulator};

use crate::common;

/// MQSim's layout: one die of two planes, a GC domain per plane, no write buffer.
fn drive(op: f64, qd: u32, planes: u32, multiplane: bool) -> SimConfig {
    let mut c = common::blocking_drive(op, qd, GcBlocking::Domain, planes);
    c.timing.host.command_overhead_us = 0.0;
    c.timing.nand.channels = 1;
    c.timing.nand.dies_per_channel = 1;
    c.timing.nand.flash_page_bytes = 4096;
    c.timing.nand.planes_per_die = planes;
    c.timing.gc.multiplane = multiplane;
    c.run.drive_writes = 1.0;
    c
}

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

fn steady(r: &Report) -> (f64, f64) {
    let m = r.timed.as_ref().unwrap().measured.as_ref().unwrap();
    (
        m.iops.unwrap(),
        r.measured.as_ref().unwrap().ftl_waf.unwrap(),
    )
}

#[test]
fn off_reports_are_byte_identical_to_a_config_without_the_key() {
    let base = drive(0.1, 32, 2, false);
    let text = serde_json::to_string(&base).unwrap();
    assert!(!text.contains("multiplane"), "off is not echoed");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["timing"]["gc"]["multiplane"] = false.into();
    let explicit: SimConfig = serde_json::from_value(v).unwrap();
    let a = serde_json::to_string(&run(base)).unwrap();
    assert_eq!(a, serde_json::to_string(&run(explicit)).unwrap());
    // with one plane there is no free plane to take: on changes nothing either, bar the echo
    let one_off = serde_json::to_value(run(drive(0.1, 32, 1, false))).unwrap();
    let mut one_on = serde_json::to_value(run(drive(0.1, 32, 1, true))).unwrap();
    one_on["config"]["timing"]["gc"]
        .as_object_mut()
        .map(|gc| gc.remove("multiplane"));
    assert_eq!(one_off, one_on);
}

#[test]
fn gc_programs_taking_other_units_raise_iops_most_where_gc_is_heavy() {
    // at a small spare most programs are relocations: pairing them with host writes and with
    // the other plane's collection recovers much of the second plane; at a large spare host
    // programs already pair with each other and GC is rare
    let gain = |op: f64| {
        let (off, waf_off) = steady(&run(drive(op, 32, 2, false)));
        let (on, waf_on) = steady(&run(drive(op, 32, 2, true)));
        println!("spare {op}: off {off:.0} IOPS (WAF {waf_off:.2}), on {on:.0} ({waf_on:.2})");
        // the FTL is the same: only time changes
        assert!(
            (waf_off / waf_on - 1.0).abs() < 0.02,
            "WAF {waf_off} vs {waf_on}"
        );
        on / off
    };
    let (heavy, light) = (gain(0.07), gain(0.6));
    assert!(heavy > 1.15, "heavy GC: on / off = {heavy}");
    assert!(light < heavy, "light GC {light} vs heavy {heavy}");
    assert!(light > 0.98, "light GC: on / off = {light}");
}

#[test]
fn multiplane_gc_without_blocking_gc_is_refused_naming_the_field() {
    let mut c = drive(0.1, 8, 2, true);
    c.timing.gc.blocking = GcBlocking::None;
    let err = Simulator::new(c).unwrap_err();
    assert!(err.to_string().contains("timing.gc.multiplane"), "{err}");
}
