//! Simulated time against physics: a die-bound steady state matches the program-time bound;
//! FOB is faster than steady state; OP raises steady IOPS; write-through waits for NAND.

use overprov_sim::config::{Precondition, SimConfig};
use overprov_sim::timing::TimedReport;
use overprov_sim::{Report, Simulator};

fn drive(op: f64) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 18);
    c.geometry.op_ratio = Some(op);
    c.geometry.pages_per_block = 256;
    c.timing.enabled = true;
    c.run.warmup_drive_writes = 2.0;
    c.run.drive_writes = 2.0;
    c
}

fn run(c: SimConfig) -> (Report, TimedReport) {
    let r = Simulator::new(c).unwrap().run().unwrap();
    let t = r.timed.clone().expect("timed report");
    (r, t)
}

#[test]
fn steady_random_write_iops_matches_the_program_bound() {
    // (d·p/t) / (4 KiB · w): d dies, p flash page bytes, t program time, w the measured WAF;
    // reads, erases and transfers made cheap and the host link fast so the bound is the limit.
    for (op, dies_per_channel) in [(0.28, 2u32), (0.15, 4), (1.0, 1)] {
        let mut c = drive(op);
        c.timing.nand.dies_per_channel = dies_per_channel;
        c.timing.nand.read_us = 1.0;
        c.timing.nand.erase_us = 1.0;
        c.timing.nand.channel_mb_s = 40_000.0;
        c.timing.host.link_mb_s = 1e6;
        c.timing.state_round_drive_writes = 0.1;
        let n = &c.timing.nand;
        let (d, p, t) = (
            c.timing.dies() as f64,
            n.flash_page_bytes as f64,
            n.program_us * 1e-6,
        );
        let (r, timed) = run(c);
        let w = r.measured.unwrap().ftl_waf.unwrap();
        let bound = d * p / t / (4096.0 * w);
        let steady = timed.steady_iops.expect("reaches steady state");
        println!("rho {op}, {d} dies: WAF {w:.3}, steady {steady:.0} IOPS, bound {bound:.0}");
        assert!(
            (steady - bound).abs() / bound < 0.10,
            "steady {steady} vs bound {bound}"
        );
    }
}

#[test]
fn fob_is_faster_and_op_raises_steady_iops() {
    let mut last = 0.0;
    for op in [0.07, 0.28, 0.6] {
        let mut c = drive(op);
        c.precondition.kind = Precondition::None;
        c.run.warmup_drive_writes = 0.0;
        c.run.drive_writes = 8.0;
        c.timing.state_round_drive_writes = 0.1;
        let (_, t) = run(c);
        let (fob, steady) = (t.fob_iops.unwrap(), t.steady_iops.unwrap());
        println!("rho {op}: FOB {fob:.0}, steady {steady:.0}");
        assert!(fob >= steady, "FOB {fob} < steady {steady}");
        assert!(
            steady > last * 1.1,
            "steady {steady} did not rise above {last}"
        );
        last = steady;
    }
}

#[test]
fn write_through_waits_for_nand() {
    let mut c = drive(0.28);
    c.timing.host.queue_depth = 1;
    c.timing.host.write_through = true;
    c.run.warmup_drive_writes = 0.1;
    c.run.drive_writes = 0.2;
    let prog_us = c.timing.nand.program_us;
    let (_, t) = run(c.clone());
    let p50 = t.latency_us.unwrap().p50;
    assert!(
        p50 >= prog_us,
        "QD1 write-through p50 {p50} µs < tPROG {prog_us} µs"
    );
    // with power-loss protection the same write completes from the buffer
    c.timing.buffer.power_loss_protected = true;
    let (_, t) = run(c);
    let p50 = t.latency_us.unwrap().p50;
    assert!(p50 < prog_us / 10.0, "PLP write-through p50 {p50} µs");
}

#[test]
fn series_have_latency_waf_and_states() {
    let (_, t) = run(drive(0.28));
    assert!(t.intervals.len() > 10);
    let i = &t.intervals[t.intervals.len() / 2];
    let lat = i.latency_us.unwrap();
    assert!(lat.p50 <= lat.p99 && lat.p99 <= lat.p99_99 && lat.p99_99 <= lat.max);
    assert!(i.waf.unwrap() > 1.5);
    let hist_total: u64 = t.latency_histogram.counts.iter().sum();
    assert_eq!(hist_total, t.ios);
}
