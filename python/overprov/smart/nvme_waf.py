"""NVMe write amplification: NAND writes from an nvme-cli log, host writes from the same log
or from the standard SMART log.

WAF = NAND bytes written / host bytes written, each counter turned into bytes with the unit the
sources table (``data/nvme_log_sources.toml``) gives for it, and the arithmetic shown. When the
log that counts NAND writes also counts host writes (Endurance Group log, Intel/Solidigm CAh),
both come from that one log; otherwise host writes are the SMART log's ``data_units_written``
× 512,000 bytes. The result is the same report ``overprov smart`` gives for SATA drives
(``overprov.smart.LifetimeReport``), plus the NVMe log it came from.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.blockdev import find_tool, run_tool
from overprov.errors import ToolError
from overprov.smart.cli import format_lifetime, report_to_dict
from overprov.smart.device import ToolRun
from overprov.smart.nvme_logs import (
    KIND_WORDS,
    LogReading,
    NvmeLogError,
    load_sources,
    parse_nvme_log,
    source_by_id,
)
from overprov.smart.nvme_smart_log import NvmeSmartLog, parse_smart_log
from overprov.smart.snapshot import Counter, Snapshot, WafCounters
from overprov.smart.wear import LifetimeReport, lifetime_report

SMART_LOG_COMMAND = ("nvme", "smart-log", "{device}", "-o", "json")


def read_log_text(path: str | Path) -> str:
    """A saved nvme-cli output, read bounded (``overprov.inputs``: size, UTF-8, a regular file)."""
    return inputs.read_text(path, "saved nvme-cli log")


def _host_from_log(reading: LogReading) -> Counter | None:
    host = reading.counter("host")
    if host is None or host.unit_bytes is None:
        return None
    return Counter(
        int(host.count),
        host.unit_bytes,
        f"{reading.source.log_id} {host.field} {host.raw} × {host.unit_bytes:,} B",
        f"{reading.source.id}: {host.field} ({host.where})",
    )


def _unit_words(unit_bytes: int) -> str:
    return "B" if unit_bytes == 1 else f"{unit_bytes:,} B"


def unallocated_capacity(reading: LogReading) -> tuple[int, int] | None:
    """(unallocated, total) bytes of the endurance group, when the log states both."""
    total, free = reading.counter("capacity_total"), reading.counter("capacity_unallocated")
    if total is None or free is None or total.bytes is None or free.bytes is None:
        return None
    return free.bytes, total.bytes


def headroom_notes(reading: LogReading) -> list[str]:
    """The unallocated capacity of the endurance group, said as namespace-level OP headroom."""
    cap = unallocated_capacity(reading)
    if cap is None:
        return []
    free, total = cap
    if total <= 0:
        return ["endurance group capacity 0: no namespace-level OP headroom to report"]
    return [
        f"unallocated capacity: {free:,} B of the endurance group's {total:,} B "
        f"({100 * free / total:.1f}%) belongs to no namespace: the controller can use it as "
        "spare, as extra OP does (namespace-level OP headroom; docs/apply.md sets OP with an "
        "NVMe namespace)"
    ]


def wear_notes(reading: LogReading) -> list[str]:
    """The log's erase counts and spare, said in words; the spread of erase counts between the
    least and most worn block."""
    found = {k: reading.counter(k) for k in ("erase_min", "erase_avg", "erase_max")}
    notes = []
    parts = [f"{k[6:]} {c.count:,} ('{c.field}')" for k, c in found.items() if c is not None]
    if parts:
        notes.append("P/E cycles of the user-data blocks: " + ", ".join(parts))
    lo, hi = found["erase_min"], found["erase_max"]
    if lo is not None and hi is not None and hi.count < lo.count:
        notes.append(
            f"the most-erased block's count ({hi.count:,}) is below the least-erased one's "
            f"({lo.count:,}): the two fields are read as printed, but one of them is not what "
            "its label says"
        )
    for which in ("spare_percent", "spare_blocks"):
        c = reading.counter(which)
        if c is not None:
            notes.append(f"{KIND_WORDS[which]}: {c.count:,} ('{c.field}', {c.unit})")
    return notes


def nvme_snapshot(reading: LogReading, smart: NvmeSmartLog | None) -> Snapshot:
    """A ``smart.Snapshot`` of an NVMe drive whose NAND writes come from ``reading``."""
    nand = reading.counter("nand")
    notes: list[str] = wear_notes(reading)
    host = _host_from_log(reading)
    if host is None and smart is not None:
        host = smart.host_writes
    waf_counters = None
    log_host = reading.counter("host")
    same_unit = all(source_by_id(c).same_unit for c in reading.candidates or (reading.source.id,))
    if nand is None:
        notes.append(
            f"{reading.source.name} has no NAND-write counter: no WAF from it (its wear and "
            "spare counters are shown)"
        )
    elif nand.bytes is None and same_unit and log_host is not None:
        # the log counts both in one unit whose size is not stated: their ratio is the WAF
        waf_counters = WafCounters(
            vendor=reading.source.name,
            nand=int(nand.count),
            host=int(log_host.count),
            unit=f"the log's own unit ({nand.unit})",
            formula=f"({reading.source.log_id} {nand.field}) / ({log_host.field})",
            parts={
                f"{reading.source.log_id} {nand.field}": int(nand.count),
                f"{reading.source.log_id} {log_host.field}": int(log_host.count),
            },
            note="both counters of one log, in one unit whose size in bytes the plugin does "
            "not state: the ratio is the WAF, but neither counter is turned into bytes",
            unit_assumed=True,
        )
    elif nand.bytes is None:
        notes.append(
            f"NAND writes: {reading.source.name} field '{nand.field}' = {nand.raw}, but its "
            f"unit is {nand.unit}, so no byte count and no WAF"
            + (f" ({nand.note})" if nand.note else "")
        )
    elif host is None or host.bytes is None:
        notes.append(
            f"NAND writes: {nand.arithmetic} ({reading.source.name}, '{nand.field}'); this log "
            "has no host-write counter: give the standard SMART log ('nvme smart-log DEVICE "
            "-o json' saved to a file, --smart-log FILE) for host writes and WAF"
        )
    else:
        nand_term = f"{reading.source.log_id} {nand.field}"
        if nand.unit_bytes not in (None, 1):
            nand_term += f" × {_unit_words(nand.unit_bytes)}"
        host_term = host.field if host.unit_bytes == 1 else f"{host.field} × {host.unit_bytes:,} B"
        note = nand.note
        if reading.counter("host") is None:
            note = "; ".join(
                n
                for n in (
                    note,
                    "host writes from the standard SMART log, NAND writes from "
                    f"{reading.source.name}: both must be read at the same time",
                )
                if n
            )
        waf_counters = WafCounters(
            vendor=reading.source.name,
            nand=nand.bytes,
            host=host.bytes,
            unit="bytes",
            formula=f"({nand_term}) / ({host_term})",
            parts={f"{reading.source.log_id} {nand.field}": int(nand.count)},
            note=note,
        )
    if waf_counters is not None and waf_counters.host > 0 and waf_counters.nand < waf_counters.host:
        notes.append(
            f"NAND writes ({waf_counters.nand:,}) are below host writes ({waf_counters.host:,}) "
            "in the same unit: a drive programs at least what the host writes unless it "
            "compresses or deduplicates, so one counter has wrapped, was reset, or counts "
            "something else (a part of the NAND, another window); the ratio is shown, not trusted"
        )
    if waf_counters is not None and waf_counters.host == 0:
        notes.append("host writes are 0: no WAF (nothing to divide by)")
    if len(reading.candidates) > 1:
        notes.append(
            "this output matches the logs " + ", ".join(reading.candidates) + " of the sources "
            "table; read as " + reading.source.id + " (name another with --nvme-log-source)"
        )
    notes += headroom_notes(reading)
    sources = [reading.file] + ([smart.file] if smart is not None else [])
    avg = reading.counter("erase_avg")
    return Snapshot(
        source=" + ".join(sources),
        model=smart.model if smart else None,
        serial=smart.serial if smart else None,
        model_family=None,
        protocol="NVMe",
        kind="ssd",
        rotation_rate_rpm=None,
        capacity_bytes=smart.capacity_bytes if smart else None,
        power_on_hours=smart.power_on_hours if smart else None,
        host_writes=host,
        waf_counters=waf_counters,
        percentage_used=smart.percentage_used if smart else None,
        percentage_used_source=(
            f"{smart.format} percentage used"
            if smart and smart.percentage_used is not None
            else None
        ),
        avg_erase_count=None if avg is None else int(avg.count),
        avg_erase_count_source=None if avg is None else f"{reading.source.id}: {avg.field}",
        notes=tuple(notes),
    )


def _log_dict(reading: LogReading) -> dict[str, Any]:
    s = reading.source
    return {
        "file": reading.file,
        "source": s.id,
        "name": s.name,
        "log_id": s.log_id,
        "command": " ".join(s.command).replace("{device}", "DEVICE"),
        "format": reading.format,
        "citation": s.citation,
        "counters": [asdict(c) for c in reading.counters],
    }


def nvme_report(reading: LogReading, smart: NvmeSmartLog | None) -> dict[str, Any]:
    """The ``overprov smart --json`` lifetime report, with ``nvme_log`` and ``smart_log`` added."""
    rep = lifetime_report(nvme_snapshot(reading, smart))
    out = report_to_dict(rep)
    out["nvme_log"] = _log_dict(reading)
    out["smart_log"] = (
        None
        if smart is None
        else {
            "file": smart.file,
            "format": smart.format,
            "available_spare_percent": smart.available_spare_percent,
        }
    )
    return out


def nvme_waf_from_files(nvme_log: Path, smart_log: Path | None = None) -> dict[str, Any]:
    """WAF and wear from a saved nvme-cli log output and, optionally, a saved SMART log.

    ``smart_log`` is ``nvme smart-log -o json`` (or its text), or ``smartctl -j -a`` JSON of
    the same drive, read at the same time as ``nvme_log``.
    """
    reading = parse_nvme_log(read_log_text(nvme_log), str(nvme_log))
    smart = None
    if smart_log is not None:
        smart = parse_smart_log(read_log_text(smart_log), str(smart_log))
    return nvme_report(reading, smart)


def format_nvme_report(reading: LogReading, smart: NvmeSmartLog | None) -> str:
    """Text report: the NVMe log's counters with their arithmetic, then the lifetime report."""
    rep: LifetimeReport = lifetime_report(nvme_snapshot(reading, smart))
    s = reading.source
    command = " ".join(s.command).replace("{device}", "DEVICE")
    lines = [f"NVMe log: {s.name} (log {s.log_id}, `{command}`, {reading.format})"]
    for c in reading.counters:
        what = KIND_WORDS[c.which]
        lines.append(f"  {what}: {c.field} = {c.arithmetic} [{c.where}; unit {c.unit}]")
    lines.append(f"  source of units: {s.citation}")
    if smart is not None and smart.available_spare_percent is not None:
        lines.append(f"  available spare: {smart.available_spare_percent:g} %")
    return "\n".join(lines) + "\n" + format_lifetime(rep)


