"""TRIM recovery: does discarded space come back as performance?

Steps (the same on a real and a simulated target, through the profiler's Target protocol):

1. purge; one pass of random writes over the span (every block once): the fresh figure;
2. random writes over the whole span to a steady state: the steady figure;
3. discard the last ``discard_percent`` of the span; write the rest once sequentially (this
   rewrites the kept data in order, so every block it fills is wholly valid);
4. one round of random writes over the kept part: the figure after TRIM.

A drive that uses the discarded space as spare area runs step 4 faster than step 2, as if it
had that much more over-provisioning; a drive that ignores TRIM still holds the discarded data
as valid and gains nothing. The verdict is on the gain ``after / steady − 1``; the share of the
fresh-to-steady drop it wins back is shown beside it.
"""

from __future__ import annotations

from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, INCONCLUSIVE, PASS, Verdict

GAIN_MIN = 0.10
"""Pass: random writes after the discard at least 10% faster than the steady state before."""
MIN_DROP = 0.10
"""Steady less than 10% below fresh: nothing to recover (inconclusive unless it gained)."""


def measure(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    span = target.capacity_bytes
    kept = span - int(span * s.discard_percent / 100.0)
    kept -= kept % s.bs_bytes
    target.purge()
    fresh = target.run(bench.round_spec("trim-fill", span, s, seconds=None)).combined.iops
    rounds = bench.write_to_steady(target, s, "trim-steady")
    said = target.discard_tail(kept)
    target.run(bench.round_spec("trim-seq", kept, s, rw="write", seconds=None))
    after = target.run(bench.round_spec("trim-after", kept, s)).combined
    figures = {
        "fresh_iops": fresh,
        "steady_iops": rounds[-1].combined.iops,
        "after_iops": after.iops,
        "steady_drive_writes": bench.drive_writes(rounds, span),
        "discarded_bytes": span - kept,
        "discard": said,
    }
    unit = "simulated s" if target.kind == "sim" else "s"
    method = (
        f"{target.kind} target of {span:,} bytes, random writes bs={s.bs_bytes} at QD{s.qd}: "
        f"purge; one random pass (fresh); {len(rounds)} round(s) of {s.round_seconds} {unit} "
        f"(steady); discard the last {s.discard_percent:g}%; one sequential pass over the rest; "
        f"one round of {s.round_seconds} {unit} over the rest (after)"
    )
    return figures, method


def judge(figures: dict[str, Any], method: str) -> Verdict:
    fresh, steady, after = figures["fresh_iops"], figures["steady_iops"], figures["after_iops"]
    if steady <= 0:
        raise ValueError("trim_recovery: no steady random-write IOPS measured")
    gain = after / steady - 1.0
    drop = fresh - steady
    recovered = (after - steady) / drop if drop >= MIN_DROP * fresh else None
    figures = {
        **figures,
        "gain_fraction": gain,
        "gain_min": GAIN_MIN,
        "recovered_fraction": recovered,
    }
    said = (
        f"random writes ran at {after:,.0f} IOPS after discarding "
        f"{figures['discarded_bytes']:,} bytes and a sequential pass, against {steady:,.0f} "
        f"steady before ({gain:+.0%}; fresh {fresh:,.0f}"
        + (f", {recovered:.0%} of the drop back)" if recovered is not None else ")")
    )
    if gain >= GAIN_MIN:
        return Verdict(
            "trim_recovery", PASS, f"discarded space comes back as spare: {said}", figures, method
        )
    if drop < MIN_DROP * fresh:
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
