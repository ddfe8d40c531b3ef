"""The pooled tally of stored held-out figures with an 80% interval (bench/intervals/tally.py):
which figures a stored case holds out, and which stored intervals are stale."""

from __future__ import annotations

import importlib
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
