//! The controller as a resource and flushes on drives without power-loss protection, against
//! arithmetic done by hand: a controller-bound drive runs at contexts / per-command time; a
//! write-through write on a drive without PLP costs its padded page program plus the metadata
//! programs, one flush at a time; with PLP it completes from the buffer.

use overprov_sim::config::SimConfig;
use overprov_sim::timing::TimedReport;
use overprov_sim::Simulator;

fn drive(op: f64) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 17);
    c.geometry.op_ratio = Some(op);
    c.geometry.pages_per_block = 256;
    c.timing.enabled = true;
    c.run.warmup_drive_writes = 1.0;
    c.run.drive_writes = 1.0;
    c.timing.state_round_drive_writes = 0.1;
    c
}

fn timed(c: SimConfig) -> TimedReport {
    let r = Simulator::new(c).unwrap().run().unwrap();
    r.timed.expect("timed report")
}

fn mean_iops(t: &TimedReport) -> f64 {
    t.ios as f64 / t.simulated_s
}

#[test]
fn controller_caps_iops_at_contexts_over_command_time() {
    // Plenty of OP and fast NAND: without a controller the drive runs far above 20k IOPS.
    let mut c = drive(1.0);
    c.timing.nand.dies_per_channel = 8;
    c.timing.host.link_mb_s = 1e6;
    let free = mean_iops(&timed(c.clone()));
    // 2 contexts × 1 / (80 + 20 µs) = 20,000 IOPS (map updates: see the next test)
    c.timing.controller.contexts = 2;
    c.timing.controller.command_us = 80.0;
    c.timing.controller.data_us_per_4kib = 20.0;
    let capped = timed(c);
    let iops = mean_iops(&capped);
    println!("no controller {free:.0} IOPS, controller-bound {iops:.0} IOPS");
    assert!(free > 40_000.0, "{free}");
    assert!((iops - 20_000.0).abs() / 20_000.0 < 0.03, "{iops}");
    // the queue waits in front of the controller: QD32 / 20k IOPS = 1.6 ms per request
    let p50 = capped.latency_us.unwrap().p50;
    assert!(
        (p50 - 1600.0).abs() / 1600.0 < 0.10,
        "median latency {p50} µs"
    );
}

#[test]
fn map_updates_charge_gc_relocations_too() {
    // At low OP foreground GC relocates pages for each host write; each relocation is a map
    // update, so a map-update-bound controller slows down as WAF rises.
    let run = |op: f64| {
        let mut c = drive(op);
        c.timing.nand.dies_per_channel = 16;
        c.timing.nand.program_us = 50.0;
        c.timing.controller.map_update_us = 100.0;
        let t = timed(c.clone());
        let r = Simulator::new(c).unwrap().run().unwrap();
        (t.steady_iops.unwrap(), r.measured.unwrap().ftl_waf.unwrap())
    };
    let (low, waf_low) = run(0.15);
    let (high, waf_high) = run(1.0);
    println!("rho 0.15: {low:.0} IOPS WAF {waf_low:.2}; rho 1.0: {high:.0} IOPS WAF {waf_high:.2}");
    // one context, 100 µs per map update, WAF map updates per host write
    for (iops, waf) in [(low, waf_low), (high, waf_high)] {
        let bound = 1e6 / (100.0 * waf);
        assert!((iops - bound).abs() / bound < 0.10, "{iops} vs {bound}");
    }
}

#[test]
fn write_through_without_plp_serialises_flushes() {
    let mut c = drive(0.28);
    c.timing.host.queue_depth = 8;
    c.timing.host.write_through = true;
    c.run.warmup_drive_writes = 0.02;
    c.run.drive_writes = 0.05;
    let prog_us = c.timing.nand.program_us;
    let meta = c.timing.flush.metadata_flash_pages as f64;
    let t = timed(c.clone());
    // each flush: one padded data page, then the metadata pages, one after another
    let bound = 1e6 / (prog_us * (1.0 + meta));
    let iops = mean_iops(&t);
    println!("write-through QD8 without PLP: {iops:.0} IOPS (bound {bound:.0})");
    assert!(
        iops <= bound * 1.01 && iops > bound * 0.85,
        "{iops} vs {bound}"
    );
    // the same drive with write-back caching runs orders of magnitude faster
    c.timing.host.write_through = false;
    let back = mean_iops(&timed(c.clone()));
    assert!(
        back > 10.0 * iops,
        "write-back {back} vs write-through {iops}"
    );
    // with power-loss protection a flush completes from the buffer: no collapse
    c.timing.host.write_through = true;
    c.timing.buffer.power_loss_protected = true;
    let plp = mean_iops(&timed(c));
    println!("write-back {back:.0} IOPS, PLP write-through {plp:.0} IOPS");
    assert!(plp > 10.0 * iops, "PLP {plp} vs {iops}");
}

#[test]
fn more_metadata_per_flush_costs_program_times() {
    let mut c = drive(0.28);
    c.timing.host.queue_depth = 4;
    c.timing.host.write_through = true;
    c.run.warmup_drive_writes = 0.02;
    c.run.drive_writes = 0.03;
    let prog_us = c.timing.nand.program_us;
    for meta in [0u32, 4] {
        c.timing.flush.metadata_flash_pages = meta;
        let t = timed(c.clone());
        let p50 = t.latency_us.unwrap().p50;
        // QD4 behind one flush at a time: about 4 flushes of (1 + meta) programs each
        let expect = 4.0 * prog_us * (1.0 + meta as f64);
        println!("{meta} metadata pages: p50 {p50:.0} µs (expect ≈ {expect:.0})");
        assert!((p50 - expect).abs() / expect < 0.15, "{p50} vs {expect}");
    }
}

#[test]
fn reads_wait_behind_programs_and_gc() {
    // A mixed workload: reads alone are reported; on a full drive at low OP they queue behind
    // host programs and GC relocations on their die, so their median exceeds a bare tR.
    let mut c = drive(0.07);
    c.workload.read_percent = 70.0;
    let read_us = c.timing.nand.read_us;
    let t = timed(c.clone());
    let reads = t.read_latency_us.expect("reads were timed");
    println!(
        "read p50 {:.0} µs, p99 {:.0} µs (tR {read_us} µs)",
        reads.p50, reads.p99
    );
    assert!(reads.p50 > 2.0 * read_us, "{}", reads.p50);
    // with no GC (plenty of OP) and no writes in their way, a read costs about tR. A run is
    // as long as its host writes: at 99% reads 0.05 drive writes are 1.3 million I/Os, whose
    // median is the one of 1.0 drive writes (26 million I/Os), to the nanosecond.
    c.workload.read_percent = 99.0;
    c.geometry.op_ratio = Some(1.0);
    c.timing.host.queue_depth = 1;
    c.run.warmup_drive_writes = 0.05;
    c.run.drive_writes = 0.05;
    let quiet = timed(c).read_latency_us.unwrap();
    assert!(quiet.p50 < 2.0 * read_us, "{}", quiet.p50);
    // a write-only run reports no read latency
    assert!(timed(drive(0.28)).read_latency_us.is_none());
}
