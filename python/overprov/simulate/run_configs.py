"""The configs a ``simulate`` command line gives (``simulate/cli.py`` runs them): the preset,
then the TOML file, then the flags (each flag one row of :data:`FLAG_FIELDS`, flag → config
field), one config per OP level given (:func:`sweep_configs`); or ``--demo``'s fixed sweep
(:func:`demo_configs`)."""

from __future__ import annotations

import argparse
from typing import Any

from overprov import engine, placement_options, presets
from overprov.engine import merge
from overprov.errors import ConfigError
from overprov.simulate import trace_options
from overprov.simulate.host import host_overrides
from overprov.workload_options import pattern_overrides_from_args

#: The demo: a drive sold as 16 GB with 16 GiB of NAND, the NAS vendor's extra-OP phases.
DEMO_ADVERTISED_BYTES = 16_000_000_000
DEMO_EXTRA_OP = (0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0)


#: Each flag (argparse dest) and the config field it sets; values arrive parsed (4k = 4096).
FLAG_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("page_size", ("geometry", "page_size_bytes")),
    ("pages_per_block", ("geometry", "pages_per_block")),
    ("physical_blocks", ("geometry", "physical_blocks")),
    ("physical_bytes", ("geometry", "physical_bytes")),
    ("advertised", ("geometry", "advertised_bytes")),
    ("user_pages", ("geometry", "user_pages")),
    ("user_bytes", ("geometry", "user_bytes")),
    ("policy", ("ftl", "policy")),
    ("d", ("ftl", "d_choices")),
    ("gc_free_blocks", ("ftl", "gc_free_blocks")),
    ("gc_frontier", ("ftl", "gc_frontier")),
    ("gc_trigger", ("ftl", "gc_trigger")),
    ("streams", ("ftl", "host_streams")),
    ("wear_dynamic", ("wear", "dynamic")),
    ("static_wl", ("wear", "static_threshold")),
    ("random_map", ("workload", "random_map")),
    ("zones_scattered", ("workload", "zones_scattered")),
    ("span", ("workload", "span_percent")),
    ("read_pct", ("workload", "read_percent")),
    ("trim_pct", ("workload", "trim_percent")),
    ("bs", ("workload", "request_bytes")),
    ("bssplit", ("workload", "bssplit")),
    ("precondition", ("precondition", "kind")),
    ("drive_writes", ("run", "drive_writes")),
    ("warmup", ("run", "warmup_drive_writes")),
    ("interval_pct", ("run", "interval_percent")),
    ("seed", ("run", "seed")),
    ("open_iops", ("timing", "host", "arrival_iops")),
    ("write_through", ("timing", "host", "write_through")),
    ("duration", ("timing", "duration_s")),
    ("interval_s", ("timing", "interval_s")),
) + placement_options.FLAG_FIELDS


def _put(tree: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        tree = tree.setdefault(key, {})
    tree[path[-1]] = value


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The config fields the flags set (:data:`FLAG_FIELDS`, the workload's shape flags, the
    host layer); any ``timing`` field, or ``--timed``, turns simulated time on."""
    over: dict[str, Any] = {}
    for dest, path in FLAG_FIELDS:
        value = getattr(args, dest)
        if value is not None and value is not False:
            _put(over, path, value)
    if args.open_iops is not None:
        _put(over, ("timing", "host", "mode"), "open")
    if args.qd:  # a list is swept by qd_sweep.expand; each run starts from the first depth
        _put(over, ("timing", "host", "queue_depth"), args.qd[0])
    workload = pattern_overrides_from_args(args)
    if workload:
        over.setdefault("workload", {}).update(workload)
    placement = placement_options.placement_overrides(args)
    if placement:
        over.setdefault("placement", {}).update(placement)
    host = host_overrides(args)
    if host:
        over.setdefault("timing", {}).setdefault("host", {}).update(host)
    if "timing" in over or args.timed:
        over.setdefault("timing", {})["enabled"] = True
    return over


def config_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The config one run starts from: the preset (if any), then the TOML file, then flags."""
    cfg: dict[str, Any] = {}
    if args.preset:
        cfg, _ = presets.preset_config(args.preset, args.scale)
    if args.config:
        cfg = merge(cfg, engine.load_toml(args.config))
    cfg = trace_options.apply(merge(cfg, flag_overrides(args)), args)
    if args.d is not None and cfg.get("ftl", {}).get("policy", "greedy") != "d-choices":
        raise ConfigError("--d: only with --policy d-choices (the sample it draws); leave it out")
    return cfg


def sweep_configs(base: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    """One config per OP value given with --rho (total ρ, a fraction) or --extra-op
    (percent of the advertised capacity)."""
    if args.rho and args.extra_op:
        raise ConfigError("--rho and --extra-op: give one way of stating OP, not both")
    geo = base.get("geometry", {})
    if args.advertised is not None and (
        args.rho or (not args.extra_op and geo.get("extra_op_percent") is None)
    ):
        raise ConfigError(
            "--advertised: only with --extra-op (extra OP is a share of the advertised "
            "capacity); with --rho give --user-bytes or --physical-bytes"
        )
    if args.rho:
        values = args.rho
        # ρ with the user size fixed (or the physical size, when that is what was given)
        key, clear = "op_ratio", ("extra_op_percent",)
        if any(geo.get(k) is not None for k in ("physical_blocks", "physical_bytes")):
            clear += ("user_pages", "user_bytes")
    elif args.extra_op:
        values = args.extra_op
        # extra OP fixes the drive (physical and advertised size) and shrinks the user space
        key, clear = "extra_op_percent", ("op_ratio", "user_pages", "user_bytes")
    else:
        return [base]
    for attr, field in (("user_pages", "user_pages"), ("user_bytes", "user_bytes")):
        if getattr(args, attr, None) is not None and field in clear:
            given = "--rho with the physical size" if args.rho else "--extra-op"
            raise ConfigError(
                f"--{attr.replace('_', '-')}: {given} sets the user capacity; give one of them"
            )
    configs = []
    for v in values:
        g = {k: x for k, x in geo.items() if k not in clear}
        g[key] = v
        configs.append({**base, "geometry": g})
    return configs


def demo_configs() -> list[dict[str, Any]]:
    return [
        {
            "geometry": {
                "advertised_bytes": DEMO_ADVERTISED_BYTES,
                "extra_op_percent": x,
                "pages_per_block": 256,
            },
            "run": {"warmup_drive_writes": 2.0, "drive_writes": 2.0, "interval_percent": 5.0},
        }
        for x in DEMO_EXTRA_OP
    ]
