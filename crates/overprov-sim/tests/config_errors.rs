//! Bad configurations are refused before a run, with a message naming the field.

use overprov_sim::config::{from_json, SimConfig};
use overprov_sim::{Error, Simulator};

fn refused(json: &str) -> String {
    let parsed = from_json(json);
    let err = match parsed {
        Err(e) => e,
        Ok(c) => Simulator::new(c).expect_err("should be refused"),
    };
    err.to_string()
}

#[test]
fn no_blocks() {
    let e = refused(r#"{"geometry": {"physical_blocks": 0, "user_pages": 10, "op_ratio": null}}"#);
    assert!(
        e.contains("geometry.physical_blocks") && e.contains("no blocks"),
        "{e}"
    );
}

#[test]
fn zero_pages_per_block() {
    let e = refused(r#"{"geometry": {"pages_per_block": 0}}"#);
    assert!(e.starts_with("geometry.pages_per_block"), "{e}");
}

#[test]
fn op_too_small_to_collect_garbage() {
    // 100 user blocks and 3 spare: GC trigger 2 + 2 frontiers + 1 needs 5.
    let e = refused(
        r#"{"geometry": {"pages_per_block": 64, "user_pages": 6400, "op_ratio": null,
             "physical_blocks": 103}}"#,
    );
    assert!(
        e.contains("OP too small to collect garbage") && e.contains("3 spare blocks"),
        "{e}"
    );
    let e = refused(r#"{"geometry": {"op_ratio": 0}}"#);
    assert!(e.starts_with("geometry.op_ratio"), "{e}");
    let e = refused(r#"{"geometry": {"op_ratio": -0.1}}"#);
    assert!(e.starts_with("geometry.op_ratio"), "{e}");
}

#[test]
fn unknown_policy_and_unknown_field() {
    let e = refused(r#"{"ftl": {"policy": "lru-ish"}}"#);
    assert!(
        e.starts_with("ftl.policy") && e.contains("unknown variant") && e.contains("greedy"),
        "{e}"
    );
    let e = refused(r#"{"workload": {"patern": "uniform"}}"#);
    assert!(e.contains("workload") && e.contains("patern"), "{e}");
    let e = refused(r#"{"run": {"drive_writes": "lots"}}"#);
    assert!(e.starts_with("run.drive_writes"), "{e}");
}

#[test]
fn workload_fields_are_named() {
    for (json, field) in [
        (
            r#"{"workload": {"span_percent": 0}}"#,
            "workload.span_percent",
        ),
        (
            r#"{"workload": {"read_percent": 60, "trim_percent": 40}}"#,
            "workload.read_percent",
        ),
        (
            r#"{"workload": {"bssplit": "4k/50:9q/50"}}"#,
            "workload.bssplit",
        ),
        (r#"{"workload": {"pattern": "zoned"}}"#, "workload.zones"),
        (
            r#"{"workload": {"pattern": "zoned", "zones": [{"access_percent": 50, "space_percent": 10},
                {"access_percent": 40, "space_percent": 90}]}}"#,
            "workload.zones",
        ),
        (
            r#"{"workload": {"pattern": "zipf", "zipf_theta": 0}}"#,
            "workload.zipf_theta",
        ),
        (r#"{"ftl": {"gc_free_blocks": 0}}"#, "ftl.gc_free_blocks"),
        (
            r#"{"ftl": {"policy": "d-choices", "d_choices": 0}}"#,
            "ftl.d_choices",
        ),
        (r#"{"run": {"drive_writes": 0}}"#, "run.drive_writes"),
    ] {
        let e = refused(json);
        assert!(e.starts_with(field), "{json}: {e}");
    }
}

#[test]
fn errors_are_typed() {
    let e = Simulator::new(SimConfig {
        ftl: overprov_sim::config::FtlConfig {
            gc_free_blocks: 0,
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap_err();
    assert!(matches!(e, Error::Config { ref field, .. } if field == "ftl.gc_free_blocks"));
}
