"""paced_journal.ON (on by default with metadata_factor.ENABLED since
bench/foreign/results/dhara10/verdict.md): with a metadata factor m > 1 applied to two-level WAF
figures, the reserve readings take the pace's cap wherever it binds
(bench/foreign/results/dhara10/RULE.md); with m = 1 (no --fob-waf, or metadata_factor.ENABLED
off) nothing changes."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import metadata_factor, paced_journal, reserve_hull, uncertainty
from overprov.calibrate import predict as predmod
from overprov.cli import main

#: Dhara's P (bench/foreign/results/dharafloor/dhara-p.json, gc_ratio 18): WAF at 0% and 40%,
#: its FOB WAF, and its steady WAF at 10%.
P_WAF = {0.0: 20.079, 40.0: 1.543}
P_FOB_WAF = 1.0665
P_WAF_10 = 4.768


def _points(m: float) -> list[fitmod.Point]:
    return [fitmod.Point(x, None, 0.05, w / m, 0.05) for x, w in P_WAF.items()]


def _fig(m: float) -> predmod.PredictionInput:
    return predmod.PredictionInput(_points(m), [0.0, 10.0, 40.0], typed=True, jobs=1,
                                   metadata_factor=m)  # fmt: skip


def test_the_cap_is_taken_where_it_binds_below_the_floor_tests_threshold():
    cv_sd = uncertainty.weighing_rel_sd(None)
    points = _points(P_FOB_WAF)
    floor = reserve_hull.form_of("greedy", cv_sd).floor_test(points)
    paced = reserve_hull.form_of("greedy", cv_sd, paced=True).floor_test(points)
    assert 0.0 < floor["log_ratio"] < floor["threshold"]  # P's pace: not a floor at 3 sd
    assert not floor["called_for"]
    assert paced["called_for"] and paced["log_ratio"] == floor["log_ratio"]
    s = reserve_hull.form_of("greedy", cv_sd, paced=True).fit(points)
    assert s.waf_floor == pytest.approx(P_WAF[0.0] / P_FOB_WAF)
    assert 1.0 < 1.0 + s.native_op < 1.05  # the journal's spare: just above the user capacity


@pytest.mark.parametrize("on", [False, True])
def test_only_a_factor_over_1_with_the_flag_on_reads_a_paced_journal(monkeypatch, on):
    monkeypatch.setattr(paced_journal, "ON", on)
    cv_sd = uncertainty.weighing_rel_sd(None)
    assert not paced_journal.applies(_fig(1.0), True)
    assert not reserve_hull.replaces_plain(_fig(1.0), cv_sd)
    assert paced_journal.applies(_fig(P_FOB_WAF), True) is on
    assert reserve_hull.replaces_plain(_fig(P_FOB_WAF), cv_sd) is on
    forms = reserve_hull.forms(_fig(P_FOB_WAF), cv_sd)
    assert bool(forms) is on  # off: no reserve reading is called for at 3 sd
    assert all(f.paced for f in forms.values())


def _answer(*extra: str) -> dict:
    out = io.StringIO()
    args = ["calibrate", "--json", "-", "--jobs", "1", "--extra-op", "0,10,40", "--waf-points",
            ",".join(f"{x:g}:{w}" for x, w in P_WAF.items()), *extra]  # fmt: skip
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(args) in (0, None)
    return json.loads(out.getvalue())


def test_without_a_factor_the_answer_is_the_same_flag_on_or_off(monkeypatch):
    monkeypatch.setattr(paced_journal, "ON", False)
    monkeypatch.setattr(metadata_factor, "ENABLED", False)
    off = _answer()
    monkeypatch.setattr(paced_journal, "ON", True)
    monkeypatch.setattr(metadata_factor, "ENABLED", True)
    assert _answer() == off


def test_with_the_factor_the_paced_reading_answers_dhara_p():
    assert paced_journal.ON and metadata_factor.ENABLED  # the defaults
    pred = _answer("--fob-waf", f"{P_FOB_WAF}")
    assert "capped at WAF" in pred["fit"]["surrogate"]["curve"]  # the pace's cap
    assert pred["fit"]["surrogate"]["floor_test"]["why"] == paced_journal.CAP_BINDS
    by = {lv["extra_op_percent"]: lv["waf"] for lv in pred["levels"]}
    assert by[0.0] == pytest.approx(P_WAF[0.0], rel=0.05)
    assert by[40.0] == pytest.approx(P_WAF[40.0], rel=0.05)
    assert by[10.0] == pytest.approx(P_WAF_10, rel=0.05)  # P's truth at 10%
