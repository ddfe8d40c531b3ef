"""The report's sections, one function each; ``build.build_report`` puts them on the page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from overprov.report import (
    decision,
    endurance_table,
    findings,
    html,
    plots,
    plots_latency,
    plots_time,
    plots_waf,
)
from overprov.report.files import FILES_DIR, FilesWriter, draw, slug
from overprov.report.findings import Options
from overprov.report.model import Source, grouped, op_text
from overprov.report.tables import fmt_iops, summary_table, window_table


def recommendations(sources: Sequence[Source], options: Options) -> dict[str, Any]:
    """The recommendation (or None) per source label."""
    return {s.label: findings.recommendation(s, options.target_iops) for s in sources}


def cards(sources: Sequence[Source], recs: dict[str, Any], options: Options) -> list[html.Card]:
    """The answer at the top: one card per source."""
    cards: list[html.Card] = []
    for s in sources:
        rec = recs[s.label]
        kind = "profile" if s.kind == "profile" else "simulation"
        if s.has_iops:
            headline, more = findings.iops_conclusion(s, rec)
            op = (rec or {}).get("extra_op_percent")
            target = findings.target_for(s, options)
            margin = decision.margin_text(s, rec, target)
            cards.append(
                html.Card(
                    label=s.label,
                    kind=kind,
                    big=op_text(op, s.op_axis) if op is not None else "no recommendation",
                    big_note=(
                        ("recommended extra OP" if s.op_axis == "extra" else "recommended OP")
                        + (
                            f" for {findings.target_for(s, options):,.0f} IOPS"
                            if (rec or {}).get("method") == "target"
                            else " (knee of the curve)"
                        )
                    )
                    if op is not None
                    else "",
                    headline=margin + "." if margin else headline,
                    more=([headline] if margin else [])
                    + more
                    + (list(findings.waf_conclusion(s)[:1]) if s.has_waf else []),
                    good=op is not None,
                    sim_tag=s.sim_tag,
                    table=decision.phase_table(s, target),
                )
            )
        elif s.kind == "calibrate":
            assert s.prediction is not None, "a calibration's source holds its prediction"
            rec = s.prediction.recommendation
            central = rec.extra_op_percent if rec else None
            safe = rec.safe_extra_op_percent if rec else None
            # lead with the level whose whole band clears the target
            op = safe if safe is not None else central
            cards.append(
                html.Card(
                    label=s.label,
                    kind="calibration (a prediction, not a measurement)",
                    big=f"{op:g}%" if op is not None else "",
                    big_note=(
                        "predicted extra OP whose 80% band clears the target"
                        if safe is not None
                        else "predicted extra OP"
                    )
                    if op is not None
                    else "",
                    headline=grouped(rec.text or "Predicted WAF per OP level (no IOPS fitted).")
                    if rec
                    else "Predicted WAF per OP level (the fit had no IOPS points).",
                    more=(
                        [
                            f"The central prediction reaches the target at {central:g}%; its "
                            f"band clears it from {safe:g}%."
                        ]
                        if safe is not None and central is not None and safe != central
                        else []
                    )
                    + ([f"Interval: {s.prediction.interval}."] if s.prediction.interval else []),
                    good=op is not None or not rec,
                    sim_tag=s.sim_tag,
                    table=decision.prediction_table(s),
                )
            )
        elif s.has_waf:
            headline, more = findings.waf_conclusion(s)
            big, note = findings.waf_big_figure(s)
            cards.append(
                html.Card(
                    label=s.label,
                    kind=kind,
                    big=big,
                    big_note=note,
                    headline=headline,
                    more=more,
                    sim_tag=s.sim_tag,
                )
            )
        else:
            cards.append(
                html.Card(
                    label=s.label,
                    kind=kind,
                    big="",
                    big_note="",
                    headline="No finished phase yet: nothing to conclude.",
                    good=False,
                )
            )
    return cards


def iops_section(
    w: FilesWriter, sources: Sequence[Source], recs: dict[str, Any], options: Options
) -> html.Section | None:
    """Steady IOPS against OP, the summary tables, and the duration and bytes per phase."""
    iops_sources = [s for s in sources if s.has_iops]
    if not iops_sources:
        return None
    targets = {findings.target_for(s, options) for s in iops_sources} - {None}
    target = max(targets) if len(targets) == 1 else (options.target_iops)
    rec_ops = [(recs.get(s.label) or {}).get("extra_op_percent") for s in iops_sources]
    body = [
        html.figure_html(
            w.figure(
                "iops-vs-op",
                draw("iops", plots.plot_iops_vs_op, iops_sources, target, rec_ops),
                "Steady-state IOPS vs OP",
                (
                    "Each point is the mean IOPS of the SNIA steady-state window (last 5 "
                    "rounds), the bar its min–max; hollow points were not steady (mean of the "
                    "last window)."
                    if any(s.kind == "profile" for s in iops_sources)
                    else ""
                )
                + (
                    " For a timed simulation: the mean and min–max of its steady-state "
                    "intervals; hollow: never steady (mean of the last fifth of the run)."
                    if any(s.kind == "simulate" for s in iops_sources)
                    else ""
                )
                + (f" Dashed line: the target {target:,.0f} IOPS." if target else "")
                + (
                    " Star: the recommended OP."
                    if any(op is not None for op in rec_ops)
                    else " No OP is recommended (see the answer above)."
                ),
            ),
            FILES_DIR,
        )
    ]
    for s in iops_sources:
        rec = recs.get(s.label) or {}
        if len(iops_sources) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        body.append(html.table_html(summary_table(s, rec.get("extra_op_percent"))))
        if rec.get("reason"):
            body.append(
                f'<p class="small">Recommendation rule: {html.esc(grouped(rec["reason"]))}</p>'
            )
    body.append(
        html.figure_html(
            w.figure(
                "phase-cost",
                draw("cost", plots.plot_phase_cost, iops_sources),
                "Duration and bytes per phase",
                "I/O time and host bytes written per OP level (all rounds of the phase).",
            ),
            FILES_DIR,
        )
    )
    return html.Section("iops", "IOPS vs OP", body)


def time_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    """IOPS over time per phase, and write saturation."""
    series_sources = [s for s in sources if s.has_series]
    if not series_sources:
        return None
    body = []
    for s in series_sources:
        key = slug(s.label)
        body.append(f"<h3>{html.esc(s.label)}</h3>")
        cap = (
            "Dots: IOPS per second ("
            + ("the simulated drive's 1 s series" if s.simulated_target else "fio's 1 s log")
            + "); black steps: round means; dotted lines: "
            "round boundaries; green: the steady-state window; hatched red: the last window "
            "of a phase that did not reach steady state."
            if s.kind == "profile"
            else "IOPS per interval of the timed simulation; shaded: fresh-out-of-box (blue), "
            "transition (orange), steady state (pale green) and the steady-state window "
            "whose mean is the steady IOPS (green)."
        )
        body.append(
            html.figure_html(
                w.figure(
                    f"iops-time-{key}",
                    draw("t", plots_time.plot_iops_time, s),
                    "IOPS over time",
                    cap,
                ),
                FILES_DIR,
            )
        )
        if any(p.wsat_bytes for p in s.phases):
            body.append(
                html.figure_html(
                    w.figure(
                        f"write-saturation-{key}",
                        draw("w", plots_time.plot_write_saturation, s),
                        "Write saturation",
                        "SNIA WSAT view: IOPS against the host bytes written so far "
                        + (
                            "(FOB and precondition included; dotted lines: phase starts)."
                            if s.kind == "profile"
                            else "by each OP level's run, in drive writes."
                        ),
                    ),
                    FILES_DIR,
                )
            )
    return html.Section("time", "IOPS over time", body)


def latency_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    """The latency distribution per source and its percentiles against OP."""
    lat_sources = [s for s in sources if s.has_latency]
    if not lat_sources:
        return None
    body = []
    for s in lat_sources:
        key = slug(s.label)
        body.append(f"<h3>{html.esc(s.label)}</h3>")
        srcs = sorted({p.latency.kind for p in s.phases if p.latency is not None})
        body.append(
            html.figure_html(
                w.figure(
                    f"latency-{key}",
                    draw("l", plots_latency.plot_latency, s),
                    "Latency distribution",
                    "Left: share of writes completed within a latency, on a normal-probability "
                    "axis (a straight line is a log-normal distribution; the tail is stretched "
                    "out). Right: share of writes at or above a latency, log scale. Data: "
                    + "; ".join(srcs)
                    + ".",
                ),
                FILES_DIR,
            )
        )
    body.append(
        html.figure_html(
            w.figure(
                "latency-vs-op",
                draw("lo", plots_latency.plot_latency_vs_op, lat_sources),
                "Latency percentiles vs OP",
                "p50, p99 and p99.9 completion latency per OP level.",
            ),
            FILES_DIR,
        )
    )
    return html.Section("latency", "Latency", body)


def waf_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    """Simulated WAF against OP beside the models, its convergence, and erase counts."""
    waf_sources = [s for s in sources if s.has_waf]
    iops_sources = [s for s in sources if s.has_iops]
    if not waf_sources:
        return None
    body = [
        html.figure_html(
            w.figure(
                "waf-vs-op",
                draw("waf", plots_waf.plot_waf_vs_op, waf_sources),
                "WAF vs OP",
                "Simulated WAF (measured part of the run) against total OP ρ"
                + (
                    ", with the analytic models for uniform random single-page writes "
                    "(docs/models.md)."
                    if any(s.uniform_workload for s in waf_sources)
                    else " (no analytic model describes these workloads)."
                ),
            ),
            FILES_DIR,
        )
    ]
    for s in waf_sources:
        if len(waf_sources) > 1 or iops_sources:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        if not s.has_iops:
            body.append(html.table_html(summary_table(s, None)))
        _, said = findings.waf_conclusion(s)
        if said:
            body.append(
                '<ul class="small">' + "".join(f"<li>{html.esc(x)}</li>" for x in said) + "</ul>"
            )
        if any(p.waf_series for p in s.phases):
            body.append(
                html.figure_html(
                    w.figure(
                        f"waf-intervals-{slug(s.label)}",
                        draw("wi", plots_waf.plot_waf_convergence, s),
                        "WAF per interval",
                        "WAF of each recording interval against host drive writes: the "
                        "warm-up settles to the measured WAF (dashed).",
                    ),
                    FILES_DIR,
                )
            )
    if any(p.erase for s in waf_sources for p in s.phases):
        body.append(
            html.figure_html(
                w.figure(
                    "erase-spread",
                    draw("e", plots_waf.plot_erase_spread, waf_sources),
                    "Erase-count spread",
                    "Left: erase count per block at the end of each run (line: min–max, "
                    "bar: mean ± standard deviation, dot: mean). Right: the distribution "
                    "around the mean (narrow = even wear).",
                ),
                FILES_DIR,
            )
        )
    return html.Section("waf", "Write amplification (simulation)", body)


def endurance_section(
    w: FilesWriter, sources: Sequence[Source], options: Options
) -> html.Section | None:
    """TBW, DWPD and years per OP level, and the SMART facts; none for a report of qualify
    results alone (they carry no WAF per OP level) or of plans alone (their own table is the
    endurance table) without SMART data."""
    tables = endurance_table.endurance_tables(sources, options)
    facts = endurance_table.smart_facts(options)
    if not tables and not facts and all(s.kind in ("qualify", "plan") for s in sources):
        return None
    body = []
    for t in tables:
        body.append(f'<h3>{html.esc(t.source)}</h3><p class="small">{html.esc(t.basis)}</p>')
        body.append(
            html.table_html(html.Table(t.columns, t.rows, numeric=set(range(1, len(t.columns)))))
        )
        body.append(
            '<ul class="small">' + "".join(f"<li>{html.esc(n)}</li>" for n in t.notes) + "</ul>"
        )
    if facts:
        body.append("<h3>SMART</h3>" + html.kv_html(facts))
    if not tables and not facts:
        body.append(
            '<p class="small">No rated endurance or SMART data was given, so no TBW/DWPD table. '
            "Give <code>--rated-tbw TB</code> (or profile with it), <code>--pe-cycles N</code>, "
            "<code>--nand tlc</code> or <code>--smart smartctl.json</code> to "
            "<code>overprov report</code>.</p>"
        )
    if tables:
        w.csv(
            "endurance.csv",
            ["source", *sorted({k for t in tables for r in t.raw for k in r})],
            [
                [
                    t.source,
                    *[r.get(k) for k in sorted({k for t2 in tables for r2 in t2.raw for k in r2})],
                ]
                for t in tables
                for r in t.raw
            ],
        )
    return html.Section("endurance", "Endurance", body)


def details_section(sources: Sequence[Source]) -> html.Section:
    """What was tested, how, with which software."""
    body = []
    for s in sources:
        body.append(f"<h3>{html.esc(s.label)} — {html.esc(s.title)}</h3>")
        body.append(
            html.kv_html(s.identity + s.settings + [("date", s.date)] + list(s.software.items()))
        )
        body.append(f'<p class="small">Input: <code>{html.esc(s.path)}</code></p>')
    return html.Section("details", "Test details", body)


def window_section(sources: Sequence[Source]) -> html.Section | None:
    """Why each phase was accepted: the SNIA measurement-window table per profile."""
    profiles = [s for s in sources if s.kind == "profile" and any(p.verdict for p in s.phases)]
    if not profiles:
        return None
    body = [
        '<p class="small">Per phase, the rounds of the window its figure comes from and the '
        "checks it passed (✓) or failed (✗) against their limits: range (max − min) and the "
        "fitted line's excursion across the window, as fractions of the window's mean (SNIA "
        "PTS); the plateau checks — the mean against the 5 rounds before the window "
        "(a drop means the window may lie before the cliff) and WAF against the same baseline. "
        "Data written before the window: in drive writes of the phase's span "
        "(docs/profile.md).</p>"
    ]
    for s in profiles:
        if len(profiles) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        body.append(html.table_html(window_table(s)))
        reasons = [(p, p.verdict.get("reason")) for p in s.phases if p.verdict.get("reason")]
        if reasons:
            body.append(
                '<ul class="small">'
                + "".join(
                    f"<li>{html.esc(op_text(p.op_percent, s.op_axis))}: {html.esc(grouped(r))}</li>"
                    for p, r in reasons
                )
                + "</ul>"
            )
    return html.Section("window", "Measurement window", body)


def preparation_section(sources: Sequence[Source]) -> html.Section | None:
    """The device preparation: purge, workload-independent and workload-dependent precondition."""
    prepared = [s for s in sources if s.preparation]
    if not prepared:
        return None
    body = []
    for s in prepared:
        if len(prepared) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        body.append(html.kv_html(s.preparation))
    return html.Section("preparation", "Device preparation", body)


def calibrate_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    """A calibration: the measured points, the predicted curve and its band, and the table."""
    cals = [s for s in sources if s.kind == "calibrate"]
    if not cals:
        return None
    body = []
    for s in cals:
        if len(cals) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        pred = s.prediction
        assert pred is not None, "a calibration's source holds its prediction"
        body.append(
            html.figure_html(
                w.figure(
                    f"calibration-{slug(s.label)}",
                    draw("c", plots.plot_calibration, s),
                    "Calibration: measured and predicted",
                    "Black: the points calibrate measured and fitted; line: the prediction at "
                    "each level; band: its interval ("
                    + str(pred.interval or "as recorded")
                    + "). Predicted from: "
                    + str(pred.prediction_source or "—")
                    + ".",
                ),
                FILES_DIR,
            )
        )
        rows = [
            [
                f"{r.extra_op_percent:g}%",
                fmt_iops(r.steady_iops),
                f"{fmt_iops(r.steady_iops_low)}–{fmt_iops(r.steady_iops_high)}"
                if r.steady_iops_low is not None
                else "—",
                f"{r.waf:.2f}",
                f"{r.waf_low:.2f}–{r.waf_high:.2f}"
                if r.waf_low is not None and r.waf_high is not None
                else "—",
                fmt_iops(r.p99_latency_us),
            ]
            for r in sorted(pred.levels, key=lambda r: r.extra_op_percent)
        ]
        body.append(
            html.table_html(
                html.Table(
                    ["extra OP", "steady IOPS", "interval", "WAF", "WAF interval", "p99 µs"],
                    rows,
                    numeric={1, 2, 3, 4, 5},
                )
            )
        )
    return html.Section("calibration", "Calibration (predicted)", body)
