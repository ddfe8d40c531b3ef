//! Profiler rounds with a read share (`RoundRequest::read_percent`): reads drawn over the span
//! as the whole simulation draws a mix's, reported apart from the writes (as fio's write side
//! of a mixed job, with the reads' latency); a round without reads is the round as before.

use overprov_sim::config::{Precondition, SimConfig};
use overprov_sim::round::RoundRequest;
use overprov_sim::timing::RoundFigures;
use overprov_sim::Simulator;

fn drive() -> Simulator {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(1 << 15);
    c.geometry.op_ratio = Some(0.1);
    c.geometry.pages_per_block = 256;
    c.precondition.kind = Precondition::None;
    c.timing.enabled = true;
    Simulator::new(c).unwrap()
}

fn round(sim: &mut Simulator, json: &str) -> RoundFigures {
    sim.run_round(&RoundRequest::from_json(json).unwrap())
        .unwrap()
}

const FILL: &str =
    r#"{"sequential": true, "request_bytes": 131072, "queue_depth": 8, "span_pages": 32768}"#;

#[test]
fn a_round_without_reads_is_the_round_as_before() {
    // the same rounds, with the field absent and with it 0: the same figures and drive
    let run = |extra: &str| {
        let mut sim = drive();
        round(&mut sim, FILL);
        let f = round(
            &mut sim,
            &format!(
                r#"{{"request_bytes": 4096, "queue_depth": 8, "span_pages": 32768,
                    "seconds": 0.05, "seed": 3{extra}}}"#
            ),
        );
        (
            serde_json::to_string(&f).unwrap(),
            serde_json::to_string(&sim.totals()).unwrap(),
        )
    };
    let before = run("");
    assert_eq!(before, run(r#", "read_percent": 0.0"#));
    assert!(!before.0.contains("read_"), "{}", before.0); // no read field in its figures
}

#[test]
fn a_mixed_round_reports_its_reads_apart_from_its_writes() {
    // (after an idle second: the fill's programs behind its buffered completions are done)
    let mut sim = drive();
    round(&mut sim, FILL);
    let f = round(
        &mut sim,
        r#"{"request_bytes": 4096, "queue_depth": 8, "span_pages": 32768, "seconds": 0.05,
            "seed": 3, "read_percent": 70, "idle_seconds": 1.0}"#,
    );
    let reads = f.read_ios.expect("the round's reads");
    let share = reads as f64 / (reads + f.ios) as f64;
    assert!((share - 0.7).abs() < 0.03, "read share {share}");
    assert_eq!(
        f.bytes_written,
        f.ios * 4096,
        "bytes written count the writes only"
    );
    let read_us = f
        .read_latency_us
        .as_ref()
        .and_then(|l| l.mean)
        .expect("read latency");
    let nand = SimConfig::default().timing.nand.read_us;
    assert!(
        read_us >= nand,
        "a read of a written page senses NAND: {read_us} µs"
    );
    // the writes' IOPS fall under the reads' share of the queue
    let writes_only = {
        let mut s = drive();
        round(&mut s, FILL);
        round(
            &mut s,
            r#"{"request_bytes": 4096, "queue_depth": 8, "span_pages": 32768,
                "seconds": 0.05, "seed": 3, "idle_seconds": 1.0}"#,
        )
    };
    assert!(
        f.iops < writes_only.iops,
        "{} vs {}",
        f.iops,
        writes_only.iops
    );
}

#[test]
fn a_sequential_round_or_a_share_out_of_range_is_refused() {
    let mut sim = drive();
    for bad in [
        r#"{"sequential": true, "request_bytes": 4096, "queue_depth": 8, "span_pages": 100, "read_percent": 10}"#,
        r#"{"request_bytes": 4096, "queue_depth": 8, "span_pages": 100, "read_percent": 100}"#,
        r#"{"request_bytes": 4096, "queue_depth": 8, "span_pages": 100, "read_percent": -1}"#,
    ] {
        let e = sim
            .run_round(&RoundRequest::from_json(bad).unwrap())
            .unwrap_err();
        assert!(e.to_string().contains("read_percent"), "{e}");
    }
}
