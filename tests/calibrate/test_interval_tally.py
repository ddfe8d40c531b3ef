"""The pooled tally of stored held-out figures with an 80% interval (bench/intervals/tally.py):
which figures a stored case holds out, and which stored intervals are stale."""

from __future__ import annotations

import importlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tally(bench):
    """bench/intervals/tally.py (it imports the corpus bench, made a module by ``bench``)."""
    for p in (ROOT / "bench", ROOT / "bench" / "intervals"):
        if str(p) not in sys.path:
            sys.path.append(str(p))
    return importlib.import_module("tally")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_stale_is_before_the_rule_the_interval_falls_under(tally):
    assert tally.stale_why(at("2026-11-28T08:00:00+00:00"), True)
    assert tally.stale_why(at("2026-11-28T12:00:00+00:00"), True) is None
    assert tally.stale_why(at("2026-11-28T12:00:00+00:00"), False)  # before the IOPS-only term
    assert tally.stale_why(at("2026-11-28T18:00:00+00:00"), False) is None
    assert tally.stale_why(datetime.max.replace(tzinfo=UTC), False) is None  # not committed


def test_an_evaluate_case_holds_out_every_figure_it_was_not_given(tally):
    case = {
        "case": "IOPS 0+40, FOB",
        "command": "overprov calibrate --points 0:100,40:400 --fob-iops 900",
        "levels": [
            {"extra_op_percent": 0, "fitted_iops": True, "fitted_waf": False,
             "iops_true": 100, "iops_pred": 101, "iops_low": 95, "iops_high": 105,
             "waf_true": 5.0, "waf_pred": 4.0, "waf_low": 3.5, "waf_high": 4.5},
            {"extra_op_percent": 20, "fitted_iops": False, "fitted_waf": False,
             "iops_true": 250, "iops_pred": 240, "iops_low": 200, "iops_high": 260,
             "waf_true": 2.0, "waf_pred": 2.1, "waf_low": 1.9, "waf_high": 2.4},
        ],
    }  # fmt: skip
    rows = list(tally.evaluate_rows(case, "x/femu-8luns.json", "src", None))
    assert [(r["level"], r["kind"]) for r in rows] == [(0, "waf"), (20, "iops"), (20, "waf")]
    assert [r["inside"] for r in rows] == [False, True, True]
    assert all(r["family"] == "FEMU" and not r["has_waf"] for r in rows)
    assert rows[1]["width"] == pytest.approx(260 / 200 - 1)


def test_a_prediction_holds_out_the_levels_and_kinds_its_points_lack(tally):
    pred = {
        "fit": {"points": [
            {"extra_op_percent": 0.0, "iops": 100.0, "waf": 5.0, "queue_depth": None},
            {"extra_op_percent": 40.0, "iops": 400.0, "waf": None, "queue_depth": None},
            {"extra_op_percent": 0.0, "iops": 900.0, "fresh": True, "queue_depth": None},
        ]},
        "levels": [
            {"extra_op_percent": x, "steady_iops": v, "steady_iops_low": 0.9 * v,
             "steady_iops_high": 1.1 * v, "waf": w, "waf_low": 0.9 * w, "waf_high": 1.1 * w}
            for x, v, w in ((0.0, 100.0, 5.0), (20.0, 250.0, 2.0), (40.0, 400.0, 1.5))
        ],
    }  # fmt: skip
    got = ((0, 100, 5), (20, 300, 2), (40, 400, 1.5))
    truth = {"levels": [{"extra_op_percent": x, "queue_depth": 32, "steady_iops": v,
                         "steady_waf": w} for x, v, w in got]}  # fmt: skip
    rows = list(tally.prediction_rows(pred, truth, "a/ssdsim-f.json", "src", "c", None))
    assert [(r["level"], r["kind"]) for r in rows] == [(20.0, "iops"), (20.0, "waf"), (40.0, "waf")]
    assert [r["inside"] for r in rows] == [False, True, True]
    assert all(r["has_waf"] and r["family"] == "SSDsim" for r in rows)


def test_the_tally_counts_current_and_stale_apart(tally):
    def r(inside: bool, stale: str | None) -> dict:
        return tally.row(block="plan", family="F", predicted=1.0, low=0.9, high=1.1,
                         true=1.0 if inside else 2.0, stale=stale)  # fmt: skip

    t = tally.tally([r(True, None), r(False, None), r(True, "old")])
    assert t["pooled"]["current"]["n"] == 2 and t["pooled"]["current"]["inside"] == 0.5
    assert t["pooled"]["stale"]["n"] == 1 and t["stale_why"] == {"old": 1}
    assert t["families"]["F"]["all"]["median_width"] == pytest.approx(1.1 / 0.9 - 1)