# ---------------------------------------------------------------------------------------------
# Live devices: run nvme-cli (needs root and an NVMe controller)


def _output(argv: list[str], run: ToolRun | None) -> str | None:
    """Standard output of a successful nvme-cli run; None when the drive refused the command."""
    proc = run_tool(argv, check=False) if run is None else run(argv)
    return proc.stdout if proc.returncode == 0 and proc.stdout.strip() else None


def read_device_logs(
    device: str, nvme: str = "nvme", run: ToolRun | None = None
) -> tuple[LogReading, NvmeSmartLog]:
    """Read the SMART log and the first NAND-write log ``device`` answers, through nvme-cli.

    Tries the logs of the sources table in order; a drive that lacks a log fails that command,
    and the next is tried. A log with erase counts but no NAND counter is returned only when
    no log that counts NAND writes answers. Raises ToolError when nvme-cli is missing or no
    log answers.
    ``run`` runs nvme-cli instead of ``blockdev.run_tool`` (the exporter's bounded runner).
    """
    exe = find_tool(nvme)
    smart_text = _output(
        [exe, *(a.replace("{device}", device) for a in SMART_LOG_COMMAND[1:])], run
    )
    if smart_text is None:
        raise ToolError(f"nvme smart-log {device} failed: is it an NVMe controller? (root?)")
    smart = parse_smart_log(smart_text, f"{device} smart-log")
    tried = []
    wear_only: LogReading | None = None
    for source in load_sources():
        argv = source.argv(device, exe)
        tried.append(" ".join(source.command[1:3]))
        text = _output(argv, run)
        if text is None:
            continue
        try:
            # the command run names the log: no doubt about the plugin, or its units
            name = f"{device} {' '.join(source.command[1:3])}"
            reading = parse_nvme_log(text, name, source.id)
        except NvmeLogError:
            continue
        if reading.counter("nand") is not None:
            return reading, smart
        # a log of erase counts only: kept in case no log that counts NAND writes answers
        wear_only = wear_only or reading
    if wear_only is not None:
        return wear_only, smart
    raise ToolError(f"{device}: no NAND-write log answered (tried: {', '.join(tried)})")
