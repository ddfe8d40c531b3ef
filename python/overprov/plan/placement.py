"""``plan --simulate --placement fdp --zones ...`` and ``plan --trace FILE --placement
fdp|namespaces --fdp-ranges MAP``: the plan per OP level simulated without data placement and
with it, and how much of the drive the placement gives back: the difference between the
smallest extra OP that meets the target without it and with it (docs/fdp.md).

With ``--simulate`` a handle serves each stream of ``--zones``; a trace has no streams, so its
placement IDs come from the LBA-range map ``--fdp-ranges`` (like fio's ``dp_scheme``).
``namespaces`` models a namespace per range as persistently isolated handles over that map: a
namespace's data never shares an erase unit with another's, the spare space is the drive's."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from overprov.endurance import EndurancePlan
from overprov.errors import ConfigError
from overprov.placement_options import add_isolation_option, parse_ranges
from overprov.workload_options import parse_zones

__all__ = [
    "add_options",
    "give_back",
    "placement_extras",
    "format_comparison",
    "format_handles",
    "trace_placement",
]

PLACEMENTS = ("none", "fdp", "namespaces")
#: What each placement is called in the text.
LABELS = {"fdp": "FDP", "namespaces": "a namespace per range"}


def add_options(p: argparse.ArgumentParser) -> None:
    """``--placement``, ``--zones``, ``--fdp-isolation`` on ``plan``."""
    g = p.add_argument_group("data placement (with --simulate or --trace; docs/fdp.md)")
    g.add_argument(
        "--placement",
        choices=PLACEMENTS,
        help="fdp: simulate each OP level without placement and with a reclaim-unit handle "
        "per stream of --zones (--simulate) or per range of --fdp-ranges (--trace), and say "
        "how much extra OP the placement gives back; namespaces (--trace): a namespace per "
        "range, persistently isolated, the spare space shared",
    )
    g.add_argument(
        "--zones",
        metavar="A/S[/seq]:..",
        help="--simulate's workload as streams: share of writes / share of LBAs, /seq for a "
        "stream written in order, e.g. 60/5:40/95/seq (default: uniform random writes)",
    )
    add_isolation_option(g)
    g.add_argument(
        "--fdp-ranges",
        metavar="START-END=ID,..",
        help="--trace: the placement ID of a write by its LBA range, in percent of the user "
        "capacity (like fio's dp_scheme), e.g. 0-5=0,5-100=1; LBAs no range covers get ID 0",
    )


def trace_placement(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``placement`` section of ``plan --trace``'s run with placement; None for no
    placement (``--placement`` left out or ``none``)."""
    if args.zones is not None:
        raise ConfigError("--zones: not with --trace (the trace is the workload)")
    if args.placement in (None, "none"):
        if args.fdp_ranges is not None:
            raise ConfigError("--fdp-ranges: only with --placement fdp or namespaces")
        if args.fdp_isolation is not None:
            raise ConfigError("--fdp-isolation: only with --placement fdp")
        return None
    if args.fdp_ranges is None:
        raise ConfigError(
            f"--placement {args.placement}: give the placement IDs with --fdp-ranges (a trace "
            "has no streams; e.g. 0-5=0,5-100=1)"
        )
    placement: dict[str, Any] = {
        "enabled": True,
        "source": "ranges",
        "ranges": parse_ranges(args.fdp_ranges),
    }
    if args.placement == "namespaces":
        if args.fdp_isolation is not None:
            raise ConfigError(
                "--fdp-isolation: not with --placement namespaces (namespaces are persistently "
                "isolated)"
            )
        placement["isolation"] = "persistently-isolated"
    elif args.fdp_isolation is not None:
        placement["isolation"] = args.fdp_isolation
    return placement