def test_now_stands_a_re_predicted_source_in_for_the_stored_one_when_found(
    tally, tmp_path, monkeypatch
):
    now_sources = (("femu/*/prediction.json", None, "F", "old/*.json"),
                   ("mqsim/*/evaluation.json", None, "M", "gone/*.json"))  # fmt: skip
    monkeypatch.setattr(tally, "NOW", tmp_path)
    monkeypatch.setattr(tally, "NOW_SOURCES", now_sources)
    monkeypatch.setattr(
        tally, "PLAN_SOURCES", (("old/*.json", None, "F"), ("gone/*.json", None, "M"))
    )
    assert [s[1] for s in tally.plan_sources(now=True)] == ["old/*.json", "gone/*.json"]
    (tmp_path / "femu" / "d1-on").mkdir(parents=True)
    (tmp_path / "femu" / "d1-on" / "prediction.json").write_text("{}")
    (tmp_path / "femu" / "d2-on").mkdir()  # calibrate refused: no prediction
    got = tally.plan_sources(now=True)
    assert [(s[0], s[1]) for s in got] == [(tally.RESULTS, "gone/*.json"),
                                           (tmp_path, "femu/*/prediction.json")]  # fmt: skip
    assert [s[1] for s in tally.plan_sources()] == ["old/*.json", "gone/*.json"]
    (tmp_path / "femu" / "truths.txt").write_text("d1-on r/d1.json\nd2-on r/d2.json\n")
    assert tally._now_truth(tmp_path / "femu" / "d1-on" / "prediction.json") == "r/d1.json"
    assert tally._now_truth(tmp_path / "x" / "prediction.json") is None
    monkeypatch.setattr(tally, "ROOT", tmp_path)
    assert tally.now_refused() == ["femu/d2-on"]


def test_then_and_now_sets_each_family_s_current_cases_side_by_side(tally):
    def r(fam: str, inside: bool) -> dict:
        return tally.row(block="plan", family=fam, predicted=1.0, low=0.9, high=1.1,
                         true=1.0 if inside else 2.0, stale=None)  # fmt: skip

    then = tally.tally([r("A", False), r("B", True)])
    now = tally.tally([r("A", True), r("A", True), r("B", True)]) | {"refused": ["d2"]}
    text = tally.then_and_now(then, now)
    assert "| A | 1: 0% at 22% | 2: 100% at 22% |" in text
    assert "| **pooled** | 2: 50% at 22% | 3: 100% at 22% |" in text
    assert text.endswith("(no prediction): d2")


def test_two_drives_truths_of_one_name_are_two_cases(tally, tmp_path, monkeypatch):
    def evaluation(true_iops: float) -> list[dict]:
        lv = {"extra_op_percent": 20, "fitted_iops": False, "fitted_waf": True,
              "iops_true": true_iops, "iops_pred": 250, "iops_low": 200,
              "iops_high": 300}  # fmt: skip
        case = {
            "case": "IOPS+WAF 0+40",
            "command": "overprov calibrate --waf-points 0:5",
            "levels": [lv],
        }
        return [{"results": "mqsim.json", "cases": [case]}]

    for name, v in (("a", 240.0), ("b", 260.0), ("c", 260.0)):  # c: b stored again
        (tmp_path / name).mkdir()
        (tmp_path / name / "evaluation.json").write_text(json.dumps(evaluation(v)))
    monkeypatch.setattr(tally, "RESULTS", tmp_path)
    monkeypatch.setattr(tally, "PLAN_SOURCES", (("*/evaluation.json", None, "M"),))
    monkeypatch.setattr(tally, "committed_at", lambda f: at("2026-11-28T20:00:00+00:00"))
    rows = tally.plan_rows()
    assert sorted((r["source"], r["true"]) for r in rows) == [
        ("a/evaluation.json", 240.0), ("c/evaluation.json", 260.0)]  # fmt: skip


def test_stored_of_now_reads_the_prediction_the_case_was_re_predicted_from(
    tally, tmp_path, monkeypatch
):
    lv = {"extra_op_percent": 20.0, "steady_iops": 250.0, "steady_iops_low": 200.0,
          "steady_iops_high": 300.0, "waf": 2.0, "waf_low": 1.0, "waf_high": 1.5}  # fmt: skip
    pred = {
        "fit": {"points": [{"extra_op_percent": 0.0, "iops": 100.0, "waf": 5.0}]},
        "levels": [lv],
    }
    truth = {"levels": [{"extra_op_percent": 20, "queue_depth": 32, "steady_iops": 260.0,
                         "steady_waf": 2.0}]}  # fmt: skip
    (tmp_path / "stored").mkdir()
    (tmp_path / "stored" / "prediction.json").write_text(json.dumps(pred))
    (tmp_path / "d.json").write_text(json.dumps(truth))
    case = tmp_path / "now" / "femu" / "d-on"
    case.mkdir(parents=True)
    (case / "prediction.json").write_text("{}")
    (case / "run.json").write_text(json.dumps({"repredicted_from": "stored"}))
    (case.parent / "truths.txt").write_text("d-on d.json\n")
    monkeypatch.setattr(tally, "ROOT", tmp_path)
    monkeypatch.setattr(tally, "NOW", tmp_path / "now")
    rows = tally.stored_of_now()
    assert [(r["kind"], r["inside"], r["source"]) for r in rows] == [
        ("iops", True, "stored"), ("waf", False, "stored")]  # fmt: skip
