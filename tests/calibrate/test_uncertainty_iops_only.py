"""The interval term of fits without a WAF figure (uncertainty.without_waf; the rule
bench/intervals/RULE-iops-only.md) and its bench's arithmetic
(bench/intervals/iops_only_intervals.py)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from importlib import resources
from pathlib import Path

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import uncertainty
from overprov.calibrate.uncertainty import ModelForm, model_form_for, without_waf

ROOT = Path(__file__).resolve().parents[2]
REC = {"rel_sd": 0.2, "source": "bench/intervals/iops_only_intervals.py, 4 figures, 2026-11-28"}


def figures(with_waf: bool) -> list[fitmod.Point]:
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    pts = [fitmod.Point(0.0, s.iops(0.0, 1.0), 0.02, fresh=True)]
    for x in (0.0, 40.0):
        w = s.waf(x)
        pts.append(fitmod.Point(x, s.iops(x, w), 0.02, w if with_waf else None, 0.02))
    return pts


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "iops_only_intervals", ROOT / "bench" / "intervals" / "iops_only_intervals.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules["iops_only_intervals"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_fit_without_waf_is_widened_in_quadrature_at_every_level():
    base = ModelForm(0.16, per_log_spare=0.3, source="corpus")
    form = without_waf(base, figures(with_waf=False), REC)
    assert form.iops_only_sd == 0.2
    for d in (None, 0.0, 0.7, 2.0):
        assert form.at(d) == pytest.approx(math.hypot(base.at(d), 0.2))
    assert form.rel_sd == base.rel_sd  # the evidence weights' form error is not changed
    assert "no WAF figure" in form.describe() and "4 figures" in form.source
    assert "iops_only_intervals.py" not in form.source


def test_a_fit_with_a_waf_figure_keeps_its_form_itself():
    base = ModelForm(0.16, per_log_spare=0.3)
    assert without_waf(base, figures(with_waf=True), REC) is base
    assert without_waf(base, figures(with_waf=False), None) is base


def test_calibrate_reads_the_recorded_term_only_without_waf():
    doc = json.loads(
        resources.files("overprov.calibrate").joinpath("model_form_error.json").read_text()
    )
    rec = doc["iops_only"]
    got = model_form_for(figures(with_waf=False), simulated=False)
    assert got is not None and got.iops_only_sd == pytest.approx(rec["rel_sd"])
    assert model_form_for(figures(with_waf=True), simulated=False).iops_only_sd is None
    assert model_form_for(figures(with_waf=False), simulated=True).iops_only_sd is None


def test_the_term_is_the_maximum_likelihood_sd_beyond_the_given_interval(bench):
    """Errors of ±0.3 in log where the given interval implies σ = 0.1 on both sides: t² =
    0.3² − 0.1²; fitted without each family, a family never sets its own."""

    def row(family: str, e: float) -> dict:
        return {"family": family, "log_error": e, "sd_low": 0.1, "sd_high": 0.1,
                "predicted": math.exp(e), "true": 1.0}  # fmt: skip

    rows = [row("A", s * 0.3) for s in (1, -1)] * 5
    assert bench.fit_term(rows) == pytest.approx(math.sqrt(0.3**2 - 0.1**2), abs=0.005)
    rows += [row("B", s * 0.1) for s in (1, -1)] * 5
    lfo = bench.leave_family_out(rows)
    assert lfo["A"] == 0.0 and lfo["B"] == pytest.approx(0.285, abs=0.005)
    lo, hi = bench.widened(rows[0], 0.2)
    assert math.log(hi / rows[0]["predicted"]) == pytest.approx(
        uncertainty.Z80 * math.hypot(0.1, 0.2)
    )
    s = bench.summary(rows[:2], 0.0)
    assert s["coverage"] == 0.0 and s["p90_abs_error"] == pytest.approx(math.exp(0.3) - 1)


def test_every_stored_iops_waf_case_keeps_its_form_itself(bench):
    """C3(a) of the rule: the figures of every stored IOPS+WAF case (as
    bench/foreign/iops_only_guard.py reads them) hold a WAF, so their form is returned as it is."""
    base = uncertainty.recorded_model_form(False)
    rec = {"rel_sd": 0.2, "source": ""}
    cases = list(bench.guard.stored_waf_cases(bench.RESULTS))
    assert len(cases) >= 100
    for _, _, pts in cases:
        points = [fitmod.Point(p["extra_op_percent"], p["iops"], 0.02, p["waf"],
                               0.02, fresh=p["fresh"]) for p in pts]  # fmt: skip
        assert without_waf(base, points, rec) is base
