//! The simulator against the published analytic models (docs/concepts.md), uniform random 4 KiB
//! writes after a sequential fill, measured after a warm-up. The expected figures are the
//! published models' values as tabulated in docs/concepts.md, not computed by this code.

use crate::common;
use common::*;
use overprov_sim::config::{GcFrontier, HostStreams, Pattern, PolicyKind};

const RHOS: [f64; 3] = [0.0737, 0.28, 1.0];
/// FIFO/LRU, b → ∞: α/(α + W₀(−α e^−α)) (Desnoyers 2012; Xiang & Kurkoski 2012).
const FIFO: [f64; 3] = [7.459, 2.481, 1.255];
/// Greedy, b = 64 and b = 256 (Desnoyers 2012 Eq. 12).
const GREEDY_64: [f64; 3] = [6.733, 2.403, 1.239];
const GREEDY_256: [f64; 3] = [7.258, 2.461, 1.251];

/// 4 GiB of 4 KiB pages: large enough that the few blocks held open by write frontiers and the
/// GC trigger (which real FTLs also hold back) shift WAF by under 1%: at most +0.72% here
/// (FIFO, b = 256, ρ = 0.0737; greedy +0.68%), +0.31% at 8 GiB, against the 2% (random: 3%)
/// each test allows; every figure of the three tests at both sizes is in docs/testing.md
/// ("Round 7"). 8 GiB took three times the CPU time.
const USER_PAGES: u64 = 1 << 20;
/// For the comparisons between policies, where only the order matters.
const SMALL: u64 = 1 << 19;
/// The hot/cold test's drive: 1 GiB, 4,096 blocks of 64 pages. Its four figures at this size
/// and at `SMALL` (docs/testing.md, "Round 7"): mixed 7.100 and 7.068 against the model's 7.07
/// (+0.4% and −0.03%, within the 2% checked), separated greedy +0.6% and +0.5% from uniform,
/// separated cost-benefit 4.835 and 4.820 (under 4.914, 4.55 + 8%): every assertion holds at
/// both. Cost-benefit scans every block for each victim, so its run takes a quarter of the CPU
/// time at half the blocks (5.9 against 24.9 s, the Python core's build).
const HOT_COLD: u64 = 1 << 18;

fn check(name: &str, got: f64, want: f64, tol: f64) {
    let rel = (got - want) / want;
    println!(
        "{name}: simulated {got:.4}, model {want:.4}, {:+.2}%",
        rel * 100.0
    );
    assert!(
        rel.abs() <= tol,
        "{name}: simulated WAF {got:.4} vs model {want:.4} ({:+.2}%)",
        rel * 100.0
    );
}

#[test]
fn greedy_matches_the_model_within_2_percent() {
    for (ppb, table) in [(64u32, GREEDY_64), (256, GREEDY_256)] {
        for (rho, want) in RHOS.iter().zip(table) {
            let got = measured_waf(uniform(USER_PAGES, *rho, ppb, PolicyKind::Greedy));
            check(&format!("greedy b={ppb} rho={rho}"), got, want, 0.02);
        }
    }
}

#[test]
fn fifo_matches_the_model_within_2_percent() {
    for ppb in [64u32, 256] {
        for (rho, want) in RHOS.iter().zip(FIFO) {
            let got = measured_waf(uniform(USER_PAGES, *rho, ppb, PolicyKind::Fifo));
            check(&format!("fifo b={ppb} rho={rho}"), got, want, 0.02);
        }
    }
}

#[test]
fn random_victim_matches_alpha_over_alpha_minus_one_within_3_percent() {
    for rho in RHOS {
        let want = (1.0 + rho) / rho;
        let got = measured_waf(uniform(USER_PAGES, rho, 64, PolicyKind::Random));
        check(&format!("random rho={rho}"), got, want, 0.03);
    }
}

#[test]
fn d_choices_lies_between_random_and_greedy() {
    let rho = 0.28;
    let random = measured_waf(uniform(SMALL, rho, 64, PolicyKind::Random));
    let greedy = measured_waf(uniform(SMALL, rho, 64, PolicyKind::Greedy));
    let mut last = random;
    for d in [2u32, 4, 16] {
        let mut c = uniform(SMALL, rho, 64, PolicyKind::DChoices);
        c.ftl.d_choices = d;
        let w = measured_waf(c);
        println!("d={d}: {w:.4} (random {random:.4}, greedy {greedy:.4})");
        assert!(
            w < last && w > greedy * 0.995,
            "d={d}: {w} not between {greedy} and {last}"
        );
        last = w;
    }
}

#[test]
fn sequential_only_workload_has_waf_one() {
    let mut c = uniform(USER_PAGES, 0.0737, 256, PolicyKind::Greedy);
    c.workload.pattern = Pattern::Sequential;
    let got = measured_waf(c);
    assert!((got - 1.0).abs() < 1e-9, "sequential WAF {got}");
}

#[test]
fn hot_cold_mixed_is_above_uniform_and_separated_below() {
    // 80% of writes to 20% of the space, ρ = 0.0737, b = 64. Desnoyers 2012:
    // uniform greedy 6.733; hot and cold mixed in one frontier ≈ 7.07; optimally separated ≈ 4.55.
    let rho = 0.0737;
    let uniform_waf = measured_waf(uniform(HOT_COLD, rho, 64, PolicyKind::Greedy));
    let mut mixed = uniform(HOT_COLD, rho, 64, PolicyKind::Greedy);
    mixed.workload.pattern = Pattern::HotCold;
    mixed.ftl.gc_frontier = GcFrontier::Shared;
    mixed.ftl.host_streams = HostStreams::Single;
    mixed.run.warmup_drive_writes = 6.0;
    let mixed_waf = measured_waf(mixed.clone());
    // Separated: hot and cold each get their own host and GC frontiers. Greedy then equalises
    // the victims' valid fraction across the two pools and lands on the uniform figure; the
    // gain needs a victim choice that lets the cold pool run fuller, which cost-benefit's age
    // term does (it approaches the optimally separated 4.55 as it converges).
    let mut separated = mixed.clone();
    separated.ftl.gc_frontier = GcFrontier::Separate;
    separated.ftl.host_streams = HostStreams::Workload;
    let separated_greedy = measured_waf(separated.clone());
    separated.ftl.policy = PolicyKind::CostBenefit;
    separated.run.warmup_drive_writes = 12.0;
    let separated_cb = measured_waf(separated);
    println!(
        "uniform {uniform_waf:.3}, hot/cold mixed {mixed_waf:.3} (model 7.07), separated greedy \
         {separated_greedy:.3}, separated cost-benefit {separated_cb:.3} (optimal 4.55)"
    );
    check("hot/cold mixed greedy", mixed_waf, 7.07, 0.02);
    assert!(
        mixed_waf > uniform_waf,
        "mixed {mixed_waf} <= uniform {uniform_waf}"
    );
    assert!((separated_greedy - uniform_waf).abs() / uniform_waf < 0.02);
    assert!(
        separated_cb < uniform_waf,
        "separated {separated_cb} >= uniform {uniform_waf}"
    );
    assert!(
        separated_cb < 4.55 * 1.08,
        "separated cost-benefit {separated_cb} far from 4.55"
    );
}
