//! A trace as the simulator's workload (`config.trace`): host bytes equal the bytes the trace
//! writes (per format, × passes), a uniform random trace gives the synthetic uniform workload's
//! WAF, the open loop keeps the trace's arrival times, bad lines stop the run naming file and
//! line.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use overprov_sim::config::{HostMode, PolicyKind, Precondition, SimConfig, TraceFold};
use overprov_sim::rng::Rng;
use overprov_sim::workload::trace::{Op, TraceReader};
use overprov_sim::{Error, Report, Simulator};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/traces")
        .join(name)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("overprov-trace-replay-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Bytes and requests per operation, as the reader reads the file: (reads, writes, trims).
fn trace_totals(path: &Path) -> [(u64, u64); 3] {
    let mut t = [(0u64, 0u64); 3];
    for r in TraceReader::open(path, None, false).unwrap() {
        let r = r.unwrap();
        let i = match r.op {
            Op::Read => 0,
            Op::Write => 1,
            Op::Trim => 2,
        };
        t[i].0 += 1;
        t[i].1 += r.len_bytes;
    }
    t
}

fn small(path: &Path) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(8_192);
    c.geometry.pages_per_block = 64;
    c.trace.path = Some(path.display().to_string());
    c
}

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

#[test]
fn host_bytes_equal_the_bytes_the_trace_writes_per_format_and_pass() {
    for name in [
        "fio-randrw.iolog",
        "fio-trimwrite.iolog",
        "blkparse-loop.txt",
        "mqsim-tpcc-small.trace",
        "overprov-trimwrite.csv",
    ] {
        let path = data(name);
        let [reads, writes, trims] = trace_totals(&path);
        for (fold, repeat, warmup) in [(TraceFold::Modulo, 1, 0), (TraceFold::Scale, 3, 1)] {
            let mut c = small(&path);
            c.trace.fold = fold;
            c.trace.repeat = repeat;
            c.trace.warmup_passes = warmup;
            let rep = run(c);
            let m = rep.measured.expect("measured part");
            let t = rep.trace.expect("trace report");
            let passes = (repeat + warmup) as u64;
            assert!(rep.done && t.complete, "{name}");
            assert_eq!(m.host_bytes, writes.1 * repeat as u64, "{name} {fold:?}");
            assert_eq!(t.passes as u64, passes, "{name}");
            assert_eq!(
                (t.read.requests, t.write.requests, t.trim.requests),
                (reads.0 * passes, writes.0 * passes, trims.0 * passes),
                "{name}"
            );
            assert_eq!(t.write.bytes, writes.1 * passes, "{name}");
            // everything the FTL was handed beyond the fill is the trace's writes
            let fill = 8_192 * 4096;
            assert_eq!(rep.host_bytes, fill + writes.1 * passes, "{name}");
        }
    }
}

/// A trace of `n` uniform random 4 KiB writes over `pages` pages, in our CSV.
fn uniform_trace(path: &Path, pages: u64, n: u64, gap_ns: u64) {
    let mut rng = Rng::new(42);
    let mut f = std::io::BufWriter::new(fs::File::create(path).unwrap());
    writeln!(f, "time_ns,op,offset_bytes,len_bytes,device").unwrap();
    for i in 0..n {
        writeln!(f, "{},W,{},4096,0", i * gap_ns, rng.below(pages) * 4096).unwrap();
    }
}

#[test]
fn a_uniform_random_trace_has_the_synthetic_uniform_waf() {
    let pages = 16_384u64;
    let path = temp("uniform.csv");
    uniform_trace(&path, pages, 3 * pages, 1_000);
    for rho in [0.1, 0.28] {
        let mut synthetic = common::uniform(pages, rho, 64, PolicyKind::Greedy);
        synthetic.run.warmup_drive_writes = 6.0;
        let want = common::measured_waf(synthetic.clone());
        let mut c = synthetic;
        c.trace.path = Some(path.display().to_string());
        c.trace.warmup_passes = 2; // 6 drive writes, then 3 measured
        let got = run(c).measured.unwrap().waf.unwrap();
        assert!(
            (got / want - 1.0).abs() < 0.02,
            "ρ {rho}: trace {got}, synthetic {want}"
        );
    }
}

