"""What ``overprov calibrate`` prints: the predicted levels, the fit and its checks."""

from __future__ import annotations

import textwrap

from overprov.prediction_file import (
    EFFECTIVE,
    RESERVE,
    PredictedLevel,
    Prediction,
    ReadingFigures,
)

#: calibrate's printed lines fit a terminal this wide.
WIDTH = 100


def _wrap(text: str, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most :data:`WIDTH` characters, the later ones indented."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def _levels_text(levels: list[PredictedLevel]) -> list[str]:
    """The predicted levels, one row each."""
    lines = [f"{'OP':>5} {'steady IOPS':>12} {'80% interval':>21} {'WAF':>6} {'p99 µs':>9}"]
    for r in levels:
        iops = f"{r.steady_iops:,.0f}" if r.steady_iops else "—"
        band = f"{r.steady_iops_low:,.0f}–{r.steady_iops_high:,.0f}" if r.steady_iops_low else "—"
        p99 = f"{r.p99_latency_us:,.0f}" if r.p99_latency_us else "—"
        lines.append(f"{r.extra_op_percent:>4g}% {iops:>12} {band:>21} {r.waf:>6.2f} {p99:>9}")
    return lines


def _cell(lv: PredictedLevel, has_iops: bool) -> str:
    """A reading's figures at one level: IOPS (when the reading has any) and WAF."""
    waf = f"{lv.waf:.2f}" if lv.waf else "—"
    if not has_iops:
        return f"{waf:>8}"
    return f"{f'{lv.steady_iops:,.0f}' if lv.steady_iops else '—':>9} {waf:>6}"


def readings_text(readings: list[ReadingFigures]) -> list[str]:
    """The readings as calibrate prints them: each one's label and weight, named A, B, …, then
    their IOPS and WAF in one table, a row per level and a column per reading, in blocks of
    columns that fit :data:`WIDTH` (each reading in full in prediction.json's ``readings``)."""
    names = [chr(ord("A") + i) for i in range(len(readings))]
    lines = ["readings (each one's fit and figures in full in prediction.json's readings):"]
    for name, r in zip(names, readings, strict=True):
        lines += _wrap(f"  reading {name}: {reading_label(r)}", "     ")
    columns = []  # per reading: its header and one cell per level
    for name, r in zip(names, readings, strict=True):
        has_iops = any(lv.steady_iops for lv in r.levels)
        head = f"{name + ': IOPS':>9} {'WAF':>6}" if has_iops else f"{name + ': WAF':>8}"
        columns.append([head, *(_cell(lv, has_iops) for lv in r.levels)])
    per = max(1, (WIDTH - 6) // (max(len(c) for col in columns for c in col) + 2))
    for start in range(0, len(columns), per):
        block = columns[start : start + per]
        rows = [f"{'OP':>6}", *(f"{lv.extra_op_percent:>5g}%" for lv in readings[0].levels)]
        lines += ["".join([row, *(f"  {col[i]:>{len(col[0])}}" for col in block)])
                  for i, row in enumerate(rows)]  # fmt: skip
    return lines


def summary_text(pred: Prediction) -> str:
    """The prediction in a few lines of at most :data:`WIDTH` characters (a long reason or
    source wrapped), as calibrate prints it."""
    lines = _levels_text(pred.levels)
    f = pred.fit
    fit_text = f"fit: native OP {100 * f['native_op']:.1f}%"
    terms: list[str] = []
    if f["t_page_us"] > 0:
        held = any(x.startswith("t_cmd_us") for x in f.get("surrogate", {}).get("fixed", []))
        terms = model_terms_text(f["t_page_us"], f["t_cmd_us"], held)
        fit_text += ", " + terms[0]
    if not pred.readings:
        lines += [fit_text, *terms[1:]]
    if pred.readings:
        lines += readings_text(pred.readings)
    if pred.readings_set_aside:
        n = len(pred.readings_set_aside)
        lines.append(f"  {set_aside_text(n)} not simulated (readings_set_aside in prediction.json)")
        for r in pred.readings_set_aside:
            if r.reason and not r.reason.startswith("weight"):
                lines += _wrap(f"  reading {r.key} set aside: {r.reason}", "    ")
    lines += _wrap(f"predicted from {pred.prediction_source}")
    lines += _wrap(f"workload: {pred.workload}")
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
    if pred.cliff is not None:
        from overprov.calibrate.cliff_prediction import summary_line

        lines += _wrap(summary_line(pred.cliff), "  ")
    if pred.recommendation:
        lines += _wrap(f"recommendation: {pred.recommendation.text}")
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
    if r.spare == EFFECTIVE:
        label = f"effective spare (native OP {native_op:.1f}%)"
    elif r.spare == RESERVE:
        floor = r.fit["surrogate"].get("waf_floor")
        spare = 100 * r.fit["surrogate"]["native_op"]
        label = f"spare beyond a GC reserve ({spare:+.1f}%), victim floor at WAF {floor:.3g}"
    else:
        label = (
            f"raw spare ({native_op:.1f}%) used k = {r.fit['spare_efficiency']:.2f} times as well"
        )
    label += f", {r.gc}" if r.gc else ""
    if r.weight is not None:
        label += f", weight {r.weight:.2f}"
    return label
