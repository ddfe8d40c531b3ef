"""``overprov smart``: which reading the command line asks for.

One TARGET device: smartctl, and for NVMe the NAND-write logs (``fleet.read_drive``). Files,
or two snapshots: ``cli.run``. ``--nvme-log FILE [--smart-log FILE]``: saved NVMe logs
(``nvme_cli.report_logs``, the code behind ``overprov smart-nvme``). ``--all``: every SSD of
the machine (``fleet``). The flags and the text and JSON output live in ``cli``.
"""

from __future__ import annotations

import argparse
from typing import Any

from overprov.options import text_stream
from overprov.outputs import check_json_output, document, write_json
from overprov.smart import cli
from overprov.smart.device import is_device_path
from overprov.smart.fleet import fleet, read_drive
from overprov.smart.nvme_cli import report_logs
from overprov.smart.snapshot import SmartDataError, bytes_text


def register(subparsers: Any) -> None:
    cli.register(subparsers)
    subparsers.choices["smart"].set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    targets = list(args.targets)
    given = [
        n for n, x in (("TARGET", targets), ("--all", args.all), ("--nvme-log", args.nvme_log)) if x
    ]
    if not given:
        raise SmartDataError(
            "give a TARGET (a device, or one or two files saved with 'smartctl -j -a DEVICE'), "
            "--all (every SSD of this machine) or --nvme-log FILE"
        )
    if len(given) > 1:
        raise SmartDataError(f"{', '.join(given)}: give only one of them")
    if args.smart_log is not None and args.nvme_log is None:
        raise SmartDataError("--smart-log goes with --nvme-log FILE")
    if args.nvme_log is not None:
        return report_logs(
            args.nvme_log,
            args.smart_log,
            None,
            args.json,
            source_id=args.nvme_log_source,
            fdp_events=args.fdp_events,
            lba_size=args.lba_size,
        )
    if args.fdp_events is not None or args.lba_size is not None:
        raise SmartDataError("--fdp-events and --lba-size go with --nvme-log FILE")
    if args.all:
        return run_all(args)
    if len(targets) == 1 and is_device_path(targets[0]):
        rep = read_drive(targets[0], args.smartctl, args.nvme)
        print(cli.format_lifetime(rep), file=text_stream(args))
        if args.json:
            write_json(document("smart", cli.report_to_dict(rep)), args.json)
        return 0
    args.targets = targets
    return cli.run(args)


def _cell(value: float | None, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


def run_all(args: argparse.Namespace) -> int:
    """``--all``: one row per SSD; a drive that cannot be read says why in its row. With
    ``--json -`` the table goes to stderr and the document (overprov.smart-fleet/1) to stdout."""
    found = fleet(args.smartctl, args.nvme)
    print(fleet_table(found), file=text_stream(args))
    if args.json:
        doc = {
            "kind": "fleet",
            "searched": found["searched"],
            "drives": [
                {k: (cli.report_to_dict(v) if k == "report" else v) for k, v in row.items()}
                for row in found["drives"]
            ],
        }
        write_json(document("smart-fleet", doc), args.json)
    return 0


def fleet_table(found: dict[str, Any]) -> str:
    """The text of ``smart --all``: one row per SSD."""
    if not found["drives"]:
        return f"no SSD found on this machine (searched {found['searched']})"
    lines = [
        f"{'device':<14} {'model':<28} {'size':>9} {'host writes':>12} {'WAF':>6} "
        f"{'used %':>6} {'days left':>9}"
    ]
    for row in found["drives"]:
        head = f"{row['device']:<14} {(row['model'] or '?')[:28]:<28} "
        head += f"{bytes_text(row['size_bytes']):>9} "
        if "error" in row:
            lines.append(head + f"cannot read: {row['error']}")
            continue
        rep = row["report"]
        host = bytes_text(rep.host_bytes) if rep.host_bytes is not None else "—"
        lines.append(
            head
            + f"{host:>12} {_cell(rep.waf, '.2f'):>6} "
            + f"{_cell(rep.snapshot.percentage_used, 'g'):>6} "
            + f"{_cell(rep.endurance.days_left, ',.0f'):>9}"
        )
    return "\n".join(lines)
