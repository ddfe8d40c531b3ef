//! The host layer against what its definition implies: a mirror writes at one member's pace with
//! one member's WAF and reads up to twice as fast; a stripe of two at twice the queue depth
//! writes twice as fast; N jobs of QD 1 run like one job of QD N and their IOPS add up; one
//! job on one drive through the host layer is exactly the single-drive engine.

use overprov_sim::config::{RaidLevel, SimConfig};
use overprov_sim::host::{HostRun, Run};
use overprov_sim::timing::TimedReport;
use overprov_sim::{Report, Simulator};

fn drive(qd: u32) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 17);
    c.geometry.op_ratio = Some(0.28);
    c.geometry.pages_per_block = 256;
    c.timing.enabled = true;
    c.timing.host.queue_depth = qd;
    c.timing.interval_s = 0.1;
    c.timing.state_round_drive_writes = 0.1;
    c.run.warmup_drive_writes = 1.5;
    c.run.drive_writes = 1.5;
    c
}

fn array(mut c: SimConfig, raid: RaidLevel, members: u32) -> SimConfig {
    c.timing.host.array.raid = raid;
    c.timing.host.array.members = members;
    c.timing.host.array.chunk_bytes = 64 << 10;
    c
}

fn run(c: SimConfig) -> Report {
    Run::new(c).unwrap().run().unwrap()
}

/// Mean of a per-interval figure over the second half of the intervals (past warm-up's FOB).
fn late(t: &TimedReport, f: impl Fn(&overprov_sim::timing::TimedInterval) -> f64) -> f64 {
    let rows = &t.intervals[t.intervals.len() / 2..];
    rows.iter().map(f).sum::<f64>() / rows.len() as f64
}

fn member_waf(r: &Report, m: usize) -> f64 {
    let h = r.host.as_ref().unwrap();
    h.member_figures[m].measured.unwrap().waf.unwrap()
}

#[test]
fn one_job_on_one_drive_through_the_host_layer_is_the_simulator() {
    let c = drive(8);
    let a = Simulator::new(c.clone()).unwrap().run().unwrap();
    let b = HostRun::new(c).unwrap().run().unwrap();
    let (ta, tb) = (a.timed.unwrap(), b.timed.unwrap());
    assert_eq!(
        a.measured.unwrap().nand_pages,
        b.measured.unwrap().nand_pages
    );
    assert_eq!(ta.ios, tb.ios);
    assert_eq!(ta.steady_iops, tb.steady_iops);
    assert_eq!(ta.latency_us.unwrap().p99, tb.latency_us.unwrap().p99);
}

#[test]
fn raid1_writes_at_one_members_pace_with_its_waf() {
    let single = run(drive(32));
    let mirror = run(array(drive(32), RaidLevel::Raid1, 2));
    let (ts, tm) = (single.timed.unwrap(), mirror.timed.as_ref().unwrap());
    let (is, im) = (late(&ts, |r| r.write_iops), late(tm, |r| r.write_iops));
    let ws = single.measured.unwrap().waf.unwrap();
    let h = mirror.host.as_ref().unwrap();
    println!(
        "one drive {is:.0} write IOPS, WAF {ws:.3}; RAID-1 {im:.0}, members {:.3} {:.3}, array {:.3}",
        member_waf(&mirror, 0),
        member_waf(&mirror, 1),
        h.array_waf.unwrap()
    );
    assert!((im - is).abs() / is < 0.03, "{im} vs {is}");
    for m in 0..2 {
        assert!((member_waf(&mirror, m) - ws).abs() / ws < 0.02);
    }
    let aw = h.array_waf.unwrap();
    assert!((aw - 2.0 * ws).abs() / (2.0 * ws) < 0.02, "array WAF {aw}");
}

#[test]
fn raid1_reads_up_to_twice_as_fast() {
    let reads = |c: SimConfig| {
        let mut c = c;
        c.workload.read_percent = 99.9; // as near read-only as the workload allows
        c.run.warmup_drive_writes = 0.0;
        c.timing.duration_s = Some(1.0);
        let r = run(c);
        let t = r.timed.clone().unwrap();
        (late(&t, |i| i.read_iops), r)
    };
    // deep enough that one drive's dies and link are saturated, and each member's too
    let (one, _) = reads(drive(256));
    let (two, r) = reads(array(drive(256), RaidLevel::Raid1, 2));
    let h = r.host.unwrap();
    let share = h.member_figures[0].reads as f64 / (h.member_figures[1].reads as f64);
    println!("read IOPS: one drive {one:.0}, RAID-1 of 2 {two:.0}; member 0/1 reads {share:.3}");
    assert!(two / one > 1.8 && two / one < 2.05, "{two} / {one}");
    assert!((share - 1.0).abs() < 0.05, "reads not balanced: {share}");
}

