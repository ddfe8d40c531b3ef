"""The address pattern of a synthetic workload as the command line gives it, and what it means
in the simulator's ``workload`` section.

One syntax for every command that names a workload (``overprov simulate``, ``overprov
calibrate``): ``--workload PATTERN`` (uniform, sequential, hot-cold, zoned, zipf, jesd219),
``--hot ACCESS/SPACE`` (hot-cold, e.g. 80/20), ``--zones A/S:A/S..`` (fio's zoned syntax) and
``--zipf-theta THETA``; a shape flag without ``--workload`` picks its pattern. The core
validates the values (``workload.*`` field errors).
"""

from __future__ import annotations

import argparse
from typing import Any

from overprov import engine, units
from overprov.errors import ConfigError
from overprov.workload_text import describe_synthetic, zones_text

#: The third field of a zone, ``A/S/seq``: how the zone's LBAs are written.
ZONE_ORDERS = {"seq": True, "sequential": True, "rand": False, "random": False}


def parse_zones(text: str, field: str) -> list[dict[str, Any]]:
    """ "50/5:30/15:20/80" → zones (access%/space%), fio's random_distribution=zoned syntax; a
    zone written as a sequential stream (a log, a FIFO of regions) adds ``/seq``:
    "60/5:40/95/seq"."""
    zones: list[dict[str, Any]] = []
    for i, part in enumerate(text.split(":")):
        pair, order = part, ""
        pieces = part.split("/")
        if len(pieces) == 3:
            pair = "/".join(pieces[:2])
            order = pieces[2].strip().lower()
            if order not in ZONE_ORDERS:
                raise ConfigError(
                    f"{field}: zone {i + 1} {part!r}: the third field is seq or rand, "
                    f"not {pieces[2]!r} (e.g. 60/5:40/95/seq)"
                )
        access, space = _share_pair(pair, field, f"zone {i + 1} ", "50/5:30/15:20/80")
        zone: dict[str, Any] = {"access_percent": access, "space_percent": space}
        if ZONE_ORDERS.get(order, False):
            zone["sequential"] = True
        zones.append(zone)
    return zones


def _share_pair(text: str, option: str, what: str, example: str) -> tuple[float, float]:
    """'80/20' → (80.0, 20.0): two percentages (``units.parse_percent``, 0–100)."""
    parts = text.split("/")
    if len(parts) != 2:
        raise ConfigError(f"{option}: {what}{text!r} is not ACCESS%/SPACE% (e.g. {example})")
    access, space = (units.parse_percent(x, option, lo=0.0, hi=100.0) for x in parts)
    return access, space


def workload_overrides(
    pattern: str | None,
    hot: str | None = None,
    zones: str | None = None,
    zipf_theta: float | None = None,
) -> dict[str, Any]:
    """The ``workload`` keys the flags set (nothing for flags not given)."""
    w: dict[str, Any] = {}
    shapes = [
        (option, own)
        for option, own, value in (
            ("--hot", "hot-cold", hot),
            ("--zones", "zoned", zones),
            ("--zipf-theta", "zipf", zipf_theta),
        )
        if value is not None
    ]
    if len(shapes) > 1:
        raise ConfigError(
            f"{shapes[1][0]}: {shapes[0][0]} already gives the pattern ({shapes[0][1]}); "
            "give one shape"
        )
    for option, own in shapes:
        if pattern and pattern != own:
            raise ConfigError(
                f"{option}: shapes the {own} pattern, not --workload {pattern}; leave one out"
            )
    if pattern:
        w["pattern"] = pattern
    if hot is not None:
        access, space = _share_pair(hot, "--hot", "", "80/20")
        w["pattern"] = pattern or "hot-cold"
        w["hot_access_percent"], w["hot_space_percent"] = access, space
    if zones is not None:
        w["zones"] = parse_zones(zones, "--zones")
        if not pattern:
            w["pattern"] = "zoned"
    if zipf_theta is not None:
        w["zipf_theta"] = zipf_theta
        if not pattern:
            w["pattern"] = "zipf"
    return w


def add_pattern_options(group: Any) -> None:
    """``--workload``, ``--hot``, ``--zones``, ``--zipf-theta`` on a parser or argument group."""
    group.add_argument(
        "--workload", choices=engine.choices("workload.pattern"), help="address pattern"
    )
    group.add_argument(
        "--hot",
        metavar="ACCESS/SPACE",
        help="hot/cold: ACCESS%% of writes to SPACE%% of the span, e.g. 80/20",
    )
    group.add_argument(
        "--zones",
        metavar="A/S:A/S..",
        help="zoned distribution, fio syntax, e.g. 50/5:30/15:20/80; a zone ending /seq is "
        "written sequentially (a stream: log, FIFO), e.g. 60/5:40/95/seq",
    )
    group.add_argument(
        "--zipf-theta", type=units.NON_NEGATIVE, metavar="THETA", help="Zipf exponent (0.99)"
    )


def pattern_overrides_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`workload_overrides` of a namespace that has :func:`add_pattern_options`' flags."""
    return workload_overrides(args.workload, args.hot, args.zones, args.zipf_theta)


def flags_text(overrides: dict[str, Any]) -> str:
    """The flags that give ``overrides`` (:func:`workload_overrides`' output) back."""
    w = overrides
    parts = [f"--workload {w.get('pattern', 'uniform')}"]
    if "hot_access_percent" in w:
        parts.append(f"--hot {w['hot_access_percent']:g}/{w['hot_space_percent']:g}")
    if "zones" in w:
        parts.append(f"--zones {zones_text(w['zones'])}")
    if "zipf_theta" in w:
        parts.append(f"--zipf-theta {w['zipf_theta']:g}")
    return " ".join(parts)


def describe_overrides(overrides: dict[str, Any]) -> str:
    """The workload in words, e.g. "the JEDEC JESD219 endurance workload (its request-size mix
    and 50/30/20 address skew)" (``overprov.workload_text``, the one description)."""
    return describe_synthetic(overrides)
