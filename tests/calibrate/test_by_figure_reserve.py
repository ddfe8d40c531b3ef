"""The by-figure weighing with the reserve reading beside it, composed at the surrogate level
(bench/foreign/by_figure_reserve.py, the rule of bench/foreign/results/byfig-reserve/RULE.md),
on one kept calibrate run of a seen FEMU drive."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import by_figure_reserve as bfr  # noqa: E402  (bench/foreign/)

KEPT = ROOT / "bench/foreign/results/qd4-by-figure/addendum"
FEMU32 = KEPT / "femu-units-femu-32luns-400us--IOPSWAF040QD3240QD4FOB.json"
ONSET = 0.9924596150716116  # ../gc-onset-plan/seen-onsets.json, femu-units/femu-32luns-400us


def _composed(onset: float | None) -> dict:
    kept = json.loads(FEMU32.read_text())
    kept.setdefault("off", kept["on"])
    onsets = {} if onset is None else {(ROOT / kept["truth"]).resolve(): onset}
    cv_sd = bfr.uncertainty.recorded_model_form(False).rel_sd
    return bfr.compose_case(kept, onsets, cv_sd)


def test_without_reserve_or_rule_the_composition_is_calibrates_prediction():
    """OFF0 (no reserve, the rule off) rebuilt from the kept run's blocking reading and the
    surrogate readings lands on calibrate's own IOPS: the surrogate level costs little here;
    without an onset the reserve reading is not offered, so OFFR is OFF0."""
    c = _composed(None)
    for got, cal in zip(c["variants"]["OFF0"]["levels"], c["calibrate"], strict=True):
        assert abs(got["iops"] / cal["iops"] - 1) < 0.01
    assert c["reserve_weight"] == 0.0
    assert c["variants"]["OFFR"]["levels"] == c["variants"]["OFF0"]["levels"]


def test_the_rule_and_the_reserve_reading_together_fix_femus_10_percent_level():
    """The first rule's failure on this drive: with the blocking reading set aside the analytic
    WAF misses FEMU's GC reserve at 10% and its IOPS there go far off (ON0); with the reserve
    reading fitted to the plan-dated onset beside it (ONR) the level is right."""
    c = _composed(ONSET)
    assert c["reserve_weight"] > 0.9
    assert c["variants"]["OFF0"]["blocking_weight"] > 0.99
    assert c["variants"]["ONR"]["blocking_weight"] < 0.01
    truth = {r["extra_op_percent"]: r["iops"] for r in c["truth"]}

    def err(variant: str) -> float:
        row = next(r for r in c["variants"][variant]["levels"] if r["extra_op_percent"] == 10)
        return abs(row["iops"] / truth[10] - 1)

    assert err("ON0") > 0.3 and err("ONR") < 0.05


def test_a_figure_is_worse_beyond_a_point_and_a_fitted_one_beyond_its_noise():
    assert bfr.worse(0.025, 0.01, 10.0)  # held out: 1.5 points above
    assert not bfr.worse(0.019, 0.005, 40.0)  # fitted, within the figures' noise (2%)
    assert bfr.worse(0.031, 0.005, 40.0)
    assert not bfr.worse(-0.10, 0.095, 20.0)  # half a point


def test_a_truths_figures_become_the_measurement_calibrates_plan_keeps(tmp_path):
    """The fourth rule's case (bench/foreign/results/byfig-twin/RULE.md): the truth's QD32 0%
    and 40% figures with WAF, its QD4 figure at 40% and FOB, and the plan-dated onset, in a
    measurement.json that calibrate's loader accepts and reads with an onset from empty."""
    from overprov import measurement_file
    from overprov.calibrate import predict, reserve_reading

    truth = ROOT / "bench/foreign/results/byfig-reserve3/unseen/femu-12lun-96blk-thres88.json"
    doc = json.loads(truth.read_text())
    bfr.save(bfr.measurement_of(doc, 1.12), tmp_path / measurement_file.NAME)
    m = measurement_file.load(tmp_path / measurement_file.NAME)
    assert reserve_reading.onset_from_empty(m) == 1.12
    curve = bfr.evaluate.truth_curve(doc, 32)
    assert m.fob_iops == curve[0]["fob_iops"]
    fig = predict.PredictionInput(predict.points_from(m), [0, 10, 20, 30, 40], measurement=m)
    assert [(p.extra_op_percent, p.iops, p.waf) for p in fig.points] == [
        (float(x), curve[x]["steady_iops"], curve[x]["steady_waf"]) for x in (0, 40)
    ]
    assert [(p.extra_op_percent, p.queue_depth) for p in fig.other_qd_points] == [(40.0, 4)]
