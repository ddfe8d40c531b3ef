"""Readings that all fail their fitted figures as a whole, weighed first by how many of the
shared figures each reproduces one by one (calibrate/evidence.py, REPRODUCED_BY_FIGURE), and
the stacking weights' guard on a figure whose mixture density is not a positive number."""

from __future__ import annotations

import math

from overprov.calibrate import evidence
from test_evidence_refuted import (
    ANALYTIC,
    BLOCKING,
    CHI2,
    MQSIM_ANALYTIC,
    MQSIM_BLOCKING,
    MQSIM_CHI2,
    NEITHER,
)


def test_drive_50s_blocking_reading_reproducing_fewer_figures_loses_its_weight(monkeypatch):
    """Drive 50 (graded plan, 8 GiB): the analytic reading reproduces three of the five shared
    figures (its QD32 IOPS and 0% WAF; not the 40% WAF at 3.1σ nor the QD4 figure), the
    blocking-GC twin one (the 0% WAF); its χ² is lower, so the likelihood gives it weight 1."""
    refuted = {"analytic": ANALYTIC, "blocking": BLOCKING}
    assert evidence.figures_reproduced(refuted, queue_depth=32) == {"analytic": 3, "blocking": 1}
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", False)  # the likelihood alone
    assert evidence.weights(CHI2, NEITHER, refuted, queue_depth=32)["blocking"] > 0.999
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", True)
    assert evidence.weights(CHI2, NEITHER, refuted, queue_depth=32) == {
        "analytic": 1.0,
        "blocking": 0.0,
    }


def test_as_many_figures_reproduced_leaves_the_likelihood_to_decide(monkeypatch):
    """MQSim's pattern: the analytic reading misses the QD4 figure and the 40% WAF, the
    blocking-GC twin two QD32 IOPS figures by 3–4σ: two each, so the χ² decides as before."""
    refuted = {"analytic": MQSIM_ANALYTIC, "blocking": MQSIM_BLOCKING}
    chi2 = MQSIM_CHI2
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", True)
    assert evidence.figures_reproduced(refuted, queue_depth=32) == {"analytic": 2, "blocking": 2}
    assert evidence.weights(chi2, NEITHER, refuted, 32) == evidence.weights(chi2, NEITHER)
    # a reading that reproduces its figures as a whole keeps the gate before any count
    one = evidence.weights(chi2, {"analytic": True, "blocking": False}, refuted, 32)
    assert one == {"analytic": 1.0, "blocking": 0.0}


def test_without_a_shared_waf_figure_the_count_is_not_made(monkeypatch):
    """Drive 50's residuals with their WAF figures taken out (an IOPS-only case): nothing pins
    the analytic reading's spare side, so with BY_FIGURE_NEEDS_WAF the count is not made and
    the likelihood decides, as it does with the flag off; without the gate it is made."""
    iops_only = {
        k: {**ev, "residuals": [r for r in ev["residuals"] if r["figure"] != "waf"]}
        for k, ev in {"analytic": ANALYTIC, "blocking": BLOCKING}.items()
    }
    assert evidence.shares_waf({"analytic": ANALYTIC, "blocking": BLOCKING}, queue_depth=32)
    assert not evidence.shares_waf(iops_only, queue_depth=32)
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", True)
    gated = evidence.weights(CHI2, NEITHER, iops_only, queue_depth=32)
    assert gated == evidence.weights(CHI2, NEITHER) and gated["blocking"] > 0.999
    monkeypatch.setattr(evidence, "BY_FIGURE_NEEDS_WAF", False)
    counts = evidence.figures_reproduced(iops_only, queue_depth=32)
    assert counts["analytic"] > counts["blocking"]
    assert evidence.weights(CHI2, NEITHER, iops_only, queue_depth=32)["blocking"] == 0.0


def test_without_a_shared_waf_figure_the_count_is_made_where_the_spare_side_reads_a_moderate_waf(
    monkeypatch,
):
    """The same IOPS-only residuals with the WAF the analytic reading's surrogate puts at its
    fitted levels: at 3.1 and 1.3 (DiskSim's, EagleTree's range) the count is made and the
    analytic reading, which reproduces more figures, takes the weight; at 8.0 (FEMU's drives
    whose reserve binds) or with the threshold None it is not, and the likelihood decides
    (bench/foreign/results/iops-only/RULE.md)."""
    strip = {
        k: {**ev, "residuals": [r for r in ev["residuals"] if r["figure"] != "waf"]}
        for k, ev in {"analytic": ANALYTIC, "blocking": BLOCKING}.items()
    }
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", True)
    monkeypatch.setattr(evidence, "BY_FIGURE_NEEDS_WAF", True)
    monkeypatch.setattr(evidence, "BY_FIGURE_WITHOUT_WAF_MAX_WAF", 7.0)
    moderate = {**strip, "analytic": {**strip["analytic"], "waf_at_fitted": [3.1, 1.3]}}
    high = {**strip, "analytic": {**strip["analytic"], "waf_at_fitted": [8.0, 1.5]}}
    likelihood = evidence.weights(CHI2, NEITHER)
    assert likelihood["blocking"] > 0.999
    assert evidence.weights(CHI2, NEITHER, moderate, queue_depth=32)["blocking"] == 0.0
    assert evidence.weights(CHI2, NEITHER, high, queue_depth=32) == likelihood
    monkeypatch.setattr(evidence, "BY_FIGURE_WITHOUT_WAF_MAX_WAF", None)
    assert evidence.weights(CHI2, NEITHER, moderate, queue_depth=32) == likelihood


def test_the_analytic_readings_evidence_reports_the_waf_at_its_fitted_levels():
    """evidence.assess records the surrogate's WAF at each fitted steady level (not the FOB),
    which the gate above reads."""
    from overprov.calibrate import fit as fitmod

    points = [
        fitmod.Point(0.0, iops=8000.0),
        fitmod.Point(40.0, iops=30000.0),
        fitmod.Point(0.0, iops=60000.0, fresh=True),
    ]
    form = evidence.ReadingForm(fitmod.waf_at)
    got = evidence.assess(form, points, 0.05)
    central = form.fit(points)
    assert got["waf_at_fitted"] == [central.waf(0.0), central.waf(40.0)]
    assert got["waf_at_fitted"][0] > got["waf_at_fitted"][1] > 1.0


def test_a_figure_whose_mixture_density_is_not_a_number_is_left_out_of_the_stacking():
    """A density that is not a number on one reading makes that figure's Σ w_k p_k NaN, which
    would turn every weight NaN; left out, the weights are those of the other figures."""
    clean = evidence.stacking_weights({"a": [0.0, 0.0], "b": [-1.0, -2.0]})
    got = evidence.stacking_weights({"a": [0.0, 0.0, 0.0], "b": [-1.0, -2.0, math.nan]})
    assert all(math.isfinite(v) for v in got.values())
    assert got == clean
