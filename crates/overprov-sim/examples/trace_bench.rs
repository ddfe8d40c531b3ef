//! Trace reading and replay rate on one core, in constant memory.
//!
//! Generates a trace of at least `--records N` requests (default 10,000,000) in a temporary file
//! by repeating a real sample from tests/data/traces — `fio` (fio-randrw.iolog, fio iolog v3) or
//! `mqsim` (mqsim-tpcc-small.trace) — each pass shifted in time by the sample's span and in
//! address by a pass-dependent stride (modulo 16 GiB), then times, each over the whole file:
//!
//! 1. parse: `TraceReader` records/s (format given, as after detection);
//! 2. replay: `Replay` page requests/s (modulo fold onto 2²⁰ user pages of 4 KiB);
//! 3. ftl: replay applied to an `Ftl` of 2²⁰ user pages (ρ = 0.28, greedy): writes, trims,
//!    reads counted — the work of WAF mode per request;
//! 4. sim: the same drive as a `Simulator` whose workload is the trace (`config.trace`, no
//!    precondition, one measured pass): what `overprov simulate --trace` runs in WAF mode.
//!
//! Prints one JSON line with the rates (per wall second and per second of this thread's CPU time)
//! and the process's peak RSS (VmHWM); run it with two record counts to see the peak does not
//! grow with the trace.
//! Usage: trace_bench [--records N] [--sample fio|mqsim] [--keep FILE]
//! (`--keep FILE` keeps the generated trace, and reuses FILE if it exists already; `--sim-only`
//! times pass 4 alone.)

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use overprov_sim::config::{Precondition, SimConfig};
use overprov_sim::ftl::Ftl;
use overprov_sim::workload::trace::{Op, Replay, ReplayOptions, TraceFormat, TraceReader};
use overprov_sim::Simulator;

const ADDRESS_RANGE_BYTES: u64 = 16 << 30;
const STRIDE_BYTES: u64 = 4096 * 9_973;

fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// CPU time this thread has run, in seconds (/proc/thread-self/schedstat, first field in ns):
/// the rates use it as well as wall time, since other processes share the cores.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(f64::NAN, |ns| ns as f64 / 1e9)
}

/// Rewrites one data line of the sample for pass `k`; `None` for lines that are not requests.
fn perturb(sample: &str, line: &str, k: u64, span: u64) -> Option<String> {
    let f: Vec<&str> = line.split_ascii_whitespace().collect();
    match sample {
        "fio" if f.len() == 5 => {
            let t: u64 = f[0].parse().ok()?;
            let off: u64 = f[3].parse().ok()?;
            let off = (off + k * STRIDE_BYTES) % ADDRESS_RANGE_BYTES;
            Some(format!(
                "{} {} {} {} {}",
                t + k * span,
                f[1],
                f[2],
                off,
                f[4]
            ))
        }
        "mqsim" if f.len() == 5 => {
            let t: u64 = f[0].parse().ok()?;
            let lba: u64 = f[2].parse().ok()?;
            let lba = (lba + k * STRIDE_BYTES / 512) % (ADDRESS_RANGE_BYTES / 512);
            Some(format!(
                "{} {} {} {} {}",
                t + k * span,
                f[1],
                lba,
                f[3],
                f[4]
            ))
        }
        _ => None,
    }
}

