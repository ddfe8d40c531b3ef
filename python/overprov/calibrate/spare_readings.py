"""Two readings of figures from a drive whose raw NAND is known (``--physical``).

The raw NAND beyond the user capacity is a fact; how much good it does is not. Figures that
fall short of (or beat) what greedy garbage collection on that much spare would give have two
readings, and a figure or two cannot tell them apart:

- **effective spare** (``twin.toml``): the fit's usual form. The native spare ρ₀ is fitted to
  the figures and the raw NAND is not used: a drive that keeps part of its NAND for other uses
  (metadata, an SLC cache, retired blocks) has that much less spare, and extra OP adds to what
  is left, ``ρ(x) = (1 + ρ₀)/(1 − x) − 1``;
- **raw spare used k times as well** (``twin-raw-nand.toml``): ρ₀ is the raw NAND's, and WAF is
  that of the fit's curve at ``k·ρ(x)``, k (``Surrogate.spare_efficiency``) fitted to the WAF
  figures (1 when there are none). A drive whose garbage collection or data placement beats
  greedy on one write frontier (hot and cold data apart under a skewed workload, cost-benefit
  victims) is k > 1; one that does worse, k < 1. Extra OP then helps in proportion to the
  spare the drive already has.

Under a skewed workload the simulator's own GC designs follow the second reading in steady
state, while figures taken over a run from a secure erase (a stretch at WAF 1 included) follow
the first more closely (docs/calibrate.md, "Published figures"). So with the raw NAND known,
calibrate predicts with both and states the geometric mean of their figures, with an interval
that holds both readings (and each one's own interval).

The second reading's twin is simulated per level as the twin whose spare at that level is
``k·ρ(x)``: its drive file has ``k·ρ₀`` of spare (the 0% level) and level x is simulated at the
extra OP that gives the wanted spare (``twin_runs.simulated_level``). For k = 1 that is x itself.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import workload_curve
from overprov.errors import ConfigError

RAW_TWIN = "twin-raw-nand.toml"
TWIN = "twin.toml"


def _geomean(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return a if b is None else b
    return math.sqrt(a * b)


def _span(values: list[float | None]) -> tuple[float | None, float | None]:
    got = [v for v in values if v is not None]
    return (min(got), max(got)) if got else (None, None)


def combine(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """One prediction from the two readings' (same levels): the geometric mean of each figure,
    the interval from the lowest to the highest of both readings' figures and intervals."""
    rows = []
    for ra, rb in zip(a["levels"], b["levels"], strict=True):
        row: dict[str, Any] = {"extra_op_percent": ra["extra_op_percent"]}
        for key in ("steady_iops", "waf", "p99_latency_us"):
            row[key] = _geomean(ra[key], rb[key])
        for key, lo, hi in (("steady_iops", "steady_iops_low", "steady_iops_high"),
                            ("waf", "waf_low", "waf_high")):  # fmt: skip
            row[lo], row[hi] = _span([ra[key], rb[key], ra[lo], rb[lo], ra[hi], rb[hi]])
        row["surrogate_iops"] = _geomean(ra.get("surrogate_iops"), rb.get("surrogate_iops"))
        row["twin_iops"] = ra.get("twin_iops")
        rows.append(row)
    doc = dict(a)
    doc["levels"] = rows
    doc["interval"] = (
        "from the lower to the higher of the two readings' figures and intervals (each "
        + a["interval"]
        + ")"
    )
    doc["prediction_source"] = (
        "the geometric mean of two readings of the raw NAND, each a twin simulated at every "
        f"level: effective spare fitted ({TWIN}) and the raw spare used k = "
        f"{b['fit']['spare_efficiency']:.3g} times as well as greedy GC ({RAW_TWIN}); "
        "readings holds each one's figures"
    )
    if doc.get("recommendation") is not None:
        doc["recommendation"] = predmod.recommendation(rows, a["recommendation"]["target_iops"])
    doc["readings"] = {
        "effective_spare": {k: a[k] for k in ("levels", "fit", "twin", "prediction_source")},
        "raw_spare": {k: b[k] for k in ("levels", "fit", "twin", "prediction_source")},
    }
    return doc


def predict(
    points: list[fitmod.Point],
    levels: list[float],
    out_dir: Path,
    *,
    raw_native_op: float,
    **kwargs: Any,
) -> dict[str, Any]:
    """Both readings of figures (``--points``/``--waf-points``) from a drive whose raw spare
    is ``raw_native_op``, combined; only the raw-spare reading when the figures cannot fix an
    effective spare (one IOPS figure and no WAF)."""
    workload = kwargs.get("workload")
    if kwargs.get("curve") is None and not workload_curve.is_uniform(workload):
        kwargs["curve"] = workload_curve.simulate_curve(workload, jobs=kwargs.get("jobs"))
    raw = predmod.predict(
        points,
        levels,
        out_dir,
        native_op=raw_native_op,
        fit_efficiency=True,
        twin_name=RAW_TWIN,
        independent_levels=True,
        **kwargs,
    )
    try:
        effective = predmod.predict(
            points, levels, out_dir, native_op=None, independent_levels=True, **kwargs
        )
    except ConfigError:
        raw["prediction_source"] += (
            "; the raw spare only: these figures cannot fix an effective spare beside it"
        )
        (out_dir / TWIN).write_bytes((out_dir / RAW_TWIN).read_bytes())
        raw["twin"] = str(out_dir / TWIN)
        return raw
    return combine(effective, raw)
