"""Data placement (NVMe Flexible Data Placement, streams) on the command line, and its table.

``--fdp`` gives each placement ID a reclaim-unit handle (a write frontier of its own) in the
simulated drive; the placement ID of a write is its workload stream (a zone of ``--zones``,
where ``/seq`` marks a stream written sequentially) or, with ``--fdp-ranges``, the LBA range
it falls in (like fio's ``dp_scheme``). ``--fdp-isolation`` says whether GC keeps the handles'
data apart (``persistently-isolated``) or mixes it in one GC frontier (``initially-isolated``).
The core validates every value (``placement.*`` field errors); docs/fdp.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from overprov import engine, units
from overprov.errors import ConfigError

__all__ = [
    "FLAG_FIELDS",
    "add_isolation_option",
    "add_placement_options",
    "format_placement_table",
    "parse_ranges",
    "placement_overrides",
]

#: Each flag (its argparse dest) and the config field it sets (simulate's FLAG_FIELDS rows).
FLAG_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("fdp", ("placement", "enabled")),
    ("fdp_isolation", ("placement", "isolation")),
)


def add_placement_options(parser: argparse.ArgumentParser) -> None:
    """``--fdp``, ``--fdp-isolation``, ``--fdp-ranges``, in a group of their own."""
    g = parser.add_argument_group("data placement (NVMe FDP, streams; docs/fdp.md)")
    g.add_argument(
        "--fdp",
        action="store_true",
        help="a reclaim-unit handle per placement ID: per workload zone (--zones, /seq for a "
        "sequential stream), or per LBA range (--fdp-ranges)",
    )
    add_isolation_option(g)
    g.add_argument(
        "--fdp-ranges",
        metavar="START-END=ID,..",
        help="placement ID by LBA range, in percent of the user capacity (like fio's "
        "dp_scheme), e.g. 0-5=0,5-100=1; LBAs no range covers get ID 0",
    )


def add_isolation_option(group: Any) -> None:
    """``--fdp-isolation`` (simulate, plan), its names from the core."""
    group.add_argument(
        "--fdp-isolation",
        choices=engine.choices("placement.isolation"),
        help="GC mixes the handles' valid data in one GC frontier (initially-isolated, the "
        "default) or keeps each handle's apart (persistently-isolated)",
    )


def parse_ranges(text: str, option: str = "--fdp-ranges") -> list[dict[str, Any]]:
    """ "0-5=0,5-100=1" → ``placement.ranges`` entries (percent of the user capacity)."""
    out: list[dict[str, Any]] = []
    for i, part in enumerate(p for p in text.split(",") if p.strip()):
        span, eq, ident = part.partition("=")
        start, dash, end = span.partition("-")
        if not (eq and dash):
            raise ConfigError(
                f"{option}: range {i + 1} {part!r} is not START-END=ID (e.g. 0-5=0,5-100=1)"
            )
        lo = units.parse_percent(start, option, lo=0.0, hi=100.0)
        hi = units.parse_percent(end, option, lo=0.0, hi=100.0)
        try:
            pid = int(ident.strip())
        except ValueError:
            raise ConfigError(
                f"{option}: range {i + 1} {part!r}: placement ID {ident.strip()!r} is not a "
                "whole number"
            ) from None
        if not 0 <= pid <= 255:
            raise ConfigError(f"{option}: range {i + 1} {part!r}: placement ID must be 0-255")
        out.append({"start_percent": lo, "end_percent": hi, "id": pid})
    if not out:
        raise ConfigError(f"{option}: no ranges given (e.g. 0-5=0,5-100=1)")
    return out


def placement_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ``placement`` keys ``--fdp-ranges`` sets (``--fdp`` and ``--fdp-isolation`` are
    FLAG_FIELDS rows); the placement flags other than ``--fdp`` need it."""
    given = [
        opt
        for opt, value in (
            ("--fdp-isolation", args.fdp_isolation),
            ("--fdp-ranges", args.fdp_ranges),
        )
        if value is not None
    ]
    if given and not args.fdp:
        raise ConfigError(f"{given[0]}: only with --fdp (placement is off without it)")
    if args.fdp_ranges is None:
        return {}
    return {"source": "ranges", "ranges": parse_ranges(args.fdp_ranges)}


def format_placement_table(reports: Sequence[dict[str, Any]]) -> str | None:
    """Per reclaim-unit handle of each run with placement: its share of host writes, its WAF
    (its host and relocated pages over its host pages), and its write IOPS in timed runs."""
    runs = [r for r in reports if r.get("placement")]
    if not runs:
        return None
    lines = [
        "",
        "data placement — per reclaim-unit handle, measured part; a handle's WAF counts the "
        "pages GC relocated that hold its host writes",
        f"{'ρ':>8} {'isolation':>22} {'handle':>6} {'host %':>7} {'WAF':>8} {'relocated':>10} "
        f"{'write IOPS':>11}",
    ]
    for rep in runs:
        p = rep["placement"]
        measured = ((rep.get("timed") or {}).get("measured") or {}).get("simulated_s")
        for h in p["handles"]:
            iops = h["write_requests"] / measured if measured else None
            waf = "-" if h["ftl_waf"] is None else f"{h['ftl_waf']:.3f}"
            lines.append(
                f"{rep['geometry']['rho']:>8.4f} {p['isolation']:>22} {h['id']:>6} "
                f"{h['host_share_percent']:>7.1f} {waf:>8} {h['relocated_pages']:>10} "
                f"{'-' if iops is None else f'{iops:,.0f}':>11}"
            )
        total = (rep.get("measured") or {}).get("ftl_waf")
        total_iops = ((rep.get("timed") or {}).get("measured") or {}).get("iops")
        lines.append(
            f"{rep['geometry']['rho']:>8.4f} {p['isolation']:>22} {'all':>6} {100.0:>7.1f} "
            f"{'-' if total is None else f'{total:.3f}':>8} "
            f"{(rep.get('measured') or {}).get('gc_pages', 0):>10} "
            f"{'-' if total_iops is None else f'{total_iops:,.0f}':>11}"
        )
    return "\n".join(lines)
