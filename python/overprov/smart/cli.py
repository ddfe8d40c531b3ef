"""``overprov smart``: the command line and its text and JSON output."""

from __future__ import annotations

import argparse
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from overprov.options import add_json_option, text_stream
from overprov.outputs import check_json_output, document, write_json
from overprov.smart.device import snapshot_from_target
from overprov.smart.fdp import add_fdp_events_options
from overprov.smart.nvme_logs import add_nvme_log_source_option
from overprov.smart.snapshot import SmartDataError, Snapshot, bytes_text
from overprov.smart.tables import vendors
from overprov.smart.wear import DeltaReport, LifetimeReport, compare, lifetime_report

# ---------------------------------------------------------------------------------------------
# Text and JSON output


_KIND_TEXT = {"ssd": "SSD", "hdd": "hard disk", "unknown": "drive of unknown type"}


def _describe(snap: Snapshot) -> str:
    bits = [snap.model or "unknown model"]
    if snap.model_family:
        bits[0] += f" ({snap.model_family})"
    kind = _KIND_TEXT[snap.kind]
    if snap.protocol:
        kind = f"{snap.protocol} {kind}"
    if snap.kind == "hdd" and snap.rotation_rate_rpm:
        kind += f", {snap.rotation_rate_rpm} rpm"
    bits.append(kind)
    if snap.capacity_bytes:
        bits.append(bytes_text(snap.capacity_bytes))
    if snap.power_on_hours is not None:
        bits.append(
            f"{snap.power_on_hours:,} power-on hours ({snap.power_on_hours / 24:,.0f} days)"
        )
    return ", ".join(bits)


def format_lifetime(rep: LifetimeReport) -> str:
    s = rep.snapshot
    lines = [f"{s.source}", f"  drive: {_describe(s)}"]
    if s.host_writes is not None:
        total = bytes_text(rep.host_bytes) if rep.host_bytes is not None else "?"
        lines.append(f"  host writes: {total} ({s.host_writes.source})")
    else:
        lines.append("  host writes: not available for this drive")
    if s.kind == "hdd":
        lines.append(
            "  not an SSD: this is a hard disk; write amplification, NAND wear and "
            "over-provisioning do not apply"
        )
    else:
        c = s.waf_counters
        if c is not None and rep.waf is not None:
            parts = " + ".join(f"{k} = {v:,}" for k, v in c.parts.items())
            lines.append(f"  NAND writes: {parts}")
            lines.append(f"  lifetime WAF: {rep.waf:.3f} = {c.formula} [{c.vendor}]")
            if c.note:
                lines.append(f"    ({c.note})")
        elif rep.waf_implausible is not None:
            lines.append(f"  lifetime WAF: implausible: {rep.waf_implausible}")
        elif c is not None:
            lines.append("  lifetime WAF: no host writes yet")
        elif rep.waf_estimate is not None:
            lines.append(
                "  lifetime WAF: not available for this drive (no NAND-write counter); "
                f"estimate ≈ {rep.waf_estimate:.2f} from the average erase count (see note)"
            )
        else:
            lines.append("  lifetime WAF: not available for this drive")
        if s.percentage_used is not None:
            lines.append(
                f"  percentage used: {s.percentage_used:g} % of rated endurance "
                f"({s.percentage_used_source})"
            )
        else:
            lines.append("  percentage used: not available for this drive")
        if s.avg_erase_count is not None:
            lines.append(
                f"  average P/E cycles: {s.avg_erase_count:,} ({s.avg_erase_count_source})"
            )
    if rep.host_bytes_per_day is not None:
        rate = f"  write rate: {bytes_text(rep.host_bytes_per_day)}/day"
        if rep.drive_writes_per_day is not None:
            rate += f" = {rep.drive_writes_per_day:.3f} drive writes per day"
        lines.append(rate + " (lifetime average over power-on hours)")
    if s.kind != "hdd":
        e = rep.endurance
        if e.remaining_percent is not None:
            lines.append(f"  remaining endurance: {e.remaining_percent:g} % of rated life")
            if e.remaining_host_bytes is not None and e.days_left is not None:
                lines.append(
                    f"    ≈ {bytes_text(e.remaining_host_bytes)} more host writes at this WAF"
                )
            elif e.remaining_host_bytes is not None:
                lines.append(
                    f"    > {bytes_text(e.remaining_host_bytes)} more host writes at this WAF"
                )
        lines.append(f"  days left: {e.explanation}")
    for note in (*s.notes, *rep.notes):
        if s.kind == "hdd" and note.startswith("hard disk"):
            continue
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def format_delta(rep: DeltaReport) -> str:
    lines = [
        f"between {rep.earlier.source}",
        f"    and {rep.later.source}",
        f"  drive: {_describe(rep.later)}",
    ]
    if rep.hours is not None:
        unit = "hour" if rep.hours == 1 else "hours"
        lines.append(f"  interval: {rep.hours:,} power-on {unit} ({rep.hours / 24:,.1f} days)")
    if rep.host_bytes is not None:
        lines.append(f"  host writes in the interval: {bytes_text(rep.host_bytes)}")
    if rep.waf is not None and rep.later.waf_counters is not None:
        lines.append(f"  WAF in the interval: {rep.waf:.3f} = Δ{rep.later.waf_counters.formula}")
    elif rep.waf_implausible is not None:
        lines.append(f"  WAF in the interval: implausible: {rep.waf_implausible}")
    elif rep.later.kind != "hdd":
        lines.append("  WAF in the interval: not available for this drive")
    if rep.host_bytes_per_day is not None:
        lines.append(f"  write rate: {bytes_text(rep.host_bytes_per_day)}/day")
    if rep.percentage_used_change is not None:
        lines.append(f"  percentage used: +{rep.percentage_used_change:g} points")
    if rep.days_left is not None:
        lines.append(
            f"  days left at this interval's rate: about {rep.days_left:,.0f} days "
            f"({rep.days_left / 365:.1f} years)"
        )
    elif rep.percentage_used_change and rep.days_left_lifetime is not None:
        lines.append(
            "  days left at this interval's rate: not given (a change of one whole-percent "
            "point is within the indicator's rounding; see note)"
        )
        lines.append(
            f"  days left at the later snapshot's lifetime rate: about "
            f"{rep.days_left_lifetime:,.0f} days ({rep.days_left_lifetime / 365:.1f} years)"
        )
    for note in rep.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, float) and (math.isnan(obj) or math.isinf(obj)):
        return None
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    return obj


