//! Trace readers on real samples (tests/data/traces; origins and terms in its README): request
//! counts and bytes per operation equal what the sample holds — counted here by a plain split of
//! each line, and where the tool that wrote the sample reports its own totals (fio's JSON, the
//! summary blkparse prints), against those too. Bad lines are errors naming file and line.
//! Page replay: the FTL is handed exactly the trace's written bytes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use overprov_sim::config::SimConfig;
use overprov_sim::ftl::Ftl;
use overprov_sim::workload::trace::{
    Fold, Op, Replay, ReplayOptions, TraceFormat, TraceReader, TraceSummary,
};
use overprov_sim::Error;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/traces")
        .join(name)
}

/// (requests, bytes) per operation name.
type Tally = BTreeMap<&'static str, (u64, u64)>;

fn key(op: Op) -> &'static str {
    match op {
        Op::Read => "read",
        Op::Write => "write",
        Op::Trim => "trim",
    }
}

fn add(t: &mut Tally, op: Op, bytes: u64) {
    let e = t.entry(key(op)).or_default();
    e.0 += 1;
    e.1 += bytes;
}

/// What the reader finds, as a tally; also checks the detected format.
fn read(path: &Path, want: TraceFormat) -> Tally {
    let mut reader = TraceReader::open(path, None, false).unwrap();
    assert_eq!(reader.format(), want, "{}", path.display());
    let mut t = Tally::new();
    for r in &mut reader {
        let r = r.unwrap();
        add(&mut t, r.op, r.len_bytes);
    }
    t
}

/// Independent count: each line split by `sep`, mapped by `f` (None: not a request).
fn tally(path: &Path, f: impl Fn(&[&str]) -> Option<(Op, u64)>) -> Tally {
    let mut t = Tally::new();
    for line in fs::read_to_string(path).unwrap().lines() {
        let fields: Vec<&str> = line
            .split([' ', '\t', ','])
            .filter(|s| !s.is_empty())
            .collect();
        if let Some((op, bytes)) = f(&fields) {
            add(&mut t, op, bytes);
        }
    }
    t
}

fn fio_line(f: &[&str]) -> Option<(Op, u64)> {
    let op = match *f.get(2)? {
        "read" => Op::Read,
        "write" => Op::Write,
        "trim" => Op::Trim,
        _ => return None,
    };
    (f.len() == 5).then(|| (op, f[4].parse().unwrap()))
}

/// fio's own totals from its JSON output of the run that wrote the log.
fn fio_json(path: &Path) -> Tally {
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let mut t = Tally::new();
    for (name, op) in [("read", Op::Read), ("write", Op::Write), ("trim", Op::Trim)] {
        let n = v[name]["total_ios"].as_u64().unwrap();
        if n > 0 {
            t.insert(key(op), (n, v[name]["io_bytes"].as_u64().unwrap()));
        }
    }
    t
}

#[test]
fn fio_iologs_match_the_lines_and_fios_own_totals() {
    for name in ["fio-randrw", "fio-trimwrite"] {
        let log = data(&format!("{name}.iolog"));
        let got = read(&log, TraceFormat::FioIolog);
        assert_eq!(got, tally(&log, fio_line), "{name}");
        assert_eq!(
            got,
            fio_json(&data(&format!("{name}.summary.json"))),
            "{name}"
        );
    }
}

