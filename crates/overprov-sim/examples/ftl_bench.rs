//! `make bench`: simulated host writes per second and NAND page programs per second on one core,
//! for the cases of issue 2, each in its own process so its peak memory (VmHWM) is its own.
//!
//!   (a) 2,000,000 user pages, ρ = 0.28, 256 pages/block, greedy, uniform random, 8 drive writes
//!   (b) the same at ρ = 0.0737
//!   (c) 67,108,864 user pages (256 GiB of 4 KiB), ρ = 0.28, 3 drive writes
//!
//! The timed part is the random-write workload after a sequential fill (the fill is timed
//! separately). With `--c-ref BIN`, cases (a) and (b) are also run by a minimal C page-mapped FTL
//! (bench/c_ftl/ftl.c, the same algorithm without any of the simulator's features), one after the
//! other in the same run, and the ratio is printed.
//! Usage: ftl_bench [--case a|b|c] [--out FILE.json] [--c-ref BIN]

use std::time::Instant;

use overprov_sim::config::SimConfig;
use overprov_sim::Simulator;

fn config(case: &str) -> SimConfig {
    let (user_pages, op, dw) = match case {
        "a" => (2_000_000u64, 0.28, 8.0),
        "b" => (2_000_000, 0.0737, 8.0),
        "c" => (67_108_864, 0.28, 3.0),
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

fn run_case(case: &str) -> String {
    let mut sim = Simulator::new(config(case)).expect("valid config");
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
         \"peak_rss_bytes\":{}}}",
        sim.geometry().user_pages,
        sim.geometry().op_ratio(),
        host as f64 / secs,
        nand as f64 / secs,
        nand as f64 / host as f64,
        report.state_bytes_per_physical_page,
        peak_rss_bytes()
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    if let Some(case) = get("--case") {
        println!("{}", run_case(case));
        return;
    }
    let exe = std::env::current_exe().expect("own path");
    let mut rows = Vec::new();
    println!(
        "{:<5} {:>11} {:>7} {:>12} {:>9} {:>16} {:>16} {:>7} {:>10}",
        "case",
        "user pages",
        "rho",
        "host writes",
        "seconds",
        "host writes/s",
        "NAND programs/s",
        "WAF",
        "peak MiB"
    );
    for case in ["a", "b", "c"] {
        let out = std::process::Command::new(&exe)
            .args(["--case", case])
            .output()
            .expect("run case");
        assert!(
            out.status.success(),
            "case {case} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let v: serde_json::Value = serde_json::from_str(&line).expect("json");
        println!(
            "{:<5} {:>11} {:>7.4} {:>12} {:>9.2} {:>16.0} {:>16.0} {:>7.3} {:>10.0}",
            case,
            v["user_pages"],
            v["op_ratio"].as_f64().unwrap(),
            v["host_writes"],
            v["seconds"].as_f64().unwrap(),
            v["host_writes_per_s"].as_f64().unwrap(),
            v["nand_programs_per_s"].as_f64().unwrap(),
            v["waf"].as_f64().unwrap(),
            v["peak_rss_bytes"].as_f64().unwrap() / (1 << 20) as f64
        );
        rows.push(line);
    }
    if let Some(cref) = get("--c-ref") {
        println!("\nside by side with the minimal C FTL ({cref}), same machine, same run:");
        println!(
            "{:<5} {:>18} {:>18} {:>8}",
            "case", "overprov host w/s", "C ref host w/s", "ratio"
        );
        for (case, row) in ["a", "b"].iter().zip(rows.clone()) {
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
            let c: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("C reference prints JSON");
            let ours: serde_json::Value = serde_json::from_str(&row).expect("json");
            let (o, r) = (
                ours["host_writes_per_s"].as_f64().unwrap(),
                c["host_writes_per_s"].as_f64().unwrap(),
            );
            println!("{case:<5} {o:>18.0} {r:>18.0} {:>8.2}", o / r);
            rows.push(format!(
                "{{\"case\":\"{case}\",\"c_reference\":{},\"ratio_overprov_to_c\":{:.3}}}",
                c,
                o / r
            ));
        }
    }
    if let Some(path) = get("--out") {
        let json = format!("[\n{}\n]\n", rows.join(",\n"));
        std::fs::write(path, json).expect("write results");
        println!("written to {path}");
    }
}
