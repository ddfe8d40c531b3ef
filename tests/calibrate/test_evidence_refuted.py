"""Readings that all fail to reproduce their fitted figures, weighed by stacking their predictive
densities with each reading's own form error (calibrate/evidence.py, REFUTED_WEIGHTS
"form-error") instead of exp(−χ²/2) at the figures' noise."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from overprov.calibrate import evidence


def _res(x: float, figure: str, e: float, sd: float, qd: int | None = None) -> dict:
    r = {"extra_op_percent": x, "figure": figure, "fresh": False, "log_error": e, "rel_sd": sd}
    return r if qd is None else {**r, "queue_depth": qd}


# Generated drive 50 at 8 GiB, graded plan (bench/reading_weight_bench.py, 2026-11-28): the
# analytic reading's residuals (its QD4 figure is its QD32 one, as predicted) and the
# blocking-GC twin's (its 0% IOPS 36% low), with the χ² each was weighed by (the analytic one
# carries 1,135 of leave-one-level-out terms: its fit from one level cannot fix its spare).
ANALYTIC = {
    "n_parameters": 3,
    "residuals": [
        _res(0.0, "iops", 0.0, 0.0294),
        _res(0.0, "waf", 0.0089, 0.02),
        _res(40.0, "iops", 0.0, 0.01),
        _res(40.0, "waf", -0.0610, 0.02),
        _res(40.0, "iops", 0.1350, 0.01, qd=4),
        _res(40.0, "waf", -0.0430, 0.02, qd=4),
    ],
}
BLOCKING = {
    "n_parameters": 3,
    "residuals": [
        _res(0.0, "iops", -0.4456, 0.0294, qd=32),
        _res(40.0, "iops", -0.0418, 0.01, qd=32),
        _res(40.0, "iops", 0.0933, 0.01, qd=4),
        _res(0.0, "waf", 0.0161, 0.02, qd=32),
        _res(40.0, "waf", -0.0620, 0.02, qd=32),
    ],
}
CHI2 = {"analytic": 1331.4, "blocking": 593.5}
NEITHER = {"analytic": False, "blocking": False}
# MQSim's pattern: the analytic reading misses the QD4 figure by 45% and the 40% WAF by 8%, the
# blocking-GC twin fits every figure within 4% though beyond their 1% noise
MQSIM_ANALYTIC = {"n_parameters": 3, "residuals": [
    _res(0.0, "iops", 0.0, 0.01), _res(40.0, "iops", 0.0, 0.01),
    _res(40.0, "iops", 0.45, 0.01, qd=4), _res(40.0, "waf", -0.08, 0.02),
]}  # fmt: skip
MQSIM_BLOCKING = {"n_parameters": 3, "residuals": [
    _res(0.0, "iops", 0.03, 0.01, qd=32), _res(40.0, "iops", -0.04, 0.01, qd=32),
    _res(40.0, "iops", 0.02, 0.01, qd=4), _res(40.0, "waf", -0.03, 0.02, qd=32),
]}  # fmt: skip
MQSIM_CHI2 = {"analytic": 2100.0, "blocking": 45.0}


def test_the_form_error_is_the_scatter_beyond_the_noise():
    """Errors of ±10% on figures of 1% noise, six figures and no parameter: τ² + σ² = 0.1²;
    errors within the noise: τ = 0; one parameter fitted leaves five degrees of freedom."""
    errors = [(0.1, 0.01), (-0.1, 0.01)] * 3
    assert evidence.form_error_rel_sd(errors, 6) == pytest.approx(math.sqrt(0.1**2 - 0.01**2))
    assert evidence.form_error_rel_sd([(0.005, 0.01), (-0.005, 0.01)], 2) == 0.0
    tau5 = evidence.form_error_rel_sd(errors, 5)
    assert tau5 == pytest.approx(math.sqrt(6 / 5 * 0.1**2 - 0.01**2))


def test_stacking_mixes_readings_each_better_somewhere_and_keeps_one_better_everywhere():
    """Two figures, each predicted well by one reading: half each; one reading better at both
    figures: all the weight."""
    half = evidence.stacking_weights({"a": [0.0, -9.0], "b": [-9.0, 0.0]})
    assert half["a"] == pytest.approx(0.5, abs=1e-3)
    one = evidence.stacking_weights({"a": [0.0, 0.0], "b": [-1.0, -2.0]})
    assert one["a"] > 0.999
    assert evidence.stacking_weights({"a": [], "b": []}) == {"a": 0.5, "b": 0.5}


def test_drive_50s_readings_weigh_by_their_form_error_not_by_their_chi2(monkeypatch):
    """Likelihood weights give the blocking-GC reading all the weight (its miss lies on the
    noisiest figure, the analytic reading's χ² holds its unidentified leave-one-out terms); with
    each reading's form error the analytic one, within 14% everywhere, takes over 0.99."""
    refuted = {"analytic": ANALYTIC, "blocking": BLOCKING}
    monkeypatch.setattr(evidence, "REPRODUCED_BY_FIGURE", False)  # the likelihood alone
    assert evidence.weights(CHI2, NEITHER, refuted, queue_depth=32)["blocking"] > 0.999
    monkeypatch.setattr(evidence, "REFUTED_WEIGHTS", "form-error")
    dens = evidence.predictive_densities(refuted, queue_depth=32)
    # scored on the five figures both hold (the blocking-GC twin has no QD4 WAF)
    assert len(dens["analytic"]["log_density"]) == len(dens["blocking"]["log_density"]) == 5
    assert dens["analytic"]["form_rel_sd"] < 0.1 < dens["blocking"]["form_rel_sd"]
    w = evidence.weights(CHI2, NEITHER, refuted, queue_depth=32)
    assert w["analytic"] > 0.99
    # a reading that reproduces its figures keeps the gate: the form error is not asked
    assert evidence.weights(CHI2, {"analytic": False, "blocking": True}, refuted)["blocking"] == 1


def test_a_reading_that_predicts_the_other_queue_depth_keeps_its_weight(monkeypatch):
    """MQSim's case: the analytic reading misses the QD4 figure by 45% and the 40% WAF by 8%,
    the blocking-GC twin fits every figure within 4% though beyond their 1% noise: it keeps the
    weight with the form error as with the likelihood."""
    refuted = {"analytic": MQSIM_ANALYTIC, "blocking": MQSIM_BLOCKING}
    chi2 = MQSIM_CHI2
    monkeypatch.setattr(evidence, "REFUTED_WEIGHTS", "form-error")
    assert evidence.weights(chi2, NEITHER, refuted, queue_depth=32)["blocking"] > 0.95


def test_likelihood_weights_stay_the_default():
    """Off unless REFUTED_WEIGHTS says so: the evidences change nothing."""
    refuted = {"analytic": ANALYTIC, "blocking": BLOCKING}
    assert evidence.REFUTED_WEIGHTS == "likelihood"
    assert evidence.weights(CHI2, NEITHER, refuted) == evidence.weights(CHI2, NEITHER)


def test_the_foreign_evaluation_can_run_calibrate_with_refuted_readings_stacked(monkeypatch):
    """bench/foreign/evaluate.py --refuted-weights form-error: calibrate run through `python -c`
    with evidence.REFUTED_WEIGHTS set, the same arguments after it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))
    import evaluate

    doc = {"advertised_bytes": 10**9, "physical_bytes": 2 * 10**9}
    curve = {x: {"steady_iops": 1000.0 + x, "steady_waf": 2.0, "fob_iops": 5000.0}
             for x in evaluate.LEVELS}  # fmt: skip
    case = evaluate.CASES[0]
    plain = evaluate.command(doc, curve, case, jobs=1)
    monkeypatch.setattr(evaluate, "REFUTED_WEIGHTS", "form-error")
    wrapped = evaluate.command(doc, curve, case, jobs=1)
    assert plain[1:3] == ["-m", "overprov"] and wrapped[1] == "-c"
    assert "evidence.REFUTED_WEIGHTS = 'form-error'" in wrapped[2]
    assert "closed_loop" not in wrapped[2]
    assert wrapped[3:] == plain[3:]
