"""SSD-iq's campaigns as figures per (drive, workload) (bench/corpus_workload_runs.py), their
translation into overprov's workloads, and the 7450s' IOPS under them predicted from their
uniform figures (bench/corpus_workloads.py; docs/calibrate-validation.md, "SSD-iq's other drives
and workloads")."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench_script(name: str):
    """bench/NAME.py imported by name (bench/ on the path, as its scripts put it; the modules
    it imports registered first by the calling fixture's fixtures)."""
    bench_dir = str(ROOT / "bench")
    if bench_dir not in sys.path:
        sys.path.append(bench_dir)
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def runs(steady_window):
    """bench/corpus_workload_runs.py (it imports the log reader the fixture registered)."""
    return _bench_script("corpus_workload_runs")


@pytest.fixture(scope="module")
def workloads(bench, runs):
    """bench/corpus_workloads.py (it imports the corpus bench the fixture registered)."""
    return _bench_script("corpus_workloads")


def test_iob_workloads_become_overprovs(runs):
    assert runs.workload_label("zipf-shuffle", "0.800000") == "zipf 0.8"
    assert runs.overprov_workload("zipf-shuffle", "0.800000") == {
        "pattern": "zipf",
        "zipf_theta": 0.8,
    }
    # "s0.2 f0 s0.8 f1": a fifth of the pages filled and never written again
    assert runs.workload_label("zones-shuffle", "s0.2 f0 s0.8 f1") == "zones-ro 0.2"
    ro = runs.overprov_workload("zones-shuffle", "s0.2 f0 s0.8 f1")["zones"]
    assert ro == [
        {"access_percent": 0.0, "space_percent": 20.0},
        {"access_percent": 100.0, "space_percent": 80.0},
    ]
    # "s0.95 f0.05 s0.05 f0.95": 95% of the pages take 5% of the writes
    assert runs.workload_label("zones-shuffle", "s0.95 f0.05 s0.05 f0.95") == "zones 0.95/0.05"
    hot = runs.overprov_workload("zones-shuffle", "s0.95 f0.05 s0.05 f0.95")["zones"]
    assert [(z["access_percent"], z["space_percent"]) for z in hot] == [(5, 95), (95, 5)]
    # iob's zones-shuffle scatters the zones' pages over the span; zones lays them in order
    assert runs.overprov_workload("zones-shuffle", "s0.5 f0 s0.5 f1")["zones_scattered"] is True
    assert "zones_scattered" not in runs.overprov_workload("zones", "s0.5 f0 s0.5 f1")
    with pytest.raises(ValueError, match="pairs"):
        runs.zones_of("s0.5 s0.5")
    with pytest.raises(ValueError, match="can express"):
        runs.overprov_workload("zns-noshuffle", "activeZones: 1")


def test_runs_are_selected_by_pattern_and_headerless_files_take_a_threads_header(
    runs, steady_window
):
    header = "hash,time,timeDiff,filesizeGib,pattern,patternDetails,writes"
    rows = [
        "s1,10,10,100,sequential,,50",
        "z1,10,10,100,zipf-shuffle,0.4,100",
        "z1,20,10,100,zipf-shuffle,0.4,300",
    ]
    a = "\n".join(rows) + "\n"  # thread 0 of some finalwa14 drives: no header
    b = header + "\n" + a
    texts = runs.with_header([a, b])
    assert all(t.startswith("hash,") for t in texts)
    ((key, first, samples),) = steady_window.thread_runs(texts, runs._random_writes)
    assert key == ("z1", 100.0) and first["patternDetails"] == "0.4"
    # two threads' rates summed and integrated: (100 + 100) · 10 s, then (300 + 300) · 10 s
    assert [s.host_bytes / steady_window.BLOCK_BYTES for s in samples] == [0, 2000, 8000]
    # threads whose runs at one place differ in pattern are refused
    other = header + "\n" + a.replace("0.4", "0.6")
    with pytest.raises(ValueError, match="disagree"):
        steady_window.thread_runs(runs.with_header([a, other]), runs._random_writes)


def test_the_stored_figures_name_their_runs_and_steady_state(runs):
    rows = tomllib.loads((ROOT / "bench/corpus/workload-figures.toml").read_text())["figure"]
    for r in rows:
        steady = [x["iops"] for x in r["runs"] if x["steady"]]
        # the value is the mean of the steady runs; none steady: the row says so
        assert r["steady_state"] is bool(steady)
        if steady:
            assert r["value"] == pytest.approx(sum(steady) / len(steady), abs=1)
        assert r["workload"] == runs.workload_label(
            r["runs"][0]["pattern"], r["runs"][0]["details"]
        )
        assert all(x["source"].startswith("paper/finalwa") for x in r["runs"])


def test_readings_below_the_span_weight_are_left_out_and_one_reading_is_its_own(workloads):
    heavy = SimpleNamespace(weight=0.6, twin="twin-greedy.toml", spare="effective", design="g")
    light = SimpleNamespace(weight=0.001, twin="twin-d2.toml", spare="effective", design="d2")
    pred = SimpleNamespace(
        readings=[heavy, light], twins={"twin-greedy.toml": "G", "twin-d2.toml": "D"}
    )
    assert workloads.kept_readings(pred) == [(heavy, 0.6, "G")]
    one = SimpleNamespace(readings=None, twin="twin.toml", twins={"twin.toml": "T"})
    assert workloads.kept_readings(one) == [(one, 1.0, "T")]
    assert workloads.reading_name(heavy) == "effective-g"


def test_the_stored_cases_hold_out_the_stored_figures_and_combine_their_readings(workloads):
    figures = {(f["drive"], f["workload"]): f for f in workloads.workload_figures()}
    path = ROOT / "bench/corpus/workload-held-out.jsonl"
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert {c["drive"] for c in cases} == set(workloads.PREDICTED)
    for c in cases:
        f = figures[c["drive"], c["workload"]]
        assert c["held_out"]["value"] == f["value"]
        assert c["steady_shown"] is f["steady_state"]
        assert c["overprov_workload"] == f["overprov_workload"]
        # the prediction is the readings' weighted geometric mean, at the fitted level 0%
        w = sum(p["weight"] for p in c["parts"])
        mean = math.exp(sum(p["weight"] * math.log(p["value"]) for p in c["parts"]) / w)
        assert c["predicted"] == pytest.approx(mean, rel=1e-12)
        assert all(p["distance"] == 0.0 for p in c["parts"])
        assert c["rel_error"] == pytest.approx(c["predicted"] / f["value"] - 1)
    # every non-uniform figure of the two drives is a case
    wanted = {
        k for k, f in figures.items() if k[0] in workloads.PREDICTED and f["kind"] != "uniform"
    }
    assert {(c["drive"], c["workload"]) for c in cases} == wanted


def test_the_steady_twin_rule_is_judged_against_the_stored_cases(workloads):
    """bench/corpus/RULE-skewed-steady-twin.md's clauses on its stored cases
    (bench/corpus/skewed-steady-twin-cases.jsonl) against the fixed warm-up's: the medians, the
    worst cases and the verdict the results file and the docs quote."""
    corpus = ROOT / "bench" / "corpus"
    new = workloads.read_cases(corpus / "skewed-steady-twin-cases.jsonl")
    stored = workloads.read_cases(corpus / "workload-held-out.jsonl")
    text = workloads.steady_twin_verdict(new, stored)
    assert "| 13.3% | 13.2% | no |" in text  # clause 1: the median
    assert "| 127.7% | 109.3% | no |" in text  # clause 2: the worst
    assert "Clauses 1–3: NOT met." in text
    assert "90 stopped at 4 drive writes" in text
    # a made-up case 3 points worse and beyond 5% fails clause 3
    worse = json.loads(json.dumps(new))
    worse[0]["rel_error"] = abs(stored[0]["rel_error"]) + 0.06
    assert "| 1 | no |" in workloads.steady_twin_verdict(worse, stored)
