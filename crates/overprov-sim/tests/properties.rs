//! FTL invariants under arbitrary mixes of writes and trims, for every policy and frontier
//! layout: every mapped LBA points at the page holding its latest write; each block's valid
//! count equals the pages mapped into it; free + open + closed = all blocks. Under either GC
//! trigger (`ftl.gc_trigger`: batched, or one victim per host write).

use overprov_sim::config::{
    CollectionTrigger, GcFrontier, HostStreams, Pattern, PolicyKind, SimConfig,
};
use overprov_sim::ftl::Ftl;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Cmd {
    Write { lpn: u32, stream: usize },
    Trim { lpn: u32, len: u32 },
}

fn policy() -> impl Strategy<Value = PolicyKind> {
    prop_oneof![
        Just(PolicyKind::Greedy),
        Just(PolicyKind::Fifo),
        Just(PolicyKind::Random),
        Just(PolicyKind::DChoices),
        Just(PolicyKind::CostBenefit),
    ]
}

#[allow(clippy::too_many_arguments)]
fn config(
    ppb: u32,
    user: u64,
    spare_blocks: u64,
    policy: PolicyKind,
    shared: bool,
    two_streams: bool,
    dynamic: bool,
    static_wl: bool,
    per_write: bool,
) -> SimConfig {
    let mut c = SimConfig::default();
    c.geometry.pages_per_block = ppb;
    c.geometry.user_pages = Some(user);
    c.geometry.op_ratio = None;
    c.geometry.physical_blocks = Some(user.div_ceil(ppb as u64) + spare_blocks);
    c.ftl.policy = policy;
    c.ftl.d_choices = 3;
    c.ftl.gc_frontier = if shared {
        GcFrontier::Shared
    } else {
        GcFrontier::Separate
    };
    if two_streams {
        c.workload.pattern = Pattern::HotCold;
        c.ftl.host_streams = HostStreams::Workload;
    }
    if per_write {
        c.ftl.gc_trigger = CollectionTrigger::PerWrite;
    }
    c.wear.dynamic = dynamic;
    if static_wl {
        c.wear.static_threshold = 3;
        c.wear.static_check_erases = 5;
    }
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_after_any_writes_and_trims(
        ppb in prop_oneof![Just(1u32), Just(3), Just(4), Just(64), Just(100)],
        user in 50u64..600,
        extra_spare in 0u64..6,
        policy in policy(),
        shared in any::<bool>(),
        two_streams in any::<bool>(),
        dynamic in any::<bool>(),
        static_wl in any::<bool>(),
        per_write in any::<bool>(),
        raw in prop::collection::vec((0u32..10, any::<u32>(), any::<u32>(), 1u32..8), 1..3000),
    ) {
        let streams = if two_streams { 2 } else { 1 };
        let frontiers = if shared { streams } else { 2 * streams };
        let spare = 2 + frontiers as u64 + 1 + extra_spare; // gc_free_blocks = 2
        let c = config(
            ppb, user, spare, policy, shared, two_streams, dynamic, static_wl, per_write,
        );
        let geom = c.validate().expect("valid");
        let mut ftl = Ftl::new(&c, geom);
        let u = geom.user_pages;
        let cmds: Vec<Cmd> = raw.iter().map(|&(kind, a, b, len)| {
            if kind == 0 {
                Cmd::Trim { lpn: a % u, len }
            } else {
                Cmd::Write { lpn: a % u, stream: (b as usize) % streams }
            }
        }).collect();
        // Shadow model: the host-write number of each LBA's latest write (None = unmapped).
        let mut latest: Vec<Option<u64>> = vec![None; u as usize];
        let mut host_writes = 0u64;
        for cmd in &cmds {
            match *cmd {
                Cmd::Write { lpn, stream } => {
                    ftl.write(lpn, stream);
                    host_writes += 1;
                    latest[lpn as usize] = Some(host_writes);
                }
                Cmd::Trim { lpn, len } => {
                    for l in lpn..(lpn + len).min(u) {
                        ftl.trim(l);
                        latest[l as usize] = None;
                    }
                }
            }
        }
        ftl.check_invariants().map_err(TestCaseError::fail)?;
        for (lpn, want) in latest.iter().enumerate() {
            // the page an LBA maps to carries that LBA's latest write, wherever GC moved it
            prop_assert_eq!(ftl.stamp_of(lpn as u32), *want, "lpn {}", lpn);
        }
        let c = ftl.counters();
        prop_assert!(c.nand_pages() >= c.host_pages);
    }
}

#[test]
fn gc_keeps_data_across_many_drive_writes() {
    keeps_data_across_many_drive_writes(false);
}

#[test]
fn per_write_gc_keeps_data_across_many_drive_writes() {
    keeps_data_across_many_drive_writes(true);
}

fn keeps_data_across_many_drive_writes(per_write: bool) {
    // 100 drive writes through GC and wear-levelling storms: every LBA still maps to its latest
    // write.
    let c = config(
        8,
        400,
        6,
        PolicyKind::Greedy,
        false,
        false,
        true,
        true,
        per_write,
    );
    let ftl = crate::common::audited_random_writes(&c, 400, 40_000, 9);
    assert!(ftl.counters().gc_pages > 0 && ftl.counters().erases > 1000);
    assert!(
        ftl.counters().wl_pages > 0,
        "static wear levelling never migrated"
    );
}
