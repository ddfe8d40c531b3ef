"""What ``overprov simulate`` prints and writes: the summary table beside the analytic model,
the simulated-time table, and the per-interval series as CSV."""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from overprov import models
from overprov.errors import ConfigError, OutputError
from overprov.outputs import (
    check_json_output,
    check_no_other_run,
    check_output_dir,
    check_output_file,
    check_report_page,
)
from overprov.steady_window import steady_window, window_percentile


def model_waf(report: dict[str, Any]) -> tuple[str, float] | None:
    """The analytic model for this run, when one applies (uniform random single-page writes
    over the whole of a drive filled first); returns (model name, WAF)."""
    cfg = report["config"]
    w = cfg["workload"]
    if (
        cfg["precondition"]["kind"] == "none"
        or w["pattern"] != "uniform"
        or w["span_percent"] != 100
        or w["read_percent"] != 0
        or w["trim_percent"] != 0
        or w.get("bssplit")
        or w["request_bytes"] != report["geometry"]["page_size_bytes"]
    ):
        return None
    model = models.model_for(cfg["ftl"]["policy"])
    if model is None:
        return None
    b, d = report["geometry"]["pages_per_block"], cfg["ftl"].get("d_choices")
    return model.label(b, d), model.waf(report["geometry"]["rho"], b, d)


def summary_row(report: dict[str, Any]) -> dict[str, Any]:
    g = report["geometry"]
    m = report.get("measured") or {}
    model = model_waf(report)
    extra = report["config"]["geometry"].get("extra_op_percent")
    wear = report["wear"]["erase_count"]
    return {
        "extra_op_percent": extra,
        "rho": g["rho"],
        "user_gib": g["user_bytes"] / 2**30,
        "waf": m.get("waf"),
        "model": model[0] if model else None,
        "model_waf": model[1] if model else None,
        "gc_pages_per_host_page": (m["gc_pages"] / m["host_pages"])
        if m.get("host_pages")
        else None,
        "erase_mean": wear["mean"],
        "erase_max": wear["max"],
        "host_writes_per_s": report.get("host_pages_per_wall_second"),
    }


def _fmt(value: Any, spec: str) -> str:
    """``value`` formatted by ``spec``; a missing one is "-", right-aligned in the same width
    (the column stays under its header)."""
    if value is not None:
        return format(value, spec)
    width = re.match(r"[<>^=]?(\d*)", spec)
    return format("-", f">{width.group(1) if width else ''}")


def _steady_latency(timed: dict[str, Any], key: str) -> float | None:
    """Median over the steady window of each interval's latency percentile ``key`` (µs);
    None when no window met the rule."""
    sw = steady_window(timed)
    return window_percentile(timed, sw, key) if sw is not None and sw.steady else None


def _qd_text(reports: Sequence[dict[str, Any]]) -> str:
    qds = sorted({r["config"]["timing"]["host"]["queue_depth"] for r in reports if r.get("timed")})
    return ",".join(map(str, qds)) if qds else "?"


def format_timed_table(reports: Sequence[dict[str, Any]]) -> str:
    """Simulated-time figures per run: IOPS by performance state and latency."""
    first = reports[0]
    host = first["config"]["timing"]["host"]
    jobs = host.get("numjobs", 1)
    mode = (
        f"{f'{jobs} jobs × ' if jobs > 1 else ''}QD{_qd_text(reports)} closed loop"
        if host["mode"] == "closed"
        else f"open loop at {host['arrival_iops']:,.0f} IOPS"
    )
    lines = [
        "",
        f"simulated time — {mode}, {'write-through' if host['write_through'] else 'write-back'}; "
        "states by the SNIA rule over 5 intervals (FOB until GC first runs)",
        f"{'extra OP':>9} {'ρ':>8} {'FOB IOPS':>10} {'steady IOPS':>12} {'p50 µs':>8} "
        f"{'p99 µs':>9} {'p99.99 µs':>10} {'sim s':>7} {'window WAF':>10}",
    ]
    windows = []
    for rep in reports:
        t = rep.get("timed")
        if not t:
            continue
        extra = rep["config"]["geometry"].get("extra_op_percent")
        extra_s = "-" if extra is None else f"{extra:g}%"
        steady = t.get("steady_iops")
        sw = steady_window(t)
        windows.append(f"{extra_s:>9}  {sw.text()}" if sw else f"{extra_s:>9}  no intervals")
        lines.append(
            f"{extra_s:>9} {rep['geometry']['rho']:>8.4f} "
            f"{_fmt(t.get('fob_iops'), '>10,.0f')} "
            f"{(format(steady, '>12,.0f') if steady is not None else 'not steady'):>12} "
            f"{_fmt(_steady_latency(t, 'p50'), '>8,.0f')} "
            f"{_fmt(_steady_latency(t, 'p99'), '>9,.0f')} "
            f"{_fmt(_steady_latency(t, 'p99_99'), '>10,.0f')} {t['simulated_s']:>7.1f} "
            f"{_fmt(sw.waf if sw else None, '>10.3f')}"
        )
    lines.append("latency: median over the steady window of each interval's percentile")
    lines.append(
        "window WAF: NAND ÷ host bytes over each run's steady window (the figure the report "
        "quotes; the WAF column above is the whole measured part):"
    )
    lines.extend(windows)
    return "\n".join(lines)


