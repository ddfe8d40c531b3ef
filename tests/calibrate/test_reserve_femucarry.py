"""The reserve readings of FEMU's typed figures weighed like for like in both weighings
(``reserve_held_out.WAF_TERMS_TOO``), of the selective designs only
(``reserve_hull.FLOOR_NEEDS_SELECTIVE``), and read where no plain reading links the levels
(``reserve_hull.NONE_LINKS``), on by default since bench/foreign/results/femumedian/verdict.md
(each test pins the three as it names them, the rest off): surrogate-level checks
(milliseconds) on FEMU figures (bench/foreign/results/femucarry/DIAGNOSIS.md)."""

from __future__ import annotations

import pytest
from overprov.calibrate import evidence, reserve_held_out, reserve_hull, spare_readings, steep_pair
from overprov.calibrate import predict as predmod
from test_reserve_steep_pair import FEMU_6LUN, FEMU_64LUN, _cv, _fig, _points

#: femutwin's fresh 44 LUNs × 43 blocks, threshold 67: only d = 2 links its levels
FEMU_44LUN = _points("0:21795,40:98863,40:18578@qd4", "0:7.996,40:1.650", 160061)
#: femunext's fresh 63 × 33, threshold 63 (floor through 20%): d = 2's reserve reading is called for
FEMU_63LUN = _points("0:29479,40:101783,40:18672@qd4", "0:8.005,40:1.874", 160055)
#: femutwin's fresh 52 × 41, threshold 63 (floor through 20%): no plain reading links the levels
FEMU_52LUN = _points("0:25129,40:93544,40:18379@qd4", "0:8.004,40:1.896", 160053)


def _weights(monkeypatch, points, **flags):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    monkeypatch.setattr(reserve_held_out, "SAME_FORM_ONLY", True)
    # a flag not named is pinned off (each on by default since femumedian/verdict.md)
    flags = {"WAF_TERMS_TOO": False, "FLOOR_NEEDS_SELECTIVE": False, "NONE_LINKS": False, **flags}
    for name, value in flags.items():
        module = reserve_held_out if name == "WAF_TERMS_TOO" else reserve_hull
        monkeypatch.setattr(module, name, value)
    evidences, _ = spare_readings.weigh(_fig(points))
    return evidences, spare_readings.class_weights(evidences)


def test_off_waf_weights_give_greedy_the_reserve_class(monkeypatch):
    assert evidence.WAF_WEIGHTS  # the default this is about
    evidences, w = _weights(monkeypatch, FEMU_44LUN, WAF_TERMS_TOO=False)
    greedy = next(r for r in evidences if r.design == "greedy")
    d8 = next(r for r in evidences if r.design == "d-choices-8")
    assert w[greedy] > 0.99 and w[d8] < 1e-8
    assert evidences[d8]["waf_chi2"] - evidences[greedy]["waf_chi2"] > 30


def test_on_the_waf_share_drops_the_same_terms_and_the_designs_weigh_alike(monkeypatch):
    evidences, w = _weights(monkeypatch, FEMU_44LUN, WAF_TERMS_TOO=True)
    assert {r.spare for r in evidences} == {predmod.RESERVE} and len(w) == 3
    for ev in evidences.values():
        assert ev["waf_chi2"] == pytest.approx(ev["waf_residual_chi2"])  # no held-out WAF left
    assert max(w.values()) - min(w.values()) < 0.01


def test_waf_terms_too_does_nothing_without_same_form_only(monkeypatch):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    monkeypatch.setattr(reserve_held_out, "WAF_TERMS_TOO", True)
    # SAME_FORM_ONLY on by default since bench/foreign/results/femumedian/verdict.md: pinned off
    monkeypatch.setattr(reserve_held_out, "SAME_FORM_ONLY", False)
    evidences, _ = spare_readings.weigh(_fig(FEMU_44LUN))
    greedy = next(r for r in evidences if r.design == "greedy")
    assert evidences[greedy]["waf_chi2"] > 100  # the held-out terms still there


def test_selective_drops_d2s_reserve_reading(monkeypatch):
    off, _ = _weights(monkeypatch, FEMU_63LUN, WAF_TERMS_TOO=True)
    assert "d-choices-2" in {r.design for r in off}
    on, w = _weights(monkeypatch, FEMU_63LUN, WAF_TERMS_TOO=True, FLOOR_NEEDS_SELECTIVE=True)
    assert {r.design for r in on} == set(steep_pair.SELECTIVE_DESIGNS)
    assert all(r.spare == predmod.RESERVE for r in on)


def test_none_links_reads_a_floor_held_through_20_percent(monkeypatch):
    pts = _fig(FEMU_52LUN).points
    assert not steep_pair.gentlest_alone(pts, _cv(FEMU_52LUN))  # greedy keeps the plain weight
    assert reserve_hull.none_links(pts, _cv(FEMU_52LUN))
    off, _ = _weights(monkeypatch, FEMU_52LUN)
    assert {r.spare for r in off} == {predmod.EFFECTIVE}
    on, _ = _weights(monkeypatch, FEMU_52LUN, NONE_LINKS=True)
    assert {r.spare for r in on} == {predmod.RESERVE}


def test_none_links_is_false_where_a_plain_reading_links_the_levels():
    assert not reserve_hull.none_links(_fig(FEMU_64LUN).points, _cv(FEMU_64LUN))  # d-4 does
    assert not reserve_hull.none_links(_fig(FEMU_6LUN).points, _cv(FEMU_6LUN))  # d-2 does


def test_the_three_flags_are_on_by_default():
    """femucarry's rule not met alone (bench/foreign/results/femucarry/verdict.md); on with
    ``mixture_centre.ON`` and the other three since bench/foreign/results/femumedian/verdict.md."""
    assert reserve_held_out.WAF_TERMS_TOO is True
    assert reserve_hull.FLOOR_NEEDS_SELECTIVE is True
    assert reserve_hull.NONE_LINKS is True
    assert reserve_held_out.SAME_FORM_ONLY is True and steep_pair.READ_AS_FLOOR is True
