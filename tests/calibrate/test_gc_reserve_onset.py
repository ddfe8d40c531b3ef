"""The onset of garbage collection from empty as evidence (calibrate/gc_reserve.py,
``with_onset``): on the plan's figures a reserve with a victim floor and one spare with a
gentler collector pass through the same 0% and 40% figures; the onset reads the spare the
collector works with and tells them apart, either way. And how bench/foreign/femu_onset.py
dates the onset in FEMU's counters."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_designs, gc_reserve
from test_gc_reserve import MODEL_REL_SD, figures, reserve_drive_waf, weighed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import femu_onset  # noqa: E402

PLAN_LEVELS = (0, 40)  # calibrate's plan: IOPS and WAF at 0% and 40%, and FOB


def waf_at(got: dict, x: float) -> float:
    num = sum(w * math.log(s.waf(x)) for w, s in got.values())
    return math.exp(num / sum(w for w, _ in got.values()))


def share(got: dict, spare: str) -> float:
    return sum(w for k, (w, _) in got.items() if k[0] == spare)


def test_onset_takes_the_weight_from_a_gentler_curve_through_the_plans_figures():
    # FEMU's 30%-reserve drive in form: spare factor 0.918 (a reserve beyond the native
    # spare), WAF 8 at the victim floor; the d-choices d = 2 effective reading also passes
    # through 0% and 40% (ρ₀ ≈ +0.096) and keeps weight without the onset
    def drive(x: float) -> float:
        return reserve_drive_waf(x, spare_factor=0.918)

    pts = figures(drive, PLAN_LEVELS, with_iops=True)
    without = weighed(pts, None)
    assert without[("effective", "d-choices-2")][0] > 0.2
    assert waf_at(without, 10) < 0.85 * drive(10)
    with_it = weighed(pts, 0.918)  # the onset: host writes to the first GC copy ÷ capacity
    assert share(with_it, "reserve") > 0.95
    assert abs(waf_at(with_it, 10) / drive(10) - 1) < 0.03  # 10% held out


def test_onset_gives_a_one_spare_drive_to_its_own_reading():
    # the converse: a d = 2 collector on one spare of 7%, whose 0% WAF read with greedy calls
    # for a floor; without the onset the reserve readings take most of the weight, with it
    # (1.07: the whole spare is the collector's) the d = 2 effective reading takes it all
    d2 = gc_designs.curve("d-choices-2")

    def drive(x: float) -> float:
        return d2(1.07 / (1 - x / 100) - 1)

    pts = figures(drive, PLAN_LEVELS, with_iops=True)
    assert share(weighed(pts, None), "reserve") > 0.5
    with_it = weighed(pts, 1.07)
    assert with_it[("effective", "d-choices-2")][0] > 0.99
    assert abs(waf_at(with_it, 10) / drive(10) - 1) < 0.02


def test_with_onset_adds_one_figure_every_reading_predicts():
    s = fitmod.Surrogate(0.2, 5.0, 2.0, spare_efficiency=0.5)  # raw spare 20% used half
    assert gc_reserve.onset_spare_factor(s) == pytest.approx(1.1)
    ev = {"chi2": 1.0, "residual_chi2": 0.5, "n_figures": 4, "n_parameters": 2}
    got = gc_reserve.with_onset(ev, s, 1.1 * math.exp(0.06))  # two sd low
    assert got["n_figures"] == 5 and got["n_parameters"] == 2
    assert got["chi2"] == pytest.approx(1.0 + 4.0)
    assert got["residual_chi2"] == pytest.approx(0.5 + 4.0)


def test_femu_onset_is_the_first_report_with_more_nand_pages_than_host_pages():
    counters = ((0, 0, 127), (100, 100, 60), (200, 200, 40), (300, 305, 39))
    rows = [{"host_pages": h, "nand_pages": n, "free_lines": f} for h, n, f in counters]
    got = femu_onset.onset_of(rows, user_pages=250)
    assert got["onset_spare_factor"] == pytest.approx(1.0)  # between 200 and 300 host pages
    assert got["resolution"] == pytest.approx(0.2)
    assert got["free_lines_at_onset"] == 39
    with pytest.raises(ValueError):
        femu_onset.onset_of(rows[:3], user_pages=250)


def test_femu_onset_dated_as_the_plan_dates_it():
    """``--plan``: each report a plan round through gc_onset.OnsetDating; a lone excess page
    (a stray move) is passed over, a burst confirmed, and the figure is the middle of the
    round where that burst began."""
    # 10,000 pages of namespace, a report every 100 host pages (0.01 of it): the onset needs
    # 20 pages of excess (onset_detector.ONSET_EXCESS_DRIVE_WRITES) within 200 host pages
    counters = [(i * 100, i * 100) for i in range(10)]
    counters += [(1000 + 100 * i, 1001 + 100 * i) for i in range(6)]  # a stray page at 900-1000
    counters += [(1600, 1610), (1700, 1750)]  # the excess begins at 1500-1600
    rows = [{"host_pages": h, "nand_pages": n} for h, n in counters]
    got = femu_onset.plan_onset_of(rows, user_pages=10_000, page_bytes=1)
    assert got["onset_spare_factor"] == pytest.approx(0.155)
    assert got["plan_resolution"] == pytest.approx(0.005)
    with pytest.raises(ValueError):
        femu_onset.plan_onset_of(rows[:16], user_pages=10_000, page_bytes=1)


def test_spare_fitted_to_the_onset_where_every_fitted_level_sits_on_the_floor():
    # the failure of results/gc-onset/RULE.md in form: the levels below 40% all on the floor,
    # so no WAF figure fixes the spare; weighed on the onset only, the fit runs to its bound
    # and predicts the floor at 40%; fitted to it (the candidate, ReserveForm.onset), it does not
    def drive(x: float) -> float:
        return reserve_drive_waf(x, spare_factor=0.656)

    pts = figures(drive, (0, 10, 20, 30), with_iops=False)
    weighed_only = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD).fit(pts)
    assert weighed_only.waf(40) == pytest.approx(8.0, rel=0.01)
    fitted = gc_reserve.ReserveForm(fitmod.waf_at, MODEL_REL_SD, onset=0.656).fit(pts)
    assert gc_reserve.onset_spare_factor(fitted) == pytest.approx(0.656, rel=0.01)
    assert fitted.waf(40) == pytest.approx(drive(40), rel=0.03)
    assert drive(40) < 0.8 * 8.0
