"""Build the report: load the inputs, draw the figures, write CSVs, figures and the HTML page.

Layout of ``out_dir``::

    report.html             the page (self-contained: open it anywhere)
    report-files/*.png|svg  every figure, as on the page
    report-files/*.csv      the numbers behind them
"""

from __future__ import annotations

import platform
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import matplotlib

from overprov import __version__
from overprov.report import (
    findings,
    html,
    sanity,
    section_plan,
    section_pts,
    section_qualify,
    sections,
)
from overprov.report.files import FILES_DIR, REPORT_NAME, FilesWriter
from overprov.report.findings import Options
from overprov.report.load import load_inputs
from overprov.report.model import Source
from overprov.report.tables import differences_table, tested_table, write_csvs


@dataclass(frozen=True)
class BuiltReport:
    """What a build wrote and found: the page, the files beside it, the inputs as loaded, the
    recommendation per input label and the answer cards at the top of the page."""

    path: Path
    files: list[str]  # in report-files/, in the order written
    sources: list[Source]
    recs: dict[str, Any]
    cards: list[html.Card]
    checks: list[sanity.Check]


def build_report(inputs: Sequence[Path], out_dir: Path, options: Options | None = None) -> Path:
    return build(inputs, out_dir, options).path


def build(inputs: Sequence[Path], out_dir: Path, options: Options | None = None) -> BuiltReport:
    """Build the report (see the module's docstring) and say what was written and found."""
    options = options or Options()
    sources = load_inputs([Path(p) for p in inputs])
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    w = FilesWriter(out_dir)

    recs = sections.recommendations(sources, options)
    cards = sections.cards([s for s in sources if s.kind not in ("qualify", "plan")], recs, options)
    cards += section_qualify.qualify_cards(sources) + section_plan.plan_cards(sources)
    order = {s.label: i for i, s in enumerate(sources)}
    cards.sort(key=lambda c: order.get(c.label, len(order)))  # one card per input, in its order
    notes = [f"{s.label}: {n}" for s in sources for n in s.notes]
    checks = sanity.run_checks(sources, options.smart)
    notes += [
        "Check: " + (f"{c.source}: " if c.source and len(sources) > 1 else "") + c.message
        for c in checks
    ]
    compare = findings.comparison(sources)
    parts = [
        sections.iops_section(w, sources, recs, options),
        sections.preparation_section(sources),
        sections.window_section(sources),
        sections.time_section(w, sources),
        sections.latency_section(w, sources),
        section_pts.pts_section(w, sources),
        sections.calibrate_section(w, sources),
        section_qualify.qualify_section(w, sources),
        section_plan.plan_section(w, sources),
        sections.waf_section(w, sources),
        sections.endurance_section(w, sources, options),
        sections.details_section(sources),
    ]

    write_csvs(w, sources, recs)

    now = datetime.now(UTC)
    title = options.title or (
        f"SSD over-provisioning report: {sources[0].label}"
        if len(sources) == 1
        else "SSD over-provisioning report: "
        + " vs ".join(s.label for s in sources[:4])
        + (f" and {len(sources) - 4} more" if len(sources) > 4 else "")
    )
    sim_lines = [
        (f"{s.label}: " if len(sources) > 1 else "")
        + s.sim_tag
        + " — figures computed by the simulator, not measured on a drive"
        for s in sources
        if s.simulated
    ]
    if sim_lines and not options.title:
        title = "SIMULATED — " + title
    subtitle = (
        # "Generated ... UTC by overprov N": how outputs.check_report_page knows the page
        f"Generated {now:%Y-%m-%d %H:%M} UTC by overprov {__version__} (Python "
        f"{platform.python_version()}, matplotlib {matplotlib.__version__}) from "
        + ", ".join(str(Path(p)) for p in inputs)
    )
    footer = [
        "Definitions (docs/concepts.md): extra OP X% leaves X% of the capacity unused; total OP "
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
        sim_lines=sim_lines,
        tested=tested_table(sources),
        cards=cards,
        notes=notes,
        compare=compare,
        compare_table=differences_table(sources),
        sections=[p for p in parts if p is not None],
        footer=footer,
    )
    path = out_dir / REPORT_NAME
    tmp = path.with_suffix(".html.tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(path)
    return BuiltReport(path, list(w.written), list(sources), recs, cards, checks)
