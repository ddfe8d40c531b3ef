"""The report's tables: the summary per source, what was tested, and the CSVs behind them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from overprov.report import findings, html
from overprov.report.files import FilesWriter
from overprov.report.model import PERCENTILE_SHARE, Source, op_text
from overprov.units import human_bytes, human_seconds

# ---------------------------------------------------------------------------------- tables


def summary_table(s: Source, rec_op: float | None) -> html.Table:
    if s.has_iops:
        cols = [
            "OP",
            "status",
            "steady IOPS",
            "window min–max",
            "p99 µs",
            "p99.9 µs",
            "rounds",
            "I/O time",
            "bytes written",
        ]
        if s.has_waf:
            steady_window = any(p.waf_window.startswith("steady window") for p in s.phases)
            cols.append("WAF (steady window)" if steady_window else "WAF")
        rows, hi = [], set()
        for k, p in enumerate(s.phases):
            lat = p.latency
            p99 = lat.percentile(0.99) if lat else None
            p999 = lat.percentile(0.999) if lat else None
            steady = (
                f"{p.steady_iops:,.0f}"
                if p.steady_iops is not None
                else (f"({p.iops_mean:,.0f})" if p.iops_mean is not None else "—")
            )
            rng = (
                f"{p.iops_min:,.0f}–{p.iops_max:,.0f}"
                if p.iops_min is not None and p.iops_max is not None
                else "—"
            )
            row = [
                op_text(p.op_percent, s.op_axis),
                p.status.replace("_", " "),
                steady,
                rng,
                "—" if p99 is None else f"{p99:,.0f}",
                "—" if p999 is None else f"{p999:,.0f}",
                str(p.rounds) if s.kind == "profile" else "—",
                human_seconds(p.duration_s),
                human_bytes(p.bytes_written),
            ]
            if s.has_waf:
                row.append(
                    "—" if p.waf is None else f"{p.waf:.3f}" + (" ↑ rising" if p.waf_rising else "")
                )
            rows.append(row)
            if rec_op is not None and p.op_percent == rec_op:
                hi.add(k)
        return html.Table(cols, rows, numeric={2, 3, 4, 5, 6, 7, 8, 9}, highlight=hi, status_col=1)
    modelled = s.uniform_workload
    cols = ["OP", "ρ", "user capacity", "WAF (simulated)"]
    cols += ["model WAF", "diff"] if modelled else []
    cols.append("erases min / mean / max")
    rows = []
    for p in s.phases:
        m = findings.model_waf(s, p)
        e = p.erase or {}
        row = [
            op_text(p.op_percent, s.op_axis),
            f"{100 * (p.rho or 0):.2f}%",
            human_bytes(p.user_bytes),
            "—" if p.waf is None else f"{p.waf:.3f}",
        ]
        if modelled:
            row += [
                "—" if m is None else f"{m:.3f}",
                "—" if (m is None or not p.waf) else f"{100 * (p.waf / m - 1):+.1f}%",
            ]
        row.append(
            f"{e.get('min', '—')} / {e.get('mean', 0):.1f} / {e.get('max', '—')}" if e else "—"
        )
        rows.append(row)
    return html.Table(cols, rows, numeric=set(range(1, len(cols) - 1)))


def _pct(value: Any, signed: bool = False) -> str:
    if not isinstance(value, int | float):
        return "—"
    return f"{100 * value:+.1f}%" if signed else f"{100 * value:.1f}%"


def _check(ok: Any, value: str) -> str:
    if value == "—":
        return "—"
    return value + ("" if ok is None else (" ✓" if ok else " ✗"))


def _limit(name: str, limit: Any) -> str:
    return f"{name} (≤ {100 * limit:g}%)" if isinstance(limit, int | float) else name


def window_table(s: Source) -> html.Table:
    """The SNIA PTS measurement-window table of a profile, per phase: the window's rounds, the
    data written before it, its mean, range and slope excursion against their limits, and the
    plateau checks (decline from the trailing baseline, WAF rise) with their values."""
    c = s.criteria
    cols = [
        "OP",
        "verdict",
        "window rounds",
        "written before (drive writes)",
        "mean IOPS",
        "min–max IOPS",
        _limit("range", c.get("max_range_fraction")),
        _limit("slope excursion", c.get("max_slope_excursion_fraction")),
        "baseline IOPS",
        _limit("decline from baseline", c.get("max_decline_fraction")),
        "WAF window / baseline",
        _limit("WAF rise", c.get("max_waf_rise_fraction")),
    ]
    rows = []
    for p in s.phases:
        v = p.verdict
        first = v.get("window_first_round")
        n = len(v.get("window") or [])
        wafs = (
            f"{v['waf_window_mean']:.3f} / {v['waf_baseline_mean']:.3f}"
            if isinstance(v.get("waf_window_mean"), int | float)
            and isinstance(v.get("waf_baseline_mean"), int | float)
            else "—"
        )
        rows.append(
            [
                op_text(p.op_percent, s.op_axis),
                p.status.replace("_", " "),
                f"{first}–{first + n - 1} of {v.get('rounds', p.rounds)}"
                if isinstance(first, int) and n
                else "—",
                "—"
                if p.written_before_window_drive_writes is None
                else f"{p.written_before_window_drive_writes:.2f}",
                fmt_iops(v.get("mean")),
                f"{fmt_iops(v.get('minimum'))}–{fmt_iops(v.get('maximum'))}"
                if v.get("minimum") is not None
                else "—",
                _check(v.get("range_ok"), _pct(v.get("range_fraction"))),
                _check(v.get("slope_ok"), _pct(v.get("slope_excursion_fraction"))),
                fmt_iops(v.get("baseline_mean")),
                _check(v.get("decline_ok"), _pct(v.get("decline_fraction"), True)),
                wafs,
                _check(v.get("waf_ok"), _pct(v.get("waf_rise_fraction"), True)),
            ]
        )
    return html.Table(cols, rows, numeric=set(range(2, 12)), status_col=1)


def fmt_iops(value: Any) -> str:
    return f"{value:,.0f}" if isinstance(value, int | float) else "—"


def differences_table(sources: Sequence[Source]) -> html.Table | None:
    """What differs between the inputs of an overlay: one row per differing key."""
    diffs = findings.differences(sources)
    if len(sources) < 2 or not diffs:
        return None
    return html.Table(
        ["differs in", *[s.label for s in sources]], [[k, *values] for k, values in diffs]
    )


def tested_table(sources: Sequence[Source]) -> html.Table:
    rows = []
    for s in sources:
        ident = dict(s.identity)
        what = ident.get("target") or ident.get("simulated drive") or s.label
        details = "; ".join(
            f"{v}" for k, v in s.identity if k not in ("target", "simulated drive", "file")
        )
        sw = ", ".join(f"{k} {v}" for k, v in s.software.items())
        rows.append(
            [
                s.label,
                (
                    "calibration (prediction)"
                    if s.kind == "calibrate"
                    else ("qualify (simulated drive)" if s.simulated else "qualify (fio)")
                    if s.kind == "qualify"
                    else ("plan (simulated trace replay)" if s.simulated else "plan (model)")
                    if s.kind == "plan"
                    else "simulation"
                    if s.kind != "profile"
                    else ("profile (simulated drive)" if s.simulated_target else "profile (fio)")
                )
                + (f" — {s.sim_tag}" if s.sim_tag else ""),
                what,
                details,
                s.date,
                sw,
                s.status,
            ]
        )
    return html.Table(["name", "kind", "target", "identity", "date", "software", "status"], rows)


# ------------------------------------------------------------------------------------ CSVs


def write_csvs(w: FilesWriter, sources: Sequence[Source], recs: dict[str, Any]) -> None:
    phase_rows, series, rounds, wsat, lat, wafi, erase = [], [], [], [], [], [], []
    for s in sources:
        rec = recs.get(s.label) or {}
        for p in s.phases:
            la = p.latency
            m = findings.model_waf(s, p) if s.kind == "simulate" else None
            e = p.erase or {}
            phase_rows.append(
                [
                    s.label,
                    s.kind,
                    "extra_op_percent" if s.op_axis == "extra" else "rho_percent",
                    p.op_percent,
                    p.status,
                    int(p.steady),
                    p.steady_iops,
                    p.iops_mean,
                    p.iops_min,
                    p.iops_max,
                    p.fob_iops,
                    p.window_rounds[0] if p.window_rounds else None,
                    p.window_rounds[1] if p.window_rounds else None,
                    p.rounds,
                    p.duration_s,
                    p.wall_s,
                    p.bytes_written,
                    *[(la.percentile(v) if la else None) for v in PERCENTILE_SHARE.values()],
                    la.max_us if la else None,
                    la.source if la else None,
                    p.waf,
                    p.rho,
                    m,
                    e.get("min"),
                    e.get("mean"),
                    e.get("max"),
                    e.get("stddev"),
                    int(rec.get("extra_op_percent") == p.op_percent),
                ]
            )
            for t, v in zip(p.time_s, p.iops, strict=True):
                series.append([s.label, p.op_percent, t, v])
            for k, ((a, b), v) in enumerate(zip(p.round_bounds_s, p.round_iops, strict=True)):
                rounds.append([s.label, p.op_percent, k + 1, a, b, v])
            for b, v in zip(p.wsat_bytes, p.wsat_iops, strict=True):
                wsat.append([s.label, p.op_percent, b, v])
            if la is not None and la.has_histogram:
                total = la.total
                below = 0
                for v, c in zip(la.values_us, la.counts, strict=True):
                    if c:
                        lat.append(
                            [
                                s.label,
                                p.op_percent,
                                v,
                                c,
                                (below + c) / total,
                                (total - below) / total,
                            ]
                        )
                    below += c
            for dw, v in zip(p.waf_drive_writes, p.waf_series, strict=True):
                wafi.append([s.label, p.op_percent, dw, v])
            for v, c in p.erase_histogram:
                erase.append([s.label, p.op_percent, v, c])
    w.csv(
        "phases.csv",
        [
            "source",
            "kind",
            "op_axis",
            "op_percent",
            "status",
            "steady",
            "steady_iops",
            "iops_mean",
            "iops_min",
            "iops_max",
            "fob_iops",
            "window_first_round",
            "window_last_round",
            "rounds",
            "io_seconds",
            "wall_seconds",
            "bytes_written",
            "lat_p50_us",
            "lat_p90_us",
            "lat_p99_us",
            "lat_p99_9_us",
            "lat_p99_99_us",
            "lat_max_us",
            "latency_source",
            "waf",
            "rho",
            "model_waf",
            "erase_min",
            "erase_mean",
            "erase_max",
            "erase_stddev",
            "recommended",
        ],
        phase_rows,
    )
    if series:
        w.csv("iops-per-second.csv", ["source", "op_percent", "time_s", "iops"], series)
    if rounds:
        w.csv("rounds.csv", ["source", "op_percent", "round", "start_s", "end_s", "iops"], rounds)
    if wsat:
        w.csv("write-saturation.csv", ["source", "op_percent", "host_bytes", "iops"], wsat)
    if lat:
        w.csv(
            "latency-histogram.csv",
            ["source", "op_percent", "latency_us", "count", "cdf", "exceedance"],
            lat,
        )
    if wafi:
        w.csv("waf-intervals.csv", ["source", "op_percent", "drive_writes", "waf"], wafi)
    if erase:
        w.csv("erase-histogram.csv", ["source", "op_percent", "erase_count", "blocks"], erase)
