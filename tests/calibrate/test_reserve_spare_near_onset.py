"""``spare_near_onset.SPARE_NEAR_ONSET``: the reserve reading's spare fitted near the onset where
the onset-pinned reading is not offered, on two stored FEMU measurements
(bench/results/burstplain/femu/): P1 52 × 56, refused with ``burst_start.LATE_START`` alone
(bench/results/reserveflat/DIAGNOSIS.md), and P3 60 × 46, whose onset-pinned reading is offered.
With ``spare_near_onset.ONLY_WHERE_NONE_PINNED`` (the near-onset form only where no design's pinned
reading is offered): P3 read late, where the per-design form let a d-choices near-onset reading in
beside greedy's pinned one (bench/results/reservespare/after_verdict.txt), and P1 read late.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import burst_start, gc_reserve, plausibility, spare_near_onset, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_twin_check import onset_from_empty

FEMU = Path(__file__).resolve().parents[2] / "bench/results/burstplain/femu"
P1 = FEMU / "femu-52lun-56blk-thres55-3800us-ns82-off"
P3 = FEMU / "femu-60lun-46blk-thres54-3300us-ns80-off"


def read(folder: Path, late: bool):
    """The measurement's points at the workload's queue depth, its onset and the weighing sd."""
    saved = burst_start.LATE_START
    burst_start.LATE_START = late
    try:
        m = measurement_file.load(folder / measurement_file.NAME)
        points, _ = fitmod.split_queue_depths(predmod.points_from(m), fitmod.WORKLOAD_QD)
    finally:
        burst_start.LATE_START = saved
    cv = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, False))
    return m, points, onset_from_empty(m), cv


@pytest.fixture
def near_on(monkeypatch):
    monkeypatch.setattr(spare_near_onset, "SPARE_NEAR_ONSET", True)
    monkeypatch.setattr(plausibility, "RESERVE_READING_GATE", True)


def greedy_form(onset: float, cv: float) -> gc_reserve.ReserveForm:
    return dict(gc_reserve.design_forms(onset, cv))["greedy"]


def test_off_p1_late_is_refused(monkeypatch):
    monkeypatch.setattr(plausibility, "RESERVE_READING_GATE", True)
    m, points, onset, cv = read(P1, late=True)
    assert spare_near_onset.offered_form(greedy_form(onset, cv), points) is None
    assert plausibility.fit_misses_its_points(points, m.fob_iops, onset, None) is not None


def test_on_p1_late_is_answered_near_the_onset(near_on):
    m, points, onset, cv = read(P1, late=True)
    form = spare_near_onset.offered_form(greedy_form(onset, cv), points)
    assert isinstance(form, spare_near_onset.NearOnsetForm)
    s = form.fit(points)
    spare = 1.0 + s.native_op
    assert spare != pytest.approx(onset, rel=1e-6)  # fitted, not pinned
    assert abs(spare / onset - 1) < 2 * gc_reserve.ONSET_REL_SD  # near the onset
    assert s.waf_floor is not None
    late40 = next(p.waf for p in points if p.extra_op_percent == 40.0 and not p.fresh)
    assert abs(s.waf(40.0) / late40 - 1) < 0.05  # the reading now meets the late 40% figure
    assert plausibility.fit_misses_its_points(points, m.fob_iops, onset, None) is None


def test_on_a_reproducing_onset_spare_is_unchanged(near_on):
    _, points, onset, cv = read(P3, late=False)
    pinned = greedy_form(onset, cv)
    form = spare_near_onset.offered_form(pinned, points)
    assert form is pinned  # the onset-pinned reading, the same object
    assert 1.0 + form.fit(points).native_op == pytest.approx(onset, rel=1e-12)


def test_one_sided_tolerance_kept_in_the_free_fit():
    """A WAF figure after a discard lying within the allowance above the curve does not pull the
    spare: the fit is the one without that figure's excess."""
    onset = 1.10
    curve = fitmod.waf_at
    truth = gc_reserve.ReserveSurrogate(onset - 1.0, 10.0, 5.0, curve=curve)
    pts = [
        fitmod.Point(x, truth.iops(x), 0.02, truth.waf(x) * (1.08 if x == 40.0 else 1.0), 0.02)
        for x in (0.0, 20.0, 40.0)
    ]
    s = spare_near_onset.fit_near_onset(pts, curve, onset)
    assert 1.0 + s.native_op == pytest.approx(onset, rel=2e-3)


def offered(onset: float, cv: float, points) -> dict[str, gc_reserve.ReserveForm | None]:
    """Each design's form as ``reserve_reading.offered`` and the reserve gate take it."""
    forms = gc_reserve.design_forms(onset, cv)
    near = spare_near_onset.near_allowed(forms, points)
    return {d: spare_near_onset.offered_form(f, points, near) for d, f in forms}


def test_off_by_default():
    assert spare_near_onset.ONLY_WHERE_NONE_PINNED is False
    assert burst_start.LATE_START is False
    assert spare_near_onset.SPARE_NEAR_ONSET is False


def test_p3_per_design_lets_a_near_reading_in(near_on):
    """The fault the narrowing removes: greedy's pinned reading offered, a d-choices design's
    near-onset reading offered beside it."""
    _, points, onset, cv = read(P3, late=True)
    got = offered(onset, cv, points)
    assert got["greedy"] is not None
    assert not isinstance(got["greedy"], spare_near_onset.NearOnsetForm)
    assert any(isinstance(f, spare_near_onset.NearOnsetForm) for f in got.values())


def test_p3_narrowed_offers_only_the_pinned_readings(near_on, monkeypatch):
    monkeypatch.setattr(spare_near_onset, "ONLY_WHERE_NONE_PINNED", True)
    _, points, onset, cv = read(P3, late=True)
    narrowed = offered(onset, cv, points)
    monkeypatch.setattr(spare_near_onset, "SPARE_NEAR_ONSET", False)
    pinned_only = offered(onset, cv, points)
    assert not any(isinstance(f, spare_near_onset.NearOnsetForm) for f in narrowed.values())
    assert narrowed == pinned_only  # as with the near-onset form off
    assert narrowed["greedy"] is not None


def test_p1_narrowed_is_answered_near_the_onset(near_on, monkeypatch):
    monkeypatch.setattr(spare_near_onset, "ONLY_WHERE_NONE_PINNED", True)
    m, points, onset, cv = read(P1, late=True)
    forms = gc_reserve.design_forms(onset, cv)
    assert spare_near_onset.near_allowed(forms, points)  # no design's pinned reading offered
    got = offered(onset, cv, points)
    assert isinstance(got["greedy"], spare_near_onset.NearOnsetForm)
    assert plausibility.fit_misses_its_points(points, m.fob_iops, onset, None) is None


def test_near_allowed_needs_both_flags(monkeypatch):
    _, points, onset, cv = read(P3, late=True)
    forms = gc_reserve.design_forms(onset, cv)
    monkeypatch.setattr(spare_near_onset, "ONLY_WHERE_NONE_PINNED", True)
    assert spare_near_onset.near_allowed(forms, points)  # SPARE_NEAR_ONSET off: nothing narrowed
