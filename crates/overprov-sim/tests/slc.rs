//! The SLC cache's static region (`timing.slc.static_bytes`) and the dynamic part on unwritten
//! capacity (`dynamic_space = "unwritten"`), run through the whole simulator; and a cache
//! without them giving the very reports the core gave before they existed (tests/data/slc_dynamic
//! holds reports of consumer-tlc-sata at 1/512 scale, QD8 70:30 from purged and filled and an
//! open loop with idle folding, written by the core before the static region was added).

use overprov_sim::config::{from_json, SimConfig, SlcDynamicSpace};
use overprov_sim::sim::{Report, Simulator};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slc_dynamic");

fn run(c: SimConfig) -> Report {
    Simulator::new(c).unwrap().run().unwrap()
}

fn golden(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_cache_without_a_static_region_gives_the_reports_it_gave_before() {
    let mut seen = 0;
    for entry in std::fs::read_dir(DIR).unwrap() {
        let path = entry.unwrap().path();
        let g: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let report = run(from_json(&g["config"].to_string()).unwrap());
        let mut now: Value =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        // wall-clock figures are the machine's, not the simulation's
        let mut want = g["report"].clone();
        for v in [&mut now, &mut want] {
            let o = v.as_object_mut().unwrap();
            o.remove("wall_seconds");
            o.remove("host_pages_per_wall_second");
        }
        assert!(
            now == want,
            "{}: the report differs from the one written before the static region",
            path.display()
        );
        seen += 1;
    }
    assert_eq!(seen, 3);
}

fn filled_mix() -> SimConfig {
    from_json(&golden("qd8_mix_filled")["config"].to_string()).unwrap()
}

fn slc_bytes(r: &Report) -> (u64, u64) {
    let t = r.timed.as_ref().unwrap();
    (t.slc_written_bytes.unwrap(), t.slc_folded_bytes.unwrap())
}

#[test]
fn on_a_filled_drive_an_unwritten_dynamic_part_is_gone_and_the_static_region_stays() {
    // 4 s of QD8 70:30 writes about 160 MB at 1/512 scale: more than the cache (82 MB)
    let mut c = filled_mix();
    c.timing.slc.dynamic_space = SlcDynamicSpace::Unwritten;
    let (written, folded) = slc_bytes(&run(c.clone()));
    assert_eq!(
        (written, folded),
        (0, 0),
        "no free user capacity: no dynamic cache"
    );

    let region = 12_000_000;
    c.timing.slc.static_bytes = region;
    let (written, folded) = slc_bytes(&run(c.clone()));
    // the region takes writes until it is full (whole 4 KiB units), then writes go to TLC;
    // nothing is folded while the host keeps writing (folding waits for idle time)
    assert_eq!(written, region / 4096 * 4096);
    assert_eq!(folded, 0);

    // with the free space as the dynamic part's room (the default), the region adds to it
    c.timing.slc.dynamic_space = SlcDynamicSpace::Free;
    let (with_region, _) = slc_bytes(&run(c));
    let (without, _) = slc_bytes(&run(filled_mix()));
    assert!(with_region > without, "{with_region} vs {without}");
}

#[test]
fn a_static_region_larger_than_the_cache_is_refused_naming_the_field() {
    let mut c = filled_mix();
    c.timing.slc.static_bytes = c.timing.slc.max_bytes + 1;
    let err = Simulator::new(c).unwrap_err().to_string();
    assert!(err.contains("timing.slc.static_bytes"), "{err}");
}
