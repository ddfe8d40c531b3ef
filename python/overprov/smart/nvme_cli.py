"""``overprov smart-nvme``: WAF of an NVMe drive from the logs that count NAND writes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from overprov.options import add_json_option
from overprov.outputs import check_json_output, document, write_json
from overprov.smart.fdp import (
    add_fdp_events_options,
    format_handle_estimates,
    handle_estimates,
    parse_fdp_events,
)
from overprov.smart.nvme_logs import (
    NvmeLogError,
    add_nvme_log_source_option,
    load_sources,
    parse_nvme_log,
)
from overprov.smart.nvme_smart_log import parse_smart_log
from overprov.smart.nvme_waf import (
    format_nvme_report,
    nvme_report,
    read_device_logs,
    read_log_text,
)
from overprov.units import parse_size


def register(subparsers: argparse._SubParsersAction) -> None:
    names = ", ".join(f"{' '.join(s.command[1:3])} ({s.log_id})" for s in load_sources())
    p = subparsers.add_parser(
        "smart-nvme",
        help="NVMe WAF from the OCP C0h, Endurance Group, Intel CAh or vendor logs (nvme-cli); "
        "the same as overprov smart --nvme-log FILE / overprov smart /dev/nvmeX",
        description=(
            "Write amplification of an NVMe drive. The standard SMART log has no NAND-write "
            "counter; these logs have one: " + names + ". Give a saved output of one of them "
            "(nvme-cli -o json where the plugin has it, its text otherwise) with --nvme-log, "
            "and the standard SMART log saved at the same time ('nvme smart-log DEVICE -o "
            "json', or 'smartctl -j -a DEVICE') with --smart-log for host writes when the log "
            "has none. Or read a controller now with --device (needs root and nvme-cli)."
        ),
        epilog=(
            "Units: OCP C0h and vendor 'bytes' fields are bytes; Endurance Group log units are "
            "10^9 bytes; Intel/Solidigm CAh units are 32 MiB; SMART log data units are 512,000 "
            "bytes. WAF = NAND bytes / host bytes. See docs/smart-nvme.md."
        ),
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--nvme-log", type=Path, metavar="FILE", help="saved nvme-cli log output")
    src.add_argument("--device", metavar="DEV", help="NVMe controller to read now, e.g. /dev/nvme0")
    p.add_argument(
        "--smart-log",
        type=Path,
        metavar="FILE",
        help="saved 'nvme smart-log -o json' (or text, or smartctl -j) of the same drive",
    )
    add_nvme_log_source_option(p)
    add_fdp_events_options(p)
    add_json_option(p, "the report")
    p.add_argument("--nvme", default="nvme", metavar="PATH", help="nvme-cli executable")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return report_logs(
        args.nvme_log,
        args.smart_log,
        args.device,
        args.json,
        args.nvme,
        args.nvme_log_source,
        args.fdp_events,
        args.lba_size,
    )


def report_logs(
    nvme_log: Path | None,
    smart_log: Path | None,
    device: str | None,
    json_to: str | None,
    nvme: str = "nvme",
    source_id: str | None = None,
    fdp_events: Path | None = None,
    lba_size: str | None = None,
) -> int:
    """Print (and with ``json_to`` write, "-": stdout) the WAF report of saved NVMe logs or of
    a controller read now: ``overprov smart --nvme-log`` and ``overprov smart-nvme``."""
    check_json_output(json_to)
    if fdp_events is None and lba_size is not None:
        raise NvmeLogError("--lba-size goes with --fdp-events FILE")
    if fdp_events is not None and nvme_log is None:
        raise NvmeLogError("--fdp-events goes with --nvme-log FILE (the FDP statistics)")
    lba_bytes = None if lba_size is None else parse_size(lba_size, "--lba-size")
    if device is not None:
        if smart_log is not None:
            raise NvmeLogError("--smart-log is for saved files; --device reads the SMART log now")
        reading, smart = read_device_logs(device, nvme)
    else:
        if nvme_log is None:
            raise NvmeLogError("--nvme-log FILE: give a saved nvme-cli log output")
        reading = parse_nvme_log(read_log_text(nvme_log), str(nvme_log), source_id)
        smart = None
        if smart_log is not None:
            smart = parse_smart_log(read_log_text(smart_log), str(smart_log))
    fdp = None
    if fdp_events is not None:
        events = parse_fdp_events(read_log_text(fdp_events), str(fdp_events))
        fdp = handle_estimates(events, reading, lba_bytes)
        fdp["file"] = str(fdp_events)
    out = sys.stderr if json_to == "-" else sys.stdout
    print(format_nvme_report(reading, smart), file=out)
    if fdp is not None:
        print(format_handle_estimates(fdp), file=out)
    if json_to is not None:
        doc = nvme_report(reading, smart)
        if fdp is not None:
            doc["fdp_handles"] = fdp
        write_json(document("smart-nvme", doc), json_to)
    return 0
