"""From measured points to ``prediction.json``: fit, twin, simulation of the twin, interval.

The fitted surrogate (``fit.py``) is the fit's inner model; its parameters become the twin
(``twin.py``), the fitted drive as a drive file, refined until its simulation reproduces the
measured IOPS. The predicted steady IOPS, WAF and p99 latency at every level come from
*simulating the twin*; the surrogate's IOPS are reported beside (``surrogate_iops``). The
interval comes from ``uncertainty.py`` (the bootstrap's spread, as ratios, around the twin's
figure). With only WAF points (no IOPS) IOPS are not predicted; WAF comes from the twin
simulated WAF-only at every level (figures typed with ``--waf-points``), else from the
surrogate. Figures typed by the user may name their workload: the fit's WAF curve and the twin
are then simulated under it (``workload_curve.py``, ``twin_runs.py``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

from overprov import __version__
from overprov.calibrate import evidence, gc_blocking, twin_runs, uncertainty, workload_curve
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod
from overprov.calibrate.measure import Measurement
from overprov.errors import ConfigError
from overprov.outputs import write_atomic
from overprov.workload_options import describe_overrides, flags_text

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
    workload: dict[str, Any] | None = None,
    independent_levels: bool = False,
    jobs: int | None = None,
    fit_efficiency: bool = False,
    twin_name: str = "twin.toml",
    curve: fitmod.WafCurve | None = None,
    ftl: dict[str, Any] | None = None,
    model_form: uncertainty.ModelForm | None = None,
) -> dict[str, Any]:
    """Fit, build and refine the twin, simulate it at ``levels``; write twin.toml and return
    the prediction (the caller writes prediction.json).

    ``workload``: the workload the points were measured under (``workload_options`` overrides;
    None: uniform random); another than uniform fits WAF against a curve simulated under it
    (``workload_curve``) and simulates the twin under it. ``independent_levels``: simulate the
    twin at each level as its own simulation through ``sweep`` (``twin_runs``; ``jobs``
    processes), as figures from a data sheet or a paper are; otherwise the way calibrate
    measures a target (one drive, lowest level first). ``fit_efficiency`` (``native_op`` the
    raw NAND's spare, independent levels): the spare efficiency k is fitted to the WAF figures
    and each level simulated with k times the raw spare (``spare_readings``). ``curve``: the
    WAF curve under ``workload`` when the caller has it already. ``ftl``: the twin's garbage
    collection (``config.ftl`` keys, the curve simulated with it; None: greedy, one frontier).
    ``model_form``: the model-form error the interval is widened by (None: the recorded one,
    ``uncertainty.recorded_model_form``)."""
    if fit_efficiency and (native_op is None or not independent_levels):
        raise ValueError("fit_efficiency needs native_op and independent levels")
    out_dir.mkdir(parents=True, exist_ok=True)
    levels = sorted(set(levels))
    workload = dict(workload or {"pattern": "uniform"})
    uniform = workload_curve.is_uniform(workload)
    if not uniform and not independent_levels:
        raise ConfigError(
            "--workload: calibrate measures a target with uniform random 4 KiB writes; another "
            "workload applies to figures given with --points/--waf-points"
        )
    if curve is None:
        curve = (
            fitmod.waf_at
            if uniform and not ftl
            else workload_curve.simulate_curve(workload, jobs=jobs, ftl=ftl)
        )
    central = fitmod.fit(
        points, fob_iops=fob_iops, native_op=native_op, curve=curve, fit_efficiency=fit_efficiency
    )
    boot = uncertainty.bootstrap(
        points,
        levels,
        fob_iops=fob_iops,
        native_op=native_op,
        samples=bootstrap_samples,
        curve=curve,
        fit_efficiency=fit_efficiency,
    )
    par = boot["parameters"]
    twin_params = twinmod.TwinParameters(
        advertised_bytes=max(advertised_bytes or DEFAULT_ADVERTISED_BYTES, MIN_TWIN_BYTES),
        # the twin file's own spare: k times the raw spare (at 0% extra OP)
        native_op=central.native_op * central.spare_efficiency,
        t_page_us=central.t_page_us,
        t_cmd_us=central.t_cmd_us,
        uncertainty={k: list(v) for k, v in par.items()},
        source=source,
        workload=workload,
        spare_efficiency=central.spare_efficiency,
        ftl=ftl,
    )
    simulated = measurement is not None and measurement.kind == "sim"
    mfe = model_form if model_form is not None else uncertainty.recorded_model_form(simulated)
    fitted_levels = sorted({p.extra_op_percent for p in points if not p.fresh})

    def model_sd(x: float) -> float | None:
        """The model-form error at level x (it grows away from the fitted levels)."""
        if mfe is None:
            return None
        d = uncertainty.spare_distance(
            x, fitted_levels, central.native_op, central.spare_efficiency
        )
        return mfe.at(d) or None

    def waf_model_sd(x: float) -> float | None:
        """WAF's: the distance-dependent error (measured on WAF and IOPS figures alike)."""
        return model_sd(x) if mfe is not None and mfe.per_log_spare is not None else None

    path = out_dir / twin_name
    has_iops = any(p.iops for p in points) and central.t_page_us > 0
    twin_check: list[dict[str, Any]] = []
    refinement: list[dict[str, float]] = []
    mechanism: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []

    def simulate(p: twinmod.TwinParameters, at: list[float], timed: bool = True) -> Measurement:
        if not independent_levels:
            return twinmod.simulate_levels(path, p, at)
        if central.spare_efficiency == 1.0:
            return twin_runs.simulate_levels(path, p, at, workload, timed=timed, jobs=jobs)
        assert native_op is not None
        mapped = [twin_runs.simulated_level(native_op, p.native_op, x) for x in at]
        m = twin_runs.simulate_levels(path, p, mapped, workload, timed=timed, jobs=jobs)
        m.levels = [
            dataclasses.replace(lv, extra_op_percent=x) for lv, x in zip(m.levels, at, strict=True)
        ]
        return m

    if has_iops:
        twin_params, at_points, refinement = twinmod.refine(
            path, twin_params, points, simulate=simulate, curve=curve
        )
        by = {lv.extra_op_percent: lv for lv in at_points.levels}
        for p in points:
            if p.iops and not p.fresh:
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
            "the twin simulated at every level (steady IOPS, WAF, p99 latency); it reproduces "
            f"its measured IOPS within {100 * twin_worst:.1f}%; the fitted surrogate's IOPS "
            "are in surrogate_iops"
        )
        sim = simulate(twin_params, levels)
        for lv in sim.levels:
            x = lv.extra_op_percent
            value = lv.steady_iops
            lo, hi = uncertainty.band(value, boot["iops"][x], model_sd(x))
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
        if uniform:
            mechanism = _blocking_reading(
                points, rows, twin_params, native_op, fit_efficiency, curve, mfe,
                qd=measurement.qd if measurement is not None else 32, jobs=jobs, ftl=ftl,
            )  # fmt: skip
            if mechanism is not None and mechanism["weight"] > 0.5:
                twin_params = dataclasses.replace(twin_params, gc_timing=mechanism["timing"])
                twinmod.write(path, twin_params)
            if mechanism is not None:
                prediction_source += (
                    f"; IOPS weighed with the blocking-GC reading (weight "
                    f"{mechanism['weight']:.2f}, gc_blocking.py), in fit.gc_mechanism"
                )
    elif independent_levels:
        twinmod.write(path, twin_params)
        at = sorted({*levels, *(p.extra_op_percent for p in points if not p.fresh)})
        sim = simulate(twin_params, at, False)
        by = {lv.extra_op_percent: lv for lv in sim.levels}
        for p in points:
            got = by[p.extra_op_percent].waf
            if p.waf is not None and not p.fresh and got:
                twin_check.append({
                    "extra_op_percent": p.extra_op_percent,
                    "measured_iops": None,
                    "twin_iops": None,
                    "rel_error": got / p.waf - 1.0,
                    "measured_waf": p.waf,
                    "twin_waf": got,
                })  # fmt: skip
        prediction_source = (
            "the twin simulated at every level, WAF only (no IOPS points to fit times to); "
            "the fitted surrogate's WAF is in surrogate_waf"
        )
        for x in levels:
            rows.append({
                "extra_op_percent": x,
                "steady_iops": None,
                "steady_iops_low": None,
                "steady_iops_high": None,
                "waf": by[x].waf,
                "p99_latency_us": None,
                "surrogate_iops": None,
                "surrogate_waf": central.waf(x),
                "twin_iops": None,
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
        if row["waf"] is None:  # the twin's run gave none: the surrogate's
            row["waf"] = central.waf(x)
        waf_band = uncertainty.band(row["waf"], boot["waf"][x], waf_model_sd(x))
        row["waf_low"], row["waf_high"] = waf_band
    return {
        "schema": SCHEMA,
        "overprov_version": __version__,
        "interval": (
            f"{uncertainty.INTERVAL}: bootstrap over the measured points' spread"
            + (
                f", widened by the model-form error measured on {mfe.source} ({mfe.describe()})"
                if mfe is not None and (mfe.rel_sd or mfe.per_log_spare is not None)
                else " only (no model-form error recorded)"
            )
        ),
        "prediction_source": prediction_source,
        "workload": (
            "uniform random writes, 4 KiB, QD32, to the whole span (steady state)"
            if uniform
            else describe_overrides(workload) + ", QD32, to the whole span (steady state)"
        ),
        "workload_flags": flags_text(workload),
        "waf_curve": curve.to_dict() if isinstance(curve, workload_curve.SimulatedCurve) else None,
        "levels": rows,
        "recommendation": recommendation(rows, target_iops) if has_iops else None,
        "fit": {
            "native_op": central.native_op if fit_efficiency else twin_params.native_op,
            "spare_efficiency": central.spare_efficiency,
            "t_page_us": twin_params.t_page_us,
            "t_cmd_us": twin_params.t_cmd_us,
            "surrogate": central.to_dict(),
            "parameters_interval": twin_params.uncertainty,
            "points": [p.__dict__ for p in points],
            "twin_check": twin_check,
            "refinement": refinement,
            **({"gc_mechanism": mechanism} if mechanism is not None else {}),
        },
        "twin": str(path),
        "measurement": measurement_summary(measurement),
    }


def _blocking_reading(
    points: list[fitmod.Point],
    rows: list[dict[str, Any]],
    twin_params: twinmod.TwinParameters,
    native_op: float | None,
    fit_efficiency: bool,
    curve: fitmod.WafCurve,
    mfe: uncertainty.ModelForm | None,
    *,
    qd: int,
    jobs: int | None,
    ftl: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """Weigh the analytic reading's IOPS (``rows``, changed in place) with the blocking-GC
    reading's (``gc_blocking.py``) by their evidence at the same figures (``evidence.py``):
    each row's IOPS becomes their weighted geometric mean, its interval (the analytic one's
    ratios) widened in quadrature by their weighted spread. Returns the mechanism's record
    (None when the figures cannot fit it)."""
    cv_sd = mfe.rel_sd if mfe is not None else 0.0
    raw = native_op if fit_efficiency else None

    def level_of(x: float) -> float:
        if raw is None or twin_params.spare_efficiency == 1.0:
            return x
        return twin_runs.simulated_level(raw, twin_params.native_op, x)

    reading = gc_blocking.fit(
        points, twin_params.native_op, queue_depth=qd, level_of=level_of,
        model_rel_sd=cv_sd, jobs=jobs, ftl=ftl,
    )  # fmt: skip
    if reading is None:
        return None
    form = evidence.ReadingForm(curve, raw if raw is not None else native_op, fit_efficiency)
    assessed = evidence.assess(form, points, cv_sd)
    analytic = assessed["chi2"]
    reproduced = {
        "analytic": evidence.reproduces(
            assessed["residual_chi2"], assessed["n_figures"], assessed["n_parameters"]
        ),
        "blocking": reading.reproduces(),
    }
    chi2 = {"analytic": analytic, "blocking": reading.chi2}
    w = evidence.weights(chi2, reproduced)["blocking"]
    predicted = gc_blocking.predict(
        reading, [r["extra_op_percent"] for r in rows], level_of=level_of, jobs=jobs
    )
    for row in rows:
        x = row["extra_op_percent"]
        a, b = row["steady_iops"], predicted[x][0]
        row["analytic_iops"], row["blocking_gc_iops"] = a, b
        value = math.exp((1 - w) * math.log(a) + w * math.log(b))
        spread = math.sqrt((1 - w) * math.log(a / value) ** 2 + w * math.log(b / value) ** 2)
        lo_r, hi_r = row["steady_iops_low"] / a, row["steady_iops_high"] / a
        sd = spread / uncertainty.Z80
        row["steady_iops"] = value
        row["steady_iops_low"], row["steady_iops_high"] = uncertainty.band(value, [lo_r, hi_r], sd)
    return {
        **reading.to_dict(),
        "weight": w,
        "analytic_chi2": analytic,
        "analytic_residual_chi2": assessed["residual_chi2"],
        "analytic_reproduces_fitted_figures": reproduced["analytic"],
        "timing": reading.twin_timing(),
    }


def schema() -> dict[str, Any]:
    text = resources.files("overprov.calibrate").joinpath("prediction.schema.json").read_text()
    return json.loads(text)


def write_json(prediction: dict[str, Any], path: Path) -> Path:
    write_atomic(path, json.dumps(prediction, indent=2) + "\n")
    return path
