"""The report's plan part (``overprov plan --json``, ``report/load_plan.py``): an answer card per
plan — the smallest extra OP that meets its targets (DWPD, years, a trace's IOPS) with the
margin, and the per-OP table under it — and a section with DWPD and WAF against OP, the
simulated figures per level of a trace plan (host, NAND and read bytes, IOPS, latency) and
where every figure comes from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from overprov.report import html
from overprov.report.files import FILES_DIR, FilesWriter, draw, slug
from overprov.report.model import Source
from overprov.report.plots import (
    RECOMMEND_COLOR,
    TARGET_COLOR,
    figure_title,
    legend_below,
    new_figure,
    source_color,
)
from overprov.units import human_bytes


def _us(v: Any) -> str:
    if not isinstance(v, int | float):
        return "—"
    return f"{v / 1000:,.1f} ms" if v >= 10_000 else f"{v:,.0f} µs"


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _levels(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return list((doc.get("trace") or {}).get("levels") or [])


def level_at(doc: dict[str, Any], op: float) -> dict[str, Any] | None:
    """The simulated level of a trace plan at extra OP ``op`` %, or None (an interpolated row,
    or a plan from the model)."""
    return next((lv for lv in _levels(doc) if _same(lv["extra_op_percent"], op)), None)


def row_at(doc: dict[str, Any], op: float) -> dict[str, Any] | None:
    return next((r for r in doc["rows"] if _same(r["extra_op_percent"], op)), None)


def targets(doc: dict[str, Any]) -> list[tuple[str, float, float | None, str]]:
    """(key, target, the smallest extra OP % meeting it or None, the target in words) for each
    target the plan was given: DWPD, years of service, a trace's IOPS."""
    out: list[tuple[str, float, float | None, str]] = []
    years = doc.get("service_years")
    if doc.get("target_dwpd") is not None:
        out.append(
            ("dwpd", doc["target_dwpd"], doc.get("target_dwpd_extra_op_percent"),
             f"{doc['target_dwpd']:g} DWPD over {years:g} years")
        )  # fmt: skip
    if doc.get("target_years") is not None:
        daily = doc.get("daily_write_bytes")
        at = f" at {human_bytes(daily)}/day" if daily else ""
        out.append(
            ("years", doc["target_years"], doc.get("target_years_extra_op_percent"),
             f"{doc['target_years']:g} years{at}")
        )  # fmt: skip
    trace = doc.get("trace") or {}
    if trace.get("target_iops") is not None:
        qd = trace.get("queue_depth")
        out.append(
            ("iops", trace["target_iops"], trace.get("target_iops_extra_op_percent"),
             f"{trace['target_iops']:,.0f} IOPS" + (f" at QD{qd}" if qd else ""))
        )  # fmt: skip
    return out


def _value(doc: dict[str, Any], key: str, op: float) -> float | None:
    if key == "iops":
        lv = level_at(doc, op)
        return None if lv is None else lv.get("iops")
    row = row_at(doc, op)
    return None if row is None else row.get(key)


def _figure_text(key: str, value: float) -> str:
    if key == "dwpd":
        return f"{value:.2f} DWPD"
    if key == "years":
        return f"{value:.1f} years"
    return f"{value:,.0f} IOPS"


def answer(doc: dict[str, Any]) -> float | None:
    """The smallest extra OP % that meets every target of the plan (None when one is unmet or
    there is none)."""
    ts = targets(doc)
    if not ts or any(op is None for _, _, op, _ in ts):
        return None
    return max(float(op) for _, _, op, _ in ts if op is not None)


def margin_text(doc: dict[str, Any]) -> str:
    """ "20%: 0.74 DWPD over 5 years, +23% over the 0.6 target" for each target at the answer."""
    op = answer(doc)
    if op is None:
        return ""
    bits = []
    for key, target, _, words in targets(doc):
        value = _value(doc, key, op)
        if value is None or not target:
            continue
        gain = value / target - 1
        bits.append(
            f"{_figure_text(key, value)}, {gain:+.1%} over the {words} target"
            if abs(gain) < 0.01  # solved to the target: a whole percent reads "+0%"
            else f"{_figure_text(key, value)}, {gain:+.0%} over the {words} target"
        )
    return f"{op:g}% extra OP: " + "; ".join(bits) if bits else ""


def _meets(doc: dict[str, Any], row: dict[str, Any]) -> str:
    ts = targets(doc)
    if not ts:
        return "—"
    verdicts = []
    for key, target, _, _ in ts:
        value = _value(doc, key, row["extra_op_percent"])
        if value is None:
            return "—"
        verdicts.append(value >= target)
    return "yes" if all(verdicts) else "no"


