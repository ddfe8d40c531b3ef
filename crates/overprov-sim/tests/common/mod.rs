#![allow(dead_code)]
use overprov_sim::config::{GcBlocking, PolicyKind, SimConfig};
use overprov_sim::{Report, Simulator};

/// (feature `audit`) `writes` host writes of uniform random pages below `pages` (seeded by
/// `seed`) into a drive built from `c`; then the invariants hold and every page maps to its
/// latest write. Returns the FTL for further checks.
#[cfg(feature = "audit")]
pub fn audited_random_writes(
    c: &SimConfig,
    pages: u32,
    writes: u64,
    seed: u64,
) -> overprov_sim::ftl::Ftl {
    let geom = c.validate().unwrap();
    let mut ftl = overprov_sim::ftl::Ftl::new(c, geom);
    let mut rng = overprov_sim::rng::Rng::new(seed);
    let mut latest = vec![0u64; pages as usize];
    for n in 1..=writes {
        let lpn = rng.below(pages as u64) as usize;
        ftl.write(lpn as u32, 0);
        latest[lpn] = n;
    }
    ftl.check_invariants().unwrap();
    for (lpn, &n) in latest.iter().enumerate() {
        assert_eq!(ftl.stamp_of(lpn as u32), (n > 0).then_some(n), "lpn {lpn}");
    }
    ftl
}

/// Uniform random 4 KiB writes after a sequential fill, measured after a warm-up.
pub fn uniform(user_pages: u64, op: f64, ppb: u32, policy: PolicyKind) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(user_pages);
    c.geometry.op_ratio = Some(op);
    c.geometry.pages_per_block = ppb;
    c.ftl.policy = policy;
    c.run.warmup_drive_writes = 3.0;
    c.run.drive_writes = 3.0;
    c.run.interval_percent = 10.0;
    c
}

pub fn run(c: SimConfig) -> Report {
    Simulator::new(c).expect("valid config").run().expect("run")
}

/// The measured part's IOPS (timed) and FTL WAF.
pub fn steady(r: &Report) -> (f64, f64) {
    let m = r.timed.as_ref().unwrap().measured.as_ref().unwrap();
    (
        m.iops.unwrap(),
        r.measured.as_ref().unwrap().ftl_waf.unwrap(),
    )
}

pub fn measured_waf(c: SimConfig) -> f64 {
    run(c)
        .measured
        .expect("measured part")
        .waf
        .expect("host wrote")
}

/// 512 MiB of 4 KiB pages in 256-page blocks, timed at `qd`, `domains` GC domains, no write
/// cache (MQSim's Device_Level_Data_Caching_Mode TURNED_OFF: host writes wait for their
/// program, so a blocked domain holds its writers' queue slots); 2 drive writes of warm-up,
/// 1.5 measured.
pub fn blocking_drive(op: f64, qd: u32, blocking: GcBlocking, domains: u32) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 17);
    c.geometry.op_ratio = Some(op);
    c.geometry.pages_per_block = 256;
    c.timing.enabled = true;
    c.timing.host.queue_depth = qd;
    c.timing.gc.blocking = blocking;
    c.timing.gc.domains = domains;
    c.timing.buffer.bytes = 0;
    c.timing.state_round_drive_writes = 0.1;
    c.run.warmup_drive_writes = 2.0;
    c.run.drive_writes = 1.5;
    c
}

/// MQSim's layout with its page-offset rule: one die of two planes, a GC domain a plane, no
/// write buffer, 32 page offsets, no command overhead, one measured drive write.
pub fn mqsim_offset_drive(op: f64, qd: u32) -> SimConfig {
    let mut c = blocking_drive(op, qd, GcBlocking::Domain, 2);
    c.timing.host.command_overhead_us = 0.0;
    let n = &mut c.timing.nand;
    (
        n.channels,
        n.dies_per_channel,
        n.flash_page_bytes,
        n.planes_per_die,
    ) = (1, 1, 4096, 2);
    (c.timing.gc.multiplane, c.timing.gc.multiplane_offsets) = (true, 32);
    c.run.drive_writes = 1.0;
    c
}

/// Each case's report, made comparable by `comparable` (wall-clock figures dropped, ...),
/// against the one stored beside its config in `DIR/NAME.json` by an earlier core; with the
/// environment variable `write_var` set, written there instead.
pub fn check_goldens(
    dir: &str,
    write_var: &str,
    cases: Vec<(&str, SimConfig)>,
    comparable: fn(&Report) -> serde_json::Value,
) {
    let write = std::env::var_os(write_var).is_some();
    for (name, c) in cases {
        let path = format!("{dir}/{name}.json");
        let report = comparable(&run(c.clone()));
        if write {
            let g = serde_json::json!({"config": c, "report": report});
            std::fs::write(&path, serde_json::to_string(&g).unwrap()).unwrap();
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let g: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(
            g["config"] == serde_json::to_value(&c).unwrap(),
            "{name}: config changed"
        );
        assert!(
            report == g["report"],
            "{name}: the report differs from the one written before the option"
        );
    }
}
