"""The decision table under each answer card: one row per OP level with what it costs (the
capacity given up) and what it buys (steady IOPS, tail latency, WAF, endurance), each figure
marked measured, simulated or predicted, and whether the level meets the target; and the
headline's margin ("20%: 37,103 IOPS, +24% over target").

A calibration's rows are its predicted levels with their band; the levels it measured are
marked so with what it measured there (IOPS, WAF, p99 latency), and a level "meets" the target
only when its whole band clears it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overprov.prediction_file import Prediction
from overprov.report import html
from overprov.report.model import Phase, Source, op_text
from overprov.units import human_bytes

COLUMNS = [
    "OP",
    "capacity given up",
    "steady IOPS",
    "figure",
    "p99 / p99.9 latency",
    "WAF",
    "endurance vs lowest OP",
    "meets target",
]


def _us(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v / 1000:,.1f} ms" if v >= 10_000 else f"{v:,.0f} µs"


def _given_up(source: Source, op_percent: float) -> str:
    if source.op_axis != "extra":
        return "—"
    if source.drive_bytes:
        return f"{op_percent:g}% ({human_bytes(source.drive_bytes * op_percent / 100)})"
    return f"{op_percent:g}%"


def _kind(source: Source, p: Phase) -> str:
    what = "simulated" if source.simulated else "measured"
    if p.window_rounds:
        return f"{what}, rounds {p.window_rounds[0]}–{p.window_rounds[1]}"
    if p.steady_iops is not None and any(s.kind == "steady-window" for s in p.spans):
        return f"{what}, steady window"
    if p.steady_iops is None and p.iops_mean is not None:
        return f"{what}, not steady (last window)"
    return what


def _endurance(lowest_waf: float | None, waf: float | None) -> str:
    if lowest_waf is None or not waf:
        return "—"
    return f"{lowest_waf / waf:.2f}×"


def _meets(value: float | None, target: float | None) -> str:
    if target is None or value is None:
        return "—"
    return "yes" if value >= target else "no"


def phase_table(source: Source, target: float | None) -> html.Table | None:
    """Rows of a profile or a timed simulation, one per OP level."""
    phases = [p for p in source.phases if p.iops_figure is not None or p.waf is not None]
    if not phases:
        return None
    wafs = [p.waf for p in phases if p.waf]
    lowest_waf = wafs[0] if wafs else None
    rows = []
    for p in phases:
        lat = p.latency
        p99 = lat.percentile(0.99) if lat is not None else None
        p999 = lat.percentile(0.999) if lat is not None else None
        iops = p.iops_figure
        band = (
            f" ({p.iops_min:,.0f}–{p.iops_max:,.0f})"
            if p.iops_min is not None and p.iops_max is not None and iops is not None
            else ""
        )
        rows.append(
            [
                op_text(p.op_percent, source.op_axis),
                _given_up(source, p.op_percent),
                "—" if iops is None else f"{iops:,.0f}{band}",
                _kind(source, p) if iops is not None else "—",
                f"{_us(p99)} / {_us(p999)}",
                "—" if p.waf is None else f"{p.waf:.2f}",
                _endurance(lowest_waf, p.waf),
                _meets(p.steady_iops, target),
            ]
        )
    return html.Table(list(COLUMNS), rows, numeric={2, 5, 6})


def _fitted_levels(prediction: Prediction) -> set[float]:
    points = prediction.fit.get("points") or []
    return {
        float(p["extra_op_percent"])
        for p in points
        if isinstance(p, Mapping) and p.get("iops") and not p.get("fresh")
    }


def prediction_table(source: Source) -> html.Table | None:
    """Rows of a calibration: each predicted level with its band; measured levels marked."""
    pred = source.prediction
    if pred is None or not pred.levels:
        return None
    levels = pred.levels
    target = pred.recommendation.target_iops if pred.recommendation else None
    fitted = _fitted_levels(pred)
    measured = {
        float(p["extra_op_percent"]): float(p["iops"])
        for p in pred.fit.get("points") or []
        if isinstance(p, Mapping) and p.get("iops") and not p.get("fresh")
    }
    measured_at = {float(m["extra_op_percent"]): m for m in source.measured_levels}
    lowest_waf = levels[0].waf
    rows = []
    for lv in levels:
        x = float(lv.extra_op_percent)
        iops, lo, hi = lv.steady_iops, lv.steady_iops_low, lv.steady_iops_high
        figure = "predicted, 80% band"
        m = measured_at.get(x) or {}
        if x in fitted or m:
            got = measured.get(x) or m.get("steady_iops")
            bits = [f"{got:,.0f} IOPS"] if got else []
            if m.get("waf"):
                bits.append(f"WAF {m['waf']:.2f}")
            if m.get("p99_latency_us"):
                bits.append(f"p99 {_us(m['p99_latency_us'])}")
            figure = "measured " + ", ".join(bits) + "; predicted, 80% band"
        waf = lv.waf
        waf_text = "—" if waf is None else f"{waf:.2f}"
        if lv.waf_low is not None and lv.waf_high is not None:
            waf_text += f" ({lv.waf_low:.2f}–{lv.waf_high:.2f})"
        if target is None or lo is None or iops is None:
            meets = "—"
        elif lo >= target:
            meets = "yes, whole band"
        elif iops >= target:
            meets = "likely (band dips below)"
        else:
            meets = "no"
        rows.append(
            [
                f"{x:g}%",
                _given_up(source, x) if source.drive_bytes else f"{x:g}%",
                "—" if iops is None else f"{iops:,.0f} ({lo:,.0f}–{hi:,.0f})",
                figure,
                f"{_us(lv.p99_latency_us)} / —",
                waf_text,
                _endurance(lowest_waf, waf),
                meets,
            ]
        )
    return html.Table(list(COLUMNS), rows, numeric={2, 5, 6})


def margin_text(source: Source, rec: Mapping[str, Any] | None, target: float | None) -> str:
    """The recommended level, its steady IOPS and its margin over the target, in a line."""
    if not rec or rec.get("extra_op_percent") is None:
        return ""
    op = rec["extra_op_percent"]
    p = next((q for q in source.phases if abs(q.op_percent - op) < 1e-9), None)
    if p is None or p.iops_figure is None:
        return ""
    text = f"{op_text(op, source.op_axis)}: {p.iops_figure:,.0f} IOPS"
    if target:
        text += f", {100 * (p.iops_figure / target - 1):+.0f}% over the {target:,.0f} target"
    if p.iops_min is not None and target:
        text += f"; its window's lowest {p.iops_min:,.0f} " + (
            "clears it" if p.iops_min >= target else "falls below it"
        )
    return text
