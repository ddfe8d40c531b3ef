"""Where the metadata factor applies and what its messages quote (calibrate/metadata_factor.py,
review7's items 1, 2 and 4): only where bench/foreign/results/dhara10/RULE.md judged it (typed
WAF figures at exactly two steady levels under uniform writes; elsewhere a typed ``--fob-waf``
is noted, not applied, saying why); the report reads the WAF fitted as typed
(``fit.twin_check`` × m as well); the input rules and the fitted-WAF warning quote the figures
as typed, not ÷ m."""

from __future__ import annotations

import json

import pytest
from overprov.calibrate import answer, plausibility
from overprov.calibrate import fit as fitmod
from overprov.calibrate import metadata_factor as mf
from overprov.cli import main
from overprov.errors import NoAnswerError
from overprov.report.load_calibrate import load_calibrate

SD = 0.05
TYPED = "--waf-points", "0:3.2,40:1.3", "--fob-waf", "1.06"  # review7's case


def pt(x: float, waf: float | None, iops: float | None = None, **kw) -> fitmod.Point:
    return fitmod.Point(x, iops, SD, waf, SD, **kw)


def test_the_report_reads_the_waf_figures_as_typed(tmp_path):
    """It showed the twin check's WAF ÷ m as measured: 3.02 for a typed 3.2."""
    out = tmp_path / "a"
    argv = ["calibrate", *TYPED, "--extra-op", "0,40", "--out", str(out), "--jobs", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    doc = json.loads((out / "prediction.json").read_text())
    assert doc["fit"]["metadata_factor"] == 1.06
    measured = {lv["extra_op_percent"]: lv["waf"] for lv in load_calibrate(out).measured_levels}
    assert measured == pytest.approx({0.0: 3.2, 40.0: 1.3})
    for c in doc["fit"]["twin_check"]:  # the twin's figure × m beside the typed one
        assert c["twin_waf"] / c["measured_waf"] - 1 == pytest.approx(c["rel_error"])


def test_the_input_rules_quote_the_figures_typed(capsys):
    """WAF rising with OP, with the factor applied: quoted 3.02 for a typed 3.2."""
    argv = ["calibrate", "--waf-points", "0:1.3,40:3.2", "--fob-waf", "1.06", "--jobs", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "WAF rises from 1.30 at 0% to 3.20 at 40%" in err


def test_the_fitted_waf_warning_reads_the_typed_figures_against_the_answer_times_m(
    monkeypatch, capsys
):
    """It ran on the figures ÷ m against the answer ÷ m (before ``multiply``): now on the
    typed figures against the answer × m, once."""
    seen = []
    real = plausibility.fitted_waf_missed

    def spy(points, pred):
        seen.append(([p.waf for p in points if not p.fresh], [lv.waf for lv in pred.levels]))
        return real(points, pred)

    monkeypatch.setattr(plausibility, "fitted_waf_missed", spy)
    argv = ["calibrate", *TYPED, "--extra-op", "0,40", "--json", "-", "--jobs", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(seen) == 1
    figures, answered = seen[0]
    assert figures == [3.2, 1.3]
    assert answered == pytest.approx([lv["waf"] for lv in doc["levels"]])  # × m, as given


def test_the_factor_applies_only_where_its_rule_judged_it():
    two = [pt(0.0, 3.2), pt(40.0, 1.3)]
    assert mf.unjudged(two, True, None) == mf.unjudged(two, True, {"pattern": "uniform"}) == ""
    assert "not typed" in mf.unjudged(two, False, None)  # a TARGET, --resume, --from
    assert "not uniform" in mf.unjudged(two, True, {"pattern": "hotcold", "hot": "80/20"})
    three = [pt(0.0, 3.2), pt(20.0, 1.9), pt(40.0, 1.3)]
    assert "at 3 levels, not two" in mf.unjudged(three, True, None)
    iops_only = [pt(0.0, None, 1000.0), pt(40.0, None, 3000.0)]
    assert "at 0 levels" in mf.unjudged(iops_only, True, None)
    fob_and_qd = [*two, pt(0.0, None, 9e4, fresh=True), pt(20.0, None, 800.0, queue_depth=4)]
    assert mf.unjudged(fob_and_qd, True, None) == ""  # the FOB and another QD are not levels
    noted = mf.read(1.06, mf.TYPED, mf.unjudged(three, True, None))
    assert noted.m == 1.0 and not noted.applies
    assert "not applied" in noted.note and "dhara10/RULE.md" in noted.note
    assert "at 3 levels" in noted.note
    assert mf.read(1.06, mf.TYPED, "").m == 1.06
    outside = mf.read(1.7, mf.TYPED, "the figures are not typed")
    assert "ignored" in outside.note  # the range is said first, as before


#: MQSim u768x32 typed at 0, 20 and 40% (tests/calibrate/test_three_levels.py's MQ768): the
#: 20% IOPS figure lies on the FOB's line and is left to it
MQ768 = ["--points", "0:103,20:527,40:1175", "--waf-points", "0:19.32,20:2.491,40:1.444",
         "--fob-iops", "2285"]  # fmt: skip


def test_three_levels_a_typed_fob_waf_is_noted_and_the_line_reads_the_typed_waf(monkeypatch):
    """leave_to_line reads the WAF figures as typed, the line the answer draws them as fitted
    (÷ m): the same, for m never applies to three levels (the gate above)."""
    got = {}

    def stop(fig):
        got["fig"] = fig
        raise NoAnswerError("stopped by the test")  # the input is tested: no twin simulated

    monkeypatch.setattr(answer, "predict", stop)
    argv = ["calibrate", *MQ768, "--fob-waf", "1.06", "--jobs", "1", "--no-progress"]
    assert main(argv) == 3
    fig = got["fig"]
    assert fig.metadata_factor == 1.0 and fig.left_to_line == (20.0,)
    assert {p.extra_op_percent: p.waf for p in fig.points if not p.fresh} == {
        0.0: 19.32,
        20.0: 2.491,
        40.0: 1.444,
    }
