"""``uncertainty.bootstrap``'s ``min_rel_sd``: the least relative sd a figure is redrawn with
(calibrate: ``fit.MIN_REL_SD``; lower only to study the band, bench/foreign/results/bootwidth/)."""

from __future__ import annotations

import math
from dataclasses import replace

from overprov.calibrate import fit, uncertainty

LEVELS = [10.0, 20.0, 30.0]


def typed(rel_sd: float) -> list[fit.Point]:
    """SSDsim a's typed figures (bench/foreign/results/status72/cases/), each at ``rel_sd``."""
    return [
        fit.Point(0.0, 2449.0, rel_sd, 2.495, rel_sd),
        fit.Point(40.0, 7947.0, rel_sd, 1.200, rel_sd),
        fit.Point(0.0, 13221.0, rel_sd, fresh=True),
    ]


def half_width(boot: dict, figure: str, level: float) -> float:
    lo, hi = boot[figure][level]
    return max(math.log(hi), -math.log(lo))


def test_the_default_floor_is_fits_own():
    points = typed(0.001)
    got = uncertainty.bootstrap(points, LEVELS, fob_iops=13221.0, samples=12)
    same = uncertainty.bootstrap(
        points, LEVELS, fob_iops=13221.0, samples=12, min_rel_sd=fit.MIN_REL_SD
    )
    assert repr(got) == repr(same)


def test_a_lower_floor_narrows_figures_below_the_default_one():
    points = typed(0.001)  # a truth's own standard error, under the 1% floor
    floored = uncertainty.bootstrap(points, LEVELS, fob_iops=13221.0, samples=30)
    own = uncertainty.bootstrap(points, LEVELS, fob_iops=13221.0, samples=30, min_rel_sd=1e-5)
    for figure in ("iops", "waf"):
        for x in LEVELS:
            assert half_width(own, figure, x) < 0.3 * half_width(floored, figure, x)


def test_figures_above_the_floor_do_not_see_it():
    points = typed(0.05)  # the plan case's typed spread, cli.USER_POINT_REL_SD
    a = uncertainty.bootstrap(points, LEVELS, fob_iops=13221.0, samples=12)
    b = uncertainty.bootstrap(points, LEVELS, fob_iops=13221.0, samples=12, min_rel_sd=1e-5)
    assert repr(a) == repr(b)
    narrower = [replace(p, iops_rel_sd=0.01, waf_rel_sd=0.01) for p in points]
    c = uncertainty.bootstrap(narrower, LEVELS, fob_iops=13221.0, samples=12)
    assert half_width(c, "iops", 10.0) < half_width(a, "iops", 10.0)