#[test]
fn the_open_loop_keeps_the_arrival_times() {
    // 2,000 IOPS of 4 KiB writes: far below what the default drive sustains
    let path = temp("paced.csv");
    uniform_trace(&path, 8_192, 6_000, 500_000);
    for time_scale in [1.0, 0.5] {
        let mut c = small(&path);
        c.timing.enabled = true;
        c.timing.host.mode = HostMode::Open;
        c.trace.time_scale = time_scale;
        let t = run(c).timed.unwrap();
        let iops = t.ios as f64 / t.simulated_s;
        let want = 2_000.0 / time_scale;
        assert!((iops / want - 1.0).abs() < 0.01, "{iops} vs {want}");
        assert!((t.simulated_s - 5_999.0 * 5e-4 * time_scale).abs() < 1e-6);
        assert!(t.latency_us.unwrap().p50 < 1_000.0);
    }
    // closed loop: as fast as the drive goes, whatever the arrival times
    let mut c = small(&path);
    c.timing.enabled = true;
    c.timing.host.queue_depth = 8;
    let t = run(c).timed.unwrap();
    assert!(t.ios == 6_000 && t.ios as f64 / t.simulated_s > 10_000.0);
}

#[test]
fn the_timed_figures_of_the_measured_passes_leave_the_warm_up_out() {
    // 2 warm-up passes then 1 measured pass of 8,192 writes, closed loop at QD 8
    let pages = 8_192u64;
    let path = temp("warm.csv");
    uniform_trace(&path, pages, pages, 1_000);
    let mut c = small(&path);
    c.timing.enabled = true;
    c.timing.host.queue_depth = 8;
    c.trace.warmup_passes = 2;
    let t = run(c).timed.unwrap();
    let m = t.measured.expect("a measured phase");
    assert_eq!(m.ios, pages, "the measured pass's requests alone");
    assert!(
        t.ios >= 3 * pages,
        "the run's total counts every pass: {}",
        t.ios
    );
    assert!(m.simulated_s > 0.0 && m.simulated_s < t.simulated_s);
    let iops = m.iops.unwrap();
    assert!((iops - m.ios as f64 / m.simulated_s).abs() < 1e-6 * iops);
    assert!(m.latency_us.is_some() && m.read_latency_us.is_none());
}

#[test]
fn reads_and_trims_are_replayed_as_such() {
    let path = temp("mixed.csv");
    fs::write(
        &path,
        "time_ns,op,offset_bytes,len_bytes,device\n0,W,0,16384,0\n1,R,0,8192,0\n2,T,0,16384,0\n3,R,4096,4096,0\n",
    )
    .unwrap();
    let mut c = small(&path);
    c.precondition.kind = Precondition::None;
    let rep = run(c);
    assert_eq!(rep.read_pages, 3);
    assert_eq!(rep.totals.host_pages, 4);
    assert_eq!(rep.totals.trimmed_pages, 4);
}

#[test]
fn a_bad_line_stops_the_run_naming_file_and_line_or_is_skipped() {
    let path = temp("bad.csv");
    fs::write(
        &path,
        "time_ns,op,offset_bytes,len_bytes,device\n0,W,0,4096,0\n1,X,0,4096,0\n2,W,4096,4096,0\n",
    )
    .unwrap();
    let err = Simulator::new(small(&path))
        .unwrap()
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&format!("{}:3: csv trace: op", path.display())),
        "{err}"
    );
    let mut c = small(&path);
    c.trace.skip_bad_lines = true;
    let t = run(c).trace.unwrap();
    assert_eq!((t.write.requests, t.bad_lines), (2, 1));
    assert!(t.first_bad_line.unwrap().contains(":3: "));
    // config errors name the field
    let mut c = small(&path);
    c.trace.format = Some("nope".into());
    let e = c.validate().unwrap_err().to_string();
    assert!(e.starts_with("trace.format"), "{e}");
    let mut c = small(&path);
    c.trace.path = Some("/nonexistent/trace".into());
    assert!(matches!(c.validate(), Err(Error::Config { field, .. }) if field == "trace.path"));
}

#[test]
fn a_cloned_simulator_replays_the_rest_of_the_trace_alike() {
    let path = data("mqsim-tpcc-small.trace");
    let mut c = small(&path);
    c.trace.repeat = 2;
    let mut sim = Simulator::new(c.clone()).unwrap();
    sim.step(9_000).unwrap(); // past the fill, inside the first pass
    let mut copy = sim.clone();
    let (a, b) = (sim.run().unwrap(), copy.run().unwrap());
    assert_eq!(a.totals, b.totals);
    assert_eq!(a.host_bytes, b.host_bytes);
    assert_eq!(a.trace.unwrap().records, b.trace.unwrap().records);
    // a trace runs on one drive with one job
    c.timing.enabled = true;
    c.timing.host.numjobs = 2;
    let e = c.validate().unwrap_err().to_string();
    assert!(
        e.starts_with("trace.path: a trace replays on one drive"),
        "{e}"
    );
}
