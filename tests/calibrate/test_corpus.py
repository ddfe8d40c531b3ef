"""The corpus of published figures (bench/corpus/) and its leave-one-out bench
(bench/corpus_bench.py): every row carries its provenance, and the bench reads the foreign
FTLs' results and rebuilds calibrate's interval from a prediction's parts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov.calibrate import uncertainty

ROOT = Path(__file__).resolve().parents[2]


def test_every_figure_says_where_it_comes_from(bench):
    drives = bench.load(ROOT / "bench" / "corpus")
    assert len(drives) >= 3
    for d in drives:
        assert d["advertised_bytes"] > 0 and d["name"] and d["workload"]
        if "raw_nand_bytes" in d:
            assert d["raw_nand_bytes"] > d["advertised_bytes"] and d["raw_nand_source"]
        steady = [f for f in d["figure"] if f["kind"] in ("iops", "waf")]
        assert len(steady) >= 2, f"{d['id']}: one steady figure cannot be held out"
        for f in d["figure"]:
            where = f"{d['id']} {f['kind']} at {f['extra_op_percent']}%"
            assert f["kind"] in ("iops", "waf", "fob_iops"), where
            assert f["value"] > (1 if f["kind"] == "waf" else 100), where
            assert 0 <= f["extra_op_percent"] < 100, where
            assert f["read_from"] in ("table", "text", "chart", "data"), where
            if f["read_from"] == "data":  # computed from a published log by a stated rule
                assert "bench/corpus_steady_window.py" in f["steady_state_why"], where
            assert f["source_title"], where
            # a figure either names its public address or says it was not found again
            assert f["source_url"].startswith("https://") or not f["source_located"], where
            if f["read_from"] == "chart":
                assert f["rel_sd"] >= 0.05, where  # a chart reading carries its error
            assert f["steady_state"] in (True, False, "unknown"), where
            assert f["steady_state_why"].strip(), where  # what in its method decided it
            # a figure read where a third party quotes it names whose figure it is
            if "quoted_from" in f:
                assert isinstance(f["quoted_from"], str) and f["quoted_from"].strip(), where


def test_foreign_results_become_a_drive_at_one_queue_depth(bench, tmp_path):
    doc = {"simulator": "X", "advertised_bytes": 1000, "physical_bytes": 1100, "levels": [
        {"extra_op_percent": 0, "queue_depth": 32, "steady_iops": 100.0, "steady_waf": 5.0,
         "fob_iops": 900.0},
        {"extra_op_percent": 20, "queue_depth": 32, "steady_iops": 300.0, "steady_waf": 2.0},
        {"extra_op_percent": 20, "queue_depth": 4, "steady_iops": 250.0, "steady_waf": 2.0},
    ]}  # fmt: skip
    (tmp_path / "x.json").write_text(json.dumps(doc))
    (d,) = bench.foreign_drives(tmp_path, qd=32)
    kinds = sorted((f["kind"], f["extra_op_percent"], f["value"]) for f in d["figure"])
    assert kinds == [("fob_iops", 0, 900.0), ("iops", 0, 100.0), ("iops", 20, 300.0),
                     ("waf", 0, 5.0), ("waf", 20, 2.0)]  # fmt: skip
    assert d["raw_nand_bytes"] == 1100 and d["foreign"]


def test_foreign_results_skip_the_evaluation_and_single_level_runs(bench, tmp_path):
    # results/ also holds evaluation.json (a list of calibrate's predictions) and longer runs of
    # one case; neither is a simulator's curve
    curve = {"simulator": "X", "advertised_bytes": 1000, "physical_bytes": 1100, "levels": [
        {"extra_op_percent": op, "queue_depth": 32, "steady_iops": 100.0 + op,
         "steady_waf": 2.0} for op in (0, 40)]}  # fmt: skip
    one = {**curve, "levels": curve["levels"][1:]}
    (tmp_path / "evaluation.json").write_text(json.dumps([{"simulator": "X", "cases": []}]))
    (tmp_path / "x.json").write_text(json.dumps(curve))
    (tmp_path / "x-40pct-long.json").write_text(json.dumps(one))
    assert [d["id"] for d in bench.foreign_drives(tmp_path, qd=32)] == ["x"]


def test_a_familys_subfolder_curves_are_drives_and_its_other_files_are_not(bench, tmp_path):
    """A subfolder of further drives of one family (``corpus_foreign.SUBFOLDERS``) is read like
    the results folder; its rules and plans (no levels) are not curves."""
    curve = {"simulator": "X", "advertised_bytes": 1000, "physical_bytes": 1300, "levels": [
        {"extra_op_percent": op, "queue_depth": 32, "steady_iops": 100.0 + op,
         "steady_waf": 2.0} for op in (0, 40)]}  # fmt: skip
    sub = tmp_path / sys.modules["corpus_foreign"].SUBFOLDERS[0]
    sub.mkdir()
    (tmp_path / "x.json").write_text(json.dumps(curve))
    (sub / "x-more-units.json").write_text(json.dumps({**curve, "physical_bytes": 1200}))
    (sub / "plan.json").write_text(json.dumps({"summary": {}, "cases": []}))
    drives = bench.foreign_drives(tmp_path, qd=32)
    assert [(d["id"], d["family"], d["raw_nand_bytes"]) for d in drives] == [
        ("x", "X", 1300), ("x-more-units", "X", 1200)]  # fmt: skip


def test_every_femu_drive_is_one_family_with_its_raw_nand(bench):
    """The seven FEMU drives (bench/corpus/RULE-intervals.md) are read at QD32 with IOPS, WAF,
    FOB and the raw NAND their files state, all of the family FEMU."""
    results = ROOT / "bench" / "foreign" / "results"
    files = [results / "femu.json", *sorted((results / "femu-units").glob("femu-*.json")),
             *sorted((results / "gc-reserve").glob("femu-*.json"))]  # fmt: skip
    assert len(files) == 7
    drives = {d["id"]: d for d in bench.foreign_drives(results)}
    for path in files:
        d, doc = drives[path.stem], json.loads(path.read_text())
        assert d["family"] == "FEMU" and d["file"] == str(path.relative_to(ROOT))
        assert d["raw_nand_bytes"] == doc["physical_bytes"] > doc["advertised_bytes"]
        qd32 = {r["extra_op_percent"]: r for r in doc["levels"] if r["queue_depth"] == 32}
        assert sorted((f["kind"], f["extra_op_percent"], f["value"]) for f in d["figure"]) == (
            sorted([("fob_iops", 0, qd32[0]["fob_iops"])]
                   + [(k, x, r[f"steady_{k}"]) for x, r in qd32.items() for k in ("iops", "waf")])
        )  # fmt: skip


def test_the_bench_rebuilds_the_interval_predict_and_combine_make(bench):
    """Two readings, one refuted: the span leaves it out; each reading's interval is widened by
    the model-form error at its own distance, as uncertainty.band does in predict.py."""
    parts = [
        {"reading": "a", "value": 2.0, "low": 1.9, "high": 2.1, "weight": 1.0, "distance": 0.5},
        {"reading": "b", "value": 4.0, "low": 3.8, "high": 4.2, "weight": 1e-4, "distance": 0.5},
    ]
    assert bench.interval(parts, uncertainty.NO_MODEL_FORM) == (1.9, 2.1)
    mf = uncertainty.ModelForm(per_log_spare=0.3)
    lo, hi = bench.interval(parts, mf)
    assert (lo, hi) == tuple(uncertainty.band(2.0, [0.95, 1.05], mf.at(0.5)))
    assert lo < 1.9 and hi > 2.1


def test_a_data_sheet_pair_without_raw_nand_is_recorded_not_predicted(bench, tmp_path):
    """Two capacities of one platform (no raw NAND, no fresh-out-of-box figure): holding one out
    leaves one figure, which cannot fix both the native OP and the NAND time. The bench records
    each held-out figure with calibrate's reason and counts it among the cases, not the
    predictions."""
    pair = {"id": "pair", "name": "pair", "advertised_bytes": 3_840_000_000_000,
            "workload": "uniform", "qd": 0, "figure": [
                {"kind": "iops", "extra_op_percent": 0, "value": 300000.0, "rel_sd": 0.05,
                 "read_from": "table", "steady_state": "unknown"},
                {"kind": "iops", "extra_op_percent": 16.6667, "value": 540000.0,
                 "rel_sd": 0.05, "read_from": "table", "steady_state": "unknown"}]}  # fmt: skip
    sink = tmp_path / "cases.jsonl"
    out = bench.cases([pair], tmp_path, 1, sink)
    assert [c["held_out"]["extra_op_percent"] for c in out] == [0, 16.6667]
    # each prediction's cases are kept as made, as --reuse reads them back; a stopped run
    # continued (--resume) does not make them again
    assert bench.read_cases(sink) == out
    skip = frozenset({bench.prediction_key(out[0])})
    assert bench.cases([pair], tmp_path, 1, skip=skip) == out[1:]
    assert all("log_error" not in c and "one point" in c["error_text"] for c in out)
    # counted where its provenance puts it: a published case, its method not stated
    assert all(bench.SUBSETS["published"](c) for c in out)
    assert not any(bench.SUBSETS["published, method stated"](c) for c in out)
    # a steady state not shown by its source: reported beside the accuracy target, not in it
    assert all(bench.SUBSETS["published, steady state not shown"](c) for c in out)
    assert not any(bench.SUBSETS["published, steady state shown"](c) for c in out)
    summary = bench.evaluate(out)  # nothing predicted: no error figures, no slope, no crash
    assert summary["subsets"]["published"] is None and summary["slope_per_log_spare"] == 0.0
    assert bench.markdown(out, summary).count("cannot fit") == 2
    # an empty subset is said, not left out of the summary
    assert "| published, steady state shown | 0 of 0 |" in bench.markdown(out, summary)


def test_a_case_counts_towards_the_target_only_if_every_steady_figure_is_shown_steady(bench):
    """The held-out figure and each fitted steady figure must come from a source whose method
    shows a steady state; a FOB figure, fresh by definition, does not take a case out."""
    fob = {"kind": "fob_iops", "steady_state": False}
    shown = {"kind": "iops", "read_from": "text", "steady_state": True}
    unknown = {**shown, "steady_state": "unknown"}
    assert bench.held_out(shown, [shown, fob])["steady_shown"]
    assert not bench.held_out(shown, [unknown, fob])["steady_shown"]
    assert not bench.held_out(unknown, [shown])["steady_shown"]
    assert bench.held_out(unknown, [shown])["method_known"] is False


def test_the_diagnosis_says_where_a_level_lies_and_whether_any_reading_reaches_it(bench):
    """A level below the one fitted level is extrapolated; the published ratio (held-out figure
    over the fitted one) is set beside the readings' ratios, here all below it."""
    case = {"drive": "d", "foreign": False, "raw_nand_given": True, "log_error": -0.7,
            "rel_error": -0.5,
            "held_out": {"kind": "iops", "extra_op_percent": 0, "value": 16000.0,
                         "steady_state": "unknown"},
            "fitted": [{"kind": "iops", "extra_op_percent": 10, "value": 20000.0,
                        "steady_state": "unknown"},
                       {"kind": "fob_iops", "extra_op_percent": 0, "value": 80000.0,
                        "steady_state": False}],
            "parts": [{"reading": "a", "value": 6000.0, "weight": 0.75},
                      {"reading": "b", "value": 10000.0, "weight": 0.25}]}  # fmt: skip
    foreign = {**case, "foreign": True, "drive": "sim"}
    table = bench.diagnosis_markdown([case, foreign])
    (row,) = [line for line in table.splitlines() if line.startswith("| d ")]
    cells = [x.strip() for x in row.split("|")[1:-1]]
    assert cells[3] == "unknown; unknown"  # held out; the fitted steady figure (FOB aside)
    assert cells[4] == "extrapolated below (1 level)"
    assert cells[5].startswith("0.80") and cells[6] == "0.30–0.50"
    assert cells[7] == "no, all below" and cells[8] == "a (0.75)" and cells[9] == "-50.0%"
    assert "sim" not in table
    assert sys.modules["corpus_report"].position(5, [0, 10]) == "interpolated (2 levels)"
