//! MQSim's erase hold (`timing.gc.erase_hold`, timing/erase_hold.rs): from a collection's
//! booking until its erase starts, a host-only program on its die takes no more host units.

use overprov_sim::config::SimConfig;
use overprov_sim::Simulator;

use crate::common::{self, run, steady};

/// MQSim's layout with its page-offset rule: one die of two planes, a GC domain per plane, no
/// write buffer, 32 page offsets.
fn drive(op: f64, qd: u32, hold: bool) -> SimConfig {
    let mut c = common::mqsim_offset_drive(op, qd);
    c.timing.gc.erase_hold = hold;
    c
}

#[test]
fn off_reports_are_byte_identical_to_a_config_without_the_key() {
    let base = drive(0.1, 32, false);
    let text = serde_json::to_string(&base).unwrap();
    assert!(!text.contains("erase_hold"), "off is not echoed");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["timing"]["gc"]["erase_hold"] = false.into();
    let explicit: SimConfig = serde_json::from_value(v).unwrap();
    let a = serde_json::to_string(&run(base)).unwrap();
    assert_eq!(a, serde_json::to_string(&run(explicit)).unwrap());
}

#[test]
fn the_hold_moves_host_units_to_gc_programs_without_changing_the_ftl_or_the_die_time() {
    // booked in request order, a host unit issued after a collection already waits for its
    // erase unless it joins a program booked before; held, a host-only program starting after
    // the collection's booking takes none, and the unit joins a GC program at its offset
    // instead (the same die time) or books its own: the FTL's work is the same, completions
    // move, and the die time (so IOPS at a deep queue) barely does
    for (op, qd) in [(0.1, 32), (0.1, 4)] {
        let (r_off, r_on) = (run(drive(op, qd, false)), run(drive(op, qd, true)));
        let (off, waf_off) = steady(&r_off);
        let (on, waf_on) = steady(&r_on);
        println!(
            "spare {op} QD{qd}: off {off:.3} IOPS (WAF {waf_off:.3}), on {on:.3} ({waf_on:.3})"
        );
        assert_eq!(waf_off, waf_on, "the FTL does the same work");
        assert!(
            (on / off - 1.0).abs() < 0.01,
            "QD{qd}: on {on} vs off {off}"
        );
        let latency = |r: &overprov_sim::Report| {
            serde_json::to_value(&r.timed.as_ref().unwrap().measured).unwrap()["latency_us"].clone()
        };
        if qd == 32 {
            assert_ne!(latency(&r_off), latency(&r_on), "QD32: no unit was held");
        }
    }
}

#[test]
fn the_hold_without_the_offset_rule_is_refused_naming_the_field() {
    let mut c = drive(0.1, 8, true);
    c.timing.gc.multiplane_offsets = 0;
    let err = Simulator::new(c).unwrap_err();
    assert!(err.to_string().contains("timing.gc.erase_hold"), "{err}");
}
