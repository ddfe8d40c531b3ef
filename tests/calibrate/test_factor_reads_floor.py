"""reserve_hull.FACTOR_READS_FLOOR (off): where a metadata factor m > 1 was applied to two-level
WAF figures, they are read as a GC reserve with a floor (bench/foreign/results/dharafloor/
RULE.md); with m = 1 (no --fob-waf, or the flag off) nothing changes."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import metadata_factor, paced_journal, reserve_hull, uncertainty
from overprov.calibrate import predict as predmod
from overprov.cli import main

#: Dhara's J (bench/foreign/results/metafactor/dhara-j.json): WAF at 0% and 40%, its FOB WAF.
J_WAF = {0.0: 8.536, 40.0: 1.547}
J_FOB_WAF = 1.0666


def _fig(m: float) -> predmod.PredictionInput:
    pts = [fitmod.Point(x, None, 0.05, w / m, 0.05) for x, w in J_WAF.items()]
    return predmod.PredictionInput(pts, [0.0, 10.0, 40.0], typed=True, jobs=1, metadata_factor=m)


@pytest.mark.parametrize("on", [False, True])
def test_only_a_factor_over_1_with_the_flag_on_reads_the_floor(monkeypatch, on):
    monkeypatch.setattr(reserve_hull, "FACTOR_READS_FLOOR", on)
    monkeypatch.setattr(paced_journal, "ON", False)  # on by default: it reads them too
    cv_sd = uncertainty.weighing_rel_sd(None)
    assert not reserve_hull.replaces_plain(_fig(1.0), cv_sd)  # d-choices-4 links them: plain
    assert reserve_hull.replaces_plain(_fig(J_FOB_WAF), cv_sd) is on


def _answer(*extra: str) -> dict:
    out = io.StringIO()
    args = ["calibrate", "--json", "-", "--jobs", "1", "--extra-op", "0,10,40", "--waf-points",
            ",".join(f"{x:g}:{w}" for x, w in J_WAF.items()), *extra]  # fmt: skip
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(args) in (0, None)
    return json.loads(out.getvalue())


def test_without_a_factor_the_answer_is_the_same_flag_on_or_off(monkeypatch):
    off = _answer()
    monkeypatch.setattr(reserve_hull, "FACTOR_READS_FLOOR", True)
    monkeypatch.setattr(metadata_factor, "ENABLED", True)
    assert _answer() == off


def test_with_the_factor_the_reserve_reading_answers_dhara_j(monkeypatch):
    monkeypatch.setattr(reserve_hull, "FACTOR_READS_FLOOR", True)
    monkeypatch.setattr(metadata_factor, "ENABLED", True)
    pred = _answer("--fob-waf", f"{J_FOB_WAF}")
    assert all(k.startswith("gc_reserve") for k in pred.get("readings") or {})
    assert "capped at WAF" in pred["fit"]["surrogate"]["curve"]  # the reserve's floor
    by = {lv["extra_op_percent"]: lv["waf"] for lv in pred["levels"]}
    assert by[0.0] == pytest.approx(J_WAF[0.0], rel=0.05)
    assert by[40.0] == pytest.approx(J_WAF[40.0], rel=0.05)
    assert by[10.0] == pytest.approx(4.770, rel=0.05)  # J's truth at 10% (today's: -17%)
