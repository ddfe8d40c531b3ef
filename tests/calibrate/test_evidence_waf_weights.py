"""The GC designs weighed on their WAF figures (evidence.WAF_WEIGHTS, on by default since
bench/foreign/results/wisctiming/RULE.md; not adopted alone by
bench/foreign/results/wafweights/RULE.md). Seen WiscSim E (bench/foreign/results/wiscsee3/
wiscsee-e.json, its scoreboard plan case): greedy fits both WAF figures but misses the 40% IOPS
figure, so without it d-choices 4 carries the weight; weighed on the WAF figures greedy does."""

from __future__ import annotations

import pytest
from overprov.calibrate import combined_prediction, evidence, spare_readings, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.cli import USER_POINT_REL_SD, user_points

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def _wiscsim_e() -> dict[str, dict]:
    """The evidences of E's plan case as calibrate weighs them (cli.py's input)."""
    points = user_points("0:2339,40:7393,40:7264@qd4", "0:3.574,40:1.270")
    points.append(fitmod.Point(0.0, 13258, USER_POINT_REL_SD, fresh=True))
    fig = predmod.PredictionInput(
        points, LEVELS, typed=True, fob_iops=13258,
        model_form=uncertainty.model_form_for(points, False),
    )  # fmt: skip
    return spare_readings.weigh(fig)[0]


def _by_key(w: dict) -> dict[str, float]:
    return {r.key: v for r, v in w.items()}


def test_on_by_default_and_off_the_record_unchanged(monkeypatch):
    assert evidence.WAF_WEIGHTS is True
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", False)
    ev = _wiscsim_e()
    assert all("waf_chi2" not in e for e in ev.values())
    w = _by_key(spare_readings.class_weights(ev))
    assert max(w, key=w.get) == "effective_spare:d-choices-4"


def test_on_greedy_carries_e(monkeypatch):
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", True)
    ev = _wiscsim_e()
    assert all(e["n_waf_figures"] == 2 for e in ev.values())
    w = _by_key(spare_readings.class_weights(ev))
    assert max(w, key=w.get) == "effective_spare"
    assert w["effective_spare"] > 0.5
    assert sum(w.values()) == pytest.approx(1.0)


def test_waf_terms_count_only_steady_waf_figures():
    pts = [fitmod.Point(0.0, 100.0, 0.05, waf=3.0, waf_rel_sd=0.1),
           fitmod.Point(40.0, 300.0, 0.05, waf=1.3, waf_rel_sd=0.1)]  # fmt: skip
    residuals = [
        {"extra_op_percent": 0.0, "figure": "iops", "fresh": False, "log_error": 0.5,
         "rel_sd": 0.05},
        {"extra_op_percent": 0.0, "figure": "waf", "fresh": False, "log_error": 0.1,
         "rel_sd": 0.1},
        {"extra_op_percent": 40.0, "figure": "waf", "fresh": False, "log_error": -0.2,
         "rel_sd": 0.1},
    ]  # fmt: skip
    held_out = [
        {"extra_op_percent": 0.0, "figure": "waf", "log_error": 0.3},
        {"extra_op_percent": 40.0, "figure": "iops", "log_error": 0.9},
        {"extra_op_percent": 40.0, "figure": "iops", "queue_depth": 4, "log_error": 0.9},
    ]
    got = evidence.waf_terms(residuals, held_out, pts, model_rel_sd=0.0)
    assert got["n_waf_figures"] == 2
    assert got["waf_residual_chi2"] == pytest.approx(1.0 + 4.0)
    assert got["waf_chi2"] == pytest.approx(5.0 + 9.0)


def test_weighs_by_waf_needs_the_flag_and_two_waf_figures(monkeypatch):
    two = {"n_waf_figures": 2}
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", False)
    assert not evidence.weighs_by_waf([two, two])
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", True)
    assert evidence.weighs_by_waf([two, two])
    assert not evidence.weighs_by_waf([two])  # one reading: nothing to weigh
    assert not evidence.weighs_by_waf([two, {"n_waf_figures": 1}])
    assert not evidence.weighs_by_waf([two, {}])  # a record without the WAF terms


def test_waf_weights_keep_each_timing_forms_share():
    ev = {
        "a": {"waf_chi2": 0.0, "waf_residual_chi2": 0.0, "n_waf_figures": 2},
        "b": {"waf_chi2": 2 * 0.6931471805599453, "waf_residual_chi2": 0.0, "n_waf_figures": 2},
        "a+erase": {"waf_chi2": 0.0, "waf_residual_chi2": 0.0, "n_waf_figures": 2},
        "b+erase": {"waf_chi2": 50.0, "waf_residual_chi2": 50.0, "n_waf_figures": 2},
    }
    weighed = {"a": 0.1, "b": 0.2, "a+erase": 0.3, "b+erase": 0.4}
    w = evidence.waf_weights(weighed, ev, lambda r: r.endswith("+erase"))
    assert w["a"] == pytest.approx(0.3 * 2 / 3)  # exp(-χ²/2) 1 against 1/2
    assert w["b"] == pytest.approx(0.3 / 3)
    assert w["a+erase"] == pytest.approx(0.7)  # b+erase misses its WAF figures: set aside
    assert w["b+erase"] == 0.0


def test_skewed_workloads_designs_are_not_regrouped_by_their_waf():
    """WAF_WEIGHTS was judged on uniform writes only (bench/foreign/results/wisctiming/RULE.md):
    readings of a skewed workload's designs (greedy-zones, cost-benefit, ...) keep the weights
    of every figure's χ², while the uniform designs' are regrouped (review3)."""

    def records(designs):
        keys = [predmod.TwinReading(design=d) for d in designs]
        evs = {
            k: {"chi2": c, "residual_chi2": 0.0, "waf_chi2": w, "waf_residual_chi2": 0.0,
                "n_waf_figures": 2, "n_figures": 5, "n_parameters": 3}
            for k, c, w in zip(keys, (1.0, 3.0, 5.0), (9.0, 1.0, 0.5), strict=True)
        }  # fmt: skip
        return keys, evs

    keys, evs = records(("greedy", "greedy-zones", "cost-benefit"))
    assert evidence.WAF_WEIGHTS and evidence.weighs_by_waf(list(evs.values()))
    assert combined_prediction.evidence_weights(evs, keys) == evidence.weights_of(evs)
    keys, evs = records(("greedy", "d-choices-4", "d-choices-8"))
    assert combined_prediction.evidence_weights(evs, keys) != evidence.weights_of(evs)
