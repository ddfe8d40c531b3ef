"""The trace options of ``overprov simulate`` and ``overprov plan``: a block trace replayed as
the workload (the core's ``trace`` config section; docs/traces.md).

A trace replaces the synthetic workload: its requests are replayed in trace order (reads and
trims as such) after the precondition fill, ``--trace-warmup-passes`` passes unmeasured, then
``--trace-repeat`` measured passes. In a timed run the requests arrive at the trace's own times
× ``--trace-time-scale`` (open loop) unless ``--qd`` asks for a closed loop at that queue depth.
"""

from __future__ import annotations

import argparse
from typing import Any

from overprov import engine, units
from overprov.errors import ConfigError

__all__ = ["add_trace_options", "apply", "trace_path"]

#: Synthetic-workload options that a trace replaces: (attribute, option).
_SYNTHETIC = (
    ("workload", "--workload"),
    ("random_map", "--random-map"),
    ("zones_scattered", "--zones-scattered"),
    ("span", "--span"),
    ("read_pct", "--read-pct"),
    ("trim_pct", "--trim-pct"),
    ("bs", "--bs"),
    ("bssplit", "--bssplit"),
    ("hot", "--hot"),
    ("zones", "--zones"),
    ("zipf_theta", "--zipf-theta"),
    ("drive_writes", "--drive-writes"),
    ("warmup", "--warmup"),
    ("open_iops", "--open-iops"),
)


def add_trace_options(p: argparse.ArgumentParser, *, with_skip: bool = True) -> None:
    """The ``--trace*`` options, in a group of their own."""
    t = p.add_argument_group("block trace replay (docs/traces.md)")
    t.add_argument(
        "--trace",
        metavar="FILE",
        help="replay this block trace as the workload (blkparse, fio iolog, MSR, SYSTOR, "
        "Alibaba, Tencent, MQSim or our CSV; detected from its first line)",
    )
    t.add_argument(
        "--trace-format",
        choices=engine.choices("trace.format"),
        help="the trace's format (default: detected)",
    )
    t.add_argument(
        "--trace-fold",
        choices=("modulo", "scale"),
        help="fold the trace's addresses onto the drive: page mod user pages (default; keeps "
        "locality) or scaled by the trace's highest address (keeps the layout)",
    )
    t.add_argument(
        "--trace-device",
        type=units.COUNT_OR_ZERO,
        metavar="N",
        help="replay only device/volume N (multi-volume traces; blkparse: major<<20|minor)",
    )
    t.add_argument(
        "--trace-time-scale",
        type=units.POSITIVE,
        metavar="X",
        help="timed runs: multiply the trace's inter-arrival times by X (0.5 = twice as fast)",
    )
    t.add_argument(
        "--trace-repeat",
        type=units.COUNT,
        metavar="N",
        help="measured passes over the trace (default 1)",
    )
    t.add_argument(
        "--trace-warmup-passes",
        type=units.COUNT_OR_ZERO,
        metavar="N",
        help="passes over the trace after the fill and before measuring (default 0)",
    )
    if with_skip:
        t.add_argument(
            "--skip-bad-lines",
            action="store_true",
            help="skip and count trace lines that do not parse (default: the first is an error "
            "naming file and line)",
        )


def trace_path(args: argparse.Namespace) -> str | None:
    return getattr(args, "trace", None)


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ``trace`` config section the options give (empty without ``--trace``)."""
    if not trace_path(args):
        given = [
            o
            for a, o in (
                ("trace_format", "--trace-format"),
                ("trace_fold", "--trace-fold"),
                ("trace_device", "--trace-device"),
                ("trace_time_scale", "--trace-time-scale"),
                ("trace_repeat", "--trace-repeat"),
                ("trace_warmup_passes", "--trace-warmup-passes"),
            )
            if getattr(args, a, None) is not None
        ]
        if getattr(args, "skip_bad_lines", False):
            given.append("--skip-bad-lines")
        if given:
            raise ConfigError(f"{given[0]}: only with --trace FILE")
        return {}
    for attr, option in _SYNTHETIC:
        value = getattr(args, attr, None)
        if value is not None and value is not False:
            raise ConfigError(
                f"{option}: the trace is the workload; with --trace use --trace-repeat, "
                "--trace-warmup-passes and --trace-time-scale"
            )
    t: dict[str, Any] = {"path": args.trace}
    for attr, key in (
        ("trace_format", "format"),
        ("trace_fold", "fold"),
        ("trace_device", "device"),
        ("trace_time_scale", "time_scale"),
        ("trace_repeat", "repeat"),
        ("trace_warmup_passes", "warmup_passes"),
    ):
        value = getattr(args, attr, None)
        if value is not None:
            t[key] = value
    if getattr(args, "skip_bad_lines", False):
        t["skip_bad_lines"] = True
    return t


def apply(cfg: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """``cfg`` with the trace section of the options; a timed trace run is an open loop at the
    trace's arrival times unless ``--qd`` was given."""
    section = overrides(args)
    if not section:
        return cfg
    out = {**cfg, "trace": {**cfg.get("trace", {}), **section}}
    timing = out.get("timing") or {}
    if timing.get("enabled") and getattr(args, "qd", None) is None:
        out["timing"] = {**timing, "host": {**timing.get("host", {}), "mode": "open"}}
    return out
