"""SSD-iq's campaigns as figures per (drive, workload) (bench/corpus_workload_runs.py) and their
translation into overprov's workloads (docs/calibrate-validation.md, "SSD-iq's other drives and
workloads")."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runs(steady_window):
    """bench/corpus_workload_runs.py (it imports the log reader the fixture registered)."""
    spec = importlib.util.spec_from_file_location(
        "corpus_workload_runs", ROOT / "bench" / "corpus_workload_runs.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules["corpus_workload_runs"] = mod
    spec.loader.exec_module(mod)
    return mod


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