def report_to_dict(rep: LifetimeReport | DeltaReport) -> dict[str, Any]:
    out = asdict(rep)
    if isinstance(rep, LifetimeReport) and rep.snapshot.host_writes is not None:
        out["snapshot"]["host_writes"]["bytes"] = rep.snapshot.host_writes.bytes
    out["kind"] = "lifetime" if isinstance(rep, LifetimeReport) else "delta"
    return _jsonable(out)


# ---------------------------------------------------------------------------------------------
# CLI: overprov smart


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "smart",
        help="WAF, wear and days left from SMART (smartctl -j), for a device or saved files",
        description=(
            "Read write amplification (WAF = NAND bytes written / host bytes written) and wear "
            "from SMART. TARGET is a device (smartctl -j -a is run; needs root) or a file "
            "saved with 'smartctl -j -a DEVICE > FILE.json'. With one target: lifetime WAF, "
            "percentage of rated endurance used, write rate and days left at that rate. With "
            "two snapshots of the same drive (files taken some time apart, or a file and the "
            "device now): WAF and wear rate between them. NVMe's standard log has no NAND "
            "counter, so an NVMe device is also asked for the logs that have one (nvme-cli), "
            "and --nvme-log FILE reads them saved; --all reads every SSD of the machine; hard "
            "disks are recognised and reported as not SSDs."
        ),
        epilog=(
            "Units: GB/TB are decimal (10^9/10^12 bytes). Host writes come from the NVMe log "
            "(data units of 512,000 bytes), the ATA device statistics, or vendor attributes; "
            "vendors with counters in the table (overprov/data/smart_vendors.toml): "
            + ", ".join(vendors())
            + ". Days left = power-on days × (100 − used %) / used %."
        ),
    )
    p.add_argument(
        "targets",
        nargs="*",
        metavar="TARGET",
        help="a device such as /dev/sda or /dev/nvme0, or a smartctl -j JSON file; give two "
        "snapshots of one drive for the WAF between them; an NVMe device is also asked for "
        "its NAND-write logs (nvme-cli, docs/smart-nvme.md)",
    )
    add_json_option(p, "the report")
    p.add_argument(
        "--all",
        action="store_true",
        help="every SSD of this machine (non-rotational disks in /sys/block), one table",
    )
    p.add_argument(
        "--nvme-log",
        type=Path,
        metavar="FILE",
        help="a saved nvme-cli NAND-write log (OCP C0h, Endurance Group, Intel CAh, vendor "
        "logs; docs/smart-nvme.md) instead of a TARGET",
    )
    p.add_argument(
        "--smart-log",
        type=Path,
        metavar="FILE",
        help="with --nvme-log: the drive's standard SMART log saved at the same time",
    )
    add_nvme_log_source_option(p)
    add_fdp_events_options(p)
    p.add_argument("--nvme", default="nvme", metavar="PATH", help="nvme-cli executable")
    p.add_argument(
        "--smartctl",
        default="smartctl",
        metavar="PATH",
        help="smartctl executable for devices (default: smartctl on PATH)",
    )
    p.set_defaults(func=run)  # overprov.smart.command replaces it with its own dispatch


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    targets: list[str] = args.targets
    if len(targets) > 2:
        raise SmartDataError(
            f"give one target, or two snapshots of the same drive; got {len(targets)}: "
            + ", ".join(targets)
        )
    snaps = [snapshot_from_target(t, args.smartctl) for t in targets]
    rep = lifetime_report(snaps[0]) if len(snaps) == 1 else compare(snaps[0], snaps[1])
    text = format_lifetime(rep) if isinstance(rep, LifetimeReport) else format_delta(rep)
    print(text, file=text_stream(args))
    if args.json:
        write_json(document("smart", report_to_dict(rep)), args.json)
    return 0
