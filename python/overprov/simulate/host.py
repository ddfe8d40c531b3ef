"""``overprov simulate``'s host layer: several closed-loop jobs (fio's ``numjobs``, each with
``--qd`` as its iodepth) and arrays of identical simulated drives (md RAID-0, RAID-1, RAID-10):
the options, the ``timing.host`` fields they set, and the table of per-job and per-member
figures. The model is the core's ``host`` module (docs/simulator.md)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from overprov import units
from overprov.errors import ConfigError

__all__ = ["add_host_options", "format_host_table", "host_overrides"]

RAID_LEVELS = ("0", "1", "10")


def add_host_options(group: argparse._ArgumentGroup) -> None:
    """``--numjobs``, ``--raid``, ``--members``, ``--chunk-bytes`` (each implies --timed)."""
    group.add_argument(
        "--numjobs",
        type=units.COUNT,
        metavar="N",
        help="N closed-loop jobs, each with its own random stream and --qd requests "
        "outstanding (fio's numjobs × iodepth); default 1",
    )
    group.add_argument(
        "--raid",
        choices=RAID_LEVELS,
        help="an array of --members identical drives: 0 stripes by chunk, 1 mirrors (a write "
        "completes on its slowest member, a read goes to the member with the fewest "
        "outstanding requests), 10 stripes over mirrored pairs (md's near-2 layout)",
    )
    group.add_argument(
        "--members", type=units.COUNT, metavar="N", help="drives in the --raid array (default 2)"
    )
    group.add_argument(
        "--chunk-bytes",
        type=units.BLOCK_SIZE,
        metavar="SIZE",
        help="stripe chunk of RAID-0 and RAID-10, fio style (64k); default 512k as mdadm",
    )


def host_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ``timing.host`` fields the options set (empty when none is given)."""
    host: dict[str, Any] = {}
    if args.numjobs is not None:
        host["numjobs"] = args.numjobs
    array: dict[str, Any] = {}
    if args.raid is not None:
        array["raid"] = args.raid
    if args.members is not None:
        array["members"] = args.members
    if args.chunk_bytes is not None:
        array["chunk_bytes"] = args.chunk_bytes
    if array and args.raid is None:
        raise ConfigError("--members and --chunk-bytes describe an array: give --raid 0, 1 or 10")
    if array:
        host["array"] = array
    return host


def _fmt(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _describe(h: dict[str, Any]) -> str:
    jobs = f"{h['numjobs']} job{'s' if h['numjobs'] > 1 else ''} × QD{h['iodepth']}"
    if h["raid"] == "none":
        return f"{jobs} on one drive"
    chunk = f", {h['chunk_bytes'] // 1024} KiB chunks" if h.get("chunk_bytes") else ""
    return f"{jobs}; RAID-{h['raid']} of {h['members']} drives{chunk}"


def format_host_table(reports: Sequence[dict[str, Any]]) -> str | None:
    """Per run: steady IOPS and its spread over the jobs, each member's WAF and the array's."""
    rows = [r for r in reports if r.get("host")]
    if not rows:
        return None
    h0 = rows[0]["host"]
    lines = [
        "",
        f"host — {_describe(h0)}; reads: {h0['read_policy']}",
        "member WAF: NAND / bytes that member was asked to write; array WAF: NAND bytes of all "
        "members / host bytes written to the array",
        f"{'extra OP':>9} {'array GiB':>10} {'steady IOPS':>12} {'per job min':>12} "
        f"{'per job max':>12} {'member WAF':>18} {'array WAF':>10}",
    ]
    for rep in rows:
        h, t = rep["host"], rep.get("timed") or {}
        extra = rep["config"]["geometry"].get("extra_op_percent")
        per_job = [j["steady_iops"] for j in h["jobs"] if j["steady_iops"] is not None]
        wafs = [(m.get("measured") or {}).get("waf") for m in h["member_figures"]]
        member = ", ".join(_fmt(w, ".3f") for w in wafs[:4]) + (", …" if len(wafs) > 4 else "")
        steady = t.get("steady_iops")
        lines.append(
            f"{('-' if extra is None else f'{extra:g}%'):>9} "
            f"{h['array_user_bytes'] / 2**30:>10.2f} "
            f"{(format(steady, '>12,.0f') if steady is not None else 'not steady'):>12} "
            f"{_fmt(min(per_job) if per_job else None, '>12,.0f')} "
            f"{_fmt(max(per_job) if per_job else None, '>12,.0f')} "
            f"{member:>18} {_fmt(h['array_waf'], '>10.3f')}"
        )
    lines.append("per-job IOPS over the steady window sum to the steady IOPS (--json: host.jobs)")
    return "\n".join(lines)
