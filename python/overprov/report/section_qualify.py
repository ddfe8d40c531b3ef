"""The report's qualify part: an answer card per qualification (fit or not, the failed tests)
and a section with each test's verdict, the sentence behind it, the figure of the figures and
one table per test (cache: write-back against write-through; TRIM recovery; idle recovery per
idle time; write cliff; IO consistency), and how each was measured."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from overprov.emulate.host_share import host_bound
from overprov.report import html
from overprov.report.files import FILES_DIR, FilesWriter, draw, slug
from overprov.report.load_qualify import tests_of
from overprov.report.model import Source
from overprov.report.plots_qualify import drawable, plot_qualify
from overprov.report.tables import fmt_iops
from overprov.steady_window import window_name
from overprov.units import human_bytes


def _us(value: Any) -> str:
    return f"{value:,.0f}" if isinstance(value, int | float) else "—"


def _pct(value: Any) -> str:
    return f"{value:+.0%}" if isinstance(value, int | float) else "—"


# words of documents written before the window was named by its states (window_name)
_OLD_WINDOW_WORDS = {
    "the steady window is the last drive write": "latency over the last drive write",
    "the steady window is the last round": "latency over the last round (not judged steady)",
    "steady window p99": "{name}: p99",
}


def honest_words(text: str, test: dict[str, Any]) -> str:
    """A test's finding or method with its window named by the states the document gives
    (``window_states``): a window the run marked transition is never called steady; and the
    one fresh figure of the page named "fresh-out-of-box" (the write cliff's), the TRIM test's
    first pass named as such (documents written before qualify named them so)."""
    text = re.sub(r"; fresh ([\d,]+), steady", r"; first pass after the purge \1, steady", text)
    text = re.sub(r"([\d,]+) IOPS fresh,", r"fresh-out-of-box \1 IOPS,", text)
    text = text.replace("pass (fresh)", "pass (the first pass after the purge)")
    f = test.get("figures") or {}
    if "window_states" not in f or window_name(f) == "steady window":
        return text
    for old, new in _OLD_WINDOW_WORDS.items():
        text = text.replace(old, new.format(name=window_name(f)))
    return text


def qualify_cards(sources: Sequence[Source]) -> list[html.Card]:
    """One answer card per qualification: fit or not, and the tests that failed."""
    cards = []
    for s in sources:
        if s.kind != "qualify":
            continue
        summary = s.qualify["summary"]
        tests = s.qualify["tests"]
        judged = [t for t in tests if t["verdict"] != "info"]
        passed = sum(1 for t in judged if t["verdict"] == "pass")
        failed = [t for t in tests if t["verdict"] == "fail"]
        cards.append(
            html.Card(
                label=s.label,
                kind="qualification" + (" (simulated drive)" if s.simulated else " (fio)"),
                big=f"{passed} of {len(judged)}",
                big_note="tests passed",
                headline=summary["line"][:1].upper() + summary["line"][1:] + ".",
                more=[f"{t['test']}: {honest_words(t['finding'], t)}" for t in failed]
                or [f"{t['test']}: {honest_words(t['finding'], t)}" for t in tests[:2]],
                good=not failed,
                sim_tag=s.sim_tag,
            )
        )
    return cards


def _verdict_table(tests: list[dict[str, Any]]) -> html.Table:
    return html.Table(
        ["test", "verdict", "finding"],
        [[t["test"], t["verdict"].upper(), honest_words(t["finding"], t)] for t in tests],
        status_col=1,
    )


def _cache_table(f: dict[str, Any]) -> html.Table:
    rows = []
    for name, key in (("write-back", "write_back"), ("write-through", "write_through")):
        side = f[key]
        rows.append(
            [
                name,
                fmt_iops(side.get("iops")),
                fmt_iops(side.get("read_iops")),
                fmt_iops(side.get("write_iops")),
                _us(side.get("latency_p50_us")),
                _us(side.get("latency_p99_us")),
                _us(side.get("read_latency_p99_us")),
            ]
        )
    ratio = f.get("write_through_ratio")
    rows.append(
        ["write-through / write-back", f"{ratio:.1%}" if ratio is not None else "—", "", "",
         "", "", f"pass ≥ {f.get('protected_min_ratio', 0.5):.0%}"]
    )  # fmt: skip
    return html.Table(
        ["cache test", "IOPS", "read IOPS", "write IOPS", "p50 µs", "p99 µs", "read p99 µs"],
        rows,
        numeric={1, 2, 3, 4, 5},
    )


def _trim_table(f: dict[str, Any]) -> html.Table:
    without, with_trim = f.get("without_trim_iops"), f.get("with_trim_iops")
    gain = with_trim / without - 1 if without and with_trim is not None else None
    return html.Table(
        [
            "TRIM recovery",
            "first pass after purge",
            "steady",
            "without TRIM",
            "with TRIM",
            "gain",
            "discarded",
        ],
        [
            [
                "random-write IOPS",
                fmt_iops(f.get("fresh_iops")),
                fmt_iops(f.get("steady_iops")),
                fmt_iops(without),
                fmt_iops(with_trim),
                _pct(gain),
                human_bytes(f.get("discarded_bytes")),
            ]
        ],
        numeric={1, 2, 3, 4, 5},
    )


def _idle_table(f: dict[str, Any]) -> html.Table:
    rows = [
        [
            f"{w['wait_s']:g} s",
            fmt_iops(w.get("baseline_iops")),
            ", ".join(fmt_iops(b) for b in w.get("burst_iops") or []),
            fmt_iops(w.get("mean_burst_iops")),
            _pct(w.get("recovery")),
            _us(w.get("baseline_latency_p99_us")),
            _us(w.get("burst_latency_p99_us")),
        ]
        for w in f.get("waits") or []
    ]
    return html.Table(
        ["idle time", "baseline IOPS", "bursts IOPS", "mean", "recovery", "baseline p99 µs",
         "bursts p99 µs"],
        rows,
        numeric={1, 3, 4, 5, 6},
    )  # fmt: skip


def _cliff_table(f: dict[str, Any]) -> html.Table:
    c = f.get("cliff") or {}
    cap = f.get("capacity_bytes") or 0
    if not c.get("found"):
        return html.Table(["write cliff", "found"], [["random writes from fresh", "no"]])
    drop = c.get("drop_fraction")
    return html.Table(
        [
            "write cliff",
            "written before it",
            "drive writes",
            "fresh-out-of-box IOPS",
            "IOPS after",
            "drop",
        ],
        [
            [
                "random writes from fresh",
                human_bytes(c["cliff_bytes"]),
                f"{c['cliff_bytes'] / cap:.2f}" if cap else "—",
                fmt_iops(c.get("fob_iops")),
                fmt_iops(c.get("after_iops")),
                f"{drop:.0%}" if drop is not None else "—",
            ]
        ],
        numeric={2, 3, 4, 5},
    )


def _consistency_table(f: dict[str, Any]) -> html.Table:
    ratio, limit = f.get("outlier_ratio"), f.get("outlier_max_ratio")
    qos = f.get("qos_p99_99_us")
    return html.Table(
        [
            "IO consistency",
            "p99 µs",
            "p99.99 µs",
            "max µs",
            "p99.99 / p99",
            "limit",
            "QoS limit µs",
        ],
        [
            [
                window_name(f),
                _us(f.get("latency_p99_us")),
                _us(f.get("latency_p99_99_us")),
                _us(f.get("latency_max_us")),
                f"{ratio:.1f}×" if ratio is not None else "—",
                f"{limit:g}×" if limit is not None else "—",
                _us(qos),
            ]
        ],
        numeric={1, 2, 3, 4, 6},
    )


TABLES = {
    "cache": _cache_table,
    "trim_recovery": _trim_table,
    "idle_recovery": _idle_table,
    "write_cliff": _cliff_table,
    "consistency": _consistency_table,
}


def qualify_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    quals = [s for s in sources if s.kind == "qualify"]
    if not quals:
        return None
    body: list[str] = []
    for i, s in enumerate(quals):
        if len(quals) > 1:
            body.append(f"<h3>{html.esc(s.label)}</h3>")
        if s.sim_tag:
            body.append(f'<div class="note">{html.esc(s.sim_tag)}: every figure below is '
                        "computed by the simulator, not measured on a drive.</div>")  # fmt: skip
        tests = s.qualify["tests"]
        body.append(html.table_html(_verdict_table(tests)))
        if drawable(s):
            body.append(
                html.figure_html(
                    w.figure(
                        f"qualify-{slug(s.label)}",
                        draw("q", plot_qualify, s, i),
                        "Qualify: the figures behind each verdict",
                        "Cache: IOPS of the mixed workload write-back and write-through (log "
                        "scale; a flush that waits for NAND falls to hard-disk IOPS). TRIM: "
                        "random-write IOPS of the first pass after the purge, at steady state, "
                        "and over the kept span without and with the discard. "
                        "Idle: IOPS of the bursts after each host idle time (dots: each burst) "
                        "against continuous writes. Consistency: latency percentiles of the "
                        "run's last stretch (named by the states the run gave it) against the "
                        "outlier limit.",
                    ),
                    FILES_DIR,
                )
            )
        by_name = tests_of(s)
        methods = []
        for name, table in TABLES.items():
            t = by_name.get(name)
            if t is None or not t.get("figures"):
                continue
            if name == "idle_recovery" and not t["figures"].get("waits"):
                continue  # a document of the earlier (open-loop) form: its finding says it
            body.append(html.table_html(table(t["figures"])))
            methods.append(
                f"<li><b>{html.esc(name)}</b>: {html.esc(honest_words(t['method'], t))}</li>"
            )
        if methods:
            body.append("<p>How each was measured:</p><ul>" + "".join(methods) + "</ul>")
        held = host_bound_rounds(tests)
        if held:
            body.append(
                '<div class="note">On the emulated drive the host held most of the request time '
                f"of {html.esc(held)}: those figures are the host's, not the drive's "
                '(docs/emulate.md, "When the host cannot keep up").</div>'
            )
    return html.Section("qualify", "Qualification", body)


def host_bound_rounds(tests: Sequence[dict[str, Any]]) -> str:
    """The host-bound rounds of each test run on an emulated drive (its figures'
    ``host_share``, ``qualify/round_host_share.py``), in words; "" when none."""
    parts = []
    for t in tests:
        shares = (t.get("figures") or {}).get("host_share") or {}
        held = [f"{label} ({share:.0%})" for label, share in shares.items() if host_bound(share)]
        if held:
            parts.append(f"{t['test']}: {', '.join(held)}")
    return "; ".join(parts)
