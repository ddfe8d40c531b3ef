"""A cliff step's write series at a ceiling: every round at one level, in and past any cache
(``overprov calibrate --cliff``; bench/results/cliffdecline/DIAGNOSIS.md).

At QD32 4 KiB a drive's writes can be capped before its dies are: by the host link's bytes
(SATA's 550 MB/s) or by the controller's time per command (its contexts ÷ its command time).
Where the cap is under the TLC rate the SLC cache writes no faster than the TLC past it, the
series runs to its bound flat, and the cache's end does not show (the seen 1% declines of
bench/results/clifffall/ and cliffsmall/: every round of each series at one IOPS). A drive
without a cache its writes can see runs flat as well: the series does not tell the two apart.

- :func:`at_ceiling`: a flat series (every round within :data:`CEILING_SPREAD` of its median).
- :func:`decline_text`: what the decline then says, and what shows the cache.
- :data:`LARGER_REQUEST` (off: its rule, bench/results/cliffdecline/RULE.md, was met without
  testing it; see the flag): where the 4 KiB
  series ended at its bound at a ceiling, the step runs its series again from purged with
  requests of :data:`LARGER_REQUEST_BYTES` (``cliff_step.measure_cliff``): a per-command cap
  then lets the dies' rate through, and the cache's step shows where a per-command cap hid
  it; under the link's bytes it stays flat. Such a series is fitted on the twin with its
  controller's time per command (:func:`per_command`).
"""

from __future__ import annotations

import statistics
from typing import Any

#: Off. bench/results/cliffdecline/RULE.md was met, but the fresh draw did not test it
#: (bench/results/cliffdecline/verdict.md): it acted on three flat series, predicted none of
#: them, and wrote a second 0.5 drive writes on each; the rule's bar was met with it off as
#: well. Wear without a measured gain, so the lead kept it off at the merge (said in the
#: verdict); a rule whose fresh draw holds flat series under a per-command ceiling can turn it on.
LARGER_REQUEST = False
#: The second series' request size: the cliff bench's second probe size (bench/cliff_bench.py
#: ``--probe-bs 4096,32768``, docs/calibrate-cliff.md's sixth rule), not tuned on any case.
LARGER_REQUEST_BYTES = 32768
#: A series is at a ceiling when every round's IOPS is within this share of their median.
CEILING_SPREAD = 0.01


def at_ceiling(rounds: list[dict[str, Any]]) -> bool:
    """Whether every round of a step's series (``measurement.json``'s ``cliff.rounds``) ran
    within :data:`CEILING_SPREAD` of the rounds' median IOPS (at least four rounds)."""
    iops = [float(r["iops"]) for r in rounds]
    if len(iops) < 4:
        return False
    mid = statistics.median(iops)
    return mid > 0 and all(abs(v / mid - 1) <= CEILING_SPREAD for v in iops)


def _level(rounds: list[dict[str, Any]], bs_bytes: int) -> str:
    iops = statistics.median(float(r["iops"]) for r in rounds)
    return f"{iops:,.0f} IOPS of {bs_bytes // 1024} KiB ({iops * bs_bytes / 1e6:,.0f} MB/s)"


def decline_text(doc: dict[str, Any], max_drive_writes: float) -> str:
    """The decline of a step that ended at its bound (``doc``: ``measurement.json``'s
    ``cliff``): where its series sat at a ceiling, what that means and what would show the
    cache; else the bound's own reason."""
    bound = f"no step in the series within the step's bound of {max_drive_writes:g} drive writes"
    rounds = doc.get("rounds") or []
    bs = int(doc.get("bs_bytes", 4096))
    first = doc.get("ceiling_series")  # the 4 KiB series, where a larger one was run
    if first is not None:
        small = _level(first["rounds"], first["bs_bytes"])
        big = _level(rounds, bs)
        text = f"{bound}: the QD32 series ran at a ceiling at {small} and again at {big}"
        if at_ceiling(rounds):
            return (
                f"{text}, every round within {CEILING_SPREAD:.0%}: a cap on the bytes (the host "
                "link's) under the TLC rate, which no write series sees past, or no cache its "
                "writes can see; a cliff under a mix with reads is then seen only by measuring "
                "that workload past the cache's bytes"
            )
        return f"{text} without a step: no cache found (or one larger than the bound)"
    if not at_ceiling(rounds):
        return (
            f"{bound}: no cache found (or one larger than the bound, or one its writes cannot see)"
        )
    return (
        f"{bound}: every round ran at {_level(rounds, bs)}, within {CEILING_SPREAD:.0%}: the "
        "writes ran at one rate in and past any cache. Either a ceiling (the host link's bytes "
        "or the controller's time per command) under the TLC rate hides the cache's faster "
        "writes (so it was on the seen 1% declines, bench/results/cliffdecline/DIAGNOSIS.md), "
        "or the drive has no cache its writes can see; a longer series does not tell them "
        "apart. Under a per-command ceiling (its MB/s well under the link's) a series of "
        "larger requests can show the cache; under the link's bytes no write series does: "
        "its cliff under a mix with reads is then seen only by measuring that workload past "
        "the cache's bytes"
    )


def per_command(twin: dict[str, Any]) -> dict[str, Any]:
    """``twin`` with its controller's per-4-KiB times (``data_us_per_4kib``,
    ``map_update_us``) moved into its time per command (``command_us``): the same ceiling at
    4 KiB, none added per byte above it. For a step found at :data:`LARGER_REQUEST_BYTES`
    after a flat 4 KiB series: the step says the 4 KiB cap was per command (one per byte
    would have capped the larger requests too), and calibrate's steady fit, made at 4 KiB,
    does not tell the two apart (its time per host page goes to ``map_update_us``)."""
    ctrl = twin.get("config", {}).get("timing", {}).get("controller")
    if not ctrl:
        return twin
    per_4k = float(ctrl.get("data_us_per_4kib") or 0.0) + float(ctrl.get("map_update_us") or 0.0)
    moved = {**ctrl, "command_us": float(ctrl.get("command_us") or 0.0) + per_4k,
             "data_us_per_4kib": 0.0, "map_update_us": 0.0}  # fmt: skip
    timing = {**twin["config"]["timing"], "controller": moved}
    return {**twin, "config": {**twin["config"], "timing": timing}}