def add_steady_window(reports: Sequence[dict[str, Any]]) -> None:
    """Each timed run's steady-window figures (``overprov.steady_window``) as
    ``timed.steady_window_figures`` in the JSON: the window, its IOPS and WAF, and its name."""
    for rep in reports:
        t = rep.get("timed")
        if isinstance(t, dict):
            sw = steady_window(t)
            t["steady_window_figures"] = sw.to_dict() if sw else None


SERIES_COLUMNS = (
    "run",
    "extra_op_percent",
    "rho",
    "time_s",
    "state",
    "iops",
    "write_iops",
    "read_iops",
    "mib_s",
    "waf",
    "host_bytes_total",
    "drive_writes_total",
    "p50_us",
    "p90_us",
    "p99_us",
    "p99_9_us",
    "p99_99_us",
    "max_us",
)


def check_outputs(args: Any) -> None:
    """Every output path of ``simulate`` checked before the first run starts."""
    check_json_output(args.json)
    check_output_file(args.series, "--series")
    check_output_dir(args.out, "--out")
    check_no_other_run(args.out, "simulate")
    if args.out is not None and (Path(args.out) / "simulate.json").exists():
        # another run's results, as profile, calibrate and qualify refuse theirs
        raise OutputError(
            f"--out: {args.out} already holds a simulation (simulate.json), which this run "
            "would replace; choose another folder"
        )
    check_report_page(args.out)  # --out writes report.html


def check_series(series: str | None, configs: Sequence[dict[str, Any]]) -> None:
    """``--series`` where no run is timed would write a CSV of no intervals: refused."""
    if series and not any(cfg.get("timing", {}).get("enabled") for cfg in configs):
        raise ConfigError("--series: only a timed run has a time series (give --timed or --preset)")


def write_series_csv(reports: Sequence[dict[str, Any]], path: Path) -> int:
    """The per-interval time series of every timed run as one CSV; returns the row count."""
    rows = 0
    with path.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(SERIES_COLUMNS)
        for n, rep in enumerate(reports, 1):
            t = rep.get("timed")
            if not t:
                continue
            extra = rep["config"]["geometry"].get("extra_op_percent")
            for i in t["intervals"]:
                lat = i.get("latency_us") or {}
                out.writerow(
                    [
                        n,
                        extra,
                        rep["geometry"]["rho"],
                        i["time_s"],
                        i["state"],
                        i["iops"],
                        i["write_iops"],
                        i["read_iops"],
                        i["mib_s"],
                        i["waf"],
                        i["host_bytes_total"],
                        i["drive_writes_total"],
                    ]
                    + [lat.get(k) for k in ("p50", "p90", "p99", "p99_9", "p99_99", "max")]
                )
                rows += 1
    return rows


def format_table(reports: Sequence[dict[str, Any]]) -> str:
    """The summary table printed on stdout."""
    first = reports[0]
    cfg, g = first["config"], first["geometry"]
    w = cfg["workload"]
    lines = [
        f"overprov simulate — {cfg['ftl']['policy']} GC, {w['pattern']} "
        f"{'random-map ' if w['random_map'] else ''}writes, "
        f"{g['page_size_bytes']} B pages, {g['pages_per_block']} pages/block, "
        f"precondition {cfg['precondition']['kind']}, "
        f"warm-up {cfg['run']['warmup_drive_writes']:g} + measured "
        f"{cfg['run']['drive_writes']:g} drive writes, seed {cfg['run']['seed']}",
        "OP ρ = (T−U)/U (physical T, user U); extra OP X% leaves X% of the advertised capacity "
        "unused; WAF = NAND bytes / host bytes over the measured part.",
        "",
        f"{'extra OP':>9} {'ρ':>8} {'user GiB':>9} {'WAF':>8} {'model':>8} {'diff':>7} "
        f"{'GC/host':>8} {'erases':>8} {'max':>6} {'writes/s':>11}",
    ]
    for rep in reports:
        r = summary_row(rep)
        diff = (
            f"{(r['waf'] - r['model_waf']) / r['model_waf'] * 100:+.1f}%"
            if r["waf"] is not None and r["model_waf"] is not None
            else "-"
        )
        extra = "-" if r["extra_op_percent"] is None else f"{r['extra_op_percent']:g}%"
        lines.append(
            f"{extra:>9} {r['rho']:>8.4f} {r['user_gib']:>9.2f} {_fmt(r['waf'], '>8.3f')} "
            f"{_fmt(r['model_waf'], '>8.3f')} {diff:>7} "
            f"{_fmt(r['gc_pages_per_host_page'], '>8.3f')} "
            f"{r['erase_mean']:>8.1f} {r['erase_max']:>6} "
            f"{_fmt(r['host_writes_per_s'], '>11,.0f')}"
        )
    models_used = sorted({summary_row(r)["model"] for r in reports} - {None})
    if models_used:
        lines.append("")
        lines.append("model: " + "; ".join(models_used) + " — docs/concepts.md, docs/models.md")
    else:
        lines.append("")
        lines.append(
            "model: none applies (the analytic models assume uniform random single-page writes "
            "over the whole of a drive filled first)"
        )
    lines.append(
        "writes/s: simulated host page writes per wall-clock second (this machine, this run)"
    )
    return "\n".join(lines)
