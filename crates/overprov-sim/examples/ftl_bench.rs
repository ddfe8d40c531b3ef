//! `make bench`: simulated host writes per second and NAND page programs per second on one core,
//! for the benchmark cases of bench/README.md, each in its own process so its peak memory (VmHWM) is its own.
//!
//!   (a) 2,000,000 user pages, ρ = 0.28, 256 pages/block, greedy, uniform random, 8 drive writes
//!   (b) the same at ρ = 0.0737
//!   (c) 67,108,864 user pages (256 GiB of 4 KiB), ρ = 0.28, 3 drive writes
//!   (d) 16,777,216 user pages (64 GiB of 4 KiB), ρ = 0.28, 2 drive writes
//!
//! The timed part is the random-write workload after a sequential fill (the fill is timed
//! separately). With `--c-ref BIN`, cases (a), (b) and (d) are also run by a minimal C page-mapped
//! FTL (bench/c_ftl/ftl.c, the same algorithm without any of the simulator's features), right
//! after the simulator's run of the same case, and the ratio is printed; `--repeat N` (default
//! 3; case (c) runs once) does that N times, interleaved, and prints the median of the same-run
//! ratios: on a shared machine single figures swing by 2× from run to run. `--depth N` sets how many requests the simulator generates ahead to
//! prefetch their mapping state (0: the unbatched loop).
//! Usage: ftl_bench [--cases a,b,c,d] [--repeat N] [--depth N] [--out FILE.json] [--c-ref BIN]
//!        ftl_bench --case X [--depth N]     (one case in this process; prints one JSON line)

use std::time::Instant;

use overprov_sim::config::SimConfig;
use overprov_sim::workload::lookahead::DEFAULT_DEPTH;
use overprov_sim::Simulator;

fn config(case: &str) -> SimConfig {
    let (user_pages, op, dw) = match case {
        "a" => (2_000_000u64, 0.28, 8.0),
        "b" => (2_000_000, 0.0737, 8.0),
        "c" => (67_108_864, 0.28, 3.0),
        "d" => (16_777_216, 0.28, 2.0),
        other => panic!("unknown case {other}"),
    };
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(user_pages);
    c.geometry.op_ratio = Some(op);
    c.geometry.pages_per_block = 256;
    c.run.drive_writes = dw;
    c.run.warmup_drive_writes = 0.0;
    c.run.interval_percent = 10.0;
    c
}

fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn run_case(case: &str, depth: usize) -> String {
    let mut sim = Simulator::with_lookahead(config(case), depth).expect("valid config");
    let t0 = Instant::now();
    // precondition: exactly the user pages
    let user = sim.geometry().user_pages as u64;
    sim.step(user).unwrap();
    let fill_s = t0.elapsed().as_secs_f64();
    let before = *sim.ftl().counters();
    let t1 = Instant::now();
    while !sim.step(u64::MAX).unwrap() {}
    let secs = t1.elapsed().as_secs_f64();
    let after = *sim.ftl().counters();
    let host = after.host_pages - before.host_pages;
    let nand = after.nand_pages() - before.nand_pages();
    let report = sim.report();
    format!(
        "{{\"case\":\"{case}\",\"user_pages\":{},\"op_ratio\":{:.4},\"pages_per_block\":256,\
         \"host_writes\":{host},\"nand_programs\":{nand},\"seconds\":{secs:.4},\
         \"host_writes_per_s\":{:.0},\"nand_programs_per_s\":{:.0},\"waf\":{:.4},\
         \"fill_seconds\":{fill_s:.3},\"state_bytes_per_physical_page\":{:.3},\
         \"peak_rss_bytes\":{},\"lookahead_depth\":{depth}}}",
        sim.geometry().user_pages,
        sim.geometry().op_ratio(),
        host as f64 / secs,
        nand as f64 / secs,
        nand as f64 / host as f64,
        report.state_bytes_per_physical_page,
        peak_rss_bytes()
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The C reference on the geometry of `case`: its JSON line.
fn run_c_reference(cref: &str, case: &str) -> serde_json::Value {
    let cfg = config(case);
    let out = std::process::Command::new(cref)
        .args([
            cfg.geometry.user_pages.unwrap().to_string(),
            cfg.geometry.op_ratio.unwrap().to_string(),
            "256".into(),
            cfg.run.drive_writes.to_string(),
        ])
        .output()
        .expect("run the C reference");
    serde_json::from_slice(&out.stdout).expect("C reference prints JSON")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let depth: usize = get("--depth").map_or(DEFAULT_DEPTH, |d| d.parse().expect("--depth N"));
    if let Some(case) = get("--case") {
        println!("{}", run_case(case, depth));
        return;
    }
    let cases: Vec<String> = get("--cases").map_or_else(
        || ["a", "b", "c", "d"].map(String::from).to_vec(),
        |c| c.split(',').map(String::from).collect(),
    );
    let repeat: usize = get("--repeat").map_or(3, |r| r.parse().expect("--repeat N"));
    let cref = get("--c-ref");
    let exe = std::env::current_exe().expect("own path");
    let mut rows = Vec::new();
    let mut ratios: Vec<(String, Vec<f64>)> = Vec::new();
    println!(
        "{:<5} {:>3} {:>11} {:>7} {:>12} {:>9} {:>16} {:>16} {:>7} {:>10} {:>14} {:>7}",
        "case",
        "run",
        "user pages",
        "rho",
        "host writes",
        "seconds",
        "host writes/s",
        "NAND programs/s",
        "WAF",
        "peak MiB",
        "C host w/s",
        "ratio"
    );
    for run in 1..=repeat {
        for case in &cases {
            if case == "c" && run > 1 {
                continue; // no C comparison: its figures are taken once
            }
            let out = std::process::Command::new(&exe)
                .args(["--case", case, "--depth", &depth.to_string()])
                .output()
                .expect("run case");
            assert!(
                out.status.success(),
                "case {case} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let v: serde_json::Value = serde_json::from_str(&line).expect("json");
            let ours = v["host_writes_per_s"].as_f64().unwrap();
            let (mut c_col, mut ratio_col) = (String::from("-"), String::from("-"));
            rows.push(line);
            if let (Some(cref), true) = (cref, case != "c") {
                let c = run_c_reference(cref, case);
                let theirs = c["host_writes_per_s"].as_f64().unwrap();
                let ratio = ours / theirs;
                c_col = format!("{theirs:.0}");
                ratio_col = format!("{ratio:.2}");
                match ratios.iter_mut().find(|(k, _)| k == case) {
                    Some((_, r)) => r.push(ratio),
                    None => ratios.push((case.clone(), vec![ratio])),
                }
                rows.push(format!(
                    "{{\"case\":\"{case}\",\"run\":{run},\"c_reference\":{c},\
                     \"ratio_overprov_to_c\":{ratio:.3}}}"
                ));
            }
            println!(
                "{:<5} {:>3} {:>11} {:>7.4} {:>12} {:>9.2} {:>16.0} {:>16.0} {:>7.3} {:>10.0} {:>14} {:>7}",
                case,
                run,
                v["user_pages"],
                v["op_ratio"].as_f64().unwrap(),
                v["host_writes"],
                v["seconds"].as_f64().unwrap(),
                ours,
                v["nand_programs_per_s"].as_f64().unwrap(),
                v["waf"].as_f64().unwrap(),
                v["peak_rss_bytes"].as_f64().unwrap() / (1 << 20) as f64,
                c_col,
                ratio_col
            );
        }
    }
    if !ratios.is_empty() {
        println!("\nsimulator / minimal C FTL host writes per second, same-run ratios:");
        for (case, r) in &ratios {
            let list: Vec<String> = r.iter().map(|x| format!("{x:.2}")).collect();
            let m = median(r.clone());
            println!("{case:<5} median {m:.2}  (runs: {})", list.join(", "));
            rows.push(format!(
                "{{\"case\":\"{case}\",\"runs\":{},\"median_ratio_overprov_to_c\":{m:.3}}}",
                r.len()
            ));
        }
    }
    if let Some(path) = get("--out") {
        let json = format!("[\n{}\n]\n", rows.join(",\n"));
        std::fs::write(path, json).expect("write results");
        println!("written to {path}");
    }
}