#[test]
fn raid0_of_two_at_twice_the_depth_writes_twice_as_fast() {
    let single = run(drive(16)).timed.unwrap();
    let stripe = run(array(drive(32), RaidLevel::Raid0, 2));
    let (is, i0) = (
        late(&single, |r| r.write_iops),
        late(stripe.timed.as_ref().unwrap(), |r| r.write_iops),
    );
    println!(
        "one drive QD16 {is:.0} IOPS; RAID-0 of 2 at QD32 {i0:.0} ({:.3}×)",
        i0 / is
    );
    assert!(i0 / is > 1.85 && i0 / is < 2.1, "{i0} / {is}");
    let h = stripe.host.unwrap();
    assert_eq!(h.array_user_bytes, 2 * stripe.geometry.user_bytes);
    let aw = h.array_waf.unwrap();
    assert!((aw - member_waf_of(&h, 0)).abs() / aw < 0.03, "{aw}");
}

fn member_waf_of(h: &overprov_sim::host::HostReport, m: usize) -> f64 {
    h.member_figures[m].measured.unwrap().waf.unwrap()
}

#[test]
fn numjobs_of_qd1_run_like_one_job_at_that_depth() {
    let one = run(drive(8)).timed.unwrap();
    let mut c = drive(1);
    c.timing.host.numjobs = 8;
    let r = run(c);
    let t = r.timed.as_ref().unwrap();
    let h = r.host.as_ref().unwrap();
    let (a, b) = (late(&one, |i| i.iops), late(t, |i| i.iops));
    println!("QD8 one job {a:.0} IOPS; 8 jobs × QD1 {b:.0}");
    assert!((a - b).abs() / a < 0.03, "{a} vs {b}");
    assert_eq!(h.jobs.len(), 8);
    let sum: f64 = h.jobs.iter().map(|j| j.iops).sum();
    let total = t.ios as f64 / t.simulated_s;
    assert!((sum - total).abs() / total < 1e-9, "{sum} vs {total}");
    let ios: u64 = h.jobs.iter().map(|j| j.ios).sum();
    assert_eq!(ios, t.ios);
    if let Some(steady) = t.steady_iops {
        let s: f64 = h.jobs.iter().map(|j| j.steady_iops.unwrap()).sum();
        assert!((s - steady).abs() / steady < 1e-9, "{s} vs {steady}");
    }
    // every job did its share (own random streams, one queue slot each)
    for j in &h.jobs {
        assert!((j.ios as f64 / (t.ios as f64 / 8.0) - 1.0).abs() < 0.05);
    }
    // reproducible: the same seed gives the same run
    let mut c = drive(1);
    c.timing.host.numjobs = 8;
    assert_eq!(run(c).timed.unwrap().ios, t.ios);
}

#[test]
fn raid10_mirrors_pairs_of_a_stripe() {
    let r = run(array(drive(32), RaidLevel::Raid10, 4));
    let h = r.host.unwrap();
    assert_eq!(h.array_user_bytes, 2 * r.geometry.user_bytes);
    let w: Vec<f64> = (0..4).map(|m| member_waf_of(&h, m)).collect();
    let host: Vec<u64> = (0..4)
        .map(|m| h.member_figures[m].measured.unwrap().host_pages)
        .collect();
    println!(
        "RAID-10 of 4: member WAF {w:?}, host pages {host:?}, array {:?}",
        h.array_waf
    );
    // the two members of a pair receive the same writes
    assert_eq!(host[0], host[1]);
    assert_eq!(host[2], host[3]);
    let aw = h.array_waf.unwrap();
    assert!((aw - 2.0 * w[0]).abs() / aw < 0.03, "{aw}");
}

#[test]
fn layered_configs_are_checked() {
    let err = |c: SimConfig| Run::new(c).unwrap_err().to_string();
    let mut c = drive(1);
    c.timing.host.numjobs = 0;
    assert!(err(c).starts_with("timing.host.numjobs"));
    let mut c = array(drive(1), RaidLevel::Raid10, 3);
    assert!(err(c.clone()).starts_with("timing.host.array.members"));
    c.timing.host.array.members = 4;
    c.timing.host.array.chunk_bytes = 1000;
    assert!(err(c).starts_with("timing.host.array.chunk_bytes"));
    let mut c = array(drive(1), RaidLevel::Raid1, 2);
    c.timing.enabled = false;
    assert!(err(c).contains("needs simulated time"));
    let c = array(drive(1), RaidLevel::Raid1, 2);
    assert!(Simulator::new(c).is_err());
}
