"""conformal_scale: rule 3's scale measured on foreign FTLs' held-out figures (off by default)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from overprov.calibrate import conformal_scale, uncertainty
from overprov.calibrate import fit as fitmod

ROOT = Path(__file__).resolve().parents[2]


def test_needed_scale_puts_the_truth_on_the_band_edge():
    e, b, unit = math.log(1.10), 0.04, 0.05
    s = conformal_scale.needed_scale(e, b, unit, uncertainty.Z80)
    low_high = uncertainty.band(1.0, [math.exp(-b), math.exp(b)], s * unit)
    assert math.log(low_high[1]) == pytest.approx(e, rel=1e-9)
    assert conformal_scale.needed_scale(-e, b, unit, uncertainty.Z80) == pytest.approx(s)


def test_needed_scale_is_zero_where_the_bootstrap_holds_the_truth():
    assert conformal_scale.needed_scale(0.03, 0.05, 0.05, uncertainty.Z80) == 0.0
    with pytest.raises(ValueError):
        conformal_scale.needed_scale(0.1, 0.0, 0.0, uncertainty.Z80)


def test_quantile_is_the_ceil_p_n_th_smallest():
    assert conformal_scale.quantile([5, 1, 4, 2, 3], 0.8) == 4
    assert conformal_scale.quantile([3, 1, 2, 4, 5, 6, 7, 8, 9, 10], 0.8) == 8
    with pytest.raises(ValueError):
        conformal_scale.quantile([], 0.8)


def test_families_are_the_unit():
    # one large family needing nothing cannot outvote four small ones needing 1
    needed = {"big": [0.0] * 1000, **{f"f{i}": [1.0] * 5 for i in range(4)}}
    assert conformal_scale.family_scale(needed) == 1.0
    # four of five families need nothing: the 80% family quantile is the fourth smallest
    needed = {"a": [0.0], "b": [0.0], "c": [0.0], "d": [0.0], "e": [9.0]}
    assert conformal_scale.family_scale(needed) == 0.0
    assert conformal_scale.family_scale(needed, leave_out="a") == 9.0


def test_off_keeps_the_recorded_scale_and_on_sets_only_the_width(monkeypatch):
    pts = [fitmod.Point(0.0, 2449.0, 0.05, waf=2.495, waf_rel_sd=0.05),
           fitmod.Point(40.0, 7947.0, 0.05, waf=1.2, waf_rel_sd=0.05),
           fitmod.Point(0.0, 13221.0, 0.05, fresh=True)]  # fmt: skip
    monkeypatch.setattr(conformal_scale, "ON", False)
    off = uncertainty.model_form_for(pts, False)
    assert off is not None and off.residual_sd is not None
    assert off.residual_scale == pytest.approx(uncertainty.recorded()["fit_residual"]["scale"])
    monkeypatch.setattr(conformal_scale, "ON", True)
    on = uncertainty.model_form_for(pts, False)
    assert on.residual_scale == conformal_scale.SCALE
    assert on.residual_sd == off.residual_sd
    # the evidence weights read rel_sd, not the scale: every centre stays
    assert uncertainty.weighing_rel_sd(on) == uncertainty.weighing_rel_sd(off)
    assert on.at(None) == pytest.approx(off.at(None) * conformal_scale.SCALE / off.residual_scale)


def test_the_recorded_scale_is_the_measured_one():
    got = json.loads((ROOT / "bench/foreign/results/narrowband/scale.json").read_text())
    assert pytest.approx(got["scale"], abs=5e-5) == conformal_scale.SCALE
    for fam, s in got["scale_without_family"].items():
        assert conformal_scale.SCALE_WITHOUT_FAMILY[fam] == pytest.approx(s, abs=5e-5)
    assert conformal_scale.ON is False  # not turned on at the merge: conformal_scale.ON's comment


def test_family_mean_coverage_weighs_families_equally():
    needed = {"big": [0.0] * 90 + [1.0] * 10, "small": [0.0, 1.0]}
    # big holds 90%, small 50%: averaged 70%, not the pooled 91/102
    assert conformal_scale.family_mean_coverage(needed, 0.5) == pytest.approx(0.70)
    assert conformal_scale.family_mean_coverage(needed, 1.0) == 1.0
    with pytest.raises(ValueError):
        conformal_scale.family_mean_coverage({"empty": []}, 1.0)


def test_family_mean_scale_is_the_smallest_needed_scale_reaching_p_on_average():
    needed = {"a": [0.1, 0.2, 0.3, 0.4, 0.5], "b": [0.0] * 5}
    # at 0.2: a 40%, b 100% -> 70%; at 0.3: a 60% -> 80%
    assert conformal_scale.family_mean_scale(needed) == 0.3
    assert conformal_scale.family_mean_scale(needed, p=0.7) == 0.2
    assert conformal_scale.family_mean_scale(needed, leave_out="b") == 0.4
    # the quantile of quantiles asks more: 80% of a family's figures for 80% of the families
    assert conformal_scale.family_scale(needed) == 0.4
    assert conformal_scale.family_mean_coverage(needed, 0.3) >= 0.8


@pytest.mark.parametrize(("flag", "chosen"), [("MEAN", "SCALE_MEAN"), ("FLOORED", "SCALE_FLOOR")])
def test_a_selector_chooses_its_scale_only_when_on(monkeypatch, flag, chosen):
    monkeypatch.setattr(conformal_scale, "ON", False)
    monkeypatch.setattr(conformal_scale, flag, True)
    assert conformal_scale.scale(0.82) == 0.82
    monkeypatch.setattr(conformal_scale, "ON", True)
    assert conformal_scale.scale(0.82) == getattr(conformal_scale, chosen)
    monkeypatch.setattr(conformal_scale, flag, False)
    assert conformal_scale.scale(0.82) == conformal_scale.SCALE


def test_the_recorded_mean_scale_is_the_measured_one():
    got = json.loads((ROOT / "bench/foreign/results/narrowmean/scale_mean.json").read_text())
    assert pytest.approx(got["scale_mean"], abs=5e-5) == conformal_scale.SCALE_MEAN
    for fam, s in got["scale_mean_without_family"].items():
        assert conformal_scale.SCALE_MEAN_WITHOUT_FAMILY[fam] == pytest.approx(s, abs=5e-5)
    # the stored needed scales reproduce it through the library function
    assert conformal_scale.family_mean_scale(got["needed_by_family"]) == got["scale_mean"]
    assert conformal_scale.MEAN is False  # off: bench/foreign/results/narrowmean/RULE.md


def test_floored_mean_scale_lifts_the_mean_scale_to_each_groups_floor():
    needed = {"a": [0.1, 0.2, 0.3, 0.4, 0.5], "b": [0.0] * 5}
    # the mean alone asks 0.3 (a 60%, b 100%); a floored group of a needs 0.4 (4 of 5 >= 70%)
    floored = [("a", [0.1, 0.2, 0.3, 0.4, 0.5]), ("b", [0.0] * 5)]
    assert conformal_scale.floored_mean_scale(needed, []) == 0.3
    assert conformal_scale.floored_mean_scale(needed, floored) == 0.4
    # a group whose floor the mean's scale already holds changes nothing
    assert conformal_scale.floored_mean_scale(needed, floored, floor=0.5) == 0.3
    # leaving a's family out drops its groups too
    assert conformal_scale.floored_mean_scale(needed, floored, leave_out="a") == 0.0
    got = conformal_scale.floored_mean_scale(needed, floored)
    assert conformal_scale.family_mean_coverage(needed, got) >= 0.8
    assert all(sum(x <= got for x in v) / len(v) >= 0.7 for _, v in floored)


def test_the_recorded_floor_scale_is_the_measured_one():
    got = json.loads((ROOT / "bench/foreign/results/narrowfloor/scale_floor.json").read_text())
    assert pytest.approx(got["scale_floor"], abs=5e-5) == conformal_scale.SCALE_FLOOR
    for fam, s in got["scale_floor_without_family"].items():
        assert conformal_scale.SCALE_FLOOR_WITHOUT_FAMILY[fam] == pytest.approx(s, abs=5e-5)
    # the stored needed scales reproduce it through the library function
    groups = got["needed_by_group"]
    needed = {g: v for g, v in groups.items() if " " not in g}
    floored = [(g.split(" ")[0], groups[g]) for g in got["floored_groups_c2"]]
    assert conformal_scale.floored_mean_scale(needed, floored) == got["scale_floor"]
    assert conformal_scale.FLOORED is False  # never judged: narrowfloor/feasible.txt
