//! WiscSim's free pool per channel (`ftl.channel_pools`) and batch stop (`ftl.gc_batch_victims`):
//! every logical page maps to its latest write after tens of thousands of writes, with and
//! without static wear levelling; the batch stop costs WAF over the per-victim stop (a
//! collection ends up to a batch past the mark); and the options are refused where they do not
//! combine. Without the keys the collector is the default bit for bit (`per_write_gc.rs`'s
//! `the_default_trigger_is_the_batched_one_bit_for_bit`). An independent Python model of the
//! same allocator and collector reproduces the core's WAF (tests/simulate/test_wisc_channel_pools.py).

use crate::common;
use common::*;
use overprov_sim::config::{GcFrontier, PolicyKind, SimConfig};

/// 1600 user pages of 32-page blocks on 84 blocks, greedy, shared frontiers, a low mark.
fn small(channels: u32, batch: u32) -> SimConfig {
    let mut c = uniform(1600, 0.0, 32, PolicyKind::Greedy);
    c.geometry.op_ratio = None;
    c.geometry.physical_blocks = Some(84);
    c.ftl.gc_free_blocks = 8;
    c.ftl.gc_until_free_fraction = Some(0.2);
    c.ftl.gc_frontier = GcFrontier::Shared;
    c.ftl.channel_pools = channels;
    c.ftl.gc_batch_victims = batch;
    c.run.warmup_drive_writes = 8.0;
    c.run.drive_writes = 16.0;
    c
}

#[cfg(feature = "audit")]
#[test]
fn every_page_maps_to_its_latest_write_with_channel_pools() {
    for static_threshold in [0, 4] {
        let mut c = small(5, 10);
        c.wear.static_threshold = static_threshold;
        c.wear.static_check_erases = 16;
        let ftl = audited_random_writes(&c, 1600, 40_000, 7);
        assert!(ftl.counters().gc_pages > 0 && ftl.counters().erases > 500);
        if static_threshold > 0 {
            assert!(
                ftl.counters().wl_pages > 0,
                "static wear levelling never ran"
            );
        }
    }
}

#[test]
fn the_batch_stop_costs_waf_over_the_stop_per_victim() {
    let per_victim = measured_waf(small(5, 0));
    let batched = measured_waf(small(5, 10));
    println!("WAF stop per victim {per_victim:.4}, per batch of 10 {batched:.4}");
    assert!(batched > per_victim, "{batched} vs {per_victim}");
    // without pools too
    let plain = measured_waf(small(0, 0));
    let plain_batched = measured_waf(small(0, 10));
    assert!(plain_batched > plain, "{plain_batched} vs {plain}");
}

/// A change to a configuration and the field its refusal names.
type Refusal = (fn(&mut SimConfig), &'static str);

#[test]
fn the_options_are_refused_where_they_do_not_combine() {
    let cases: [Refusal; 4] = [
        (
            |c| c.ftl.gc_frontier = GcFrontier::Separate,
            "ftl.channel_pools",
        ),
        (|c| c.ftl.policy = PolicyKind::Fifo, "ftl.channel_pools"),
        (|c| c.ftl.channel_pools = 1, "ftl.channel_pools"),
        (
            |c| {
                c.ftl.channel_pools = 0;
                c.ftl.gc_until_free_fraction = None;
                c.ftl.gc_trigger = overprov_sim::config::CollectionTrigger::PerWrite;
            },
            "ftl.gc_batch_victims",
        ),
    ];
    for (change, field) in cases {
        let mut c = small(5, 10);
        change(&mut c);
        let err = c.validate().expect_err("refused").to_string();
        assert!(err.contains(field), "{err}");
    }
}
