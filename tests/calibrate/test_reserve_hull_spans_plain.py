"""``steep_pair.HULL_WHERE_AMBIGUOUS`` with femucarry's six reserve flags on (the default): where
``steep_pair.READ_AS_FLOOR`` reads two typed levels as a GC reserve, the effective-spare readings
it replaced that reproduce the figures are kept beside the reserve readings with no weight
(``reserve_hull.spanned_beside``): the centre stays the reserve readings', the interval also
spans the plain ones, and the answer says so (``steep_pair.WARNING_SPANNED``) only where it
does (bench/foreign/results/narrowsix/)."""

from __future__ import annotations

import pytest
from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_hull, spare_readings, steep_pair
from test_gc_designs import D_CHOICES_2, truth, two_levels
from test_reserve_steep_pair import FEMU_6LUN, _fig


def test_off_the_floor_replaces_the_plain_readings_as_before(monkeypatch):
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", False)
    evidences, _ = spare_readings.weigh(_fig(FEMU_6LUN))
    assert {r.spare for r in evidences} == {predmod.RESERVE}
    assert not any(reserve_hull.spans_only(e) for e in evidences.values())
    assert reserve_hull.hull(evidences) == set()


def test_on_the_plain_readings_that_reproduce_are_spanned_with_no_weight(monkeypatch):
    """FEMU 6 LUNs × 240 blocks: the reserve readings keep the weights they have with the flag
    off (the centre is theirs); each plain reading kept reproduces the figures, takes no weight
    and is what the hull spans; the answer cannot refuse on them alone."""
    fig = _fig(FEMU_6LUN)
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", False)
    off, _ = spare_readings.weigh(fig)
    w_off = spare_readings.class_weights(off)
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    on, _ = spare_readings.weigh(fig)
    w_on = spare_readings.class_weights(on)
    plain = {r for r in on if r.spare == predmod.EFFECTIVE}
    assert plain and all(reserve_hull.spans_only(on[r]) for r in plain)
    assert {r: w_on[r] for r in off} == w_off  # the reserve readings' weights unchanged
    assert all(w_on[r] == 0.0 for r in plain)
    assert reserve_hull.hull(on) == plain
    assert reserve_hull.answering(dict.fromkeys(plain), on) == []


@pytest.mark.slow  # the reserve and d = 2 twins simulated at four levels, twice (≈ 6 CPU s)
def test_on_a_d2_drive_s_band_holds_its_waf_between_and_says_it_spans_both(monkeypatch):
    """The d-choices-2 drive of tests/calibrate/test_gc_designs.py (WAF typed at 0% and 40%),
    read as a floor by default: WAF at 10% 2.7 times its truth, the band 12.4-13.1 missing
    4.79. With the flag on the centre is unchanged, the band at 10% and 20% holds the truth and
    the answer says the interval spans both readings; off, it says only that it was read as a
    floor."""
    fig = predmod.PredictionInput(
        two_levels(D_CHOICES_2), [0.0, 10.0, 20.0, 40.0], typed=True, jobs=1
    )
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", False)
    off = spare_readings.read_all(fig)
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    on = spare_readings.read_all(fig)
    off_at = {lv.extra_op_percent: lv for lv in off.levels}
    for lv in on.levels:
        x = lv.extra_op_percent
        assert lv.waf == pytest.approx(off_at[x].waf, rel=1e-9)
        assert lv.steady_iops is off_at[x].steady_iops is None  # WAF figures only
    for x in (10.0, 20.0):
        lv = next(lv for lv in on.levels if lv.extra_op_percent == x)
        assert lv.waf_low <= truth(D_CHOICES_2, x) <= lv.waf_high
    ten = next(lv for lv in off.levels if lv.extra_op_percent == 10.0)
    assert not ten.waf_low <= truth(D_CHOICES_2, 10.0) <= ten.waf_high  # why the flag
    assert steep_pair.WARNING_SPANNED in on.prediction_source
    assert steep_pair.WARNING_AS_FLOOR not in on.prediction_source
    assert steep_pair.WARNING_AS_FLOOR in off.prediction_source
    assert {(r.spare, r.design) for r in on.readings} == {
        (predmod.RESERVE, "greedy"), (predmod.EFFECTIVE, "d-choices-2")
    }  # fmt: skip
