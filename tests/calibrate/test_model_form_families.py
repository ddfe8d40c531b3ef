"""The model-form slope estimated with FTL families as the unit of replication
(uncertainty.predictive_slopes, ModelForm.slopes; docs/calibrate-model.md, "A slope from few FTL
families") and the corpus bench's two rules (bench/corpus_bench.py: pooled, families)."""

from __future__ import annotations

import math
import statistics

import pytest
from overprov.calibrate import uncertainty
from overprov.calibrate.uncertainty import HeldOutError, ModelForm, predictive_slopes

DISTANCES = (0.2, 0.5, 0.8, 1.1)


def exact(families: str, per_family: int) -> list[HeldOutError]:
    """Cases predicted exactly (no error), ``per_family`` of them in each family."""
    return [
        HeldOutError(f, 0.0, 0.01, DISTANCES[i % len(DISTANCES)])
        for f in families
        for i in range(per_family)
    ]


def p90(slopes: tuple[float, ...]) -> float:
    return sorted(slopes)[int(0.9 * len(slopes))]


def test_a_slope_from_few_families_is_not_reported_without_uncertainty(bench):
    """Two families, forty exact cases: the pooled maximum-likelihood slope is 0 (intervals of
    the floor alone however far from the fitted levels); the families' posterior predictive
    keeps the slope a third family may have, so the interval still widens with distance."""
    cases = [case(f"{f}{i}", f, 0.0) for f in "ab" for i in range(20)]
    pooled = bench.model_form(cases, "pooled")
    assert pooled.per_log_spare == 0.0
    assert pooled.at(1.0) == pytest.approx(uncertainty.AT_FITTED_REL_SD)
    families = bench.model_form(cases, "families")
    assert p90(families.slopes) > 0.02
    assert families.at(0.0) == pytest.approx(uncertainty.AT_FITTED_REL_SD, rel=1e-3)
    assert families.at(1.0) > 1.2 * uncertainty.AT_FITTED_REL_SD
    assert families.at(2.0) > families.at(1.0)
    (f_lo, f_hi), (p_lo, p_hi) = (
        bench.interval(cases[0]["parts"], mf) for mf in (families, pooled)
    )
    assert f_lo < p_lo and f_hi > p_hi


def test_cases_of_one_family_are_not_replicates():
    """The same forty exact cases say less about a new family when they come from one FTL than
    from ten: the predictive slope is wider for one family."""
    one = predictive_slopes(exact("a", 40))
    ten = predictive_slopes(exact("abcdefghij", 4))
    assert p90(one) > 3 * p90(ten)


def test_a_family_that_errs_raises_a_new_familys_slope():
    """A family whose held-out errors grow with distance (slope 0.4) beside exact families
    moves the predictive slope up."""
    calm = exact("abc", 8)
    errs = [HeldOutError("z", (-1) ** i * 0.4 * d, 0.01, d) for i, d in enumerate(DISTANCES * 2)]
    assert statistics.median(predictive_slopes(calm + errs)) > 2 * statistics.median(
        predictive_slopes(calm)
    )


def test_one_slope_for_every_draw_is_the_fixed_slope_rule():
    """A predictive with all its mass on one slope gives the old interval: hypot(floor, s·d)
    (to the rounding of Z80, 1.2816 for 1.28155)."""
    mf = ModelForm(per_log_spare=0.3, slopes=(0.3,) * 50)
    for d in (0.0, 0.4, 1.5):
        assert mf.at(d) == pytest.approx(math.hypot(0.02, 0.3 * d), rel=1e-4)
    assert uncertainty.mixture_quantile([0.1, 0.1], 0.9) == pytest.approx(0.1 * 1.2816, rel=1e-3)


def case(drive: str, family: str, log_error: float) -> dict:
    part = {"reading": "r", "value": 1.0, "low": 0.99, "high": 1.01, "weight": 1.0}
    return {"drive": drive, "family": family, "name": drive, "foreign": True,
            "raw_nand_given": False,
            "held_out": {"kind": "iops", "extra_op_percent": 0.0, "value": math.exp(-log_error)},
            "log_error": log_error, "rel_error": math.exp(log_error) - 1,
            "parts": [{**part, "distance": 0.5}]}  # fmt: skip


def test_leave_one_family_out_drops_the_held_out_drives_sibling(bench):
    """Drives a1 and a2 are one FTL (exact), b errs: with the drive held out, a1's slope is
    estimated with its sibling a2 in the fit; with its family held out, from b alone."""
    cases = [case("a1", "A", 0.0) for _ in range(4)] + [case("a2", "A", 0.0) for _ in range(4)]
    cases += [case("b", "B", e) for e in (0.3, -0.3, 0.25, -0.25)]
    by_drive = bench.evaluate(cases, "families", leave_out="drive")
    by_family = bench.evaluate(cases, "families", leave_out="family")
    assert by_family["nested_slopes"]["a1"] > by_drive["nested_slopes"]["a1"]
    assert by_family["nested_slopes"]["b"] == by_drive["nested_slopes"]["b"]
    pooled = bench.evaluate(cases, "pooled")
    assert pooled["predictive_slopes"] == [] and pooled["rule"] == "pooled"


def test_a_drive_run_alone_takes_the_slope_it_is_given(bench):
    """One drive alone has no other drives to fit its slope on (0: noise-only intervals);
    given the slope the other drives' stored cases give, its intervals are widened by it."""
    cases = [case("f", "F", e) for e in (0.3, -0.3, 0.05, -0.05)]
    alone = bench.evaluate(cases)
    assert alone["nested_slopes"] == {"f": 0.0}
    assert alone["per_drive"]["f"]["coverage_nested"] == 0.0
    given = bench.evaluate(cases, slope=0.135)
    assert given["nested_slopes"] == {"f": 0.135}
    lo, hi = cases[2]["interval_nested"]
    assert (lo, hi) == bench.interval(
        cases[2]["parts"], ModelForm(per_log_spare=0.135, floor=bench.FLOOR)
    )
    assert given["per_drive"]["f"]["coverage_nested"] == 0.5  # the two small errors inside


def test_each_family_gets_its_own_coverage_and_width(bench):
    """The judged figure of bench/corpus/RULE-intervals.md, per family: each family's cases are
    counted under it (not predicted ones in its case count only), and its coverage is the share
    of its predicted cases inside the intervals nested by family."""
    cases = [case("a1", "A", e) for e in (0.0, 0.01)] + [case("a2", "A", 0.0)]
    cases += [case("b", "B", e) for e in (0.3, -0.3, 0.01, -0.01)]
    cases.append({**case("b", "B", 0.0), "error_text": "cannot fit"})
    del cases[-1]["log_error"]
    s = bench.evaluate(cases, "families", leave_out="family")
    fam = s["per_family"]
    assert (fam["A"]["cases"], fam["A"]["predicted"]) == (3, 3)
    assert (fam["B"]["cases"], fam["B"]["predicted"]) == (5, 4)
    for name, mine in (("A", cases[:3]), ("B", cases[3:7])):
        inside = sum(c["inside_nested"] for c in mine) / len(mine)
        assert fam[name]["coverage_nested"] == inside
        widths = sorted(c["interval_nested"][1] / c["interval_nested"][0] - 1 for c in mine)
        assert fam[name]["median_rel_width_nested"] == statistics.median(widths)
    # B's intervals take the slope fitted on A alone (exact cases): its large errors fall out
    assert fam["B"]["coverage_nested"] == 0.5
