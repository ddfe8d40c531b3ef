"""Build the report: load the inputs, draw the figures, write CSVs, figures and the HTML page.

Layout of ``out_dir``::

    report.html             the page (self-contained: open it anywhere)
    report-files/*.png|svg  every figure, as on the page
    report-files/*.csv      the numbers behind them
"""

from __future__ import annotations

import base64
import csv
import io
import platform
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import matplotlib

from overprov import __version__
from overprov.report import findings, html, plots
from overprov.report.findings import Options
from overprov.report.load import PERCENTILE_SHARE, Source, load_inputs, op_text
from overprov.units import human_bytes, human_seconds

FILES_DIR = "report-files"
REPORT_NAME = "report.html"


class _Writer:
    """Saves figures (PNG + SVG) and CSVs into the files folder; keeps the page's blocks."""

    def __init__(self, out_dir: Path) -> None:
        self.dir = out_dir / FILES_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[str] = []

    def figure(self, key: str, fig: Any, title: str, caption: str) -> html.FigureBlock:
        buf = io.BytesIO()
        with matplotlib.rc_context(plots.STYLE):
            fig.savefig(buf, format="png")
            fig.savefig(self.dir / f"{key}.svg", format="svg")
        png = buf.getvalue()
        (self.dir / f"{key}.png").write_bytes(png)
        self.written += [f"{key}.png", f"{key}.svg"]
        return html.FigureBlock(
            key=key,
            title=title,
            caption=caption,
            png_b64=base64.b64encode(png).decode("ascii"),
            png_name=f"{key}.png",
            svg_name=f"{key}.svg",
        )

    def csv(self, name: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        with (self.dir / name).open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            for row in rows:
                w.writerow(["" if v is None else _cell(v) for v in row])
        self.written.append(name)


def _cell(v: Any) -> Any:
    if isinstance(v, float):
        return f"{v:.10g}"
    return v


def _slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")[:40] or "source"


def _draw(name: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    with matplotlib.rc_context(plots.STYLE):
        return fn(*args, **kwargs)


# ---------------------------------------------------------------------------------- tables


def _summary_table(s: Source, rec_op: float | None) -> html.Table:
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
            cols.append("WAF")
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
                row.append("—" if p.waf is None else f"{p.waf:.3f}")
            rows.append(row)
            if rec_op is not None and p.op_percent == rec_op:
                hi.add(k)
        return html.Table(cols, rows, numeric={2, 3, 4, 5, 6, 7, 8, 9}, highlight=hi, status_col=1)
    cols = [
        "OP",
        "ρ",
        "user capacity",
        "WAF (simulated)",
        "model WAF",
        "diff",
        "erases min / mean / max",
    ]
    rows = []
    for p in s.phases:
        m = findings.model_waf(s, p)
        e = p.erase or {}
        rows.append(
            [
                op_text(p.op_percent, s.op_axis),
                f"{100 * (p.rho or 0):.2f}%",
                human_bytes(p.user_bytes),
                "—" if p.waf is None else f"{p.waf:.3f}",
                "—" if m is None else f"{m:.3f}",
                "—" if (m is None or not p.waf) else f"{100 * (p.waf / m - 1):+.1f}%",
                f"{e.get('min', '—')} / {e.get('mean', 0):.1f} / {e.get('max', '—')}" if e else "—",
            ]
        )
    return html.Table(cols, rows, numeric={1, 2, 3, 4, 5})


def _tested_table(sources: Sequence[Source]) -> html.Table:
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
                    "simulation"
                    if s.kind != "profile"
                    else ("profile (simulated drive)" if s.simulated_target else "profile (fio)")
                ),
                what,
                details,
                s.date,
                sw,
                s.status,
            ]
        )
    return html.Table(["name", "kind", "target", "identity", "date", "software", "status"], rows)


# ------------------------------------------------------------------------------------ CSVs


def _csvs(w: _Writer, sources: Sequence[Source], recs: dict[str, Any]) -> None:
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
                    int(rec.get("op_percent") == p.op_percent),
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


# ------------------------------------------------------------------------------------ main


