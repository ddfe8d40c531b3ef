"""Steady-state detection on a series of per-round figures: SNIA SSS PTS, and plateau checks.

The SNIA Solid State Storage Performance Test Specification (SSS PTS) calls a device steady
when, in a *measurement window* of the last 5 rounds,

* the data excursion (max − min) is at most 20% of the window average, and
* the excursion of the least-squares line across the window (slope × 4 rounds) is at most 10%
  of the window average;

and gives up after 25 rounds.

Those two limits are fooled by a plateau: after a phase's discard the drive has fresh free
space and writes near fresh-out-of-box speed until it is used up, and five flat rounds on that
plateau pass both. Two further checks (off in :data:`SNIA`, on in a profile) close that hole:

* the window may not start before the phase has written its precondition
  (``first_eligible_round``: see ``overprov.profile.phase_precondition``);
* a window is not steady while IOPS are still above their settled level: the mean of the
  ``window_rounds`` rounds before it (the *baseline*) may exceed the window mean by at most
  ``max_decline_fraction``; likewise, where the target reports NAND writes, the window's WAF
  may exceed the baseline's by at most ``max_waf_rise_fraction`` (WAF still rising).

:func:`assess` applies that test to the last window of a series
and returns a :class:`SteadyStateVerdict` with every figure that decided it, so a report can
show *why* a phase was (or was not) steady.

fio's own ``steadystate=iops_slope:L%`` check uses a different normalisation: its criterion is
``100 × slope / mean`` with the slope *per sample*, and it is met when ``|criterion| < L``.
:func:`fio_slope_criterion_percent` computes that figure, and
:func:`criteria_like_fio_iops_slope` builds criteria under which :func:`assess` gives fio's
verdict, which is how the tests compare the two.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from overprov.steady_window import least_squares_slope
from overprov.units import plural


@dataclass(frozen=True)
class SteadyStateCriteria:
    """What "steady" means. Defaults are SNIA SSS PTS: 5-round window, 20% range, 10% slope."""

    window_rounds: int = 5
    """Rounds in the measurement window (the last ``window_rounds`` rounds of the series)."""
    max_range_fraction: float | None = 0.20
    """(max − min) of the window must be at most this share of the window mean; None: no check."""
    max_slope_excursion_fraction: float | None = 0.10
    """|slope × (window_rounds − 1)| must be at most this share of the window mean (None: no
    check)."""
    max_rounds: int = 25
    """Give up (verdict "not steady") once this many rounds have run without steady state,
    counted from the first round that may be in a window."""
    max_decline_fraction: float | None = None
    """The baseline (the ``window_rounds`` rounds before the window) may have a mean at most
    this share above the window mean (IOPS still falling otherwise); None: no check."""
    max_waf_rise_fraction: float | None = None
    """The window's mean WAF may be at most this share above the baseline's (WAF still rising
    otherwise); None, or no WAF series: no check."""

    def __post_init__(self) -> None:
        if self.window_rounds < 2:
            raise ValueError(f"window_rounds must be at least 2, got {self.window_rounds}")
        if self.max_rounds < self.window_rounds:
            raise ValueError(
                f"max_rounds ({self.max_rounds}) must be at least window_rounds "
                f"({self.window_rounds})"
            )
        for name in (
            "max_range_fraction",
            "max_slope_excursion_fraction",
            "max_decline_fraction",
            "max_waf_rise_fraction",
        ):
            value = getattr(self, name)
            if value is not None and not value >= 0:
                raise ValueError(f"{name} must be >= 0 or None, got {value}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


SNIA = SteadyStateCriteria()


@dataclass(frozen=True)
class SteadyStateVerdict:
    """The outcome of one assessment and the figures that decided it.

    Figures describe the last window (or the whole series when it is shorter than a window);
    they are None when there is no data.
    """

    steady: bool
    gave_up: bool
    """True when ``rounds >= max_rounds`` and the series is not steady: stop, "not steady"."""
    rounds: int
    window_first_round: int | None
    """1-based index of the first round of the assessed window."""
    window: tuple[float, ...]
    mean: float | None
    minimum: float | None
    maximum: float | None
    range_fraction: float | None
    """(max − min) / mean."""
    slope_per_round: float | None
    """Least-squares slope across the window, in units of the series per round."""
    slope_excursion_fraction: float | None
    """|slope × (window − 1)| / mean: how far the fitted line moves across the window."""
    range_ok: bool | None
    slope_ok: bool | None
    reason: str
    first_eligible_round: int = 1
    """1-based index of the first round a window may include (after the phase precondition)."""
    baseline_mean: float | None = None
    """Mean IOPS of the ``window_rounds`` rounds before the window."""
    decline_fraction: float | None = None
    """(baseline mean − window mean) / window mean: how far IOPS fell into the window."""
    decline_ok: bool | None = None
    waf_window_mean: float | None = None
    waf_baseline_mean: float | None = None
    waf_rise_fraction: float | None = None
    """(window WAF − baseline WAF) / baseline WAF."""
    waf_ok: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["window"] = list(self.window)
        return data


def fio_slope_criterion_percent(values: Sequence[float], *, like_fio: bool = True) -> float:
    """fio's ``iops_slope`` criterion for a window: 100 × slope per sample / mean (signed).

    fio keeps integer samples and divides their integer sum by the sample count in integer
    arithmetic; ``like_fio`` does the same so the figure matches fio's to the last digit.
    """
    if like_fio and all(float(v).is_integer() for v in values):
        mean = float(int(math.fsum(values)) // len(values))
    else:
        mean = math.fsum(values) / len(values)
    if mean == 0:
        return math.inf
    return 100.0 * least_squares_slope(values) / mean


def criteria_like_fio_iops_slope(limit_percent: float, samples: int) -> SteadyStateCriteria:
    """Criteria under which :func:`assess` reproduces fio's ``iops_slope:limit_percent%``
    verdict over a window of ``samples`` one-second samples (fio's ``ss_dur``).

    fio: steady when |slope| / mean < L/100. Ours: steady when |slope × (n − 1)| / mean ≤ the
    excursion limit, so the limit is L/100 × (n − 1). The range check is off, as in fio's slope
    test. (fio's test is strict, ours is not; they differ only on exact equality.)
    """
    return SteadyStateCriteria(
        window_rounds=samples,
        max_range_fraction=None,
        max_slope_excursion_fraction=limit_percent / 100.0 * (samples - 1),
        max_rounds=samples,
    )


def snia_equivalent_fio_slope_percent(samples: int, criteria: SteadyStateCriteria = SNIA) -> float:
    """The fio ``iops_slope`` limit (percent per sample) that is SNIA's slope rule over a
    window of ``samples`` samples: the fitted line may move by at most
    ``max_slope_excursion_fraction`` of the mean across the window."""
    if samples < 2:
        raise ValueError("fio's slope check needs a window of at least 2 samples")
    excursion = criteria.max_slope_excursion_fraction
    if excursion is None:
        raise ValueError("criteria have no slope rule")
    return 100.0 * excursion / (samples - 1)


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def assess(
    series: Sequence[float],
    criteria: SteadyStateCriteria = SNIA,
    *,
    first_eligible_round: int = 1,
    waf_series: Sequence[float | None] | None = None,
) -> SteadyStateVerdict:
    """Assess the last window of ``series`` (e.g. per-round IOPS, oldest first).

    ``first_eligible_round``: rounds before it (the phase precondition) may not be in the
    window; ``max_rounds`` counts from it. ``waf_series``: per-round WAF, aligned with
    ``series`` (None entries: unknown), for the WAF check."""
    values = [float(v) for v in series]
    for v in values:
        if not math.isfinite(v):
            raise ValueError(f"series contains a non-finite value: {v}")
    if first_eligible_round < 1:
        raise ValueError(f"first_eligible_round must be at least 1, got {first_eligible_round}")
    rounds = len(values)
    w = criteria.window_rounds
    eligible = rounds - first_eligible_round + 1
    gave_up_now = eligible >= criteria.max_rounds
    window = tuple(values[-w:])
    first = rounds - len(window) + 1 if window else None

    if not window:
        return SteadyStateVerdict(
            steady=False,
            gave_up=gave_up_now,
            rounds=0,
            window_first_round=None,
            window=(),
            mean=None,
            minimum=None,
            maximum=None,
            range_fraction=None,
            slope_per_round=None,
            slope_excursion_fraction=None,
            range_ok=None,
            slope_ok=None,
            reason=f"no rounds yet; steady state needs a window of {w} rounds",
            first_eligible_round=first_eligible_round,
        )

    mean = math.fsum(window) / len(window)
    lo, hi = min(window), max(window)
    slope = least_squares_slope(window) if len(window) >= 2 else None
    range_fraction = (hi - lo) / mean if mean > 0 else None
    excursion_fraction = (
        abs(slope * (len(window) - 1)) / mean if slope is not None and mean > 0 else None
    )
    range_ok: bool | None = None
    slope_ok: bool | None = None
    if mean > 0:
        limit = criteria.max_range_fraction
        range_ok = True if limit is None else range_fraction is not None and range_fraction <= limit
        limit = criteria.max_slope_excursion_fraction
        slope_ok = (
            True
            if limit is None
            else excursion_fraction is not None and excursion_fraction <= limit + 1e-12
        )

    plateau = _plateau_figures(values, waf_series, w, criteria)
    figures = dict(
        first_eligible_round=first_eligible_round,
        **plateau,
        rounds=rounds,
        window_first_round=first,
        window=window,
        mean=mean,
        minimum=lo,
        maximum=hi,
        range_fraction=range_fraction,
        slope_per_round=slope,
        slope_excursion_fraction=excursion_fraction,
        range_ok=range_ok,
        slope_ok=slope_ok,
    )

    if first is not None and first < first_eligible_round and rounds >= w:
        need = first_eligible_round + w - 1
        if criteria.max_decline_fraction is not None:
            need = max(need, 2 * w)  # the plateau check's baseline: w rounds before the window
        return SteadyStateVerdict(
            steady=False,
            gave_up=False,
            reason=(
                f"precondition: the window may start at round {first_eligible_round} (after the "
                f"phase has written its precondition), so round {need} is the earliest end"
            ),
            **figures,
        )
    if rounds < w:
        return SteadyStateVerdict(
            steady=False,
            gave_up=gave_up_now,
            reason=(
                f"too short: {plural(rounds, 'round')}; steady state needs a window of {w} rounds"
            ),
            **figures,
        )
    if mean <= 0:
        why = f"window mean is {mean:g}: nothing was written"
        steady = False
    else:
        problems = []
        if not range_ok:
            problems.append(
                f"range (max − min) is {range_fraction:.1%} of the mean, over the "
                f"{criteria.max_range_fraction:.0%} limit"
            )
        if not slope_ok:
            problems.append(
                f"the fitted line moves {excursion_fraction:.1%} of the mean across the window, "
                f"over the {criteria.max_slope_excursion_fraction:.0%} limit"
            )
        if criteria.max_decline_fraction is not None:
            if plateau["decline_fraction"] is None:
                problems.append(f"no baseline yet: needs {w} rounds before the window")
            elif not plateau["decline_ok"]:
                problems.append(
                    f"IOPS still falling: the {w} rounds before the window averaged "
                    f"{plateau['decline_fraction']:.1%} more, over the "
                    f"{criteria.max_decline_fraction:.0%} limit"
                )
        if plateau["waf_ok"] is False:
            problems.append(
                f"WAF still rising: {plateau['waf_rise_fraction']:.1%} above the {w} rounds "
                f"before the window, over the {criteria.max_waf_rise_fraction:.0%} limit"
            )
        steady = not problems
        if steady:
            parts = [f"steady in rounds {first}–{rounds}: mean {mean:.6g}"]
            if range_fraction is not None and criteria.max_range_fraction is not None:
                parts.append(f"range {range_fraction:.1%} ≤ {criteria.max_range_fraction:.0%}")
            if criteria.max_slope_excursion_fraction is not None:
                parts.append(
                    f"slope excursion {excursion_fraction:.1%} ≤ "
                    f"{criteria.max_slope_excursion_fraction:.0%}"
                )
            if (
                plateau["decline_fraction"] is not None
                and criteria.max_decline_fraction is not None
            ):
                parts.append(
                    f"baseline {plateau['baseline_mean']:.6g} "
                    f"({plateau['decline_fraction']:+.1%} ≤ {criteria.max_decline_fraction:.0%})"
                )
            if (
                plateau["waf_rise_fraction"] is not None
                and criteria.max_waf_rise_fraction is not None
            ):
                parts.append(
                    f"WAF {plateau['waf_window_mean']:.3f} vs baseline "
                    f"{plateau['waf_baseline_mean']:.3f} ({plateau['waf_rise_fraction']:+.1%})"
                )
            why = ", ".join(parts)
        else:
            why = f"not steady in rounds {first}–{rounds}: " + "; ".join(problems)
    gave_up = gave_up_now and not steady
    if gave_up:
        why = f"not steady after {plural(rounds, 'round')} (the limit); last window: " + why
    return SteadyStateVerdict(steady=steady, gave_up=gave_up, reason=why, **figures)


def _plateau_figures(
    values: Sequence[float],
    waf_series: Sequence[float | None] | None,
    w: int,
    criteria: SteadyStateCriteria,
) -> dict[str, Any]:
    """Baseline (the w rounds before the window) against the window, for IOPS and WAF."""
    out: dict[str, Any] = dict(
        baseline_mean=None,
        decline_fraction=None,
        decline_ok=None,
        waf_window_mean=None,
        waf_baseline_mean=None,
        waf_rise_fraction=None,
        waf_ok=None,
    )
    if len(values) < 2 * w:
        return out
    window, base = values[-w:], values[-2 * w : -w]
    mean, base_mean = _mean(window), _mean(base)
    out["baseline_mean"] = base_mean
    if mean > 0:
        out["decline_fraction"] = (base_mean - mean) / mean
        limit = criteria.max_decline_fraction
        out["decline_ok"] = None if limit is None else out["decline_fraction"] <= limit + 1e-12
    if waf_series is not None and len(waf_series) == len(values):
        waf_w, waf_b = list(waf_series[-w:]), list(waf_series[-2 * w : -w])
        if all(x is not None for x in waf_w + waf_b):
            ww, wb = _mean(waf_w), _mean(waf_b)  # type: ignore[arg-type]
            out["waf_window_mean"], out["waf_baseline_mean"] = ww, wb
            if wb > 0:
                out["waf_rise_fraction"] = (ww - wb) / wb
                limit = criteria.max_waf_rise_fraction
                out["waf_ok"] = None if limit is None else out["waf_rise_fraction"] <= limit + 1e-12
    return out


def first_steady_round(
    series: Sequence[float], criteria: SteadyStateCriteria = SNIA
) -> SteadyStateVerdict:
    """Replay a whole series round by round, as a profile does, and return the verdict at the
    first round where it became steady (or at max_rounds / the end of the series)."""
    verdict = assess([], criteria)
    for n in range(1, len(series) + 1):
        verdict = assess(series[:n], criteria)
        if verdict.steady or verdict.gave_up:
            break
    return verdict


def assess_phase(phase: dict[str, Any], criteria: SteadyStateCriteria) -> SteadyStateVerdict:
    """The verdict on the phase's rounds: its precondition, then the steady-state tests."""
    rounds = phase["rounds"]
    need = (phase.get("precondition") or {}).get("bytes", 0)
    written, eligible = 0, len(rounds) + 1
    for i, r in enumerate(rounds):
        if written >= need:
            eligible = i + 1  # the first round that starts with the precondition written
            break
        written += r["bytes_written"]
    waf = [r.get("waf") for r in rounds]
    return assess(
        [r["iops"] for r in rounds],
        criteria,
        first_eligible_round=eligible,
        waf_series=waf if any(w is not None for w in waf) else None,
    )