PLAN_COLUMNS = [
    "extra OP",
    "user capacity",
    "ρ",
    "WAF",
    "TBW",
    "DWPD",
    "years",
    "IOPS",
    "p99 latency",
    "meets target",
    "note",
]


def plan_table(doc: dict[str, Any]) -> html.Table:
    """The per-OP table of a plan: one row per level the plan lists."""
    rows, highlight = [], set()
    op = answer(doc)
    for k, r in enumerate(doc["rows"]):
        x = r["extra_op_percent"]
        lv = level_at(doc, x)
        if op is not None and _same(x, op):
            highlight.add(k)
        simulated = lv is not None
        note = list(r.get("marks") or [])
        if doc.get("trace") and not simulated:
            note.append("interpolated in 1/ρ")
        rows.append(
            [
                f"{x:g}%",
                human_bytes(r["user_bytes"]),
                f"{100 * r['rho']:.1f}%",
                f"{r['waf']:.3f}",
                human_bytes(r["tbw_bytes"]),
                f"{r['dwpd']:.2f}",
                f"{r['years']:.1f}" if r.get("years") is not None else "—",
                f"{lv['iops']:,.0f}" if lv and lv.get("iops") is not None else "—",
                _us(lv.get("latency_p99_us")) if lv else "—",
                _meets(doc, r),
                "; ".join(note),
            ]
        )
    return html.Table(PLAN_COLUMNS, rows, numeric={1, 2, 3, 4, 5, 6, 7, 8}, highlight=highlight)


def _how(source: Source) -> str:
    doc = source.plan
    if doc.get("trace"):
        return (
            f"WAF of the trace's measured passes, simulated on {doc['trace']['drive']} at scale "
            f"{source.sim_scale}"
        )
    return str(doc.get("model") or doc.get("waf_source") or "WAF from the analytic model")


def plan_cards(sources: Sequence[Source]) -> list[html.Card]:
    """One answer card per plan: the extra OP that meets its targets, with the per-OP table."""
    cards = []
    for s in sources:
        if s.kind != "plan":
            continue
        doc = s.plan
        ts = targets(doc)
        op = answer(doc)
        rows = doc["rows"]
        if op is not None:
            big, note = f"{op:g}%", "extra OP that meets " + " and ".join(w for *_, w in ts)
            headline = margin_text(doc) + "."
        elif ts:
            unmet = [w for _, _, x, w in ts if x is None]
            top = rows[-1]
            big, note = "no level", "of those planned meets the target"
            headline = (
                f"No level up to {top['extra_op_percent']:g}% extra OP meets "
                + " and ".join(unmet)
                + f": {top['dwpd']:.2f} DWPD at {top['extra_op_percent']:g}%."
            )
        elif doc.get("reference_extra_op_percent") is not None:
            big = f"{doc['reference_extra_op_percent']:g}%"
            note = f"reference extra OP for {doc.get('use_case')}"
            headline = f"{rows[0]['dwpd']:.2f} to {rows[-1]['dwpd']:.2f} DWPD across the levels."
        else:
            big, note = "", ""
            headline = (
                f"DWPD per extra-OP level: {rows[0]['dwpd']:.2f} at "
                f"{rows[0]['extra_op_percent']:g}% to {rows[-1]['dwpd']:.2f} at "
                f"{rows[-1]['extra_op_percent']:g}% (no target given)."
            )
        trace = doc.get("trace") or {}
        more = [_how(s) + "."]
        if trace:
            more.append(f"Workload: {trace['workload']}.")
        if trace.get("fold_note"):
            more.append(str(trace["fold_note"]))
        if trace.get("daily_writes_source"):
            more.append(f"Daily writes: {trace['daily_writes_source']}.")
        elif doc.get("daily_write_bytes"):
            more.append(f"Daily writes: {human_bytes(doc['daily_write_bytes'])}/day.")
        more.append(f"Endurance: {doc.get('endurance_source')}.")
        cards.append(
            html.Card(
                label=s.label,
                kind="plan (simulated trace replay)" if trace else "plan (analytic model)",
                big=big,
                big_note=note,
                headline=headline,
                more=more,
                good=op is not None or not ts,
                sim_tag=s.sim_tag,
                table=plan_table(doc),
            )
        )
    return cards