def build_report(inputs: Sequence[Path], out_dir: Path, options: Options | None = None) -> Path:
    options = options or Options()
    sources = load_inputs([Path(p) for p in inputs])
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    w = _Writer(out_dir)

    recs: dict[str, Any] = {}
    cards: list[html.Card] = []
    for s in sources:
        rec = findings.recommendation(s, options.target_iops)
        recs[s.label] = rec
        kind = "profile" if s.kind == "profile" else "simulation"
        if s.has_iops:
            headline, more = findings.iops_conclusion(s, rec)
            op = (rec or {}).get("op_percent")
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
                    headline=headline,
                    more=more + (list(findings.waf_conclusion(s)[:1]) if s.has_waf else []),
                    good=op is not None,
                )
            )
        elif s.has_waf:
            headline, more = findings.waf_conclusion(s)
            big, note = findings.waf_big_figure(s)
            cards.append(
                html.Card(
                    label=s.label, kind=kind, big=big, big_note=note, headline=headline, more=more
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
    notes = [f"{s.label}: {n}" for s in sources for n in s.notes]
    compare = findings.comparison(sources)

    sections: list[html.Section] = []
    iops_sources = [s for s in sources if s.has_iops]
    waf_sources = [s for s in sources if s.has_waf]

    # -- IOPS vs OP, duration and bytes
    if iops_sources:
        targets = {findings.target_for(s, options) for s in iops_sources} - {None}
        target = max(targets) if len(targets) == 1 else (options.target_iops)
        rec_ops = [(recs.get(s.label) or {}).get("op_percent") for s in iops_sources]
        body = [
            html.figure_html(
                w.figure(
                    "iops-vs-op",
                    _draw("iops", plots.plot_iops_vs_op, iops_sources, target, rec_ops),
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
            body.append(html.table_html(_summary_table(s, rec.get("op_percent"))))
            if rec.get("reason"):
                body.append(f'<p class="small">Recommendation rule: {html.esc(rec["reason"])}</p>')
        body.append(
            html.figure_html(
                w.figure(
                    "phase-cost",
                    _draw("cost", plots.plot_phase_cost, iops_sources),
                    "Duration and bytes per phase",
                    "I/O time and host bytes written per OP level (all rounds of the phase).",
                ),
                FILES_DIR,
            )
        )
        sections.append(html.Section("iops", "IOPS vs OP", body))

    # -- per phase over time, write saturation
    series_sources = [s for s in sources if s.has_series]
    if series_sources:
        body = []
        for s in series_sources:
            slug = _slug(s.label)
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
                        f"iops-time-{slug}",
                        _draw("t", plots.plot_iops_time, s),
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
                            f"write-saturation-{slug}",
                            _draw("w", plots.plot_write_saturation, s),
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
        sections.append(html.Section("time", "IOPS over time", body))

    # -- latency
    lat_sources = [s for s in sources if s.has_latency]
    if lat_sources:
        body = []
        for s in lat_sources:
            slug = _slug(s.label)
            body.append(f"<h3>{html.esc(s.label)}</h3>")
            srcs = sorted({p.latency.kind for p in s.phases if p.latency is not None})
            body.append(
                html.figure_html(
                    w.figure(
                        f"latency-{slug}",
                        _draw("l", plots.plot_latency, s),
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
                    _draw("lo", plots.plot_latency_vs_op, lat_sources),
                    "Latency percentiles vs OP",
                    "p50, p99 and p99.9 completion latency per OP level.",
                ),
                FILES_DIR,
            )
        )
        sections.append(html.Section("latency", "Latency", body))

    # -- simulation: WAF vs OP, convergence, erase counts
    if waf_sources:
        body = [
            html.figure_html(
                w.figure(
                    "waf-vs-op",
                    _draw("waf", plots.plot_waf_vs_op, waf_sources),
                    "WAF vs OP",
                    "Simulated WAF (measured part of the run) against total OP ρ, with the "
                    "analytic models for uniform random single-page writes (docs/models.md).",
                ),
                FILES_DIR,
            )
        ]
        for s in waf_sources:
            if len(waf_sources) > 1 or iops_sources:
                body.append(f"<h3>{html.esc(s.label)}</h3>")
            if not s.has_iops:
                body.append(html.table_html(_summary_table(s, None)))
            if any(p.waf_series for p in s.phases):
                body.append(
                    html.figure_html(
                        w.figure(
                            f"waf-intervals-{_slug(s.label)}",
                            _draw("wi", plots.plot_waf_convergence, s),
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
                        _draw("e", plots.plot_erase_spread, waf_sources),
                        "Erase-count spread",
                        "Left: erase count per block at the end of each run (line: min–max, "
                        "bar: mean ± standard deviation, dot: mean). Right: the distribution "
                        "around the mean (narrow = even wear).",
                    ),
                    FILES_DIR,
                )
            )
        sections.append(html.Section("waf", "Write amplification (simulation)", body))

    # -- endurance
    tables = findings.endurance_tables(sources, options)
    facts = findings.smart_facts(options)
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
    sections.append(html.Section("endurance", "Endurance", body))

    # -- details
    body = []
    for s in sources:
        body.append(f"<h3>{html.esc(s.label)} — {html.esc(s.title)}</h3>")
        body.append(
            html.kv_html(s.identity + s.settings + [("date", s.date)] + list(s.software.items()))
        )
        body.append(f'<p class="small">Input: <code>{html.esc(s.path)}</code></p>')
    sections.append(html.Section("details", "Test details", body))

    _csvs(w, sources, recs)

    now = datetime.now(UTC)
    title = options.title or (
        f"SSD over-provisioning report: {sources[0].label}"
        if len(sources) == 1
        else "SSD over-provisioning report: "
        + " vs ".join(s.label for s in sources[:4])
        + (f" and {len(sources) - 4} more" if len(sources) > 4 else "")
    )
    subtitle = (
        f"Generated {now:%Y-%m-%d %H:%M} UTC by overprov {__version__} (Python "
        f"{platform.python_version()}, matplotlib {matplotlib.__version__}) from "
        + ", ".join(str(Path(p)) for p in inputs)
    )
    footer = [
        "Definitions (DOMAIN.md): extra OP X% leaves X% of the capacity unused; total OP "
        "ρ = (T−U)/U for physical T and user U; WAF = NAND bytes written / host bytes written. "
        "Steady state (SNIA SSS PTS): over the last 5 rounds, max − min ≤ 20% of the mean and "
        "the fitted line moves ≤ 10% of the mean.",
        "Files beside this page in <code>"
        + html.esc(FILES_DIR)
        + "/</code>: "
        + html.esc(", ".join(w.written)),
    ]
    page = html.page(
        title=title,
        subtitle=subtitle,
        tested=_tested_table(sources),
        cards=cards,
        notes=notes,
        compare=compare,
        sections=sections,
        footer=footer,
    )
    path = out_dir / REPORT_NAME
    tmp = path.with_suffix(".html.tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(path)
    return path