/// Writes the generated trace; returns the number of requests in it.
fn generate(sample: &str, records: u64, out: &Path) -> u64 {
    let name = match sample {
        "fio" => "fio-randrw.iolog",
        "mqsim" => "mqsim-tpcc-small.trace",
        other => panic!("unknown sample {other}: fio or mqsim"),
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/traces")
        .join(name);
    let lines: Vec<String> = BufReader::new(File::open(&path).expect("sample"))
        .lines()
        .map(|l| l.unwrap())
        .collect();
    let last_time = lines
        .iter()
        .filter_map(|l| l.split_ascii_whitespace().next()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    let span = last_time + 1;
    let mut w = BufWriter::with_capacity(1 << 20, File::create(out).expect("temp file"));
    if sample == "fio" {
        writeln!(w, "fio version 3 iolog").unwrap();
        writeln!(w, "0 /data add").unwrap();
        writeln!(w, "0 /data open").unwrap();
    }
    let (mut written, mut k) = (0u64, 0u64);
    while written < records {
        for line in &lines {
            if let Some(l) = perturb(sample, line, k, span) {
                writeln!(w, "{l}").unwrap();
                written += 1;
            }
        }
        k += 1;
    }
    w.flush().unwrap();
    written
}

/// The simulator pass alone (`--sim-only`), in a process that has done nothing else: what a
/// profile of the product path's Rust part should look at.
fn sim_only(path: &Path, format: TraceFormat, sample: &str, keep: bool) {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 20);
    c.geometry.op_ratio = Some(0.28);
    c.precondition.kind = Precondition::None;
    c.trace.path = Some(path.display().to_string());
    c.trace.format = Some(format.name().into());
    let (t, c0) = (Instant::now(), cpu_seconds());
    let report = Simulator::new(c).unwrap().run().unwrap();
    let (sim_s, sim_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c0);
    if !keep {
        std::fs::remove_file(path).unwrap();
    }
    println!(
        "{{\"sample\":\"{sample}\",\"page_requests\":{},\"sim_s\":{sim_s:.3},\"sim_requests_per_s\":{:.0},\
         \"sim_cpu_requests_per_s\":{:.0},\"peak_rss_bytes\":{}}}",
        report.requests,
        report.requests as f64 / sim_s,
        report.requests as f64 / sim_cpu,
        peak_rss_bytes()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let records: u64 = get("--records").map_or(10_000_000, |s| s.parse().expect("--records N"));
    let sample = get("--sample").unwrap_or_else(|| "fio".into());
    let path = get("--keep").map(PathBuf::from).unwrap_or_else(|| {
        std::env::temp_dir().join(format!("overprov-trace-bench-{}.trace", std::process::id()))
    });
    let format = if sample == "fio" {
        TraceFormat::FioIolog
    } else {
        TraceFormat::Mqsim
    };

    // `--keep FILE` reuses FILE when it exists (the trace of an earlier run with these options)
    let t = Instant::now();
    let reuse = get("--keep").is_some() && path.exists();
    let mut requests = if reuse {
        0
    } else {
        generate(&sample, records, &path)
    };
    let gen_s = t.elapsed().as_secs_f64();
    let file_bytes = std::fs::metadata(&path).unwrap().len();

    if args.iter().any(|a| a == "--sim-only") {
        return sim_only(&path, format, &sample, reuse);
    }

    // 1. parse
    let (t, c0) = (Instant::now(), cpu_seconds());
    let mut reader = TraceReader::open(&path, Some(format), false).unwrap();
    let mut parsed = 0u64;
    let mut written_bytes = 0u64;
    while let Some(r) = reader.next_record().unwrap() {
        parsed += 1;
        if r.op == Op::Write {
            written_bytes += r.len_bytes;
        }
    }
    let (parse_s, parse_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c0);
    if reuse {
        requests = parsed;
    }
    assert_eq!(parsed, requests);

    // 2. replay to page requests, 3. replay into an FTL
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 20);
    c.geometry.op_ratio = Some(0.28);
    let g = c.validate().unwrap();
    let opts = ReplayOptions::new(g.page_size_bytes, g.user_pages);
    let (t, c0) = (Instant::now(), cpu_seconds());
    let mut replay = Replay::open(&path, Some(format), opts.clone()).unwrap();
    let mut page_requests = 0u64;
    while replay.next_request().unwrap().is_some() {
        page_requests += 1;
    }
    let (replay_s, replay_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c0);

    let mut ftl = Ftl::new(&c, g);
    let (t, c0) = (Instant::now(), cpu_seconds());
    let mut replay = Replay::open(&path, Some(format), opts).unwrap();
    let (mut host_bytes, mut read_pages) = (0u64, 0u64);
    while let Some(tr) = replay.next_request().unwrap() {
        let r = tr.request;
        match r.op {
            Op::Write => {
                for i in 0..r.pages {
                    ftl.write(r.lpn + i, 0);
                }
                host_bytes += r.bytes as u64;
            }
            Op::Trim => (0..r.pages).for_each(|i| ftl.trim(r.lpn + i)),
            Op::Read => read_pages += r.pages as u64,
        }
    }
    let (ftl_s, ftl_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c0);
    assert_eq!(
        host_bytes, written_bytes,
        "replayed host bytes equal the trace's"
    );
    let cnt = *ftl.counters();
    let ftl_state_bytes = ftl.state_bytes();
    drop(ftl);

    // 4. the simulator with the trace as its workload
    let mut sc = c.clone();
    sc.precondition.kind = Precondition::None;
    sc.trace.path = Some(path.display().to_string());
    sc.trace.format = Some(format.name().into());
    let (t, c0) = (Instant::now(), cpu_seconds());
    let report = Simulator::new(sc).unwrap().run().unwrap();
    let (sim_s, sim_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c0);
    assert_eq!(report.requests, page_requests);
    assert_eq!(report.host_bytes, written_bytes);
    if get("--keep").is_none() {
        std::fs::remove_file(&path).unwrap();
    }
    println!(
        "{{\"sample\":\"{sample}\",\"records\":{requests},\"file_bytes\":{file_bytes},\
         \"generate_s\":{gen_s:.2},\"parse_s\":{parse_s:.3},\"parse_records_per_s\":{:.0},\
         \"parse_mb_per_s\":{:.0},\"parse_cpu_records_per_s\":{:.0},\"replay_s\":{replay_s:.3},\"page_requests\":{page_requests},\
         \"replay_requests_per_s\":{:.0},\"replay_cpu_requests_per_s\":{:.0},\"ftl_s\":{ftl_s:.3},\"ftl_requests_per_s\":{:.0},\"ftl_cpu_requests_per_s\":{:.0},\
         \"sim_s\":{sim_s:.3},\"sim_requests_per_s\":{:.0},\"sim_cpu_requests_per_s\":{:.0},\
         \"host_pages\":{},\"read_pages\":{read_pages},\"waf\":{:.3},\"ftl_state_bytes\":{},\"peak_rss_bytes\":{}}}",
        requests as f64 / parse_s,
        file_bytes as f64 / parse_s / 1e6,
        requests as f64 / parse_cpu,
        page_requests as f64 / replay_s,
        page_requests as f64 / replay_cpu,
        page_requests as f64 / ftl_s,
        page_requests as f64 / ftl_cpu,
        page_requests as f64 / sim_s,
        page_requests as f64 / sim_cpu,
        cnt.host_pages,
        cnt.nand_pages() as f64 / cnt.host_pages.max(1) as f64,
        ftl_state_bytes,
        peak_rss_bytes()
    );
}