def plot_plan(source: Source, index: int = 0) -> Figure:
    """DWPD (with the target and the answer) and WAF against extra OP; a trace plan's simulated
    levels filled, the rows interpolated between them hollow."""
    doc = source.plan
    fig = new_figure(9.6, 4.2)
    ax_dwpd, ax_waf = fig.subplots(1, 2)
    color = source_color(index)
    rows = doc["rows"]
    xs = [r["extra_op_percent"] for r in rows]
    trace = bool(doc.get("trace"))
    sim = [level_at(doc, x) is not None or not trace for x in xs]
    for ax, key, label in ((ax_dwpd, "dwpd", "DWPD"), (ax_waf, "waf", "WAF")):
        ys = [r[key] for r in rows]
        ax.plot(xs, ys, color=color, lw=1.6)
        ax.scatter(
            [x for x, k in zip(xs, sim, strict=True) if k],
            [y for y, k in zip(ys, sim, strict=True) if k],
            color=color,
            zorder=3,
        )
        ax.scatter([x for x, k in zip(xs, sim, strict=True) if not k],
                   [y for y, k in zip(ys, sim, strict=True) if not k], facecolor="white",
                   edgecolor=color, zorder=3)  # fmt: skip
        ax.set_xlabel("extra OP (% of the capacity left unused)")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
    ax_dwpd.set_title(f"DWPD over {doc.get('service_years', 5):g} years")
    ax_waf.set_title("WAF " + ("(trace replay, measured passes)" if trace else "(model)"))
    handles: list[Any] = [
        Line2D([], [], color=color, marker="o", label="simulated level" if trace else "level")
    ]
    if trace and not all(sim):
        handles.append(Line2D([], [], color=color, marker="o", markerfacecolor="white", lw=0,
                              label="interpolated in 1/ρ"))  # fmt: skip
    if doc.get("target_dwpd") is not None:
        ax_dwpd.axhline(doc["target_dwpd"], color=TARGET_COLOR, ls="--", lw=1.2)
        handles.append(Line2D([], [], color=TARGET_COLOR, ls="--",
                              label=f"target {doc['target_dwpd']:g} DWPD"))  # fmt: skip
    op = answer(doc)
    row = row_at(doc, op) if op is not None else None
    if row is not None:
        ax_dwpd.scatter([op], [row["dwpd"]], marker="*", s=220, color=RECOMMEND_COLOR, zorder=4)
        handles.append(Line2D([], [], color=RECOMMEND_COLOR, marker="*", ms=12, lw=0,
                              label=f"answer {op:g}%"))  # fmt: skip
    legend_below(fig, handles=handles)
    figure_title(fig, [source], f"{source.label}: endurance per extra-OP level")
    return fig


def _trace_table(doc: dict[str, Any]) -> html.Table:
    rows = [
        [
            f"{lv['extra_op_percent']:g}%",
            human_bytes(lv.get("user_bytes")),
            human_bytes(lv["host_bytes"]),
            human_bytes(lv.get("nand_bytes")),
            human_bytes(lv.get("read_bytes")),
            f"{lv['waf']:.3f}",
            f"{lv['iops']:,.0f}" if lv.get("iops") is not None else "—",
            _us(lv.get("latency_p50_us")),
            _us(lv.get("latency_p99_us")),
            _us(lv.get("latency_p99_99_us")),
        ]
        for lv in _levels(doc)
    ]
    return html.Table(
        ["simulated level", "user space (scaled)", "host written", "NAND written", "read",
         "WAF", "IOPS", "p50", "p99", "p99.99"],
        rows,
        numeric=set(range(1, 10)),
    )  # fmt: skip


def plan_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    plans = [s for s in sources if s.kind == "plan"]
    if not plans:
        return None
    body: list[str] = []
    for i, s in enumerate(plans):
        doc = s.plan
        if len(plans) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        if s.sim_tag:
            body.append(f'<div class="note">{html.esc(s.sim_tag)}: the WAF, IOPS and latency '
                        "below are computed by the simulator replaying the trace, not measured "
                        "on a drive.</div>")  # fmt: skip
        body.append(
            html.figure_html(
                w.figure(
                    f"plan-{slug(s.label)}",
                    draw("plan", plot_plan, s, i),
                    "Plan: DWPD and WAF per extra-OP level",
                    "DWPD = TBW / (user capacity × 365 × years), TBW = NAND write budget / WAF. "
                    "More extra OP lowers WAF (more TBW) on less user capacity.",
                ),
                FILES_DIR,
            )
        )
        if doc.get("trace"):
            body.append(
                "<p>Simulated per level (the trace folded onto the scaled drive; bytes of the "
                "measured passes):</p>"
            )
            body.append(html.table_html(_trace_table(doc)))
        facts = [
            ("WAF from", str(doc.get("waf_source") or doc.get("model") or "—")),
            ("endurance", str(doc.get("endurance_source") or "—")),
            ("OP definition", str(doc.get("op_definition"))),
        ]
        facts += [("note", str(n)) for n in doc.get("notes") or []]
        body.append(html.kv_html(facts))
        body.append(
            '<p class="small">OP helps random writes only: little or no gain for sequential '
            "writes, read caches, or when the network is the bottleneck.</p>"
        )
    return html.Section("plan", "Plan", body)
