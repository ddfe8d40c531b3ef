"""The blocking-GC reading beside the analytic one (``gc_blocking.py``): its twins checked at
each level when calibrate prepares a reading, and the two readings' IOPS weighed by their
evidence at the same figures (``evidence.py``). ``fig``, ``reading`` and ``got`` are
``predict.PredictionInput``, ``predict.TwinReading`` and the twin's figures (predict.py, which
calls this module)."""

from __future__ import annotations

import math
from typing import Any

from overprov import engine
from overprov.calibrate import blocking_erase_form, evidence, gc_blocking, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError


def configs(
    fig: Any, reading: Any, twin: Any, levels: list[float]
) -> list[tuple[str, float, dict[str, Any]]]:
    """The blocking-GC reading's twin (``gc_blocking.config``) at each of ``levels`` and each
    fitted figure's level, when :func:`weigh` would fit it; its geometry is the
    same for every domain count and program time the fit tries."""
    qd = fig.measurement.qd if fig.measurement is not None else fitmod.WORKLOAD_QD
    points = fig.points + fig.other_qd_points
    if not gc_blocking.fits(points, qd):
        return []
    level_of = reading.level_of(twin)
    at = sorted({*levels, *(p.extra_op_percent for p in points if not p.fresh)})
    return [
        ("blocking-GC twin", x, gc_blocking.config(
            twin.native_op, level_of(x), 1, gc_blocking.NOMINAL_PROGRAM_US, qd, ftl=reading.ftl
        ))
        for x in at
    ]  # fmt: skip


def weigh(
    fig: Any,
    reading: Any,
    got: Any,
    curve: fitmod.WafCurve,
    mfe: uncertainty.ModelForm | None,
    *,
    qd: int,
) -> dict[str, Any] | None:
    """Weigh the analytic reading's IOPS (``got.rows``, changed in place) with the blocking-GC
    reading's (``gc_blocking.py``) by their evidence at the same figures (``evidence.py``):
    each row's IOPS becomes their weighted geometric mean, its interval (the analytic one's
    ratios) widened in quadrature by their weighted spread. Returns the mechanism's record
    (None when the figures cannot fit it)."""
    cv_sd = evidence.model_form_rel_sd(mfe)
    level_of = reading.level_of(got.twin)
    for _, x, cfg in configs(fig, reading, got.twin, [r.extra_op_percent for r in got.rows]):
        try:  # the refined twin's spare (prepare checked the fitted one's)
            engine.check(cfg)
        except ConfigError as exc:
            got.source += (
                f"; not weighed with the blocking-GC reading: its twin at {x:g}% extra OP "
                f"cannot be simulated with the refined native spare ({exc})"
            )
            return None
    blocking = gc_blocking.fit(
        fig.points + fig.other_qd_points, got.twin.native_op, queue_depth=qd, level_of=level_of,
        model_rel_sd=cv_sd, jobs=fig.jobs, ftl=reading.ftl, progress=fig.progress,
    )  # fmt: skip
    if blocking is None:
        return None
    form = reading.form(curve)  # the analytic reading; at other QDs through N units when enabled
    assessed, queue = blocking_erase_form.assess(form, fig.points, cv_sd, fig.other_qd_points, qd)
    fitted_by = (assessed["residual_chi2"], assessed["n_figures"], assessed["n_parameters"])
    reproduced = {"analytic": evidence.reproduces(*fitted_by), "blocking": blocking.reproduces()}
    chi2 = {"analytic": assessed["chi2"], "blocking": blocking.chi2}
    refuted = {"analytic": assessed, "blocking": blocking.evidence()}
    w = evidence.weights(chi2, reproduced, refuted, queue_depth=qd)["blocking"]
    rows, at = got.rows, [r.extra_op_percent for r in got.rows]
    predicted = gc_blocking.predict(
        blocking, at, level_of=level_of, jobs=fig.jobs, progress=fig.progress
    )
    for row in rows:
        x = row.extra_op_percent
        a, b = row.steady_iops, predicted[x][0]
        row.analytic_iops, row.blocking_gc_iops = a, b
        value = math.exp((1 - w) * math.log(a) + w * math.log(b))
        spread = math.sqrt((1 - w) * math.log(a / value) ** 2 + w * math.log(b / value) ** 2)
        lo_r, hi_r = row.steady_iops_low / a, row.steady_iops_high / a
        sd = spread / uncertainty.Z80
        row.steady_iops = value
        row.steady_iops_low, row.steady_iops_high = uncertainty.band(value, [lo_r, hi_r], sd)
    return {
        **blocking.to_dict(),
        "weight": w,
        "analytic_chi2": assessed["chi2"],
        "analytic_residual_chi2": assessed["residual_chi2"],
        "analytic_reproduces_fitted_figures": reproduced["analytic"],
        "figures_reproduced": evidence.figures_reproduced(refuted, queue_depth=qd),
        "timing": blocking.twin_timing(),
        **({"closed_loop": queue.to_dict()} if queue is not None else {}),
    }
