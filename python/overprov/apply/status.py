"""``overprov status DEVICE``: the device's over-provisioning situation now. Reads only.

Shows what the host can see of the OP: native vs current max sectors (ATA HPA/AMAX via
``hdparm -N``), namespace size vs total/unallocated NVM capacity (NVMe), the unpartitioned tail,
and whether the device takes discard (without it, an unpartitioned tail that was once written
is not OP). Total ρ = (T−U)/U is an estimate: T is assumed to be the native capacity in GiB
(7.37 % hidden OP); the drive's real NAND is not visible to the host.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

from overprov import blockdev, gpt
from overprov.apply.hpa import read_max_sectors
from overprov.apply.nvme import controller_path, id_ctrl, id_ns, namespace_id
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.capacity import GB, HIDDEN_OP
from overprov.errors import ConfigError, OverprovError
from overprov.options import add_json_option, text_stream
from overprov.outputs import check_json_output, document, percent_names, write_json


def _partitions(info: DeviceInfo) -> tuple[list[dict[str, Any]], int | None, str]:
    """(partitions, end of the last one in bytes, source). On-disk GPT when there is one
    (the kernel may not parse tables), else the kernel's view."""
    lss = info.logical_sector_bytes
    if info.partition_table == "gpt":
        try:
            table = gpt.read_gpt(info.path, lss)
        except OSError:
            table = None
        if table is not None:
            parts = [
                {
                    "number": p.number,
                    "start_bytes": p.first_lba * lss,
                    "size_bytes": (p.last_lba - p.first_lba + 1) * lss,
                    "name": p.name,
                }
                for p in table.partitions
            ]
            end = max((p["start_bytes"] + p["size_bytes"] for p in parts), default=None)
            return parts, end, "GPT read from the device"
    parts = [
        {
            "number": i + 1,
            "node": p.path,
            "start_bytes": p.start_bytes or 0,
            "size_bytes": p.size_bytes,
        }
        for i, p in enumerate(info.partitions)
    ]
    end = max((p["start_bytes"] + p["size_bytes"] for p in parts), default=None)
    return parts, end, "kernel partitions"


def device_status(path: str, *, runner: Runner = run_tool) -> dict[str, Any]:
    info = blockdev.identify(path, runner=runner)
    if info.is_partition:
        raise ConfigError(f"device: {info.path} is a partition; give /dev/{info.parent}")
    lss = info.logical_sector_bytes
    in_use, _ = blockdev.refusal_reasons(info, allow_hdd=True)
    out: dict[str, Any] = {
        "device": info.path,
        "model": info.model,
        "serial": info.serial,
        "size_bytes": info.size_bytes,
        "logical_sector_bytes": lss,
        "physical_sector_bytes": info.physical_sector_bytes,
        "rotational": info.rotational,
        "discard": {
            "supported": info.supports_discard,
            "max_bytes": info.discard_max_bytes,
            "granularity_bytes": info.discard_granularity_bytes,
        },
        "write_cache": info.write_cache,
        "signatures": list(info.signatures),
        "partition_table": info.partition_table,
        "in_use": in_use,
    }
    native_bytes = info.size_bytes
    visible_bytes = info.size_bytes

    max_sectors, reason = read_max_sectors(info.path, runner)
    if max_sectors is not None:
        out["hpa"] = {
            "current_sectors": max_sectors.current,
            "native_sectors": max_sectors.native,
            "hidden_sectors": max_sectors.hidden,
            "hidden_bytes": max_sectors.hidden * lss,
            "accessible_max_address": max_sectors.accessible_max_address,
        }
        native_bytes = max_sectors.native * lss
    else:
        out["hpa"] = {"available": False, "reason": reason}

    if info.is_nvme:
        try:
            ctrl_path = controller_path(info)
            ctrl = id_ctrl(ctrl_path, runner)
            ns = id_ns(ctrl_path, namespace_id(info), runner)
            out["nvme"] = {
                "controller": ctrl_path,
                "namespace_management": ctrl.namespace_management,
                "oacs": ctrl.oacs,
                "tnvmcap_bytes": ctrl.tnvmcap,
                "unvmcap_bytes": ctrl.unvmcap,
                "namespace": ns.nsid,
                "namespace_bytes": ns.size_bytes,
                "lba_bytes": ns.lba_bytes,
            }
            if ctrl.tnvmcap:
                native_bytes = ctrl.tnvmcap
        except OverprovError as exc:
            out["nvme"] = {"available": False, "reason": str(exc)}

    parts, last_end, source = _partitions(info)
    out["partitions"] = parts
    out["partitions_source"] = source if parts else None
    if last_end is not None:
        reserved = gpt.gpt_backup_sectors(lss) * lss if info.partition_table == "gpt" else 0
        tail = max(info.size_bytes - last_end - reserved, 0)
        out["unpartitioned_tail_bytes"] = tail
        visible_bytes = last_end
    else:
        out["unpartitioned_tail_bytes"] = None

    unused = native_bytes - visible_bytes
    out["layout"] = {
        "native_bytes": native_bytes,
        "usable_bytes": visible_bytes,
        "extra_op": unused / native_bytes if native_bytes else 0.0,
        "total_rho_estimate": (native_bytes * (1 + HIDDEN_OP)) / visible_bytes - 1
        if visible_bytes
        else None,
    }
    return out


