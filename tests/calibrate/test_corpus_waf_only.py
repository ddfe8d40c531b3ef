"""The WAF-only foreign truths (sssl-ftlsim: page writes counted, no time) in the corpus bench
(bench/corpus_bench.py): each results file that says ``measures: ["waf"]`` is read as a drive
whose WAF figures are held out level by level (docs/calibrate-validation.md, "All held-out cases
together, WAF-only truths included")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOREIGN_RESULTS = ROOT / "bench" / "foreign" / "results"
sys.path.insert(0, str(ROOT / "bench" / "foreign"))

import evaluate  # noqa: E402

WAF_ONLY = sorted(
    p
    for p in FOREIGN_RESULTS.glob("*.json")
    if p.stem != "evaluation" and json.loads(p.read_text()).get("measures") == ["waf"]
)


def test_there_are_waf_only_truths():
    assert len(WAF_ONLY) >= 4, [p.name for p in WAF_ONLY]


@pytest.mark.parametrize("path", WAF_ONLY, ids=[p.stem for p in WAF_ONLY])
def test_every_waf_only_truth_is_read_as_a_drive_with_its_provenance(bench, path):
    drives = {d["id"]: d for d in bench.foreign_drives(FOREIGN_RESULTS)}
    assert path.stem in drives, f"{path.name} is not read by the corpus bench"
    d = drives[path.stem]
    doc = json.loads(path.read_text())
    # the drive names the file it was read from, and that file its simulator's provenance
    assert d["file"] == str(path.relative_to(ROOT))
    for field in ("simulator", "repository", "commit", "date", "command", "hardware"):
        assert doc.get(field), f"{path.name}: {field} missing"
    assert d["family"] == doc["simulator"] and d["foreign"] and d["waf_only"]
    assert evaluate.label(doc) in d["name"]
    # its figures are the steady WAF of each level at the one queue depth the file holds, as
    # recorded; no IOPS and no FOB figure (the simulator has no time)
    (qd,) = {lv["queue_depth"] for lv in doc["levels"]}
    truth = evaluate.truth_curve(doc, qd)
    assert d["qd"] == qd
    assert sorted((f["kind"], f["extra_op_percent"], f["value"]) for f in d["figure"]) == [
        ("waf", x, truth[x]["steady_waf"]) for x in sorted(truth)
    ]
    assert all(f["rel_sd"] == 0.02 and f["steady_state"] for f in d["figure"])
    assert d["raw_nand_bytes"] == doc["physical_bytes"] > d["advertised_bytes"]


def test_a_waf_only_level_is_held_out_and_predicted_from_the_others_waf(bench, tmp_path):
    """Two levels of one WAF-only drive, no raw NAND: each level is predicted from the other's
    WAF figure alone, typed as ``--waf-points`` gives it; the case says what was fitted and
    what held out, and its interval's parts are WAF readings."""
    d = next(d for d in bench.foreign_drives(FOREIGN_RESULTS) if d.get("waf_only"))
    d = {**d, "raw_nand_bytes": None,
         "figure": [f for f in d["figure"] if f["extra_op_percent"] in (0, 40)]}  # fmt: skip
    out = bench.cases([d], tmp_path, jobs=1)
    assert [(c["held_out"]["extra_op_percent"], c["raw_nand_given"]) for c in out] == [
        (0, False),
        (40, False),
    ]
    for c, other in zip(out, (40, 0), strict=True):
        assert c["waf_only"] and c["foreign"] and c["held_out"]["kind"] == "waf"
        assert c["fitted"] == [
            {"kind": "waf", "extra_op_percent": other,
             "value": next(f["value"] for f in d["figure"] if f["extra_op_percent"] == other),
             "steady_state": True}
        ]  # fmt: skip
        assert "log_error" in c, c.get("error_text")
        assert c["predicted"] > 1.0 and c["parts"]
        for p in c["parts"]:
            assert p["low"] <= p["value"] <= p["high"]
