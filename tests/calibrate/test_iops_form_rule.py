"""bench/foreign/iops_form_rule.py's arithmetic (results/iops-form/RULE.md): the seen curves'
line 1/IOPS = t_cmd + WAF·t_page, and the verdict from kept on/off rows. No calibrate run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import iops_form_rule as rule  # noqa: E402


def _levels(t_cmd: float, t_page: float) -> list[dict]:
    return [{"steady_waf": w, "steady_iops": 1e6 / (t_cmd + w * t_page)} for w in (2.0, 1.5, 1.2)]


def test_the_line_of_a_curve_gives_back_its_times():
    assert rule.line(_levels(-3.0, 7.0)) == pytest.approx((-3.0, 7.0))


def _row(x: int, iops_err: float, waf_err: float, fitted: bool) -> dict:
    return {"extra_op_percent": x, "fitted_iops": fitted, "fitted_waf": False,
            "iops_err": iops_err, "waf_err": waf_err}  # fmt: skip


def _kept(tmp: Path, name: str, case: str, off_waf: float, on_waf: float) -> None:
    truth = tmp / f"{name}.json"
    truth.write_text(json.dumps({"levels": [{"queue_depth": 32, "steady_window": {"rule": {
        "iops_half_range": 0.002, "waf_half_range": 0.003}}}]}))  # fmt: skip
    fit = {"native_op": 0.3, "t_cmd_us": -1.0, "t_page_us": 5.0}
    side = {
        s: {
            "fit": fit,
            "levels": [
                _row(0, 0.01, w, True),
                _row(20, 0.02, w / 2, False),
                _row(40, 0.0, 0.01, True),
            ],
        }  # fmt: skip
        for s, w in (("off", off_waf), ("on", on_waf))
    }
    (tmp / f"{name}--{case.replace(' ', '')}.json").write_text(
        json.dumps({"truth": str(truth), "case": case, **side})
    )


def test_the_verdict_needs_the_fresh_waf_better_and_the_seen_no_worse(tmp_path, capsys):
    _kept(tmp_path, "fresh", "IOPS 20, FOB", 0.30, 0.20)
    _kept(tmp_path, "seen", "IOPS 20, FOB", 0.10, 0.112)  # within 1 point + 0.3 noise
    assert rule.check([tmp_path], ["fresh"], ["seen"])
    assert "A1 IOPS-alone WAF worst, median over 1 fresh cases: 30.0% → 20.0%: holds" in (
        capsys.readouterr().out
    )
    _kept(tmp_path, "seen", "IOPS 20, FOB", 0.10, 0.115)  # 1.5 points worse: beyond
    assert not rule.check([tmp_path], ["fresh"], ["seen"])
    _kept(tmp_path, "seen", "IOPS 20, FOB", 0.10, 0.10)
    _kept(tmp_path, "fresh", "IOPS 20, FOB", 0.30, 0.27)  # 3 points: short of A1's 5
    assert not rule.check([tmp_path], ["fresh"], ["seen"])


def test_the_published_cases_no_worse_than_one_point(tmp_path):
    def out(name: str, err: float) -> Path:
        case = {"drive": "d", "raw_nand_given": False, "foreign": False, "rel_error": err,
                "held_out": {"kind": "iops", "extra_op_percent": 20}}  # fmt: skip
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps({"cases": [case, {**case, "foreign": True, "rel_error": 9}]}))
        return p

    assert rule.check_corpus(out("on", -0.109), out("off", 0.10)) == [True]
    assert rule.check_corpus(out("on", 0.111), out("off", -0.10)) == [False]
