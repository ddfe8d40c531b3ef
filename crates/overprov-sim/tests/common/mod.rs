#![allow(dead_code)]
use overprov_sim::config::{PolicyKind, SimConfig};
use overprov_sim::{Report, Simulator};

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

pub fn measured_waf(c: SimConfig) -> f64 {
    run(c)
        .measured
        .expect("measured part")
        .waf
        .expect("host wrote")
}
