"""From measured points to ``prediction.json``: fit, twin, simulation of the twin, interval.

Steady IOPS at each level come from the fitted surrogate (``fit.py``); WAF and p99 latency from
*simulating the twin* (``twin.py``), the fitted drive as a drive file, refined until it
reproduces its measured IOPS; the twin's own IOPS are reported beside (``twin_iops``). Why not
the twin's IOPS: on generated drives the surrogate was as close or closer everywhere, and on one
(a buffer too small to keep the dies busy, an additive cost per command) the twin reproduced its
two measured points within 2% but was 18% off between them, because the twin can express a
per-command cost only as a pipelined link, a ceiling (docs/calibrate.md). The interval comes
from ``uncertainty.py``. With only WAF points (no IOPS), WAF comes from the surrogate and IOPS
are not predicted.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from overprov import __version__
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod
from overprov.calibrate import uncertainty
from overprov.calibrate.measure import Measurement

SCHEMA = "overprov.calibrate/1"
#: A twin whose size nobody gave (figures from a datasheet): 1 TB. Every figure the twin
#: predicts is scale-free (simulated at a small scale anyway); only twin.toml shows the size.
DEFAULT_ADVERTISED_BYTES = 1_000_000_000_000
#: A twin is at least this big, so that its simulation has blocks enough for garbage
#: collection (a 32 MiB loop device would give 16); its figures do not depend on its size.
MIN_TWIN_BYTES = 4 * 2**30


def points_from(m: Measurement) -> list[fitmod.Point]:
    """The fit's points from a measurement: each level's steady IOPS and WAF."""
    return [
        fitmod.Point(
            extra_op_percent=lv.extra_op_percent,
            iops=lv.steady_iops,
            iops_rel_sd=max(lv.iops_rel_sd, fitmod.MIN_REL_SD),
            waf=lv.waf,
        )
        for lv in m.levels
    ]


def measurement_summary(m: Measurement | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {
        "target": m.target,
        "capacity_bytes": m.capacity_bytes,
        "scale_factor": m.scale_factor,
        "drive_writes": m.drive_writes,
        "bytes_written": m.bytes_written,
        "io_seconds": m.io_seconds / m.scale_factor,
        "io_seconds_note": (
            "device I/O time of the full-size drive (the scaled simulation's time ÷ its scale "
            "factor: same drive writes at the same IOPS)"
            if m.scale_factor < 1
            else "device I/O time of the measurement"
        ),
        "fob_iops": m.fob_iops,
        "write_counters": m.counters,
        "levels": [
            {
                "extra_op_percent": lv.extra_op_percent,
                "steady_iops": lv.steady_iops,
                "waf": lv.waf,
                "p99_latency_us": lv.p99_latency_us,
                "settled": lv.settled,
                "drive_writes": lv.drive_writes,
            }
            for lv in m.levels
        ],
    }


def recommendation(levels: list[dict[str, Any]], target_iops: float | None) -> dict[str, Any]:
    if target_iops is None:
        return {"target_iops": None, "extra_op_percent": None, "safe_extra_op_percent": None,
                "text": "no --target-iops given"}  # fmt: skip
    expected = next(
        (lv["extra_op_percent"] for lv in levels if (lv["steady_iops"] or 0) >= target_iops), None
    )
    safe = next(
        (lv["extra_op_percent"] for lv in levels if (lv["steady_iops_low"] or 0) >= target_iops),
        None,
    )
    if expected is None:
        text = f"no level up to {levels[-1]['extra_op_percent']:g}% is predicted to reach it"
    else:
        text = f"{expected:g}% extra OP is predicted to reach {target_iops:,.0f} IOPS"
        text += (
            f"; {safe:g}% reaches it even at the interval's low end"
            if safe is not None
            else "; no level reaches it at the interval's low end"
        )
    return {
        "target_iops": target_iops,
        "extra_op_percent": expected,
        "safe_extra_op_percent": safe,
        "text": text,
    }


def predict(
    points: list[fitmod.Point],
    levels: list[float],
    out_dir: Path,
    *,
    fob_iops: float | None = None,
    native_op: float | None = None,
    advertised_bytes: int | None = None,
    target_iops: float | None = None,
    measurement: Measurement | None = None,
    source: str = "",
    bootstrap_samples: int = 100,
) -> dict[str, Any]:
    """Fit, build and refine the twin, simulate it at ``levels``; write twin.toml and return
    the prediction (the caller writes prediction.json)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    levels = sorted(set(levels))
    central = fitmod.fit(points, fob_iops=fob_iops, native_op=native_op)
    boot = uncertainty.bootstrap(
        points, levels, fob_iops=fob_iops, native_op=native_op, samples=bootstrap_samples
    )
    par = boot["parameters"]
    twin_params = twinmod.TwinParameters(
        advertised_bytes=max(advertised_bytes or DEFAULT_ADVERTISED_BYTES, MIN_TWIN_BYTES),
        native_op=central.native_op,
        t_page_us=central.t_page_us,
        t_cmd_us=central.t_cmd_us,
        uncertainty={k: list(v) for k, v in par.items()},
        source=source,
    )
    simulated = measurement is not None and measurement.kind == "sim"
    mfe = uncertainty.model_form_error(simulated)
    model_sd = mfe[0] if mfe else None
    path = out_dir / "twin.toml"
    has_iops = any(p.iops for p in points) and central.t_page_us > 0
    twin_check: list[dict[str, Any]] = []
    refinement: list[dict[str, float]] = []
    rows: list[dict[str, Any]] = []
    if has_iops:
        twin_params, at_points, refinement = twinmod.refine(path, twin_params, points)
        by = {lv.extra_op_percent: lv for lv in at_points.levels}
        for p in points:
            if p.iops:
                got = by[p.extra_op_percent]
                twin_check.append({
                    "extra_op_percent": p.extra_op_percent,
                    "measured_iops": p.iops,
                    "twin_iops": got.steady_iops,
                    "rel_error": got.steady_iops / p.iops - 1.0,
                    "measured_waf": p.waf,
                    "twin_waf": got.waf,
                })  # fmt: skip
        twin_worst = max((abs(c["rel_error"]) for c in twin_check), default=0.0)
        prediction_source = (
            "the fitted surrogate (steady IOPS); the twin, simulated at every level, gives WAF "
            f"and p99 latency (it reproduces its measured IOPS within {100 * twin_worst:.1f}%; "
            "its own IOPS are in twin_iops)"
        )
        sim = twinmod.simulate_levels(path, twin_params, levels)
        for lv in sim.levels:
            x = lv.extra_op_percent
            value = central.iops(x)
            lo, hi = uncertainty.band(value, boot["iops"][x], model_sd)
            rows.append({
                "extra_op_percent": x,
                "steady_iops": value,
                "steady_iops_low": lo,
                "steady_iops_high": hi,
                "waf": lv.waf,
                "p99_latency_us": lv.p99_latency_us,
                "surrogate_iops": central.iops(x),
                "twin_iops": lv.steady_iops,
            })  # fmt: skip
    else:
        prediction_source = "WAF from the fitted surrogate (no IOPS points to fit times to)"
        twinmod.write(path, twin_params)
        for x in levels:
            rows.append({
                "extra_op_percent": x,
                "steady_iops": None,
                "steady_iops_low": None,
                "steady_iops_high": None,
                "waf": central.waf(x),
                "p99_latency_us": None,
                "surrogate_iops": None,
                "twin_iops": None,
            })  # fmt: skip
    for row in rows:
        x = row["extra_op_percent"]
        row["waf_low"], row["waf_high"] = uncertainty.band(row["waf"], boot["waf"][x], None)
    return {
        "schema": SCHEMA,
        "overprov_version": __version__,
        "interval": (
            f"{uncertainty.INTERVAL}: bootstrap over the measured points' spread"
            + (
                f", widened by the model-form error measured on {mfe[1]} (relative sd {mfe[0]:.3f})"
                if mfe
                else " only (no model-form error recorded)"
            )
        ),
        "prediction_source": prediction_source,
        "workload": "uniform random writes, 4 KiB, QD32, to the whole span (steady state)",
        "levels": rows,
        "recommendation": recommendation(rows, target_iops) if has_iops else None,
        "fit": {
            "native_op": twin_params.native_op,
            "t_page_us": twin_params.t_page_us,
            "t_cmd_us": twin_params.t_cmd_us,
            "surrogate": central.to_dict(),
            "parameters_interval": twin_params.uncertainty,
            "points": [p.__dict__ for p in points],
            "twin_check": twin_check,
            "refinement": refinement,
        },
        "twin": str(path),
        "measurement": measurement_summary(measurement),
    }


def schema() -> dict[str, Any]:
    text = resources.files("overprov.calibrate").joinpath("prediction.schema.json").read_text()
    return json.loads(text)


def write_json(prediction: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(prediction, indent=2) + "\n")
    return path
