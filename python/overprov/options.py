"""Command-line options shared by every command, defined once: ``--json FILE``, the retired
``--op``, the TARGET of the commands that write to a drive, and the help layout (examples in
the epilog, no "(default: None)")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from overprov import units
from overprov.blockdev import CONFIRM_FLAG
from overprov.outputs import STDOUT

OP_IS_GONE = (
    "--op is gone, it meant different things in different commands: use --extra-op PCT "
    "(extra OP in percent of the advertised capacity; a list sweeps) or --rho R (total OP "
    "ρ = (T−U)/U as a fraction)"
)


class _RetiredOp(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None):
        parser.error(OP_IS_GONE)


#: --allow-hdd's help, the same for every command that writes to a drive (blockdev's policy).
ALLOW_HDD_HELP = (
    "accept a rotational device: a hard disk is refused without it, even when confirmed "
    "(a loop device that reports itself rotational needs only the confirmation)"
)


def add_retired_op(parser: argparse.ArgumentParser) -> None:
    """``--op`` errors (exit 2, the command's usage) telling which of the two to use."""
    parser.add_argument("--op", action=_RetiredOp, help=argparse.SUPPRESS)


def add_json_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json FILE``: the command's JSON document to FILE, ``-`` for stdout."""
    parser.add_argument(
        "--json",
        metavar="FILE",
        help=f"write {what} as JSON to FILE ('-' for stdout, the text then goes to stderr); "
        "schema in docs/json.md",
    )


def add_target_options(
    parser: argparse.ArgumentParser, *, optional: bool = False, resumed: str | None = None
) -> None:
    """TARGET, ``--allow-hdd`` and the confirmation flag of the commands that write to a drive
    (profile, calibrate, qualify): the same words and the same safety rules (docs/safety.md).
    ``optional``: TARGET may be left out (another source is given: ``--resume``, ``--from``).
    ``resumed``: what the command's ``--resume`` continues ("profile", "calibration"), for the
    confirmation's help; None for a command without ``--resume``."""
    from overprov import presets  # here: `overprov --help` needs neither it nor the engine

    parser.add_argument(
        "target",
        nargs="?" if optional else None,
        metavar="TARGET",
        help="block device or regular file; several comma-separated = one RAID group, tested "
        "together; sim:NAME|FILE.toml[@SCALE] for a simulated drive (presets: "
        + ", ".join(presets.names())
        + "; SCALE e.g. 1/8 or 64GiB, default about 32 GiB of NAND)",
    )
    parser.add_argument("--allow-hdd", action="store_true", help=ALLOW_HDD_HELP)
    parser.add_argument(
        CONFIRM_FLAG,
        dest="confirm",
        action="append",
        default=[],
        metavar="DEVICE",
        help="confirm that DEVICE may be overwritten: required for every block device "
        "(signature or not), and for a FILE that already holds data; name that exact device, "
        "once per member"
        + (
            f"; a resumed {resumed} asks again for a device with no serial number or WWN"
            if resumed
            else ""
        )
        + " (docs/safety.md)",
    )


def add_size_option(parser: argparse.ArgumentParser) -> None:
    """``--size BYTES`` of the commands that test the start of a target (profile, qualify)."""
    parser.add_argument(
        "--size",
        type=units.SIZE,
        default=None,
        metavar="BYTES",
        help="test only the first BYTES of each member (creates a missing file; default: the "
        "whole member); k/M/G/T (with or without B) are powers of 1000, KiB/MiB/GiB/TiB of 1024",
    )


def add_report_option(parser: argparse.ArgumentParser) -> None:
    """``--no-report``: the output folder without the HTML report the command writes there by
    default (``overprov report DIR`` writes it later from the same folder)."""
    parser.add_argument(
        "--no-report",
        action="store_true",
        help="do not write report.html and its figures into the output folder (plotting takes "
        "seconds; 'overprov report DIR' writes it later)",
    )


def text_stream(args: argparse.Namespace) -> TextIO:
    """Where the human-readable text goes: stdout, or stderr when stdout carries the JSON."""
    return sys.stderr if getattr(args, "json", None) == STDOUT else sys.stdout


def examples(*lines: str) -> str:
    """An epilog of examples: ``examples:`` then one command per line."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


class HelpFormatter(argparse.HelpFormatter):
    """Descriptions wrapped paragraph by paragraph, an ``examples:`` block kept as written, a
    default shown only when there is one (no "(default: None)", none for a flag that is off)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        prose, marker, block = text.partition("examples:\n")
        filled = "\n\n".join(
            super(HelpFormatter, self)._fill_text(part, width, indent)
            for part in prose.split("\n\n")
            if part.strip()
        )
        if not marker:
            return filled
        return (filled + "\n\n" if filled else "") + indent + marker + block

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            "%(default)" not in text
            and "default" not in text.lower()
            and action.default not in (None, False, [], argparse.SUPPRESS)
            and action.option_strings
            and action.nargs != 0
        ):
            text += " (default: %(default)s)"
        return text


