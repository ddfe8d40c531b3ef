"""The GC-reserve reading (calibrate/gc_reserve.py): fitted, and weighed by evidence beside the
effective-spare readings, on figures of drives whose form is known."""

from __future__ import annotations

import math
from collections.abc import Iterable

from overprov.calibrate import evidence, gc_designs, gc_reserve
from overprov.calibrate import fit as fitmod

MODEL_REL_SD = 0.16  # the order of the recorded model-form error (model_form_error.json)
SD = 0.05  # a typed figure's spread (cli.USER_POINT_REL_SD)


def reserve_drive_waf(x: float, spare_factor: float = 0.99, floor: float | None = 8.0) -> float:
    """A controller keeping more free NAND than its native spare (ρ₀ − reserve = −1%) whose
    background collector takes victims with at least 1/8 of their pages invalid (FEMU's);
    ``floor`` None: no floor (one spare, greedy)."""
    waf = fitmod.waf_at(spare_factor / (1 - x / 100) - 1)
    return waf if floor is None else min(waf, floor)


def reserve_drive_points(
    levels: Iterable[float], spare_factor: float, floor: float | None
) -> list[fitmod.Point]:
    """The figures of a reserve drive (:func:`reserve_drive_waf`) with t_cmd 2 µs and t_page
    4 µs, a point (IOPS and WAF, each at ``fitmod.Point``'s own spread) at each level."""
    out = []
    for x in levels:
        waf = reserve_drive_waf(x, spare_factor, floor)
        out.append(fitmod.Point(x, iops=1e6 / (2.0 + 4.0 * waf), waf=waf))
    return out


def iops(waf: float) -> float:
    return 1e6 / (2.5 + 3.9 * waf)  # 1/IOPS = t_cmd + WAF·t_page, µs


def figures(waf_at, levels, with_iops: bool) -> list[fitmod.Point]:
    """One point per figure, as bench/corpus_bench.py makes them, and the FOB figure."""
    pts = [fitmod.Point(0, iops(1.0), SD, fresh=True)] if with_iops else []
    for x in levels:
        if with_iops:
            pts.append(fitmod.Point(x, iops(waf_at(x)), SD))
        pts.append(fitmod.Point(x, None, SD, waf_at(x), SD))
    return pts


def weighed(
    points: list[fitmod.Point], onset: float | None = None
) -> dict[tuple[str, str], tuple[float, object]]:
    """Every uniform design's effective-spare reading and, where called for, its reserve
    reading: {(spare, design): (weight, surrogate)}, as spare_readings weighs readings;
    ``onset`` (the onset of GC from empty): one figure more for each (``with_onset``)."""
    forms = {}
    for design in gc_designs.UNIFORM_DESIGNS:
        curve = gc_designs.curve(design) or fitmod.waf_at
        forms[("effective", design)] = evidence.ReadingForm(curve)
        form = gc_reserve.ReserveForm(curve, MODEL_REL_SD)
        if form.called_for(points):
            forms[("reserve", design)] = form
    fits = {k: f.fit(points) for k, f in forms.items()}
    evs = {k: evidence.assess(f, points, MODEL_REL_SD) for k, f in forms.items()}
    if onset is not None:
        evs = {k: gc_reserve.with_onset(e, fits[k], onset) for k, e in evs.items()}
    w = evidence.weights(
        {k: e["chi2"] for k, e in evs.items()},
        {k: evidence.reproduces(e["residual_chi2"], e["n_figures"], e["n_parameters"])
         for k, e in evs.items()},
    )  # fmt: skip
    return {k: (w[k], fits[k]) for k in forms}


def test_fit_recovers_the_reserve_and_the_floor_and_counts_the_floor_as_a_parameter():
    pts = figures(reserve_drive_waf, (0, 20, 40), with_iops=False)
    form = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD)
    s = form.fit(pts)
    assert math.isclose(s.waf_floor, 8.0)  # the WAF figure alone (no IOPS figure)
    assert math.isclose(s.native_op, -0.01, abs_tol=2e-3)  # below zero: the reserve
    assert math.isclose(s.waf(10), reserve_drive_waf(10), rel_tol=0.01)
    ev = evidence.assess(form, pts, MODEL_REL_SD)
    assert ev["n_parameters"] == 3  # t_page, ρ₀ and the floor (t_cmd held: no IOPS)


def test_reading_takes_the_weight_on_a_reserve_drive():
    pts = figures(reserve_drive_waf, (0, 20, 40), with_iops=True)
    got = weighed(pts)
    reserve = sum(w for k, (w, _) in got.items() if k[0] == "reserve")
    assert reserve > 0.95
    num = sum(w * math.log(s.waf(10)) for w, s in got.values())
    combined = math.exp(num / sum(w for w, _ in got.values()))
    assert abs(combined / reserve_drive_waf(10) - 1) < 0.06  # held out
    # the effective readings' best guess at 10% is 36% low or worse
    assert max(s.waf(10) for k, (_, s) in got.items() if k[0] == "effective") < 0.75 * 5.62


