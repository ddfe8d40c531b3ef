"""What ``overprov calibrate`` prints: the predicted levels, the fit and its checks."""

from __future__ import annotations

import textwrap

from overprov.prediction_file import EFFECTIVE, Prediction, ReadingFigures


def summary_text(pred: Prediction) -> str:
    """The prediction in a few lines, as calibrate prints it."""
    lines = [f"{'OP':>5} {'steady IOPS':>12} {'80% interval':>21} {'WAF':>6} {'p99 µs':>9}"]
    for r in pred.levels:
        iops = f"{r.steady_iops:,.0f}" if r.steady_iops else "—"
        band = f"{r.steady_iops_low:,.0f}–{r.steady_iops_high:,.0f}" if r.steady_iops_low else "—"
        p99 = f"{r.p99_latency_us:,.0f}" if r.p99_latency_us else "—"
        lines.append(f"{r.extra_op_percent:>4g}% {iops:>12} {band:>21} {r.waf:>6.2f} {p99:>9}")
    f = pred.fit
    fit_text = f"fit: native OP {100 * f['native_op']:.1f}%"
    terms: list[str] = []
    if f["t_page_us"] > 0:
        held = any(x.startswith("t_cmd_us") for x in f.get("surrogate", {}).get("fixed", []))
        terms = model_terms_text(f["t_page_us"], f["t_cmd_us"], held)
        fit_text += ", " + terms[0]
    if not pred.readings:
        lines += [fit_text, *terms[1:]]
    for r in pred.readings or []:
        figures = ", ".join(
            f"{lv.extra_op_percent:g}%: "
            + (f"{lv.steady_iops:,.0f} IOPS " if lv.steady_iops else "")
            + f"WAF {lv.waf:.2f}"
            for lv in r.levels
        )
        lines.append(f"  reading {reading_label(r)}: {figures}")
    if pred.readings_set_aside:
        n = len(pred.readings_set_aside)
        lines.append(f"  {set_aside_text(n)} not simulated (readings_set_aside in prediction.json)")
        lines += [
            f"  reading {r.key} set aside: {r.reason}"
            for r in pred.readings_set_aside
            if r.reason and not r.reason.startswith("weight")
        ]
    lines.append(f"predicted from {pred.prediction_source}")
    lines.append(f"workload: {pred.workload}")
    fits = [r.fit for r in pred.readings or []] or [f]
    checks = [abs(c["rel_error"]) for fit in fits for c in fit["twin_check"]]
    if checks:
        twins = "each reading's twin" if len(fits) > 1 else "twin"
        lines.append(f"{twins} vs its measured points: worst {100 * max(checks):.1f}%")
    m = pred.measurement
    if m:
        lines.append(
            f"measured: {m['drive_writes']:.2f} drive writes, {m['io_seconds'] / 3600:.2f} h of "
            "I/O" + (" (full-size drive)" if m["scale_factor"] < 1 else "")
        )
    if pred.recommendation:
        lines.append(f"recommendation: {pred.recommendation.text}")
    return "\n".join(lines)


def model_terms_text(t_page_us: float, t_cmd_us: float, held: bool = False) -> list[str]:
    """The fitted times: the fit line's end, then a line saying they are terms of the model's
    form, not times measured, and a negative t_cmd for what it is (docs/calibrate-model.md,
    "The model"). ``held``: t_cmd held at 0 (too few figures to fit it)."""
    terms = f"t_page {t_page_us:.2f} µs per 4 KiB written to NAND, " + (
        "t_cmd held at 0 µs per command (too few figures to fit it)"
        if held
        else f"t_cmd {t_cmd_us:.2f} µs per command"
    )
    note = "(terms of the model 1/IOPS = t_cmd + WAF × t_page fitted to the figures, not "
    note += "times measured"
    if t_cmd_us < 0 and not held:
        note += (
            "; t_cmd below 0: t_page holds the time garbage collection spends reading each unit "
            "it moves, so t_cmd is the controller's time per command less one such read, and "
            "here the read is the longer; a write with no garbage collection, WAF 1, takes "
            f"t_cmd + t_page = {t_cmd_us + t_page_us:.2f} µs"
        )
    return [terms, *textwrap.wrap(note + ")", 100, initial_indent="  ", subsequent_indent="   ")]


def set_aside_text(n: int) -> str:
    """``n`` readings set aside, in words ("1 more reading set aside, its twin")."""
    return (
        "1 more reading set aside, its twin"
        if n == 1
        else f"{n} more readings set aside, their twins"
    )


def reading_label(r: ReadingFigures) -> str:
    """A reading in words, from its spare reading (``r.spare``), GC and weight."""
    native_op = 100 * r.fit["native_op"]
    label = (
        f"effective spare (native OP {native_op:.1f}%)"
        if r.spare == EFFECTIVE
        else f"raw spare ({native_op:.1f}%) used k = {r.fit['spare_efficiency']:.2f} times as well"
    ) + (f", {r.gc}" if r.gc else "")
    if r.weight is not None:
        label += f", weight {r.weight:.2f}"
    return label
