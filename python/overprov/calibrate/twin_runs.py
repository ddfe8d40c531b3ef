"""The twin fitted to figures (``--points``, ``--waf-points``) simulated at each extra-OP level
as an independent simulation, through ``overprov.sweep`` (``--jobs`` processes; the same
results as one after another: each level is its own config with its own seed).

A published figure is a steady figure of a drive at one OP under one workload, so each level is
a fresh twin at that extra OP under the figures' workload (``--workload``): the core's default
run (a sequential fill, 2 drive writes of warm-up) and :data:`MEASURED_DRIVE_WRITES` measured.
With IOPS to predict the run is timed and the figures are those of its steady window
(``overprov.steady_window``, the window ``overprov simulate`` and the report quote: mean IOPS,
WAF over the window, the median over the window of each interval's p99 latency); with WAF only
it is a WAF-only run and the figure is its measured part's WAF.

Under a skewed workload (not uniform random) a timed level can instead be run until the twin's
own window is steady (``until_steady``: ``twin_steady.py``, a sequential fill then 4, 8 or 16
drive writes), since the twin can take far longer than 2 drive writes to wear its fill through;
not adopted (its rule not met: bench/corpus/skewed-steady-twin-results.md), calibrate does not.

(A twin calibrated on a target is simulated the way the target was measured instead, one drive
swept lowest level first through the same rounds: ``twin.simulate_levels``.)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from overprov import engine, sweep
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin_steady, workload_curve
from overprov.calibrate.twin import TwinParameters, sim_config
from overprov.measurement_file import Level, Measurement
from overprov.steady_window import steady_window, window_percentile

MEASURED_DRIVE_WRITES = 2.0
SEED = 1
#: Levels run already, by (level, config text): their figures and the twin's user bytes.
Runs = dict[tuple[float, str], tuple[Level, int]]


def simulated_level(raw_native_op: float, twin_native_op: float, extra_op_percent: float) -> float:
    """The extra OP at which the twin file (spare ``twin_native_op``, k·ρ₀ with ρ₀ the raw
    spare) has k times the raw spare of level ``extra_op_percent``."""
    k = twin_native_op / raw_native_op
    wanted = k * fitmod.rho_eff(raw_native_op, extra_op_percent)
    return max(0.0, 100.0 * (1.0 - (1.0 + twin_native_op) / (1.0 + wanted)))


def level_config(
    twin: dict[str, Any],
    extra_op_percent: float,
    workload: dict[str, Any],
    timed: bool,
    warmup_drive_writes: float | None = None,
) -> dict[str, Any]:
    """One level's simulation of the twin whose config is ``twin`` (``twin.sim_config``);
    ``warmup_drive_writes``: the warm-up before the measured part (None: the core's default)."""
    run: dict[str, Any] = {"drive_writes": MEASURED_DRIVE_WRITES, "seed": SEED}
    if warmup_drive_writes is not None:
        run["warmup_drive_writes"] = warmup_drive_writes
    return engine.merge(
        twin,
        {
            "geometry": {"extra_op_percent": extra_op_percent},
            "workload": dict(workload),
            "run": run,
            "timing": {"enabled": timed},
        },
    )


def _level(extra_op_percent: float, report: dict[str, Any]) -> Level:
    measured = report.get("measured") or {}
    run = report["config"]["run"]
    dw_total = float(run["warmup_drive_writes"]) + float(run["drive_writes"])
    timed = report.get("timed")
    if not timed:
        return Level(
            extra_op_percent=extra_op_percent,
            steady_iops=0.0,
            iops_rel_sd=0.0,
            waf=measured.get("waf"),
            p99_latency_us=None,
            settled=True,
            window_rounds=0,
            drive_writes_before_window=0.0,
            drive_writes=dw_total,
        )
    sw = steady_window(timed)
    if sw is None:
        raise ValueError(f"twin at {extra_op_percent:g}%: the timed run has no intervals")
    iops = timed.get("steady_iops") or sw.iops
    return Level(
        extra_op_percent=extra_op_percent,
        steady_iops=float(iops),
        iops_rel_sd=0.0,
        # a window whose intervals did not all issue writes has no WAF of its own (a drive so
        # slow that whole intervals pass without one): the measured part's
        waf=sw.waf if sw.waf is not None else measured.get("waf"),
        p99_latency_us=window_percentile(timed, sw, "p99"),
        settled=sw.steady,
        window_rounds=sw.last - sw.first + 1,
        drive_writes_before_window=sw.drive_writes[0] if sw.drive_writes else 0.0,
        drive_writes=sw.drive_writes[1] if sw.drive_writes else dw_total,
    )


def simulate_levels(
    p: TwinParameters,
    levels: list[float],
    workload: dict[str, Any],
    *,
    timed: bool = True,
    jobs: int | None = None,
    level_of: Callable[[float], float] | None = None,
    memo: Runs | None = None,
    progress: bool = False,
    warmup_drive_writes: float | None = None,
    until_steady: bool = False,
    overrides: dict[str, Any] | None = None,
) -> Measurement:
    """Steady IOPS (timed), WAF and p99 latency of the twin at ``levels``, one simulation per
    level, in parallel (``jobs``); the twin's config is built in memory (``twin.sim_config``).
    ``level_of(x)``: the extra OP the twin file is simulated at for level x (the raw-spare
    reading's :func:`simulated_level`; None: x), the figures reported at x. ``memo``: the
    levels run already by config (one prediction's: two readings whose twins come out the
    same, e.g. one WAF figure read with the fitted spare and with k times the raw one, run
    once; a config and its seed give the same figures every time); new runs are added.
    ``progress``: the runs' progress on stderr. ``warmup_drive_writes``: :func:`level_config`'s.
    ``until_steady``: a timed level under a workload that is not uniform is run until its own
    window is steady (:func:`run_until_steady`); uniform and WAF-only levels run as without it.
    ``overrides``: config keys merged over the twin's (a bench reading's ``wear`` section, say)."""
    twin = sim_config(p) if overrides is None else engine.merge(sim_config(p), overrides)
    at = level_of or (lambda x: x)
    memo = {} if memo is None else memo
    configs = [level_config(twin, at(x), workload, timed, warmup_drive_writes) for x in levels]
    steady = until_steady and timed and not workload_curve.is_uniform(workload)
    tag = " until steady" if steady else ""
    keys = [(x, json.dumps(cfg) + tag) for x, cfg in zip(levels, configs, strict=True)]
    by_key = dict(zip(keys, configs, strict=True))
    new = [k for k in by_key if k not in memo]
    todo = [by_key[k] for k in new]
    if steady:
        ran = run_until_steady(todo, [x for x, _ in new], jobs, progress)
        memo.update(zip(new, ran, strict=True))
    else:
        reports = sweep.run_points(todo, jobs=jobs, label="twin", progress=progress)
        if reports.interrupted:
            raise KeyboardInterrupt
        for (x, text), rep in zip(new, reports, strict=True):
            memo[x, text] = (_level(x, rep), int(rep["geometry"].get("user_bytes") or 0))
    return Measurement(
        target=f"twin ({len(levels)} independent simulations)",
        capacity_bytes=memo[keys[0]][1] if keys else 0,
        scale_factor=1.0,
        bs_bytes=4096,
        qd=32,
        levels=[memo[k][0] for k in keys],
        kind="sim",
    )


def run_until_steady(
    configs: list[dict[str, Any]], levels: list[float], jobs: int | None, progress: bool
) -> list[tuple[Level, int]]:
    """Each timed level config run for ``twin_steady.DRIVE_WRITES`` in turn, the runs not yet
    steady again, longer; the figures and user bytes of each config's first steady run (or its
    run at the cap)."""
    out: dict[int, tuple[Level, int]] = {}
    todo = list(range(len(configs)))
    for dw in twin_steady.DRIVE_WRITES:
        runs = [twin_steady.run_config(configs[i], dw) for i in todo]
        reports = sweep.run_points(runs, jobs=jobs, label=f"twin, {dw:g} DW", progress=progress)
        if reports.interrupted:
            raise KeyboardInterrupt
        for i, rep in zip(todo, reports, strict=True):
            out[i] = (
                twin_steady.window_level(levels[i], rep),
                int(rep["geometry"].get("user_bytes") or 0),
            )
        todo = [i for i in todo if not out[i][0].settled]
        if not todo:
            break
    return [out[i] for i in range(len(configs))]


def say(progress: bool, text: str) -> None:
    """One line of what calibrate simulates now, on stderr (``progress``: else nothing)."""
    if progress:
        print(f"calibrate: {text}", file=sys.stderr, flush=True)