def test_not_called_for_on_a_drive_with_one_spare():
    def one_spare(x: float) -> float:
        return fitmod.waf_at(1.07 / (1 - x / 100) - 1)

    pts = figures(one_spare, (0, 20, 40), with_iops=False)
    test = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD).floor_test(pts)
    assert not test["called_for"]
    assert abs(test["log_ratio"]) < 1e-6  # the others predict the 0% figure exactly
    assert all(k[0] == "effective" for k in weighed(pts))


def test_an_onset_from_empty_above_1_calls_for_no_floor():
    # a gentle collector (d-choices d = 2, spare factor 1.07) read with greedy: its 0% WAF lies
    # below what 20% and 40% give, and without an onset the floor test fires; the collector
    # started on its native spare, after the host wrote the capacity once, so no reserve binds
    d2 = gc_designs.curve("d-choices-2")
    pts = figures(lambda x: d2(1.07 / (1 - x / 100) - 1), (0, 20, 40), with_iops=True)
    assert gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD).floor_test(pts)["called_for"]
    gentle = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD, onset=1.07)
    test = gentle.floor_test(pts)
    assert not test["called_for"] and "onset" in test["why"]
    assert not gentle.called_for(pts)
    assert gentle.fit(pts).waf_floor is None
    # a reserve beyond the native spare (spare factor 0.99): dated below 1, still called for
    pts = figures(reserve_drive_waf, (0, 20, 40), with_iops=True)
    reserve = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD, onset=0.99)
    assert reserve.called_for(pts)
    assert math.isclose(reserve.fit(pts).waf_floor, 8.0, rel_tol=0.02)


def test_reading_loses_its_weight_where_a_gentler_curve_explains_the_figures():
    # d-choices d = 2 collects worse than greedy at low spare: read with greedy, its 0% WAF
    # lies far below what 20% and 40% give, so the floor is called for, yet the d = 2 curve
    # reproduces all three figures with one spare and the reserve readings lose
    d2 = gc_designs.curve("d-choices-2")

    def gentle(x: float) -> float:
        return d2(1.07 / (1 - x / 100) - 1)

    pts = figures(gentle, (0, 20, 40), with_iops=False)
    assert gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD).called_for(pts)
    got = weighed(pts)
    assert any(k[0] == "reserve" for k in got)
    assert sum(w for k, (w, _) in got.items() if k[0] == "reserve") < 0.01
    assert got[("effective", "d-choices-2")][0] > 0.99


def test_floor_read_from_the_lowest_levels_iops_when_its_waf_figure_is_held_out():
    # the leave-one-out fit that holds out the 0% WAF figure keeps the 0% IOPS figure: read
    # through t_cmd and t_page fitted to FOB and the 40% figures, it gives the floor
    pts = [p for p in figures(reserve_drive_waf, (0, 40), with_iops=True)
           if not (p.extra_op_percent == 0 and p.waf is not None)]  # fmt: skip
    form = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD)
    test = form.floor_test(pts)
    assert set(test["read_from"]) == {"iops"}
    assert test["called_for"]
    assert math.isclose(test["waf"], 8.0, rel_tol=0.01)
    s = form.fit(pts)
    assert math.isclose(s.waf(0), 8.0, rel_tol=0.01)  # not the uncapped curve's hundreds
    assert math.isclose(s.waf(10), reserve_drive_waf(10), rel_tol=0.02)


def test_floor_weighs_the_waf_figure_and_the_iops_reading_by_their_spreads():
    pts = figures(reserve_drive_waf, (0, 40), with_iops=True)
    # the 0% IOPS figure 10% high: it reads a lower WAF than the WAF figure
    pts = [fitmod.Point(0, p.iops * 1.1, SD) if p.iops and not p.fresh and p.extra_op_percent == 0
           else p for p in pts]  # fmt: skip
    test = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD).floor_test(pts)
    by_iops, by_waf = test["read_from"]["iops"], test["read_from"]["waf"]
    assert by_iops < 0.95 * by_waf and math.isclose(by_waf, 8.0)
    # the IOPS reading carries the model-form error: the floor lies near the WAF figure
    w_waf, w_iops = 1 / SD**2, 1 / (SD**2 + MODEL_REL_SD**2)
    expected = math.exp((w_waf * math.log(by_waf) + w_iops * math.log(by_iops)) / (w_waf + w_iops))
    assert math.isclose(test["waf"], expected, rel_tol=0.02)
    assert by_iops < test["waf"] < by_waf


def test_not_offered_where_the_capped_fit_misses_its_own_iops_figures():
    # the floor test fires, but the IOPS fall far faster than t_cmd + WAF·t_page allows (as
    # MQSim's do): the form that reads the floor is refuted by the figures, so no floor
    def steep_iops(waf: float) -> float:
        return 1e6 / (6.4 * waf**2.2)

    pts = [fitmod.Point(0, steep_iops(1.0), SD, fresh=True)]
    for x in (0, 40):
        pts += [fitmod.Point(x, steep_iops(reserve_drive_waf(x)), SD),
                fitmod.Point(x, None, SD, reserve_drive_waf(x), SD)]  # fmt: skip
    form = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD)
    assert form.floor_test(pts)["called_for"]
    ev = evidence.assess(form, pts, MODEL_REL_SD)
    assert not evidence.reproduces(ev["residual_chi2"], ev["n_figures"], ev["n_parameters"])
    assert not form.called_for(pts)
