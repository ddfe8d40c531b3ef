"""``overprov drive show NAME|FILE[@SCALE]``: a drive's parameters, the figures that follow from
them, and where its values come from; with ``@SCALE`` (as profile, qualify and plan take it:
``sim:NAME@SCALE``) also the size of the drive scaled so."""

from __future__ import annotations

import argparse
import os
from typing import Any

from overprov import presets
from overprov.options import HelpFormatter, add_json_option, examples, text_stream
from overprov.outputs import check_json_output, document, write_json

MB = 1e6


def _flatten(d: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in d.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(_flatten(value, path + "."))
        else:
            out.append((path, value))
    return out


def derived(name: str) -> dict[str, Any]:
    """Figures that follow from the drive's parameters at full size, 0% extra OP."""
    drive = presets.get(name)
    resolved = presets.check(presets._build(drive, 1.0))
    cfg, geo = resolved["config"], resolved["geometry"]
    timing = cfg["timing"]
    nand, ctrl, host = timing["nand"], timing["controller"], timing["host"]
    dies = nand["channels"] * nand["dies_per_channel"]
    unit = geo["page_size_bytes"]
    nand_write_bytes_s = dies * nand["flash_page_bytes"] / (nand["program_us"] * 1e-6)
    per_write_us = ctrl["command_us"] + ctrl["data_us_per_4kib"] * -(-unit // 4096)
    per_write_us += ctrl["map_update_us"]
    out: dict[str, Any] = {
        "advertised_bytes": drive["advertised_bytes"],
        "raw_nand_bytes": int(drive.get("raw_nand_bytes") or presets.physical_bytes(drive)),
        "ftl_nand_bytes": int(presets.physical_bytes(drive)),
        "rho_at_0_extra_op": resolved["op_ratio"],
        "dies": dies,
        "nand_write_mb_s": nand_write_bytes_s / MB,
        "nand_bound_4k_write_iops_at_waf_1": nand_write_bytes_s / unit,
        "link_bound_4k_iops": host["link_mb_s"] * MB / 4096,
        "controller_ceiling_4k_write_iops": (
            ctrl["contexts"] * 1e6 / per_write_us if per_write_us > 0 else None
        ),
    }
    if timing["slc"]["enabled"]:
        slc_pages = max(1.0, nand["flash_page_bytes"] / unit / 3) * unit
        out["slc_write_mb_s"] = dies * slc_pages / (timing["slc"]["program_us"] * 1e-6) / MB
    if not timing["buffer"]["power_loss_protected"]:
        flush_us = nand["program_us"] * (1 + timing["flush"]["metadata_flash_pages"])
        out["write_through_flushes_per_s"] = 1e6 / flush_us
    return out


def split_scale(given: str) -> tuple[str, str | None]:
    """``NAME|FILE[@SCALE]`` → (NAME|FILE, SCALE or None), as ``sim:NAME@SCALE`` is read: a
    drive file whose path holds an "@" (a folder named drives@lab) is taken whole, and a scale is
    what follows the last "@" (a path may hold one, a scale never does)."""
    if os.path.isfile(given):
        return given, None
    name, at, scale = given.rpartition("@")
    return (name, scale or None) if at else (given, None)


def scaled(name: str, scale: str) -> dict[str, Any]:
    """The drive ``name`` scaled by ``scale`` (a factor, "1/8", or a NAND size "4GiB";
    ``presets.scale_factor``): its factor, user and NAND bytes, and ρ at 0% extra OP."""
    drive = presets.get(name)
    factor = presets.scale_factor(drive, scale, option=f"{name}@SCALE")
    resolved = presets.check(presets._build(drive, factor))
    geo = resolved["geometry"]
    unit = geo["page_size_bytes"]
    return {
        "scale": scale,
        "factor": factor,
        "user_bytes": int(geo["user_pages"] * unit),
        "nand_bytes": int(geo["blocks"] * geo["pages_per_block"] * unit),
        "blocks": int(geo["blocks"]),
        "rho_at_0_extra_op": resolved["op_ratio"],
    }


def show(given: str) -> str:
    name, scale = split_scale(given)
    drive = presets.get(name)
    lines = [f"drive {name}" + (" (drive file)" if "file" in drive else " (preset)")]
    if drive.get("description"):
        lines.append(f"  {drive['description']}")
    lines.append("")
    lines.append("parameters (full size):")
    lines.append(f"  advertised_bytes = {drive['advertised_bytes']:,}")
    if "physical_bytes" in drive:
        lines.append(f"  physical_bytes = {drive['physical_bytes']:,}")
    for key, value in _flatten(drive.get("config", {})):
        lines.append(f"  {key} = {value!r}")
    lines.append("")
    lines.append("derived (full size, 0% extra OP, 4 KiB writes):")
    d = derived(name)
    fmt = {
        "advertised_bytes": lambda v: f"{v / 1e9:,.1f} GB",
        "raw_nand_bytes": lambda v: f"{v / 2**30:,.1f} GiB ({v:,} bytes)",
        "ftl_nand_bytes": lambda v: f"{v / 2**30:,.1f} GiB used by the FTL (effective native OP)",
        "rho_at_0_extra_op": lambda v: f"ρ = {v:.4f}",
        "nand_write_mb_s": lambda v: f"{v:,.0f} MB/s (dies × flash page / tPROG)",
        "slc_write_mb_s": lambda v: f"{v:,.0f} MB/s in SLC mode",
        "nand_bound_4k_write_iops_at_waf_1": lambda v: f"{v:,.0f} IOPS (divide by WAF)",
        "link_bound_4k_iops": lambda v: f"{v:,.0f} IOPS",
        "controller_ceiling_4k_write_iops": lambda v: (
            "none (no controller costs set)" if v is None else f"{v:,.0f} IOPS at WAF 1"
        ),
        "write_through_flushes_per_s": lambda v: f"{v:,.0f} (no power-loss protection)",
    }
    for key, value in d.items():
        lines.append(f"  {key}: {fmt.get(key, str)(value)}")
    if scale is not None:
        sc = scaled(name, scale)
        lines.append("")
        lines.append(f"scaled (@{scale}: factor {sc['factor']:.6g}, as sim:{given} is simulated):")
        lines.append(
            f"  user_bytes: {sc['user_bytes'] / 2**30:,.3f} GiB ({sc['user_bytes']:,} bytes)"
        )
        lines.append(
            f"  nand_bytes: {sc['nand_bytes'] / 2**30:,.3f} GiB in {sc['blocks']:,} blocks"
        )
        lines.append(f"  rho_at_0_extra_op: ρ = {sc['rho_at_0_extra_op']:.4f}")
    lines.append("")
    lines.append("sources:")
    lines.append("  " + (drive.get("source") or "(none given)").replace("\n", "\n  "))
    for key, note in drive.get("notes", {}).items():
        lines.append(f"  {key}: {note}")
    return "\n".join(lines)


def drive_document(given: str) -> dict[str, Any]:
    """What ``show`` prints, as the body of an ``overprov.drive/1`` document: the drive's
    parameters as its preset or file gives them, the derived figures, the scaled drive (with
    ``@SCALE``, else null) and the sources."""
    name, scale = split_scale(given)
    drive = presets.get(name)
    return {
        "drive": name,
        "scaled": scaled(name, scale) if scale is not None else None,
        "kind": "drive file" if "file" in drive else "preset",
        "file": drive.get("file"),
        "description": drive.get("description"),
        "parameters": {
            "advertised_bytes": drive["advertised_bytes"],
            "physical_bytes": drive.get("physical_bytes"),
            "config": drive.get("config", {}),
        },
        "derived": derived(name),
        "source": drive.get("source"),
        "notes": drive.get("notes", {}),
    }


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "drive",
        help="drive show NAME|FILE[@SCALE]: a drive's parameters, derived figures, sources",
        description="Show a simulated drive: `overprov drive show NAME|FILE[@SCALE]`, a preset "
        "name or a TOML drive file (docs/drives/).",
    )
    sub = p.add_subparsers(dest="drive_command", metavar="ACTION")
    sub.required = True
    s = sub.add_parser(
        "show",
        help="print a drive's parameters, derived figures and sources",
        description="Print a drive's parameters, the figures that follow from them and where "
        "its values come from.",
        epilog=examples(
            "overprov drive show consumer-tlc-sata",
            "overprov drive show consumer-tlc-sata@4GiB",
            "overprov drive show docs/drives/pny-128.toml --json - | jq .derived",
        ),
        formatter_class=HelpFormatter,
    )
    s.add_argument(
        "drive",
        metavar="NAME|FILE[@SCALE]",
        help="preset name or drive file (.toml); @SCALE (a factor, 1/8, or a NAND size such as "
        "4GiB) also shows the drive scaled so, as sim:NAME@SCALE is",
    )
    add_json_option(s, "the drive (schema overprov.drive/1)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_output(getattr(args, "json", None))
    name, scale = split_scale(args.drive)
    presets.get(name, option="NAME|FILE")  # a name that is neither, refused naming it
    print(show(args.drive), file=text_stream(args))
    if getattr(args, "json", None):
        write_json(document("drive", drive_document(args.drive)), args.json)
    return 0
