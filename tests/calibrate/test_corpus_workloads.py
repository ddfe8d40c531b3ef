"""The 7450s' IOPS under other workloads predicted from their uniform figures
(bench/corpus_workloads.py; docs/calibrate-validation.md, "SSD-iq's other drives and
workloads"): which readings a case rests on, and the stored cases against the stored figures."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def workloads(bench):
    """bench/corpus_workloads.py (it imports the corpus bench the fixture registered)."""
    spec = importlib.util.spec_from_file_location(
        "corpus_workloads", ROOT / "bench" / "corpus_workloads.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules["corpus_workloads"] = mod
    spec.loader.exec_module(mod)
    return mod


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
