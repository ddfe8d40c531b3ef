"""The report page: one self-contained HTML file (inline CSS, each figure once as inline SVG or
a PNG data URI, no script, nothing fetched from the network)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

CSS = """
:root { --ink:#212529; --muted:#5c677d; --line:#dee2e6; --bg:#f6f7f9; --accent:#1f5fa8;
  --good:#2b8a3e; --warn:#c92a2a; --card:#ffffff; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 0 20px 40px; }
header.top { background:#102a43; color:#f0f4f8; padding: 18px 0 14px; }
header.top .inner { max-width:1080px; margin:0 auto; padding:0 20px; }
header.top h1 { margin:0 0 4px; font-size: 24px; letter-spacing:.2px; }
header.top p { margin:0; color:#bcccdc; font-size:13.5px; overflow-wrap:anywhere; }
.card p, .card li, .note, .compare { overflow-wrap:anywhere; }  /* long paths wrap */
nav { max-width:1080px; margin:0 auto; padding:8px 20px; font-size:13.5px; }
nav a { color:var(--accent); margin-right:14px; text-decoration:none; white-space:nowrap; }
h2 { font-size: 19px; margin: 30px 0 10px; padding-bottom:4px;
  border-bottom:2px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
.answer { display:grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap:14px;
  margin-top: 16px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px;
  padding:14px 18px; box-shadow: 0 1px 2px rgba(0,0,0,.04); min-width:0; }
.card.verdict { border-left: 6px solid var(--good); }
.card.verdict.none { border-left-color: #e67700; }
.card .what { color:var(--muted); font-size:13px; margin:0 0 6px; }
.card .big { font-size: 40px; font-weight: 700; line-height:1.1; color:var(--good); }
.card.none .big { color:#e67700; font-size: 26px; }
.card .big small { font-size: 15px; font-weight: 500; color: var(--muted); margin-left:6px; }
.card p.headline { font-size: 16.5px; font-weight: 600; margin: 8px 0 6px; }
.card ul { margin: 4px 0 0 18px; padding:0; color:#343a40; font-size:14px; }
.card ul li { margin: 2px 0; }
.note { background:#fff4e6; border:1px solid #ffd8a8; border-radius:8px; padding:8px 12px;
  font-size:14px; margin:10px 0; }
.compare { background:#e7f5ff; border:1px solid #a5d8ff; border-radius:8px; padding:8px 12px;
  font-size:14.5px; margin:12px 0; }
figure { background:var(--card); border:1px solid var(--line); border-radius:10px;
  margin: 12px 0; padding: 10px; }
figure .art img, figure .art svg { display:block; width:100%; height:auto; }
figcaption { color:var(--muted); font-size:13px; margin-top:6px; }
figcaption a { color:var(--accent); }
table { border-collapse: collapse; width:100%; background:var(--card); font-size:13.5px;
  margin: 8px 0 4px; }
th, td { border:1px solid var(--line); padding: 4px 8px; text-align:left; vertical-align:top; }
th { background:#f1f3f5; font-weight:600; }
td.num, th.num { text-align:right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
tr.rec td { background:#ebfbee; font-weight:600; }
.status-steady { color: var(--good); font-weight:600; }
.status-not_steady, .status-skipped { color: var(--warn); font-weight:600; }
.kv th { width: 240px; }
.tested { width:100%; }
.small { font-size: 12.5px; color: var(--muted); }
footer { color:var(--muted); font-size: 12.5px; margin-top: 30px; border-top:1px solid var(--line);
  padding-top:10px; }
code { font-size: 12.5px; background:#f1f3f5; padding:1px 4px; border-radius:4px;
  overflow-wrap:anywhere; }
.scroll { overflow-x:auto; max-width:100%; -webkit-overflow-scrolling:touch; }
.scroll > table { margin: 8px 0 4px; }
.kv td { overflow-wrap:anywhere; }
.tested { min-width: 760px; }
.badge { display:inline-block; background:#c92a2a; color:#fff; font-weight:700;
  letter-spacing:.6px; font-size:13px; padding:2px 8px; border-radius:5px; margin-right:8px;
  vertical-align: middle; }
header.top .sim { color:#ffc9c9; font-size:14px; margin:4px 0 2px; font-weight:600; }
.card .badge { font-size:11px; padding:1px 6px; }
main { display:flex; flex-direction:column; }
main > section, main > footer { min-width:0; }
@media (max-width: 700px) {
  body { font-size:14px; }
  main, header.top .inner, nav { padding-left:10px; padding-right:10px; }
  header.top h1 { font-size:19px; }
  #answer { order:-1; }
  .answer { grid-template-columns: 1fr; }
  .card { padding:10px 12px; }
  .card .big { font-size:32px; }
  .kv th { width:auto; min-width:110px; }
  figure { padding:6px; margin:10px -4px; }
  /* a figure keeps a readable width and scrolls sideways in its own box */
  figure .art { overflow-x:auto; -webkit-overflow-scrolling:touch; }
  figure .art img, figure .art svg { min-width: 760px; }
  th, td { padding:3px 5px; }
  table { font-size:12.5px; }
  nav a { display:inline-block; margin:2px 10px 2px 0; }
}
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { background:#fff; font-size:11pt; }
  header.top { background:#fff; color:#000; border-bottom:2px solid #000; padding:0 0 6px; }
  header.top p { color:#333; }
  header.top .sim { color:#8a1c1c; }
  .badge { border:1.5px solid #c92a2a; color:#c92a2a; background:#fff; }
  nav { display:none; }
  main { max-width:none; padding:0; }
  #answer { order:-1; }  /* page 1 carries the answer and its decision table */
  figure, tr, .compare, .note { break-inside: avoid; box-shadow:none; }
  /* a tall card (its decision table) starts on page 1 under its heading and goes on */
  .card { box-shadow:none; }
  h2, h3 { break-after: avoid; }
  .scroll { overflow: visible; }
  figure .art { overflow: visible; }
  figure .art img, figure .art svg { max-width:100%; min-width:0; }
  figcaption a { display:none; }
  a { color:inherit; text-decoration:none; }
}
"""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


@dataclass
class FigureBlock:
    key: str
    title: str
    caption: str
    file_name: str  # the figure's file beside the page: KEY.svg or KEY.png
    png_b64: str  # the figure embedded as a PNG data URI, or "" when it is inline SVG
    svg_inline: str = ""  # the figure embedded as inline SVG markup (files.inline_svg)


@dataclass
class Card:
    label: str
    kind: str
    big: str  # "20%" or ""
    big_note: str  # "recommended extra OP"
    headline: str
    more: list[str] = field(default_factory=list)
    good: bool = True
    sim_tag: str = ""  # "SIMULATED · ..." for simulated data
    table: Table | None = None  # the decision table: one row per OP level (report/decision.py)


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    numeric: set[int] = field(default_factory=set)
    highlight: set[int] = field(default_factory=set)  # row indexes
    status_col: int | None = None


def figure_html(fig: FigureBlock, files_dir: str) -> str:
    """The figure once: inline SVG (labelled as an image by its title) or a PNG data URI, in a
    box that scrolls sideways on a narrow screen (the figure keeps a readable width)."""
    if fig.svg_inline:
        art = fig.svg_inline.replace("<svg", f'<svg role="img" aria-label="{esc(fig.title)}"', 1)
    else:
        art = f'<img alt="{esc(fig.title)}" src="data:image/png;base64,{fig.png_b64}">'
    return (
        f'<figure id="fig-{esc(fig.key)}"><div class="art">{art}</div>'
        f"<figcaption>{esc(fig.caption)} "
        f'<a href="{esc(files_dir)}/{esc(fig.file_name)}">{"SVG" if fig.svg_inline else "PNG"}</a>'
        "</figcaption></figure>"
    )


def table_html(t: Table, css_class: str = "") -> str:
    head = "".join(
        f'<th class="num">{esc(c)}</th>' if i in t.numeric else f"<th>{esc(c)}</th>"
        for i, c in enumerate(t.columns)
    )
    body = []
    for r, row in enumerate(t.rows):
        cells = []
        for i, v in enumerate(row):
            cls = []
            if i in t.numeric:
                cls.append("num")
            if t.status_col == i:
                cls.append(f"status-{v.replace(' ', '_')}")
            attr = f' class="{" ".join(cls)}"' if cls else ""
            cells.append(f"<td{attr}>{esc(v)}</td>")
        tr = ' class="rec"' if r in t.highlight else ""
        body.append(f"<tr{tr}>{''.join(cells)}</tr>")
    cls = f' class="{css_class}"' if css_class else ""
    return (
        f'<div class="scroll"><table{cls}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def kv_html(pairs: Sequence[tuple[str, str]]) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in pairs)
    return f'<div class="scroll"><table class="kv"><tbody>{rows}</tbody></table></div>'


def card_html(c: Card) -> str:
    cls = "card verdict" + ("" if c.good else " none")
    big = f'<div class="big">{esc(c.big)}<small>{esc(c.big_note)}</small></div>' if c.big else ""
    more = "".join(f"<li>{esc(m)}</li>" for m in c.more)
    badge = ""
    if c.sim_tag:
        head, _, rest = c.sim_tag.partition(" · ")
        badge = f'<br><span class="badge">{esc(head)}</span>{esc(rest)}'
    return (
        f'<div class="{cls}"><p class="what">{esc(c.label)} · {esc(c.kind)}{badge}</p>{big}'
        f'<p class="headline">{esc(c.headline)}</p>'
        + (f"<ul>{more}</ul>" if more else "")
        + (table_html(c.table, "decision") if c.table is not None else "")
        + "</div>"
    )


@dataclass
class Section:
    key: str
    title: str
    body: list[str]


def page(
    *,
    title: str,
    subtitle: str,
    sim_lines: Sequence[str] = (),
    tested: Table,
    cards: Sequence[Card],
    notes: Sequence[str],
    compare: Sequence[str],
    compare_table: Table | None = None,
    sections: Sequence[Section],
    footer: Sequence[str],
) -> str:
    nav = "".join(f'<a href="#{esc(s.key)}">{esc(s.title)}</a>' for s in sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{CSS}</style></head><body>",
        '<header class="top"><div class="inner"><h1>'
        + ('<span class="badge">SIMULATED</span>' if sim_lines else "")
        + f"{esc(title.removeprefix('SIMULATED — '))}</h1>"
        + "".join(f'<p class="sim">{esc(line)}</p>' for line in sim_lines)
        + f"<p>{esc(subtitle)}</p></div></header>",
        f"<nav>{nav}</nav>",
        "<main>",
        '<section id="tested"><h2>What was tested</h2>',
        table_html(tested, "tested"),
        "</section>",
        '<section id="answer"><h2>The answer</h2><div class="answer">',
        "".join(card_html(c) for c in cards),
        "</div>",
        "".join(f'<div class="compare">{esc(c)}</div>' for c in compare),
        table_html(compare_table, "differences") if compare_table else "",
        "".join(f'<div class="note">{esc(n)}</div>' for n in notes),
        "</section>",
    ]
    for s in sections:
        parts.append(
            f'<section id="{esc(s.key)}"><h2>{esc(s.title)}</h2>{"".join(s.body)}</section>'
        )
    parts.append("<footer>" + "".join(f"<p>{f}</p>" for f in footer) + "</footer>")
    parts.append("</main></body></html>\n")
    return "\n".join(parts)
