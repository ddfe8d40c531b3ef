"""TRIM recovery: does discarded space come back as performance?

Steps (the same on a real and a simulated target, through the profiler's Target protocol),
with R the last ``discard_percent`` of the span and K the rest:

1. purge; one pass of random writes over the span (every block once): the fresh figure;
2. random writes over the span to a steady state: the steady figure; one sequential pass over
   K; one round of random writes over K: the figure *without* TRIM;
3. random writes over the span to a steady state again; discard R; one sequential pass over K;
   one round of random writes over K: the figure *with* TRIM.

Random writes over a smaller span run faster anyway (the same spare area serves less data),
so the discard is judged against the same steps without it: a drive that uses discarded space
as spare area runs step 3 faster than step 2; a drive that ignores TRIM holds R as valid data
and gains nothing. The verdict is on ``with / without − 1``.
"""

from __future__ import annotations

from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, INCONCLUSIVE, PASS, Verdict

GAIN_MIN = 0.10
"""Pass: random writes with the discard at least 10% faster than without it."""
MIN_DROP = 0.10
"""Steady less than 10% below fresh: nothing to recover (inconclusive unless it gained)."""


def measure(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    span = target.capacity_bytes
    kept = span - int(span * s.discard_percent / 100.0)
    kept -= kept % s.bs_bytes

    def over_kept(label: str) -> float:
        target.run(bench.round_spec(f"{label}-seq", kept, s, rw="write", seconds=None))
        return target.run(bench.round_spec(f"{label}-rand", kept, s)).combined.iops

    target.purge()
    fresh = target.run(bench.round_spec("trim-fill", span, s, seconds=None)).combined.iops
    first = bench.write_to_steady(target, s, "trim-steady1")
    without = over_kept("trim-without")
    second = bench.write_to_steady(target, s, "trim-steady2")
    said = target.discard_tail(kept)
    with_trim = over_kept("trim-with")
    figures = {
        "fresh_iops": fresh,
        "steady_iops": first[-1].combined.iops,
        "without_trim_iops": without,
        "with_trim_iops": with_trim,
        "steady_drive_writes": bench.drive_writes(first, span),
        "discarded_bytes": span - kept,
        "discard": said,
    }
    unit = "simulated s" if target.kind == "sim" else "s"
    method = (
        f"{target.kind} target of {span:,} bytes, random writes bs={s.bs_bytes} at QD{s.qd}: "
        "purge; one random pass (the first pass after the purge); "
        f"rounds of {s.round_seconds} {unit} to steady state "
        f"({len(first)}); a sequential pass over the first {100 - s.discard_percent:g}% and one "
        f"round of random writes over it (without TRIM); steady state again ({len(second)} "
        f"rounds); discard the last {s.discard_percent:g}%; the same two steps (with TRIM)"
    )
    return figures, method


def judge(figures: dict[str, Any], method: str) -> Verdict:
    fresh, steady = figures["fresh_iops"], figures["steady_iops"]
    without, with_trim = figures["without_trim_iops"], figures["with_trim_iops"]
    if without <= 0:
        raise ValueError("trim_recovery: no random-write IOPS measured without TRIM")
    gain = with_trim / without - 1.0
    figures = {**figures, "gain_fraction": gain, "gain_min": GAIN_MIN}
    said = (
        f"random writes after discarding {figures['discarded_bytes']:,} bytes ran at "
        f"{with_trim:,.0f} IOPS, {without:,.0f} after the same steps without the discard "
        f"({gain:+.0%}; first pass after the purge {fresh:,.0f}, steady {steady:,.0f})"
    )
    if gain >= GAIN_MIN:
        return Verdict(
            "trim_recovery", PASS, f"discarded space comes back as spare: {said}", figures, method
        )
    if fresh <= 0 or fresh - steady < MIN_DROP * fresh:
        return Verdict(
            "trim_recovery",
            INCONCLUSIVE,
            f"random writes never slowed down, so there was nothing to win back: {said}",
            figures,
            method,
        )
    return Verdict(
        "trim_recovery", FAIL, f"discarding gave no performance back: {said}", figures, method
    )