def format_status(st: dict[str, Any]) -> str:
    def gb(n: int) -> str:
        return f"{n:,} bytes ({n / GB:.2f} GB)"

    lines = [
        f"{st['device']}: {st['model'] or 'unknown model'}"
        + (f", serial {st['serial']}" if st["serial"] else "")
    ]
    lines.append(
        f"  capacity: {gb(st['size_bytes'])}, sectors {st['logical_sector_bytes']} B logical / "
        f"{st['physical_sector_bytes']} B physical, "
        f"{'rotational' if st['rotational'] else 'non-rotational'}"
    )
    d = st["discard"]
    lines.append(
        f"  discard: supported (max {d['max_bytes']:,} bytes per request, granularity "
        f"{d['granularity_bytes']:,} bytes)"
        if d["supported"]
        else "  discard: NOT supported — space left unused only counts as OP if never written"
    )
    if st["write_cache"]:
        lines.append(f"  write cache: {st['write_cache']}")
    hpa = st["hpa"]
    if "native_sectors" in hpa:
        kind = "AMAX" if hpa["accessible_max_address"] else "HPA"
        lines.append(
            f"  {kind}: max sectors = {hpa['current_sectors']:,}/{hpa['native_sectors']:,} "
            f"(current/native), hidden {hpa['hidden_bytes']:,} bytes"
        )
    else:
        lines.append(f"  HPA: unavailable — {hpa['reason']}")
    nv = st.get("nvme")
    if nv is not None:
        if nv.get("available") is False:
            lines.append(f"  NVMe: unavailable — {nv['reason']}")
        else:
            lines.append(
                f"  NVMe {nv['controller']}: namespace {nv['namespace']} = "
                f"{gb(nv['namespace_bytes'])}; total NVM capacity {gb(nv['tnvmcap_bytes'])}, "
                f"unallocated {gb(nv['unvmcap_bytes'])}; namespace management "
                f"{'supported' if nv['namespace_management'] else 'NOT supported'} "
                f"(OACS {nv['oacs']:#x})"
            )
    if st["partition_table"]:
        lines.append(
            f"  partition table: {st['partition_table']} "
            f"({st['partitions_source'] or 'no partitions'})"
        )
    else:
        lines.append("  partition table: none")
    found = [sig for sig in st["signatures"] if sig not in blockdev.PARTITION_TABLE_TYPES]
    if found:
        lines.append(f"  signatures: {', '.join(found)} (data on it: apply erases it)")
    for p in st["partitions"]:
        name = f" {p['name']!r}" if p.get("name") else ""
        lines.append(
            f"    {p['number']}:{name} {p['size_bytes']:,} bytes from byte {p['start_bytes']:,}"
        )
    if st["unpartitioned_tail_bytes"] is not None:
        tail = st["unpartitioned_tail_bytes"]
        lines.append(
            f"  unpartitioned tail: {tail:,} bytes "
            f"({tail / st['size_bytes'] * 100:.2f} % of the device)"
        )
    lay = st["layout"]
    lines.append(
        f"  OP from the layout: {lay['extra_op'] * 100:.2f} % of the native "
        f"{lay['native_bytes']:,} bytes is not usable by the host"
        + ("" if st["partitions"] else " (no partitions: everything is addressable)")
    )
    if lay["total_rho_estimate"] is not None:
        lines.append(
            f"  total OP ρ = (T−U)/U ≈ {lay['total_rho_estimate'] * 100:.1f} % "
            "(T = native capacity in GiB, i.e. 7.37 % hidden OP assumed; U = usable bytes)"
        )
    for reason in st["in_use"]:
        lines.append(f"  in use: {reason}")
    return "\n".join(lines)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "status",
        help="show a device's over-provisioning now (HPA, NVMe namespace, tail, discard)",
        description=(
            "Show the over-provisioning a device has now: native vs current max sectors "
            "(hdparm -N), NVMe namespace vs total NVM capacity, the unpartitioned tail and "
            "discard support. Reads only."
        ),
    )
    p.add_argument(
        "device", metavar="DEVICE", help="a whole device, e.g. /dev/sdb or /dev/nvme0n1 (only read)"
    )
    add_json_option(p, "the status")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    st = device_status(args.device)
    print(format_status(st), file=text_stream(args))
    if args.json:
        write_json(
            document("status", percent_names(json.loads(json.dumps(st, default=asdict)))), args.json
        )
    return 0
