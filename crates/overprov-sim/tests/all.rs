//! Every integration test of the simulator in one test binary: each file beside this one is a
//! module of it (`autotests = false` in Cargo.toml), so `cargo test` compiles and links one
//! binary instead of one per file. `every_test_file_is_a_module` fails when a file or folder
//! in tests/ is not declared here, which would leave its tests uncompiled and unrun.

mod common;

mod channel_pools;
mod collections_first;
mod collections_in_flight;
mod config_errors;
mod controller;
mod cost_benefit_pick;
mod erase_hold;
mod gc_blocking;
mod gc_low_mark;
mod gc_multiplane;
mod gc_trigger;
mod host;
mod idle_round;
mod layers;
mod link_booking;
mod lookahead;
mod multiplane;
mod per_write_gc;
mod placement;
mod plane_pools;
mod program_page;
#[cfg(feature = "audit")]
mod properties;
mod qdepth;
mod relocations_at_trigger;
mod round_reads;
mod slc;
mod timing;
mod trace_replay;
mod traces;
mod validation;
mod victim_floor;

/// The modules declared above, read from this file's source.
fn declared_modules() -> Vec<String> {
    include_str!("all.rs")
        .lines()
        .filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let declared = declared_modules();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ is readable") {
        let path = entry.expect("a tests/ entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let module = if path.is_dir() {
            // A folder is a module when it has mod.rs (tests/common); data/ holds inputs.
            if !path.join("mod.rs").exists() && !path.join("main.rs").exists() {
                continue;
            }
            name
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem == "all" {
                continue;
            }
            stem.to_owned()
        } else {
            continue;
        };
        if !declared.contains(&module) {
            missing.push(module);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "not compiled, so never run: {missing:?} in crates/overprov-sim/tests/; add `mod NAME;` \
         for each to tests/all.rs"
    );
    assert!(declared.len() >= 16, "declared modules: {declared:?}");
}
