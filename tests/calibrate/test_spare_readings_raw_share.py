"""The raw NAND as information: the raw-spare readings' share of the weight
(spare_readings.raw_share, class_weights, shared_weights) and read_all's use of it. No twin is
simulated here: read_all's twins are stood in for by the readings' own surrogate fits."""

from __future__ import annotations

import math
import sys
from types import SimpleNamespace

import pytest
from overprov.calibrate import evidence, gc_designs, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import PredictedLevel, Prediction

RAW_OP = 2**37 / 128e9 - 1  # 128 GB on 128 GiB of NAND: 7.4% raw spare
EFF = spare_readings.reading(predmod.EFFECTIVE, "greedy", RAW_OP, True)
RAW = spare_readings.reading(predmod.RAW, "greedy", RAW_OP, True)


def _ev(residual: float, loo: float, n_figures: int = 4, held: int = 3) -> dict:
    """An evidence record as evidence.assess gives it: residual χ² and leave-one-out term."""
    return {"chi2": residual + loo, "residual_chi2": residual, "n_figures": n_figures,
            "n_parameters": 2, "held_out": [{}] * held}  # fmt: skip


def _share(ev_eff: dict, ev_raw: dict) -> tuple[float, str]:
    evs = {EFF: ev_eff, RAW: ev_raw}
    return spare_readings.raw_share(evs, spare_readings.class_weights(evs))


def test_an_even_leave_one_out_gives_the_raw_spare_no_weight():
    share, why = _share(_ev(1.0, 5.0), _ev(0.5, 5.0))
    assert share == 0.0 and "does not prefer" in why


def test_the_share_is_what_positive_evidence_gives_beyond_an_even_split():
    """Δ = 8 in −2 ln likelihood, 2 of it the threshold of positive evidence
    (``RAW_SHARE_MIN_DELTA``): the share tanh((8 − 2)/4); with no threshold (the earlier rule,
    bench/raw_nand_bench.py's "any"), p = 1/(1 + e^−4) and the share 2p − 1 = tanh(2)."""
    share, why = _share(_ev(1.0, 10.0), _ev(1.0, 2.0))
    assert share == pytest.approx(math.tanh(1.5), rel=1e-12)
    assert "prefers the raw spare" in why and "counts as evidence" not in why
    evs = {EFF: _ev(1.0, 10.0), RAW: _ev(1.0, 2.0)}
    within = spare_readings.class_weights(evs)
    assert spare_readings.raw_share(evs, within, 0.0)[0] == pytest.approx(math.tanh(2.0))
    assert _share(_ev(1.0, 2.0), _ev(1.0, 10.0))[0] == 0.0  # the other way: none


@pytest.mark.parametrize("delta", [0.03, 1.2, 2.0])
def test_a_preference_short_of_positive_evidence_gives_the_raw_spare_no_weight(delta):
    """Δ at most 2 (Kass & Raftery's "not worth more than a bare mention"): the raw spare
    takes nothing, and the reason says why — the sssl-ftlsim levels at Δ 0.03 and SimpleSSD
    at 0% (Δ 1.2) that the raw NAND made worse (docs/calibrate-validation.md, "The raw NAND
    given needs evidence, not any preference")."""
    share, why = _share(_ev(1.0, 5.0 + delta), _ev(1.0, 5.0))
    assert share == 0.0
    assert "prefers the raw spare" in why and "no more than the 2 that counts as evidence" in why


def test_a_raw_class_that_misses_its_fitted_figures_takes_none_however_its_loo():
    """Residual χ² 500 on 4 figures and 2 parameters: refuted (the refuted-forms case of
    MQSim and FEMU), so its better leave-one-out is no evidence for the raw NAND."""
    share, why = _share(_ev(600.0, 9000.0), _ev(500.0, 10.0))
    assert share == 0.0 and "reproduces" in why


def test_nothing_held_out_gives_the_raw_spare_no_weight():
    share, why = _share(_ev(0.0, 0.0, 1, 0), _ev(0.0, 0.0, 1, 0))
    assert share == 0.0 and "held out" in why


def test_the_effective_readings_keep_their_weights_without_the_raw_nand():
    """class_weights: the effective class's weights are evidence.weights over it alone (what
    read_all gives without --physical), whatever the raw readings' evidence."""
    evs = {EFF: _ev(1.0, 3.0), RAW: _ev(0.0, 0.1)}
    d8 = spare_readings.reading(predmod.EFFECTIVE, "d-choices-8", RAW_OP, True)
    evs[d8] = _ev(2.0, 4.0)
    within = spare_readings.class_weights(evs)
    alone = evidence.weights({EFF: evs[EFF]["chi2"], d8: evs[d8]["chi2"]})
    assert within[EFF] == pytest.approx(alone[EFF]) and within[d8] == pytest.approx(alone[d8])
    assert within[RAW] == 1.0
    w = spare_readings.shared_weights(within, 0.25)
    assert w[RAW] == 0.25 and w[EFF] + w[d8] == pytest.approx(0.75)


