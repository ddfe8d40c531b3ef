//! Multi-plane programs that take GC relocations (`timing.gc.multiplane`): a collection's
//! relocation programs leave the die's other planes free, and host units of other GC domains
//! and other collections' relocations take them (timing/gc_planes.rs), as MQSim's transaction
//! scheduler pairs GC writes with host writes and with each other.

use overprov_sim::config::{GcBlocking, SimConfig};
use overprov_sim::Simulator;

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

use common::{run, steady};

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

/// MQSim's layout (the two domains of `drive`) with its page-offset rule: `offsets` page offsets per block (0: any plane).
fn offset_drive(op: f64, qd: u32, offsets: u32) -> SimConfig {
    let mut c = drive(op, qd, 2, true);
    c.timing.gc.multiplane_offsets = offsets;
    c
}

#[test]
fn without_the_offset_rule_reports_are_byte_identical_to_a_config_without_the_key() {
    let base = drive(0.1, 32, 2, true);
    let text = serde_json::to_string(&base).unwrap();
    assert!(!text.contains("multiplane_offsets"), "0 is not echoed");
    let explicit = offset_drive(0.1, 32, 0);
    let a = serde_json::to_string(&run(base)).unwrap();
    assert_eq!(a, serde_json::to_string(&run(explicit)).unwrap());
    // with one plane nothing pairs: the rule changes nothing either, bar the echo
    let mut one = offset_drive(0.1, 32, 32);
    one.timing.nand.planes_per_die = 1;
    let mut on = serde_json::to_value(run(one)).unwrap();
    on["config"]["timing"]["gc"]
        .as_object_mut()
        .map(|gc| gc.remove("multiplane_offsets"));
    let mut one_any = drive(0.1, 32, 2, true);
    one_any.timing.nand.planes_per_die = 1;
    let off = serde_json::to_value(run(one_any)).unwrap();
    assert!(on == off, "one plane: the reports differ");
}

#[test]
fn with_one_page_offset_pairing_falls_at_low_queue_depth() {
    // the second plane's gain (two planes over one, the same die and domains) at a queue
    // depth: any free plane pairs from two waiting writes on, so it gains as much at QD4 as at
    // QD32; at one page offset among 32 a write finds its offset on the other plane about as
    // often as that plane holds writes per 32 offsets, so QD4 gains far less than QD32
    for op in [0.1, 0.6] {
        let one = |qd: u32| steady(&run(drive(op, qd, 1, true))).0;
        let (one4, one32) = (one(4), one(32));
        let gain = |offsets: u32, qd: u32, single: f64| {
            let (iops, _) = steady(&run(offset_drive(op, qd, offsets)));
            iops / single
        };
        let (any4, any32) = (gain(0, 4, one4), gain(0, 32, one32));
        let (at4, at32) = (gain(32, 4, one4), gain(32, 32, one32));
        println!(
            "spare {op}: one plane {one4:.0} / {one32:.0} IOPS at QD4 / QD32; two planes' gain, \
             any plane {any4:.3} / {any32:.3}, one offset of 32 {at4:.3} / {at32:.3}"
        );
        assert!(
            (any32 / any4 - 1.0).abs() < 0.02,
            "any plane: {any4} vs {any32}"
        );
        assert!(
            at4 - 1.0 < 0.8 * (any4 - 1.0),
            "QD4: {at4} vs any plane {any4}"
        );
        assert!(at32 - 1.0 > 1.3 * (at4 - 1.0), "QD32 {at32} vs QD4 {at4}");
    }
}

#[test]
fn the_offset_rule_without_gc_multiplane_or_with_a_buffer_is_refused_naming_the_field() {
    let mut c = offset_drive(0.1, 8, 32);
    c.timing.gc.multiplane = false;
    let err = Simulator::new(c).unwrap_err();
    assert!(
        err.to_string().contains("timing.gc.multiplane_offsets"),
        "{err}"
    );
    let mut c = offset_drive(0.1, 8, 32);
    c.timing.buffer.bytes = 1 << 20;
    let err = Simulator::new(c).unwrap_err();
    assert!(
        err.to_string().contains("timing.gc.multiplane_offsets"),
        "{err}"
    );
}
