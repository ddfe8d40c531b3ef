//! Collecting to a low mark (`ftl.gc_until_free_fraction`): once the free pool at a host
//! block's opening holds `gc_free_blocks` or fewer, victims are collected until it holds more
//! than the mark's share of the blocks, as WiscSim's collector runs from its high threshold to
//! its low one (junhe/wiscsee wiscsim/dftldes.py, `Cleaner.is_cleaning_needed` and
//! `is_stopping_needed`; bench/foreign/results/wiscgc/GC.md). Without the key the collector is
//! the default one bit for bit (`per_write_gc.rs`'s `the_default_trigger_is_the_batched_one_bit_
//! for_bit` runs the default config against figures recorded before either option existed).
//! An independent Python model of the same policy reproduces its WAF
//! (tests/simulate/test_gc_low_mark.py).

use crate::common;
use common::*;
use overprov_sim::config::{CollectionTrigger, PolicyKind, SimConfig};
use overprov_sim::Simulator;

/// 4096 user pages of 32-page blocks (128 blocks) and `spare` blocks more, greedy.
fn small(spare: u64, trigger: u32, until: Option<f64>) -> SimConfig {
    let mut c = uniform(4096, 0.0, 32, PolicyKind::Greedy);
    c.geometry.op_ratio = None;
    c.geometry.physical_blocks = Some(128 + spare);
    c.ftl.gc_free_blocks = trigger;
    c.ftl.gc_until_free_fraction = until;
    c.run.warmup_drive_writes = 8.0;
    c.run.drive_writes = 16.0;
    c
}

#[test]
fn a_low_mark_costs_waf_between_the_trigger_and_the_mark_held_for_ever() {
    // 48 spare blocks of 176: trigger at 6 free, the mark at 0.2 of 176 = 35 blocks. The pool
    // swings from 6 to 35, so GC works with more spare than a collector holding 35 for ever
    // and less than one holding 6
    let trigger_only = measured_waf(small(48, 6, None));
    let marked = measured_waf(small(48, 6, Some(0.2)));
    let held = measured_waf(small(48, 35, None));
    println!("WAF trigger 6: {trigger_only:.4}, 6 -> 35: {marked:.4}, trigger 35: {held:.4}");
    assert!(trigger_only < marked, "{trigger_only} vs {marked}");
    assert!(marked < held, "{marked} vs {held}");
}

#[test]
fn the_mark_collects_more_victims_per_episode_not_more_in_all_than_it_frees() {
    // every erase is a victim (no wear levelling) and the run writes the same host pages
    let plain = run(small(48, 6, None)).totals;
    let marked = run(small(48, 6, Some(0.2))).totals;
    assert_eq!(plain.host_pages, marked.host_pages);
    assert_eq!(marked.victims, marked.erases);
    assert!(marked.gc_pages > plain.gc_pages, "{plain:?} {marked:?}");
}

/// A change to a configuration and the words its refusal names.
type Refusal = (fn(&mut SimConfig), &'static str);

#[test]
fn the_mark_is_refused_out_of_range_below_the_trigger_or_beyond_the_spare() {
    let cases: [Refusal; 5] = [
        (
            |c| c.ftl.gc_until_free_fraction = Some(0.0),
            "ftl.gc_until_free_fraction",
        ),
        (
            |c| c.ftl.gc_until_free_fraction = Some(1.0),
            "ftl.gc_until_free_fraction",
        ),
        // 0.03 of 176 blocks is 5, not above the trigger of 6
        (
            |c| c.ftl.gc_until_free_fraction = Some(0.03),
            "not above ftl.gc_free_blocks",
        ),
        // 0.3 of 176 is 52 blocks: more than the 48 spare ones
        (|c| c.ftl.gc_until_free_fraction = Some(0.3), "GC low mark"),
        (
            |c| c.ftl.gc_trigger = CollectionTrigger::PerWrite,
            "only with the batched trigger",
        ),
    ];
    for (change, want) in cases {
        let mut c = small(48, 6, Some(0.2));
        change(&mut c);
        let e = Simulator::new(c).unwrap_err().to_string();
        assert!(e.contains(want), "{want}: {e}");
    }
    // a victim floor lets the mark exceed the spare, as it lets the trigger
    let mut c = small(48, 6, Some(0.3));
    c.ftl.gc_victim_min_invalid_fraction = Some(0.1);
    c.ftl.gc_forced_free_blocks = Some(2);
    assert!(Simulator::new(c).is_ok());
}

#[test]
fn no_mark_is_not_echoed_in_the_config() {
    let text = serde_json::to_string(&small(48, 6, None)).unwrap();
    assert!(!text.contains("gc_until_free_fraction"), "{text}");
}
