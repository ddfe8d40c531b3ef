"""What ``overprov simulate --trace`` prints: per OP level the WAF, host and NAND bytes of the
measured passes, and in timed runs the IOPS and latency percentiles of the measured passes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from overprov.units import human_bytes, plural
from overprov.workload_text import fold_note as fold_note_text

__all__ = ["describe_trace", "format_trace_table", "trace_row"]


def trace_row(report: dict[str, Any]) -> dict[str, Any]:
    """One run of a trace replay, in figures: OP, WAF, bytes, and (timed) IOPS and latency."""
    g = report["geometry"]
    m = report.get("measured") or {}
    # the measured passes alone (the core's timed.measured); the warm-up passes run on a drive
    # just filled and are not the workload's steady figures
    t = (report.get("timed") or {}).get("measured") or {}
    lat = t.get("latency_us") or {}
    iops = t.get("iops")
    nand = m.get("nand_pages")
    return {
        "extra_op_percent": report["config"]["geometry"].get("extra_op_percent"),
        "rho": g["rho"],
        "user_bytes": g["user_bytes"],
        "waf": m.get("waf"),
        "host_bytes": m.get("host_bytes", 0),
        "nand_bytes": None if nand is None else nand * g["page_size_bytes"],
        "read_bytes": report["trace"]["read"]["bytes"],
        "iops": iops,
        "latency_p50_us": lat.get("p50"),
        "latency_p99_us": lat.get("p99"),
        "latency_p99_99_us": lat.get("p99_99"),
    }


def describe_trace(report: dict[str, Any], fold_note: bool = True) -> str:
    """The replay of a run in one line: file, format, records, passes, fold (and, with
    ``fold_note``, a note when the trace reaches past the drive's user space)."""
    tr, cfg = report["trace"], report["config"]
    fold = cfg["trace"]["fold"]
    passes = f"{tr['passes'] - tr['warmup_passes']} measured pass(es)"
    if tr["warmup_passes"]:
        passes = f"{tr['warmup_passes']} warm-up + " + passes
    text = (
        f"trace {tr['path']} ({tr['format']}): {tr['records']:,} records replayed, {passes}, "
        f"{fold} fold, precondition {cfg['precondition']['kind']}, "
        f"{cfg['ftl']['policy']} GC"
    )
    note = fold_note_text(tr.get("max_end_bytes", 0), report["geometry"]["user_bytes"], fold)
    if fold_note and note:
        text += f"; note: {note}"
    if tr["bad_lines"]:
        text += f"; {plural(tr['bad_lines'], 'bad line')} skipped, first: {tr['first_bad_line']}"
    return text


def _fmt(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def format_trace_table(reports: Sequence[dict[str, Any]]) -> str:
    first = reports[0]
    timed = bool(first.get("timed"))
    lines = [f"overprov simulate — {describe_trace(first)}"]
    if timed:
        host = first["config"]["timing"]["host"]
        scale = first["config"]["trace"]["time_scale"]
        lines.append(
            f"simulated time: closed loop at QD{host['queue_depth']}"
            if host["mode"] == "closed"
            else f"simulated time: open loop at the trace's arrival times × {scale:g}"
        )
    lines += [
        "WAF = NAND bytes / host bytes over the measured passes (after the fill and warm-up).",
        "",
        f"{'extra OP':>9} {'ρ':>8} {'user':>10} {'WAF':>7} {'host written':>13} "
        f"{'NAND written':>13} {'read':>10}"
        + (f" {'IOPS':>10} {'p50 µs':>8} {'p99 µs':>9} {'p99.99 µs':>10}" if timed else ""),
    ]
    for rep in reports:
        r = trace_row(rep)
        extra = "-" if r["extra_op_percent"] is None else f"{r['extra_op_percent']:g}%"
        line = (
            f"{extra:>9} {r['rho']:>8.4f} {human_bytes(r['user_bytes']):>10} "
            f"{_fmt(r['waf'], '>7.3f')} {human_bytes(r['host_bytes']):>13} "
            f"{(human_bytes(r['nand_bytes']) if r['nand_bytes'] is not None else '-'):>13} "
            f"{human_bytes(r['read_bytes']):>10}"
        )
        if timed:
            line += (
                f" {_fmt(r['iops'], '>10,.0f')} {_fmt(r['latency_p50_us'], '>8,.0f')} "
                f"{_fmt(r['latency_p99_us'], '>9,.0f')} {_fmt(r['latency_p99_99_us'], '>10,.0f')}"
            )
        lines.append(line)
    if timed:
        lines.append(
            "IOPS = requests completed in the measured passes / their simulated time (first "
            "issue to last completion); latency over the measured passes' requests (warm-up "
            "passes not included)"
        )
    lines.append("read: bytes the trace reads (all passes)")
    return "\n".join(lines)
