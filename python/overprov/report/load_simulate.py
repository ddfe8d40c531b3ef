"""A simulate file (``overprov simulate --json``, read by ``engine.read_simulate_file``) as one
:class:`Source` per series of runs that differ only in their OP (a sweep of ``--extra-op`` is
one series; a file holding two GC policies gives two). A run that carries ``timed`` (per-interval
IOPS, latency and a state fob/transition/steady) gives the same figures as a profile phase.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov import engine
from overprov.errors import ConfigError, OverprovError
from overprov.qd_sweep import sweep_levels
from overprov.report.model import (
    PERCENTILE_SHARE,
    WAF_RISE_LIMIT,
    Latency,
    Phase,
    ReportInputError,
    Source,
    Span,
    kv,
    number,
    op_text,
    scale_text,
    sim_basis_of,
)
from overprov.steady_window import (
    SteadyWindow,
    steady_window,
    timed_intervals,
    window_percentile,
)
from overprov.units import binary_size, human_bytes
from overprov.workload_text import (
    describe_run_length,
    describe_workload,
    fold_note,
    is_trace,
    is_uniform,
    workload_of,
)

# Keys of a simulate config that change with the OP of a sweep (not part of a series' identity).
_OP_KEYS = {
    "extra_op_percent",
    "op_ratio",
    "user_pages",
    "user_bytes",
}


# ----------------------------------------------------------------------------------- simulate


def _g(value: Any) -> str:
    """A number as ``:g`` formats it; anything else (a hand-edited file) as "?"."""
    v = number(value)
    return "?" if v is None else f"{v:g}"


def _strip_op(config: Mapping[str, Any]) -> str:
    cfg = json.loads(json.dumps(config))
    geo = cfg.get("geometry") or {}
    for key in _OP_KEYS:
        geo.pop(key, None)
    (cfg.get("run") or {}).pop("seed", None)
    return json.dumps(cfg, sort_keys=True)


def _sim_phase(run: Mapping[str, Any], op_axis: str) -> Phase:
    geo = run.get("geometry") or {}
    cfg = run.get("config") or {}
    extra = (cfg.get("geometry") or {}).get("extra_op_percent")
    rho = number(geo.get("rho"))
    x = float(extra) if op_axis == "extra" else 100.0 * (rho or 0.0)
    measured = run.get("measured") or {}
    wear = run.get("wear") or {}
    user = number(geo.get("user_bytes"))
    phase = Phase(
        op_percent=x,
        label=f"op{x:g}" if op_axis == "extra" else f"rho{x:.3g}",
        status="simulated" if run.get("done", True) else "stopped",
        steady=False,
        waf=number(measured.get("waf")),
        rho=rho,
        user_bytes=user,
        physical_bytes=number(geo.get("physical_bytes")),
        pages_per_block=geo.get("pages_per_block"),
        erase=wear.get("erase_count"),
        erase_histogram=[(int(a), int(b)) for a, b in wear.get("erase_histogram") or []],
        bytes_written=number(measured.get("host_bytes")),
    )
    if user and measured.get("host_bytes"):
        phase.measured_drive_writes = float(measured["host_bytes"]) / user
    measured_wafs = []
    intervals = [iv for iv in run.get("intervals") or [] if iv.get("phase") != "precondition"]
    # A phase ends mid-interval: its last interval holds a few pages (40 of 2,441, say), where
    # WAF is 1 or a GC burst by chance. Such stubs (under a quarter of the full interval) are
    # not drawn or trended; the quoted WAF (measured part) counts every page anyway.
    sizes = [number((iv.get("delta") or {}).get("host_pages")) or 0.0 for iv in intervals]
    full = max(sizes, default=0.0)
    for iv, size in zip(intervals, sizes, strict=True):
        if size < 0.25 * full:
            continue
        waf = number((iv.get("delta") or {}).get("waf"))
        dw = number(iv.get("drive_writes_total"))
        if waf is not None and dw is not None:
            phase.waf_drive_writes.append(dw)
            phase.waf_series.append(waf)
            if iv.get("phase") == "measure":
                measured_wafs.append(waf)
    run_cfg = cfg.get("run") or {}
    warm = number(run_cfg.get("warmup_drive_writes"))
    meas = number(run_cfg.get("drive_writes"))
    workload = workload_of(run)
    if workload["kind"] == "trace":
        # the measured passes' WAF (what simulate --trace prints), never a window of intervals
        # that may hold the warm-up passes or the fill
        passes = int(workload.get("passes") or 0)
        warm_passes = int(workload.get("warmup_passes") or 0)
        phase.waf_window = (
            f"measured passes: {passes - warm_passes} after {warm_passes} warm-up pass(es) "
            "(fill excluded)"
        )
        phase.waf_is_measured_passes = True
    elif phase.waf is not None and warm is not None and meas is not None:
        phase.waf_window = (
            f"measured part: {meas:g} drive writes after a warm-up of {warm:g} "
            "(precondition excluded)"
        )
        _waf_trend(phase, measured_wafs)
    timed = run.get("timed")
    if isinstance(timed, Mapping):
        _sim_timed(phase, timed)
    return phase


def _waf_trend(phase: Phase, wafs: Sequence[float]) -> None:
    """The fitted rise of WAF across a window, as a share of its mean (least squares, as the
    profile's slope test); more than :data:`WAF_RISE_LIMIT` flags WAF as still rising."""
    from overprov.steady_window import least_squares_slope

    if len(wafs) < 3:
        return
    mean = sum(wafs) / len(wafs)
    if mean <= 0:
        return
    phase.waf_rise_fraction = least_squares_slope(wafs) * (len(wafs) - 1) / mean
    phase.waf_rising = phase.waf_rise_fraction > WAF_RISE_LIMIT


def _timed_waf(
    phase: Phase, intervals: Sequence[Mapping[str, Any]], window: SteadyWindow | None
) -> None:
    """The WAF of a timed run over the window its steady figures come from
    (``overprov.steady_window``, the figure ``overprov simulate`` prints), not the whole measured
    part, which holds the fresh-out-of-box stretch at WAF 1 when there was no precondition or
    warm-up; the whole run's figure is kept beside it."""
    if window is None or window.waf is None or phase.waf_is_measured_passes:
        return
    waf = window.waf
    if phase.waf is not None and abs(phase.waf / waf - 1) > 0.005:
        phase.waf_whole_run = phase.waf
    phase.waf = waf
    phase.waf_window = window.text()
    _waf_trend(
        phase,
        [
            float(w)
            for iv in intervals[window.first : window.last + 1]
            if (w := number(iv.get("waf"))) is not None
        ],
    )


def _sim_timed(phase: Phase, timed: Mapping[str, Any]) -> None:
    """IOPS over time, states, write saturation and latency from a timed simulation.

    ``timed.steady_window`` [first, last] (interval indexes) is the window whose mean is
    ``steady_iops``: its min–max and its latency (the median over the window of each
    interval's percentile, as ``overprov simulate`` prints it) are the phase's figures. Without
    it, the intervals whose state is "steady" stand in."""
    intervals = timed_intervals(timed)
    window_figures = steady_window(timed)
    step = number(timed.get("interval_s")) or 1.0
    steady_values = []
    for iv in intervals:
        t = number(iv.get("time_s"))
        t = t if t is not None else (len(phase.time_s) + 1) * step
        phase.time_s.append(t)
        phase.iops.append(float(iv["iops"]))
        state = str(iv.get("state") or "")
        if state == "steady":
            steady_values.append(float(iv["iops"]))
        if phase.spans and phase.spans[-1].kind == state:
            phase.spans[-1].end_s = t
        elif state:
            phase.spans.append(Span(t - step, t, state))
        hb = number(iv.get("host_bytes_total"))
        if hb is not None:
            phase.wsat_bytes.append(hb)
            phase.wsat_iops.append(float(iv["iops"]))
    phase.duration_s = phase.time_s[-1] if phase.time_s else None
    phase.wall_s = phase.duration_s
    phase.rounds = 0
    phase.fob_iops = number(timed.get("fob_iops"))
    steady = number(timed.get("steady_iops"))
    phase.steady_iops = steady
    phase.steady = steady is not None
    phase.status = "steady" if phase.steady else "not_steady"
    window = timed.get("steady_window")
    in_window: list[Mapping[str, Any]] = []
    if (
        isinstance(window, Sequence)
        and len(window) == 2
        and all(isinstance(k, int) for k in window)
        and 0 <= window[0] <= window[1] < len(intervals)
    ):
        in_window = intervals[window[0] : window[1] + 1]
        values = [float(iv["iops"]) for iv in in_window]
        phase.iops_min, phase.iops_max = min(values), max(values)
        phase.iops_mean = sum(values) / len(values)
        phase.spans.append(
            Span(phase.time_s[window[0]] - step, phase.time_s[window[1]], "steady-window")
        )
        _timed_waf(phase, intervals, window_figures)
    elif steady_values:
        phase.iops_min, phase.iops_max = min(steady_values), max(steady_values)
        phase.iops_mean = sum(steady_values) / len(steady_values)
    elif phase.iops:
        tail = phase.iops[-max(1, len(phase.iops) // 5) :]
        phase.iops_min, phase.iops_max = min(tail), max(tail)
        phase.iops_mean = sum(tail) / len(tail)
        phase.reason = "no interval reached the steady state; figure: mean of the last fifth"
        _timed_waf(phase, intervals, window_figures)
    if intervals and number(intervals[-1].get("host_bytes_total")) is not None:
        phase.bytes_written = float(intervals[-1]["host_bytes_total"])
    hist = timed.get("latency_histogram") or {}
    uppers = [float(v) for v in hist.get("bucket_upper_us") or []]
    counts = [int(c) for c in hist.get("counts") or []]
    summary = timed.get("latency_us") or {}
    last = (intervals[-1].get("latency_us") or {}) if intervals else {}
    window_pct: dict[str, float | None] = {}
    if in_window and window_figures is not None:
        for key in PERCENTILE_SHARE:
            window_pct[key] = window_percentile(timed, window_figures, key)
    if uppers and len(uppers) == len(counts) and sum(counts) > 0:
        phase.latency = Latency(
            values_us=uppers,
            counts=counts,
            max_us=number(summary.get("max")) or number(last.get("max")),
            source=f"timed simulator latency histogram (bucket upper bounds), {sum(counts):,} I/Os"
            + (
                "; percentiles: median over the steady window of each interval's"
                if window_pct
                else ""
            ),
            kind=(
                "the steady window's percentiles of each run (median over the window of each "
                "interval's), the same window as the tables; the whole run's histogram is in "
                "latency-histogram.csv"
                if any(v is not None for v in window_pct.values())
                else "the timed simulator's latency histogram of each whole run (bucket upper "
                "bounds; no steady window)"
            ),
        )
        phase.latency.percentiles = {
            k: phase.latency.percentile(s) for k, s in PERCENTILE_SHARE.items()
        }
        if any(v is not None for v in window_pct.values()):
            phase.latency.window_percentiles = window_pct
    elif last or window_pct:
        phase.latency = Latency(
            percentiles=window_pct or {k: number(last.get(k)) for k in PERCENTILE_SHARE},
            max_us=number(summary.get("max")) or number(last.get("max")),
            source="percentiles of the steady window"
            if window_pct
            else "percentiles of the last interval (no histogram in the file)",
            kind="percentiles of each run (no histogram in the file)",
        )


def _flag(command: Sequence[Any], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` in a recorded command line."""
    args = [str(a) for a in command]
    for k, a in enumerate(args):
        if a == name and k + 1 < len(args):
            return args[k + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def _sim_label(
    cfg: Mapping[str, Any],
    differing: set[str],
    command: Sequence[Any] = (),
    recorded: Mapping[str, Any] | None = None,
) -> str:
    geo = cfg.get("geometry") or {}
    ftl = cfg.get("ftl") or {}
    wl = cfg.get("workload") or {}
    size = geo.get("advertised_bytes") or geo.get("physical_bytes")
    parts = ["sim"]
    # the preset as simulate recorded it; older files only have it on the command line
    preset = (recorded or {}).get("name") or _flag(command, "--preset")
    if preset:
        parts.append(preset)
        scale = (recorded or {}).get("scale") or _flag(command, "--scale")
        if scale and scale not in ("1", "1.0"):
            parts.append(f"×{scale}")
    elif size:
        parts.append(human_bytes(float(size)))
    policy = str(ftl.get("policy"))
    if policy == "d-choices":
        policy += f" d={ftl.get('d_choices')}"
    parts.append(policy)
    trace = (cfg.get("trace") or {}).get("path")
    if trace:
        parts.append(f"trace {Path(str(trace)).name}")
    elif "workload" in differing or wl.get("pattern") != "uniform":
        parts.append(str(wl.get("pattern")))
    if "pages_per_block" in differing:
        parts.append(f"b={geo.get('pages_per_block')}")
    if "qd" in differing:
        parts.append(f"QD{((cfg.get('timing') or {}).get('host') or {}).get('queue_depth')}")
    return " ".join(parts)


def _timing_text(timing: Any, trace: Mapping[str, Any] | None = None) -> str | None:
    """The timed simulator's settings in one line (host, NAND, buffer, SLC cache); a trace's
    open loop runs at the trace's own arrival times."""
    if not isinstance(timing, Mapping) or not timing.get("enabled"):
        return None
    host = timing.get("host") or {}
    nand = timing.get("nand") or {}
    buf = timing.get("buffer") or {}
    slc = timing.get("slc") or {}
    parts = [
        f"QD{host.get('queue_depth')} closed loop"
        if host.get("mode") == "closed"
        else f"open loop at the trace's arrival times × {_g(trace.get('time_scale', 1.0))}"
        if trace and trace.get("path")
        else f"open loop at {host.get('arrival_iops')} IOPS",
        "write-through" if host.get("write_through") else "write-back",
        f"{nand.get('channels')} channels × {nand.get('dies_per_channel')} dies, program "
        f"{_g(nand.get('program_us'))} µs, erase {_g(nand.get('erase_us'))} µs",
        f"buffer {binary_size(int(number(buf.get('bytes')) or 0))}"
        + (" (power-loss protected)" if buf.get("power_loss_protected") else ""),
    ]
    if slc.get("enabled"):
        parts.append(f"SLC cache up to {human_bytes(number(slc.get('max_bytes')))}")
    if host.get("link_mb_s"):
        parts.append(f"link {_g(host['link_mb_s'])} MB/s")
    return ", ".join(parts)


def load_simulate(path: Path) -> list[Source]:
    """The series of a simulate file. Its schema checks the figures the report draws, but each
    run's ``config`` is the simulator's whole configuration and only loosely checked; a value of
    the wrong type there (a hand-edited file) is refused naming the file, not a traceback."""
    try:
        return _load_simulate(path)
    except OverprovError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise ReportInputError(
            f"{path}: a run's configuration has a value of the wrong type or misses one "
            f"({type(exc).__name__}: {exc})"
        ) from None


def _load_simulate(path: Path) -> list[Source]:
    try:
        doc = engine.read_simulate_file(path)
    except ConfigError as exc:
        raise ReportInputError(str(exc)) from None
    runs = doc["runs"]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in runs:
        groups.setdefault(_strip_op(r.get("config") or {}), []).append(r)
    # what differs between series names them
    differing: set[str] = set()
    if len(groups) > 1:
        firsts = [g[0].get("config") or {} for g in groups.values()]
        for key in ("ftl", "workload", "wear", "run"):
            if len({json.dumps(c.get(key), sort_keys=True) for c in firsts}) > 1:
                differing.add(key)
        ppb = {json.dumps((c.get("geometry") or {}).get("pages_per_block")) for c in firsts}
        if len(ppb) > 1:
            differing.add("pages_per_block")
        qds = {
            json.dumps(((c.get("timing") or {}).get("host") or {}).get("queue_depth"))
            for c in firsts
        }
        if len(qds) > 1:
            differing.add("qd")
    mtime = datetime.fromtimestamp(os.stat(path).st_mtime, tz=UTC)
    command = doc.get("command") or []
    sources = []
    for runs_of in groups.values():
        cfg = runs_of[0].get("config") or {}
        geo_cfg = cfg.get("geometry") or {}
        geo = runs_of[0].get("geometry") or {}
        op_axis = (
            "extra"
            if all(
                (r.get("config") or {}).get("geometry", {}).get("extra_op_percent") is not None
                for r in runs_of
            )
            else "rho"
        )
        phases = sorted((_sim_phase(r, op_axis) for r in runs_of), key=lambda p: p.op_percent)
        ftl = cfg.get("ftl") or {}
        wl = cfg.get("workload") or {}
        run_cfg = cfg.get("run") or {}
        label = _sim_label(cfg, differing, command, doc.get("preset"))
        recorded = doc.get("preset") or {}
        drive = recorded.get("name") or _flag(command, "--preset")
        scale_given = recorded.get("scale") or _flag(command, "--scale")
        scale = (
            scale_text(str(drive), scale_given, number(geo_cfg.get("advertised_bytes")))
            if drive
            else None
        )
        timing = cfg.get("timing") or {}
        timed_run = bool(timing.get("enabled"))
        trace_run = is_trace(runs_of[0])
        notes = []
        if trace_run:
            w = workload_of(runs_of[0])
            for r in runs_of:
                wr = workload_of(r)
                note = fold_note(
                    number(wr.get("max_end_bytes")) or 0.0,
                    number(wr.get("user_bytes")) or 0.0,
                    str(w.get("fold", "modulo")),
                )
                if note:
                    notes.append(note)
                    break
        pre_kind = (cfg.get("precondition") or {}).get("kind", "?")
        simulator = runs_of[0].get("simulator")
        software = dict(
            kv(
                [
                    ("overprov", doc.get("overprov_version")),
                    (
                        "simulator",
                        f"{simulator} {runs_of[0].get('version')}" if simulator else None,
                    ),
                ]
            )
        )
        identity = kv(
            [
                ("simulated drive", label),
                (
                    "SIMULATED",
                    (f"preset or drive file {drive}" if drive else "a hand-configured drive")
                    + (f", scale {scale}" if scale else "")
                    + f", {sim_basis_of(str(drive) if drive else None)}: computed by the "
                    "simulator, not measured on a drive",
                ),
                (
                    "advertised capacity",
                    human_bytes(number(geo_cfg.get("advertised_bytes")))
                    if geo_cfg.get("advertised_bytes")
                    else None,
                ),
                ("physical NAND", human_bytes(number(geo.get("physical_bytes")))),
                (
                    "geometry",
                    f"{geo.get('page_size_bytes')} B pages, {geo.get('pages_per_block')} pages "
                    f"per block, {geo.get('blocks')} blocks",
                ),
                ("file", str(path)),
            ]
        )
        settings = kv(
            [
                (
                    "OP levels",
                    ", ".join(op_text(p.op_percent, op_axis) for p in phases)
                    + (" extra OP" if op_axis == "extra" else ""),
                ),
                (
                    "GC",
                    f"{ftl.get('policy')}"
                    + (f" (d={ftl.get('d_choices')})" if ftl.get("policy") == "d-choices" else "")
                    + f", GC frontier {ftl.get('gc_frontier')}, host streams "
                    f"{ftl.get('host_streams')}, GC at ≤ {ftl.get('gc_free_blocks')} free blocks",
                ),
                ("workload", describe_workload(runs_of[0])),
                (
                    "run",
                    f"{describe_run_length(runs_of[0])}, seed {run_cfg.get('seed')}"
                    if run_cfg
                    else None,
                ),
                ("timing", _timing_text(cfg.get("timing"), cfg.get("trace"))),
                ("command", " ".join(str(c) for c in command) if command else None),
            ]
        )
        sources.append(
            Source(
                kind="simulate",
                path=path,
                label=label,
                title=f"simulation: {label}",
                status="complete" if all(r.get("done", True) for r in runs_of) else "stopped early",
                date=f"file written {mtime:%Y-%m-%d %H:%M} UTC",
                phases=phases,
                op_axis=op_axis,
                identity=identity,
                settings=settings,
                software=software,
                drive_bytes=number(geo_cfg.get("advertised_bytes")),
                policy=ftl.get("policy"),
                workload="trace" if trace_run else wl.get("pattern"),
                uniform_workload=is_uniform(runs_of[0]),
                d_choices=ftl.get("d_choices"),
                notes=notes,
                total_bytes=sum(p.bytes_written or 0.0 for p in phases) or None,
                simulated=True,
                sim_drive=str(drive) if drive else None,
                sim_scale=scale,
                sim_basis=sim_basis_of(str(drive) if drive else None),
                comparison_keys={
                    "drive": str(drive) if drive else "hand-configured",
                    "scale": scale or "—",
                    "method": "timed simulation" if timed_run else "WAF simulation (untimed)",
                    "precondition": f"{pre_kind}, warm-up "
                    f"{run_cfg.get('warmup_drive_writes', '?')} drive writes",
                    "round length": (
                        f"{_g(timing.get('state_round_drive_writes', 0.2))} drive writes per "
                        "state round"
                        if timed_run
                        else "—"
                    ),
                    "GC policy": str(ftl.get("policy")),
                    "workload": describe_workload(runs_of[0]),
                },
            )
        )
    if sources and sweep_levels(runs):
        sources[0].qd_runs, sources[0].qd_preset = list(runs), drive and str(drive)
    return sources
