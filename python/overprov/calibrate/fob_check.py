"""Whether IOPS figures alone can read a drive's garbage-collection cost: the queue-depth check.

Without a WAF figure calibrate reads the GC's cost from how the steady IOPS fall with the
spare space (``fit.py``), FOB a point of that line at WAF 1. Neither FOB's place against the
steady figures' own line, nor the fit's residual, nor t_cmd on its bound tells the stored
IOPS-only cases whose WAF misses by more than 25% from those within
(bench/results/fobcheck/TALLY.md). What did, on the stored cases, is how much the IOPS still
gain from queue depth: a drive whose IOPS at QD32 are several times its QD4 figure is waiting
on a latency, not on its NAND's throughput, so its steady IOPS do not measure what garbage
collection costs it (FlashSim's DFTL, bench/foreign/results/flashsim/verdict.md; FEMU). A drive
without a write buffer that has more parallel units than the lower depth keeps busy gains as
much by parallelism alone; on three such drives (32 and 64 dies, NVMeVirt's 32 LUNs) IOPS
figures alone missed the QD32 IOPS by 36-47% at the median, so the refusal holds there too
(bench/results/fobmany/verdict.md: no false refusal among five many-unit drives).

:func:`queue_depth_elasticity` is that gain as an exponent: e = ln(IOPS ratio) ÷ ln(QD ratio)
at the highest extra-OP level with a figure at the workload's queue depth and at another (1:
IOPS proportional to queue depth; 0: saturated). :func:`gc_cost_unidentified`, a plausibility
rule, refuses an IOPS-only prediction with e ≥ :data:`ELASTICITY_MIN` when :data:`ENABLED` (on:
bench/results/fobcheck/RULE.md, met).
"""

from __future__ import annotations

import math
from typing import Any

from overprov.calibrate import fit as fitmod
from overprov.prediction_file import Prediction

#: Whether :func:`gc_cost_unidentified` refuses. On since its rule (bench/results/fobcheck/RULE.md)
#: was met: no stored IOPS-only input at or above the bound had its WAF within 25%, and a fresh
#: FlashSim drive (e 0.98) missed its WAF by +736% from IOPS alone
#: (bench/results/fobcheck/verdict.txt). Judged on one fresh drive of a family seen before; on
#: five many-unit drives since, no false refusal (bench/results/fobmany/verdict.md).
ENABLED = True
#: The queue-depth elasticity at or above which IOPS figures alone are taken not to read the
#: GC's cost: 0.59, QD32 IOPS 3.4 times QD4's (the geometric midpoint of 2.88, the largest on a
#: stored case within 25%, and 3.93, the smallest of the misses above it).
ELASTICITY_MIN = 0.59


def queue_depth_elasticity(
    points: list[dict[str, Any]], workload_qd: int = fitmod.WORKLOAD_QD
) -> tuple[float, dict[str, Any], dict[str, Any]] | None:
    """(e, the workload-QD figure, the other figure) at the highest extra-OP level where a steady
    IOPS figure is given at ``workload_qd`` (``queue_depth`` None or that) and at another queue
    depth; the other depth farthest from the workload's when several; None without such a pair.
    ``points``: ``Point`` fields as dicts (a prediction's ``fit["points"]`` and
    ``fit["points_other_queue_depth"]``)."""
    steady = [p for p in points if p.get("iops") and not p.get("fresh")]
    main = {p["extra_op_percent"]: p for p in steady if p.get("queue_depth") in (None, workload_qd)}
    other = [p for p in steady if p.get("queue_depth") not in (None, workload_qd)]
    pairs = [(p["extra_op_percent"], p) for p in other if p["extra_op_percent"] in main]
    if not pairs:
        return None
    level = max(x for x, _ in pairs)
    at_level = [p for x, p in pairs if x == level]
    lo = max(at_level, key=lambda p: abs(math.log(p["queue_depth"] / workload_qd)))
    hi = main[level]
    e = math.log(hi["iops"] / lo["iops"]) / math.log(workload_qd / lo["queue_depth"])
    return e, hi, lo


def gc_cost_unidentified(prediction: Prediction) -> str | None:
    """IOPS figures alone (no point with a WAF) from a drive whose IOPS still scale with queue
    depth (:func:`queue_depth_elasticity` ≥ :data:`ELASTICITY_MIN`): the reason to refuse, naming
    the figures; None when :data:`ENABLED` is off or the rule does not apply."""
    if not ENABLED:
        return None
    fit = prediction.fit
    points = list(fit.get("points", [])) + list(fit.get("points_other_queue_depth") or [])
    if not points or any(p.get("waf") is not None for p in points):
        return None
    got = queue_depth_elasticity(points)
    if got is None or got[0] < ELASTICITY_MIN:
        return None
    e, hi, lo = got
    qd = hi.get("queue_depth") or fitmod.WORKLOAD_QD
    return (
        f"IOPS figures only, and at {hi['extra_op_percent']:g}% extra OP the IOPS still scale "
        f"with queue depth: {hi['iops']:,.0f} at QD{qd} against {lo['iops']:,.0f} at "
        f"QD{lo['queue_depth']} (elasticity {e:.2f}; at most {ELASTICITY_MIN:g}): such a drive "
        "waits on a latency, or has more parallel units than the lower depth keeps busy, and "
        "its steady IOPS do not read what garbage collection costs it (every stored IOPS-only "
        "case at or above this missed its WAF by more than 25% or its QD32 IOPS by more than "
        "35%: bench/results/fobcheck/TALLY.md, bench/results/fobmany/verdict.md); a WAF figure "
        "(--waf-points, or a measurement with NAND-write counters) identifies it"
    )