def say_core_defaults(
    parser: argparse.ArgumentParser,
    fields: Iterable[tuple[str, tuple[str, ...]]],
    defaults: dict[str, Any],
) -> None:
    """End the help of each option of ``parser`` that sets a config field (``fields``: argparse
    dest and the field's path) with the field's default in ``defaults`` (the core's,
    ``engine.default_config``), as :class:`HelpFormatter` shows argparse's: the option itself
    defaults to None, so that a --config file or a preset may set the field. Options whose help
    names a default already, flags, and fields with no default are left as they are."""
    path_of = dict(fields)
    for action in parser._actions:
        path = path_of.get(action.dest)
        text = action.help or ""
        if path is None or action.nargs == 0 or "default" in text.lower() or not text:
            continue
        value: Any = defaults
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is None or value == [] or isinstance(value, bool):
            continue
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        unit = "%%" if path[-1].endswith("_percent") else ""
        unit = " bytes" if path[-1].endswith("_bytes") else unit
        said = f"default: {shown}{unit}"
        # one parenthesis: "(e.g. 4k; default: 4096 bytes)", never "(e.g. 4k) (default: ...)"
        action.help = f"{text[:-1]}; {said})" if text.endswith(")") else f"{text} ({said})"


#: Examples for each command's --help, added by ``overprov.cli`` where a command has none.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "capacity": (
        "overprov capacity 960GB --extra-op 20",
        "overprov capacity --sectors 1875385008",
        "overprov capacity 1.92TB --json - | jq .rho",
    ),
    "apply": (
        "overprov apply /dev/sdb --extra-op 20            # shows the plan, changes nothing",
        "overprov apply /dev/sdb --extra-op 20 --method partition --execute "
        "--i-understand-this-destroys-data /dev/sdb",
    ),
    "status": ("overprov status /dev/sdb", "overprov status /dev/nvme0n1 --json status.json"),
    "profile": (
        "overprov profile sim:consumer-tlc-sata@4GiB --extra-op 0,20,40 --out prof/",
        "overprov profile /dev/sdb --extra-op 0,10,20,30 --target-iops 30000 "
        "--i-understand-this-destroys-data /dev/sdb --out prof/",
        "overprov profile --resume prof/",
    ),
    "smart": (
        "overprov smart /dev/sda",
        "overprov smart before.json after.json --json -",
        "overprov smart --nvme-log ocp-c0.txt --smart-log smart-log.json",
        "overprov smart --all --json -",
    ),
    "smart-nvme": (
        "overprov smart-nvme --nvme-log ocp-c0.txt --smart-log smart-log.json",
        "overprov smart-nvme --device /dev/nvme0 --json -",
    ),
    "exporter": (
        "overprov exporter --listen 127.0.0.1:9633 --device /dev/sda --device /dev/nvme0",
        "overprov exporter --listen 127.0.0.1:9633 --from-files disk.json",
    ),
    "report": (
        "overprov report prof/",
        "overprov report prof-a/ prof-b/ sim.json --out compare/ --rated-tbw 600",
    ),
    "calibrate": (
        "overprov calibrate sim:consumer-tlc-sata@4GiB --out cal/",
        'overprov calibrate --points "0:11000,20:25000,40:32000" --json -  '
        "# about a CPU minute: four readings' twins (--jobs, progress on stderr)",
    ),
    "qualify": (
        "overprov qualify sim:consumer-tlc-sata@2GiB",
        "overprov qualify /dev/sdb --i-understand-this-destroys-data /dev/sdb --json q.json",
    ),
    "drive": (
        "overprov drive show consumer-tlc-sata",
        "overprov drive show docs/drives/pny-128.toml",
    ),
}
