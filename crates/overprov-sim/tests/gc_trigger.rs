//! Which GC domain runs a collection (`timing.gc.trigger`): the victim block's (the default)
//! or the triggering host unit's (`"writer"`, as MQSim's `Check_gc_required` collects on the
//! plane whose frontier block a write filled). The FTL is the same either way: only the domain
//! that collects, the writes it holds and the die it runs on change.

use overprov_sim::config::{GcBlocking, GcTrigger, SimConfig};
use overprov_sim::Simulator;

use crate::common;

/// 4 dies, a GC domain per die, no write buffer.
fn drive(op: f64, qd: u32, trigger: GcTrigger) -> SimConfig {
    let mut c = common::blocking_drive(op, qd, GcBlocking::Domain, 4);
    c.timing.nand.channels = 4;
    c.timing.nand.dies_per_channel = 1;
    c.timing.gc.trigger = trigger;
    c
}

use common::{run, steady};

#[test]
fn victim_trigger_is_byte_identical_to_a_config_without_the_key() {
    let base = drive(0.1, 32, GcTrigger::Victim);
    let text = serde_json::to_string(&base).unwrap();
    assert!(!text.contains("trigger"), "the default is not echoed");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["timing"]["gc"]["trigger"] = "victim".into();
    let explicit: SimConfig = serde_json::from_value(v).unwrap();
    let a = serde_json::to_string(&run(base)).unwrap();
    assert_eq!(a, serde_json::to_string(&run(explicit)).unwrap());
}

#[test]
fn writer_trigger_without_blocking_gc_is_refused_naming_the_field() {
    let mut c = drive(0.1, 8, GcTrigger::Writer);
    c.timing.gc.blocking = GcBlocking::None;
    let err = Simulator::new(c).unwrap_err();
    assert!(err.to_string().contains("timing.gc.trigger"), "{err}");
}

#[test]
fn writer_trigger_keeps_a_burst_on_one_domain_until_enough_writes_are_queued() {
    // at a small spare one trigger starts about WAF (8) collections: spread over the four
    // domains they run side by side; on the triggering write's domain they run one after
    // another, and the other domains start their own only once a host frontier block (256
    // units) of writes has been issued meanwhile, about QD x domains before every slot waits
    // for the collecting domain: from a queue depth of about 64
    let fig = |op: f64, qd: u32, t: GcTrigger| steady(&run(drive(op, qd, t)));
    let (v4, waf_v) = fig(0.07, 4, GcTrigger::Victim);
    let (w4, waf_w) = fig(0.07, 4, GcTrigger::Writer);
    let (w32, _) = fig(0.07, 32, GcTrigger::Writer);
    let (w256, _) = fig(0.07, 256, GcTrigger::Writer);
    let (v40, _) = fig(0.4, 4, GcTrigger::Victim);
    let (w40, _) = fig(0.4, 4, GcTrigger::Writer);
    println!(
        "spare 0.07: victim QD4 {v4:.0}; writer QD4 / 32 / 256 {w4:.0} / {w32:.0} / {w256:.0}; \
         spare 0.4 QD4: victim {v40:.0}, writer {w40:.0}; WAF {waf_v:.3} / {waf_w:.3}"
    );
    assert_eq!(waf_v, waf_w, "the FTL is the same");
    assert!(w4 < 0.6 * v4, "QD4: writer {w4} vs victim {v4}");
    assert!((w32 / w4 - 1.0).abs() < 0.1, "QD32 {w32} vs QD4 {w4}");
    assert!(w256 > 1.4 * w4, "QD256 {w256} vs QD4 {w4}");
    // where a trigger starts 2 collections the burst matters less
    assert!(w40 / v40 > w4 / v4 + 0.15, "spare 0.4: {w40} / {v40}");
}

#[test]
fn writer_trigger_with_the_page_offset_rule_collects_on_the_writers_plane() {
    // MQSim's layout (one die of two planes, a domain per plane, units placed by address):
    // the unit that starts a collection is placed before it is booked, so the burst runs on
    // its plane; the FTL and so the WAF are unchanged
    let layout = |t: GcTrigger| {
        let mut c = common::blocking_drive(0.1, 4, GcBlocking::Domain, 2);
        c.timing.host.command_overhead_us = 0.0;
        c.timing.nand.channels = 1;
        c.timing.nand.dies_per_channel = 1;
        c.timing.nand.flash_page_bytes = 4096;
        c.timing.nand.planes_per_die = 2;
        c.timing.gc.multiplane = true;
        c.timing.gc.multiplane_offsets = 32;
        c.timing.gc.trigger = t;
        c.run.drive_writes = 1.0;
        steady(&run(c))
    };
    let (v, waf_v) = layout(GcTrigger::Victim);
    let (w, waf_w) = layout(GcTrigger::Writer);
    println!("MQSim's layout, spare 0.1, QD4: victim {v:.0}, writer {w:.0} IOPS");
    assert_eq!(waf_v, waf_w);
    assert!(w < 0.95 * v, "writer {w} vs victim {v}");
}