def _surrogate_twins(monkeypatch) -> None:
    """read_all's twins stood in for by each reading's surrogate: its WAF at each level."""

    def prepare(fig, r, curve=None, **kw):
        return SimpleNamespace(has_iops=False, levels=list(fig.levels))

    def read(fig, r, curve, ready):
        s = r.form(curve or fitmod.waf_at).fit(fig.points)
        levels = [PredictedLevel(x, waf=s.waf(x), waf_low=0.98 * s.waf(x),
                                 waf_high=1.02 * s.waf(x)) for x in fig.levels]  # fmt: skip
        return Prediction(interval="80%", prediction_source="surrogate", workload="uniform",
                          workload_flags="", waf_curve=None, levels=levels, recommendation=None,
                          fit={"spare_efficiency": s.spare_efficiency, "native_op": s.native_op},
                          twin=r.twin_name, measurement=None,
                          twins={r.twin_name: "stand-in"})  # fmt: skip

    monkeypatch.setattr(predmod, "prepare", prepare)
    monkeypatch.setattr(predmod, "read", read)


def _read(points: list[fitmod.Point], levels: list[float], raw: float | None) -> Prediction:
    fig = predmod.PredictionInput(points, levels, typed=True, raw_native_op=raw, jobs=1,
                                  advertised_bytes=128 * 10**9, progress=False)  # fmt: skip
    curves = {d: gc_designs.curve(d) for d in gc_designs.UNIFORM_DESIGNS}
    return spare_readings.read_all(fig, curves)


def test_figures_that_cannot_tell_the_spares_apart_predict_as_without_the_raw_nand(monkeypatch):
    """The PNY figure (WAF 2.85 at 0%, nothing to hold out): with the raw NAND the levels are
    those without it, figure for figure; the raw-spare readings are reported at weight 0."""
    _surrogate_twins(monkeypatch)
    pts = [fitmod.Point(0.0, None, 0.05, 2.85, 0.05)]
    given, without = _read(pts, [0.0, 20.0], RAW_OP), _read(pts, [0.0, 20.0], None)
    assert [r.waf for r in given.levels] == [r.waf for r in without.levels]
    assert [(r.waf_low, r.waf_high) for r in given.levels] == [
        (r.waf_low, r.waf_high) for r in without.levels
    ]
    raw = [r for r in given.readings if r.spare == predmod.RAW]
    assert len(raw) == 4 and all(r.weight == 0.0 for r in raw)
    assert "raw-spare readings take 0 of the weight" in given.prediction_source


def test_figures_the_raw_spare_predicts_better_move_the_prediction_toward_it(monkeypatch):
    """WAF figures made by the raw-spare form itself (greedy at k = 0.3 times the raw spare, at
    0, 10, 20 and 40%): its leave-one-out is exact where the effective spare's misses, so the
    raw class takes nearly all the weight and the 30% level follows it."""
    _surrogate_twins(monkeypatch)
    k = 0.3
    pts = [fitmod.Point(x, None, 0.02, fitmod.waf_at(k * fitmod.rho_eff(RAW_OP, x)), 0.02)
           for x in (0.0, 10.0, 20.0, 40.0)]  # fmt: skip
    given, without = _read(pts, [30.0], RAW_OP), _read(pts, [30.0], None)
    truth = fitmod.waf_at(k * fitmod.rho_eff(RAW_OP, 30.0))
    share = sum(r.weight for r in given.readings if r.spare == predmod.RAW)
    assert share > 0.9
    assert abs(math.log(given.levels[0].waf / truth)) < abs(math.log(without.levels[0].waf / truth))
    assert "prefers the raw spare" in given.prediction_source


def _case(drive: str, given: bool, log_error: float, parts: list) -> dict:
    held = {"kind": "waf", "extra_op_percent": 10, "value": 2.0}
    return {"drive": drive, "name": drive, "raw_nand_given": given, "held_out": dict(held),
            "log_error": log_error, "rel_error": math.expm1(log_error), "parts": parts}  # fmt: skip


def test_the_pairs_table_lists_only_the_pairs_the_raw_nand_made_worse(bench):
    """bench/corpus_report.py pairs a held-out figure's two cases by drive, figure and level
    (not by object identity: cases read back from JSON lines are separate objects) and lists
    the worse ones with the raw-spare readings' share."""
    report = sys.modules["corpus_report"]
    parts = [
        {"reading": "raw_spare", "weight": 0.75},
        {"reading": "effective_spare", "weight": 0.25},
    ]
    cases = [_case("a", True, 0.10, parts), _case("a", False, 0.05, parts[1:]),
             _case("b", True, -0.02, parts), _case("b", False, 0.03, parts[1:]),
             _case("c", True, 0.01, parts)]  # fmt: skip
    assert [(g["drive"], w["drive"]) for g, w in report.raw_pairs(cases)] == [
        ("a", "a"),
        ("b", "b"),
    ]
    rows = report.raw_worse_markdown(cases).splitlines()[2:]
    assert len(rows) == 1 and rows[0].startswith("| a |")
    assert "| 5.00 | 0.75 | raw_spare 0.75; effective_spare 0.25 |" in rows[0]
