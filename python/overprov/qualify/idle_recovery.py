"""Host idle recovery, after the SNIA Solid State Storage Performance Test Specification (PTS)
Host Idle Recovery (HIR) test: does the drive use host idle time to recover?

SNIA's test, after a random-write steady state: for each wait state of 5, 10, 15, 25 and 50
seconds, 360 times [5 s of random 4 KiB writes, then the wait with no I/O], then 1800 s of
continuous writes ("return to baseline") before the next wait state; the IOPS of the bursts
against the continuous writes show whether the idle time was used. Ours is the same shape,
smaller: ``idle_repeats`` bursts per wait state (not 360) of ``idle_burst_seconds`` (5), and
a return to baseline of the same total length as the bursts (SNIA's proportion: 360 × 5 s =
1800 s), whose IOPS is that wait state's baseline. One figure per wait: the mean IOPS of its
bursts over the baseline, ``recovery`` = mean / baseline − 1.

The work a drive can do in idle time: garbage collection ahead of need (free blocks in hand
when the burst comes), programming what its write buffer holds, folding its SLC cache. A drive
that does none of it runs its bursts at the baseline. Black-box figures cannot tell the three
apart; on a simulated drive the mechanisms are the model's (``timing.background_gc_free_blocks``,
the buffer, the SLC cache), and a drive with background GC turned off and nothing else to do
in idle time shows no recovery (tests/qualify/test_qualify_idle_recovery.py).

Both kinds of target run it through the profiler's Target protocol, each burst a round with
``RoundSpec.idle_seconds`` before it: a real target sleeps that long between fio rounds (every
burst its own fio job with its own figures, and the target re-identified after the sleep,
right before the write); a simulated drive passes it to the core (``RoundRequest.idle_seconds``),
which advances simulated time and runs background work meanwhile.
"""

from __future__ import annotations

import statistics
from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, INCONCLUSIVE, PASS, Verdict

RECOVERY_MIN = 0.10
"""Pass: after the longest wait, bursts run at least 10% above the baseline. SNIA's test
reports the curves and sets no threshold; 10% is our choice: the half-width the SNIA
steady-state rule lets a steady window span (max − min within 20% of its mean), so a change no
larger than a steady drive may show from round to round does not count as recovery."""


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def measure(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    span = target.capacity_bytes
    target.purge()
    target.run(bench.round_spec("idle-fill", span, s, seconds=None))
    steady = bench.write_to_steady(target, s, "idle-steady")
    baseline_s = s.idle_burst_seconds * s.idle_repeats
    waits: list[dict[str, Any]] = []
    for wait in s.idle_waits_s:
        tag = f"idle-w{wait:g}"
        base = target.run(bench.round_spec(f"{tag}-base", span, s, seconds=baseline_s))
        bursts = [
            target.run(
                bench.round_spec(
                    f"{tag}-b{k + 1}",
                    span,
                    s,
                    seconds=s.idle_burst_seconds,
                    idle_seconds=float(wait),
                )
            )
            for k in range(s.idle_repeats)
        ]
        iops = [b.combined.iops for b in bursts]
        p99 = [b.combined.latency_us.get("p99") for b in bursts]
        mean = _mean(iops)
        baseline = base.combined.iops
        waits.append(
            {
                "wait_s": float(wait),
                "baseline_iops": baseline,
                "burst_iops": iops,
                "mean_burst_iops": mean,
                "recovery": mean / baseline - 1.0 if baseline > 0 else None,
                "burst_latency_p99_us": statistics.median([x for x in p99 if x is not None])
                if any(x is not None for x in p99)
                else None,
                "baseline_latency_p99_us": base.combined.latency_us.get("p99"),
            }
        )
    figures = {
        "steady_iops": steady[-1].combined.iops,
        "steady_drive_writes": bench.drive_writes(steady, span),
        "burst_seconds": s.idle_burst_seconds,
        "repeats": s.idle_repeats,
        "baseline_seconds": baseline_s,
        "waits": waits,
    }
    sim = target.kind == "sim"
    unit = "simulated s" if sim else "s"
    idle = (
        "simulated idle time before each burst (the core's RoundRequest.idle_seconds: SLC "
        "folding and background GC meanwhile)"
        if sim
        else "a sleep before each burst's fio round (nothing issued meanwhile)"
    )
    method = (
        f"{target.kind} target of {span:,} bytes, random writes bs={s.bs_bytes} at QD{s.qd}: "
        f"purge; one random pass over the span; rounds of {s.round_seconds} {unit} to steady "
        "state "
        f"({figures['steady_drive_writes']:.2f} drive writes); then per wait state "
        f"({', '.join(f'{w:g}' for w in s.idle_waits_s)} {unit}): {baseline_s} {unit} of "
        f"continuous writes (the baseline), then {s.idle_repeats} × [wait, "
        f"{s.idle_burst_seconds} {unit} burst]; {idle}. After SNIA PTS Host Idle Recovery "
        "(360 bursts per wait state there)"
    )
    return figures, method


def judge(figures: dict[str, Any], method: str) -> Verdict:
    waits = figures["waits"]
    usable = [w for w in waits if w.get("recovery") is not None]
    if not usable:
        return Verdict("idle_recovery", INCONCLUSIVE, "no baseline IOPS measured", figures, method)
    longest = max(usable, key=lambda w: w["wait_s"])
    figures = {**figures, "recovery_min": RECOVERY_MIN, "judged_wait_s": longest["wait_s"]}
    per_wait = ", ".join(f"{w['wait_s']:g} s: {w['recovery']:+.0%}" for w in usable)
    said = (
        f"bursts after {longest['wait_s']:g} s idle ran at {longest['mean_burst_iops']:,.0f} "
        f"IOPS against {longest['baseline_iops']:,.0f} continuous "
        f"({longest['recovery']:+.0%}; per wait {per_wait})"
    )
    if longest["recovery"] >= RECOVERY_MIN:
        return Verdict(
            "idle_recovery",
            PASS,
            f"the drive uses idle time (background GC or flushing its buffers): {said}",
            figures,
            method,
        )
    return Verdict(
        "idle_recovery",
        FAIL,
        f"idle time does not restore performance (no background GC in idle time): {said}",
        figures,
        method,
    )