#[test]
fn fio_run_for_real_is_read_back_whole() {
    let dir = std::env::temp_dir().join(format!("overprov-fio-trace-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let (log, json) = (dir.join("live.iolog"), dir.join("live.json"));
    let status = Command::new("fio")
        .args([
            "--name=live",
            "--rw=randrw",
            "--rwmixread=40",
            "--bssplit=4k/70:32k/30",
        ])
        .args([
            "--size=8M",
            "--io_size=4M",
            "--ioengine=psync",
            "--output-format=json",
        ])
        .arg(format!("--filename={}", dir.join("data").display()))
        .arg(format!("--write_iolog={}", log.display()))
        .arg(format!("--output={}", json.display()))
        .status()
        .expect("fio must be installed (scripts/apt-packages.txt)");
    assert!(status.success());
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let job = &v["jobs"][0];
    let got = read(&log, TraceFormat::FioIolog);
    for (name, op) in [("read", Op::Read), ("write", Op::Write)] {
        let want = (
            job[name]["total_ios"].as_u64().unwrap(),
            job[name]["io_bytes"].as_u64().unwrap(),
        );
        assert_eq!(got[key(op)], want, "{name}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn blkparse_sample_matches_its_lines_its_summary_and_the_fio_runs() {
    let path = data("blkparse-loop.txt");
    let got = read(&path, TraceFormat::Blkparse);
    // the D (issued) events, counted by hand (the split also cuts `7,0` in two)
    let by_hand = tally(&path, |f| {
        if f.len() < 11 || f[6] != "D" || f[9] != "+" {
            return None;
        }
        let op = if f[7].contains('D') {
            Op::Trim
        } else if f[7].contains('W') {
            Op::Write
        } else {
            Op::Read
        };
        Some((op, f[10].parse::<u64>().unwrap() * 512))
    });
    assert_eq!(got, by_hand);
    // blkparse's own summary counts discards among writes ("Write Dispatches: N, XKiB")
    let text = fs::read_to_string(&path).unwrap();
    let dispatches = |what: &str| -> (u64, u64) {
        let at = text.find(what).unwrap() + what.len();
        let rest = text[at..].trim_start();
        let (n, rest) = rest.split_once(',').unwrap();
        let kib = rest.trim_start().split("KiB").next().unwrap();
        (
            n.trim().parse().unwrap(),
            kib.parse::<u64>().unwrap() * 1024,
        )
    };
    assert_eq!(got["read"], dispatches("Read Dispatches:"));
    let (w, t) = (got["write"], got["trim"]);
    assert_eq!((w.0 + t.0, w.1 + t.1), dispatches("Write Dispatches:"));
    // and it is the two fio runs, request for request
    let mut fio = fio_json(&data("fio-randrw.summary.json"));
    for (op, (n, b)) in fio_json(&data("fio-trimwrite.summary.json")) {
        let e = fio.entry(op).or_default();
        e.0 += n;
        e.1 += b;
    }
    assert_eq!(got, fio);
}

#[test]
fn mqsim_sample_matches_its_lines() {
    let path = data("mqsim-tpcc-small.trace");
    let got = read(&path, TraceFormat::Mqsim);
    let by_hand = tally(&path, |f| {
        let op = if f[4] == "0" { Op::Write } else { Op::Read };
        Some((op, f[3].parse::<u64>().unwrap() * 512))
    });
    assert_eq!(got, by_hand);
    let requests: u64 = got.values().map(|v| v.0).sum();
    assert_eq!(requests, 6_999); // wc -l
}

#[test]
fn our_csv_sample_is_the_fio_run_it_was_converted_from() {
    let got = read(&data("overprov-trimwrite.csv"), TraceFormat::Csv);
    assert_eq!(got, fio_json(&data("fio-trimwrite.summary.json")));
}

fn temp_trace(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("overprov-traces-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_bad_line_is_an_error_naming_file_and_line_or_is_skipped_and_counted() {
    let cases = [
        ("msr.csv", "1,hm,0,Write,0,4096,1\n2,hm,0,Write,4096,4096,1\n3,hm,0,Erase,0,4096,1\n4,hm,0,Read,0,512,1\n", "Type"),
        ("tencent.csv", "1,0,8,1,5\n2,8,8,0,5\n3,x,8,1,5\n4,16,8,1,5\n", "Offset"),
        ("iolog", "fio version 3 iolog\n1 /f write 0 4096\n5 /f fly 0 4096\n9 /f write 0 4096\n10 /f read 0 512\n", "action"),
        ("mq.trace", "1 0 0 8 0\n2 0 8 8 1\n3 0 16\n4 0 24 8 0\n", "5 whitespace-separated"),
        ("blk.txt", "  8,0  0  1  0.000001000  9  D  W 0 + 8 [a]\n  8,0  0  2  0.000002000  9  D  R 8 + 8 [a]\n  8,0  0  3  0.0000x  9  D  W 16 + 8 [a]\n  8,0  0  4  0.000004000  9  D  W 24 + 8 [a]\n", "time"),
    ];
    for (name, text, field) in cases {
        let path = temp_trace(name, text);
        let err = TraceReader::open(&path, None, false)
            .unwrap()
            .map(|r| r.map(|_| ()))
            .collect::<Result<Vec<()>, Error>>()
            .unwrap_err();
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!("{}:3: ", path.display())),
            "{shown}"
        );
        assert!(shown.contains(field), "{shown}");
        assert!(matches!(err, Error::Trace { line: 3, .. }));
        let mut reader = TraceReader::open(&path, None, true).unwrap();
        let summary = TraceSummary::scan(&mut reader).unwrap();
        assert_eq!((summary.records(), summary.bad_lines), (3, 1), "{name}");
        assert!(reader
            .first_bad_line()
            .unwrap()
            .to_string()
            .contains(":3: "));
    }
}

#[test]
fn format_override_and_unknown_formats() {
    let path = data("fio-randrw.iolog");
    let err = TraceReader::open(&path, Some(TraceFormat::Msr), false)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(
        err.to_string().contains(":1: msr trace: expected 7"),
        "{err}"
    );
    let junk = temp_trace("junk.txt", "\n\nhello world\n");
    let err = TraceReader::open(&junk, None, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains(":3: trace format not recognised"), "{err}");
    assert_eq!(
        TraceFormat::from_name("fio-iolog").unwrap(),
        TraceFormat::FioIolog
    );
    assert!(TraceFormat::from_name("fio")
        .unwrap_err()
        .to_string()
        .contains("blkparse"));
}

/// Replays `path` into an FTL; returns (host bytes of the write requests, pages written,
/// FTL host pages, pages trimmed).
fn replay_into_ftl(path: &Path, fold: Fold, user_pages: u64) -> (u64, u64, u64, u64) {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(user_pages);
    let g = c.validate().unwrap();
    let mut ftl = Ftl::new(&c, g);
    let mut opts = ReplayOptions::new(g.page_size_bytes, g.user_pages);
    opts.fold = fold;
    let mut replay = Replay::open(path, None, opts).unwrap();
    let (mut bytes, mut pages, mut trimmed) = (0, 0, 0);
    while let Some(t) = replay.next_request().unwrap() {
        let r = t.request;
        assert!(r.lpn as u64 + r.pages as u64 <= user_pages);
        match r.op {
            Op::Write => {
                (0..r.pages).for_each(|i| ftl.write(r.lpn + i, 0));
                bytes += r.bytes as u64;
                pages += r.pages as u64;
            }
            Op::Trim => {
                (0..r.pages).for_each(|i| ftl.trim(r.lpn + i));
                trimmed += r.pages as u64;
            }
            Op::Read => {}
        }
    }
    ftl.check_invariants().unwrap();
    (bytes, pages, ftl.counters().host_pages, trimmed)
}

#[test]
fn replayed_host_bytes_equal_the_bytes_the_trace_writes() {
    for (name, format) in [
        ("fio-randrw.iolog", TraceFormat::FioIolog),
        ("blkparse-loop.txt", TraceFormat::Blkparse),
        ("mqsim-tpcc-small.trace", TraceFormat::Mqsim),
        ("overprov-trimwrite.csv", TraceFormat::Csv),
    ] {
        let path = data(name);
        let tally = read(&path, format);
        let written = tally.get("write").map_or(0, |w| w.1);
        let mut reader = TraceReader::open(&path, None, false).unwrap();
        let end = TraceSummary::scan(&mut reader).unwrap().max_end_bytes;
        // a drive far smaller than the traced range, so folding matters
        for fold in [
            Fold::Modulo,
            Fold::Scale {
                trace_end_bytes: end,
            },
        ] {
            let (bytes, pages, host_pages, _) = replay_into_ftl(&path, fold, 8_192);
            assert_eq!(bytes, written, "{name} {fold:?}");
            assert_eq!(pages, host_pages, "{name} {fold:?}");
            assert!(pages * 4096 >= written, "{name}");
        }
    }
    // 16 KiB-aligned trims free exactly 4 pages each
    let (_, _, _, trimmed) = replay_into_ftl(&data("fio-trimwrite.iolog"), Fold::Modulo, 1 << 16);
    assert_eq!(trimmed, 256 * 4);
}

#[test]
fn alibaba_sample_matches_its_lines() {
    // seven real rows of the Alibaba Block Traces (CC BY 4.0; tests/data/traces/README.md)
    let path = data("alibaba-block-head.csv");
    let got = read(&path, TraceFormat::Alibaba);
    let by_hand = tally(&path, |f| {
        let op = if f[1] == "W" { Op::Write } else { Op::Read };
        Some((op, f[3].parse().unwrap()))
    });
    assert_eq!(got, by_hand);
    assert_eq!(got["read"], (2, 8_192));
    assert_eq!(got["write"], (5, 77_824 + 12_288 + 12_288 + 4_096 + 4_096));
    let mut reader = TraceReader::open(&path, None, false).unwrap();
    let first = reader.next().unwrap().unwrap();
    let second = reader.next().unwrap().unwrap();
    assert_eq!((first.device, first.offset_bytes), (0, 126_703_661_056));
    assert_eq!(second.time_ns - first.time_ns, 380_000); // µs timestamps, 380 µs apart
}

/// SNIA IOTTA excerpts are not in the repository (see tests/data/traces/README.md); point
/// `OVERPROV_TRACE_SAMPLES` at a directory holding them and run with `--ignored`.
fn snia(name: &str) -> PathBuf {
    let dir = std::env::var("OVERPROV_TRACE_SAMPLES")
        .expect("OVERPROV_TRACE_SAMPLES: a directory with the SNIA IOTTA samples");
    Path::new(&dir).join(name)
}

#[test]
#[ignore = "needs SNIA IOTTA samples in $OVERPROV_TRACE_SAMPLES"]
fn snia_msr_sample() {
    let path = snia("msr-hm0-sample.csv");
    let got = read(&path, TraceFormat::Msr);
    let by_hand = tally(&path, |f| {
        Some((
            if f[3] == "Write" { Op::Write } else { Op::Read },
            f[5].parse().unwrap(),
        ))
    });
    assert_eq!(got, by_hand);
    assert_eq!((got["read"].0, got["write"].0), (508, 492));
}

#[test]
#[ignore = "needs SNIA IOTTA samples in $OVERPROV_TRACE_SAMPLES"]
fn snia_tencent_sample() {
    let path = snia("tencent-cbs-sample.csv");
    let got = read(&path, TraceFormat::Tencent);
    let by_hand = tally(&path, |f| {
        Some((
            if f[3] == "1" { Op::Write } else { Op::Read },
            f[2].parse::<u64>().unwrap() * 512,
        ))
    });
    assert_eq!(got, by_hand);
    assert_eq!(got.values().map(|v| v.0).sum::<u64>(), 5_000);
}

#[test]
#[ignore = "needs SNIA IOTTA samples in $OVERPROV_TRACE_SAMPLES"]
fn snia_systor_sample() {
    let path = snia("systor17-vdi-sample.csv");
    let got = read(&path, TraceFormat::Systor);
    let by_hand = tally(&path, |f| match f[2] {
        "W" => Some((Op::Write, f[5].parse().unwrap())),
        "R" => Some((Op::Read, f[5].parse().unwrap())),
        _ => None, // the header
    });
    assert_eq!(got, by_hand);
    assert_eq!(got.values().map(|v| v.0).sum::<u64>(), 999);
}