def format_handles(levels: tuple[float, ...], rows: tuple[dict[str, Any], ...]) -> str:
    """Per extra-OP level (fractions) of ``plan --trace``'s run with placement, each handle's
    share of the host writes and its WAF; empty for runs without placement."""
    runs = [(x, r["placement"]) for x, r in zip(levels, rows, strict=True) if r.get("placement")]
    if not runs:
        return ""
    lines = [
        "",
        f"Per reclaim-unit handle ({runs[0][1]['isolation']}; a handle's WAF counts the pages "
        "GC relocated that hold its host writes):",
        f"{'extra OP':>9} {'handle':>6} {'host %':>7} {'WAF':>7}",
    ]
    for x, p in runs:
        for h in p["handles"]:
            waf = "-" if h["ftl_waf"] is None else f"{h['ftl_waf']:.3f}"
            lines.append(f"{x * 100:8.1f}% {h['id']:>6} {h['host_share_percent']:>7.1f} {waf:>7}")
    return "\n".join(lines) + "\n"


def placement_extras(args: argparse.Namespace) -> list[dict[str, Any]] | None:
    """The config sections of the quick simulation: one set without placement, and with
    ``--placement fdp`` a second with it; None when none of the flags is given."""
    if args.fdp_ranges is not None:
        raise ConfigError("--fdp-ranges: only with --trace (--simulate's streams are --zones)")
    if args.placement == "namespaces":
        raise ConfigError("--placement namespaces: only with --trace and --fdp-ranges")
    if args.placement is None and args.zones is None and args.fdp_isolation is None:
        return None
    if not args.simulate:
        option = "--placement" if args.placement else "--zones" if args.zones else "--fdp-isolation"
        where = "--simulate" if option == "--zones" else "--simulate or --trace"
        raise ConfigError(f"{option}: only with {where} (the workload is simulated)")
    if args.fdp_isolation is not None and args.placement != "fdp":
        raise ConfigError("--fdp-isolation: only with --placement fdp")
    if args.placement == "fdp" and args.zones is None:
        raise ConfigError("--placement fdp: give the streams with --zones (e.g. 60/5:40/95/seq)")
    workload: dict[str, Any] = {"pattern": "uniform", "request_bytes": 4096}
    if args.zones is not None:
        workload = {"pattern": "zoned", "zones": parse_zones(args.zones, "--zones")}
    extras = [{"workload": workload}]
    if args.placement == "fdp":
        placement = {"enabled": True}
        if args.fdp_isolation:
            placement["isolation"] = args.fdp_isolation
        extras.append({"workload": workload, "placement": placement})
    return extras


def give_back(without: EndurancePlan, with_fdp: EndurancePlan) -> dict[str, float | None]:
    """Per target: percentage points of the advertised capacity the placement gives back (the
    smallest extra OP meeting it without placement less with it); None where a side has no
    answer."""
    out: dict[str, float | None] = {}
    for key in ("target_dwpd_extra_op", "target_years_extra_op"):
        a, b = getattr(without, key), getattr(with_fdp, key)
        if getattr(without, key.replace("_extra_op", "")) is None:
            continue
        out[key.replace("_extra_op", "_give_back_percent")] = (
            None if a is None or b is None else round((a - b) * 100, 1)
        )
    return out


def format_comparison(
    without: EndurancePlan,
    with_fdp: EndurancePlan,
    fmt: Callable[[EndurancePlan], str],
    placement: str = "fdp",
) -> str:
    """Both plans (each as ``fmt`` writes it), then the answer per target."""
    name = LABELS[placement]
    lines = ["Without data placement:", fmt(without), "", f"With {name}:", fmt(with_fdp), ""]
    answers = give_back(without, with_fdp)
    if not answers:
        lines.append(
            "give --target-dwpd or --target-years for the extra OP each needs and what "
            f"{name} gives back"
        )
    for key, points in answers.items():
        target = key.replace("_give_back_percent", "").replace("target_", "")
        need = getattr(without, f"target_{target}_extra_op")
        need_fdp = getattr(with_fdp, f"target_{target}_extra_op")
        if points is None:
            shown = lambda x: "not met" if x is None else f"{x * 100:.1f} %"  # noqa: E731
            lines.append(
                f"{target}: smallest extra OP without placement {shown(need)}, with {name} "
                f"{shown(need_fdp)}"
            )
        else:
            lines.append(
                f"{target}: {name[0].upper() + name[1:]} lets you give back {points:.1f} % of "
                f"the drive (extra OP {need * 100:.1f} % without placement, "
                f"{need_fdp * 100:.1f} % with {name})"
            )
    return "\n".join(lines)
