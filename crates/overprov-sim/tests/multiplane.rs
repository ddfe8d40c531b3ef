//! Multi-plane programs (`timing.nand.planes_per_die`): a die programs up to P waiting host
//! units in one program time, so write throughput grows with queue depth up to P per die;
//! with one plane the reports are the single-plane ones, byte for byte.

use overprov_sim::config::{GcBlocking, SimConfig};
use overprov_sim::{Report, Simulator};

use crate::common;

/// One die, no write buffer (host writes wait for their program), 512 MiB of 4 KiB pages.
fn drive(op: f64, qd: u32, planes: u32, blocking: GcBlocking) -> SimConfig {
    let mut c = common::blocking_drive(op, qd, blocking, planes);
    c.timing.host.command_overhead_us = 0.0;
    c.timing.nand.channels = 1;
    c.timing.nand.dies_per_channel = 1;
    c.timing.nand.flash_page_bytes = 4096;
    c.timing.nand.planes_per_die = planes;
    c.run.drive_writes = 1.0;
    c
}

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

fn steady_iops(r: &Report) -> f64 {
    r.timed
        .as_ref()
        .unwrap()
        .measured
        .as_ref()
        .unwrap()
        .iops
        .unwrap()
}

fn fob_iops(c: SimConfig) -> f64 {
    let mut c = c;
    c.run.warmup_drive_writes = 0.0;
    c.run.drive_writes = 0.5; // from empty: the part before the first GC
    let r = run(c);
    r.timed.as_ref().unwrap().fob_iops.expect("a FOB figure")
}

#[test]
fn one_plane_reports_are_byte_identical_to_the_default() {
    let base = run(drive(0.1, 8, 1, GcBlocking::Domain));
    let text = serde_json::to_string(&drive(0.1, 8, 1, GcBlocking::Domain)).unwrap();
    assert!(!text.contains("planes_per_die"), "one plane is not echoed");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["timing"]["nand"]["planes_per_die"] = 1.into();
    let explicit: SimConfig = serde_json::from_value(v).unwrap();
    let other = run(explicit);
    assert_eq!(
        serde_json::to_string(&base).unwrap(),
        serde_json::to_string(&other).unwrap()
    );
}

#[test]
fn fob_iops_grow_with_queue_depth_up_to_the_planes() {
    let program_s = SimConfig::default().timing.nand.program_us * 1e-6;
    // a free host link: writes issued together arrive together
    let free_link = |qd: u32| {
        let mut c = drive(0.1, qd, 2, GcBlocking::None);
        c.timing.host.link_mb_s = 1e6;
        c
    };
    let qd1 = fob_iops(free_link(1));
    let qd2 = fob_iops(free_link(2));
    // on a SATA-speed link the second of two writes arrives after the first program started:
    // it cannot join it, so two writes in flight do not make a multi-plane program
    let qd2_serial = fob_iops(drive(0.1, 2, 2, GcBlocking::None));
    let qd8 = fob_iops(drive(0.1, 8, 2, GcBlocking::None));
    let single8 = fob_iops(drive(0.1, 8, 1, GcBlocking::None));
    let four8 = fob_iops(drive(0.1, 8, 4, GcBlocking::None));
    println!(
        "FOB 2 planes QD1 {qd1:.0} QD2 {qd2:.0} (serial link {qd2_serial:.0}) QD8 {qd8:.0}; \
         1 plane {single8:.0}; 4 planes {four8:.0}"
    );
    // one program at a time at QD1, whatever the planes; a plane's rate is 1/tPROG (less the
    // transfers: a few percent)
    assert!((qd1 * program_s - 1.0).abs() < 0.02, "QD1 {qd1}");
    assert!(
        (single8 * program_s - 1.0).abs() < 0.02,
        "1 plane {single8}"
    );
    // two planes' rate once two writes wait
    assert!((qd2 * program_s - 2.0).abs() < 0.04, "QD2 {qd2}");
    assert!(
        (qd2_serial * program_s - 1.0).abs() < 0.03,
        "QD2, serial link {qd2_serial}"
    );
    assert!((qd8 * program_s - 2.0).abs() < 0.04, "QD8 {qd8}");
    assert!(
        (four8 * program_s / 4.0 - 1.0).abs() < 0.04,
        "4 planes QD8 {four8}"
    );
}

#[test]
fn gc_bound_drive_gains_less_from_planes_than_a_host_bound_one() {
    // per-plane GC (a domain per plane) keeps its die time: where collections dominate (little
    // spare) the second plane buys less than where host programs do (much spare)
    let gain = |op: f64| {
        let one = steady_iops(&run(drive(op, 32, 1, GcBlocking::Domain)));
        let two = steady_iops(&run(drive(op, 32, 2, GcBlocking::Domain)));
        println!("spare {op}: 1 plane {one:.0}, 2 planes {two:.0}");
        two / one
    };
    let (lo, hi) = (gain(0.07), gain(0.6));
    assert!(hi > 1.3, "much spare: 2 planes / 1 = {hi}");
    assert!(lo < hi - 0.1, "little spare {lo} vs much spare {hi}");
}

#[test]
fn planes_per_die_out_of_range_is_refused_naming_the_field() {
    for bad in [0, 17] {
        let err = Simulator::new(drive(0.1, 8, bad, GcBlocking::None)).unwrap_err();
        assert!(
            err.to_string().contains("timing.nand.planes_per_die"),
            "{err}"
        );
    }
}
