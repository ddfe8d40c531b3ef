"""bench/foreign/iops_only_guard.py's arithmetic: the figures read from a calibrate command, the
FOB ratio and QD4 ratio, which truths count as binding, and the rule's G1-G3 judged from kept
cases (bench/foreign/results/iops-only2/RULE.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

FOREIGN = Path(__file__).resolve().parents[2] / "bench" / "foreign"
sys.path.insert(0, str(FOREIGN))

import iops_only_guard as g  # noqa: E402
from overprov.calibrate import plausibility  # noqa: E402

CMD = "overprov calibrate --points 0:8525,40:48925,40:14212@qd4 --fob-iops 80013"


def test_the_figures_and_signals_read_from_a_command():
    pts, fob = g._figures(CMD)
    assert pts == {(0, 32): 8525.0, (40, 32): 48925.0, (40, 4): 14212.0} and fob == 80013.0
    s = g.signals_of(CMD, None)
    assert s["fob_ratio"] == pytest.approx(80013 / 8525)
    assert s["qd4_ratio"] == pytest.approx(14212 / 48925)
    assert s["lowest_level"] == 0 and s["tcmd_on_bound"] is None


def test_which_truths_bind():
    curve = {0: {"steady_waf": 7.998}, 10: {"steady_waf": 5.4}}
    assert g.reserve_binds(curve, "x/femu-20lun.json") is True
    assert g.reserve_binds({0: {"steady_waf": 3.2}}, "x/femu-8lun.json") is False
    assert g.reserve_binds(curve, "x/mqsim.json") is False  # no reserve dated on the others
    assert g.reserve_binds({0: {"steady_waf": 5.9}}, "g/gen-R1-reserve-sf084-floor6.json")
    assert not g.reserve_binds({0: {"steady_waf": 8.0}}, "g/gen-N1-greedy-op007.json")


def _kept(binds, errors, inside, fob, iops0, refused):
    pred = {"fit": {"points": [{"extra_op_percent": 0, "iops": iops0}],
                    "surrogate": {"fob_iops": fob}}}  # fmt: skip
    levels = [{"extra_op_percent": 10 * i, "iops_err": e, "iops_in_80": i < inside}
              for i, e in enumerate(errors)]  # fmt: skip
    return {"binds": binds, "off": {"levels": levels, "prediction": pred},
            "on": {"refused": "why" if refused else None}}  # fmt: skip


def test_the_conditions_from_kept_cases(tmp_path):
    """Judged at the rule's threshold whatever calibrate's default (off since the verdict)."""
    assert plausibility.IOPS_ONLY_FOB_RATIO_MAX is None and g.RULE_RATIO == 7.8
    results, cases = tmp_path / "results", tmp_path / "cases"
    results.mkdir(), cases.mkdir()
    waf_case = {"case": "IOPS+WAF 0+40, FOB", "truth": "t.json",
                "command": CMD + " --waf-points 0:8.0,40:1.5"}  # fmt: skip
    (results / "w.json").write_text(json.dumps(waf_case))
    good = {"a": _kept(True, [0.1, 0.6], 0, 80013, 8525, True),
            "b": _kept(False, [0.05, 0.02], 2, 30000, 9000, False)}  # fmt: skip
    for name, k in good.items():
        (cases / f"{name}.json").write_text(json.dumps(k))
    out = g.check(cases, None, results)
    assert out[-1] == "G1-G3: hold", out
    assert "fires on 0 of 1 stored IOPS+WAF cases (on 1 of them" in out[-2]
    # a binding truth answered with a figure outside, and a non-binding one refused: both fail
    (cases / "c.json").write_text(json.dumps(_kept(True, [0.1, 0.9], 1, 40000, 8000, False)))
    (cases / "d.json").write_text(json.dumps(_kept(False, [0.05, 0.02], 2, 80000, 9000, True)))
    out = g.check(cases, None, results)
    assert out[-1] == "G1-G3: FAIL"
    assert any("G1 fails on c" in line for line in out)
    assert any("G2 fails on d" in line for line in out)
