"""The ``overprov`` command. Library code raises; only this module exits.

Each subcommand lives in its own module, which provides ``register(subparsers)``: it adds its
parser and sets ``func`` to a callable taking the parsed arguments and returning an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from overprov import __version__
from overprov.errors import OverprovError

# One line per subcommand module; each module defines register(subparsers).
COMMAND_MODULES: tuple[str, ...] = (
    "overprov.simulate",
    "overprov.capacity",
    "overprov.apply.cli",
    "overprov.status",
    "overprov.profile.cli",
    "overprov.smart",
    "overprov.smart.nvme_cli",
    "overprov.exporter",
    "overprov.plan",
    "overprov.report.cli",
    "overprov.calibrate.cli",
    "overprov.drive_cli",
)


UNITS_HELP = """\
units, the same in every command (docs/cli.md):
  sizes        SI suffixes are powers of 1000: 512G = 512GB = 512·10^9 bytes (k, M, G, T);
               IEC suffixes are powers of 1024: 64GiB = 64·2^30 bytes (KiB, MiB, GiB, TiB);
               a bare number is bytes
  block sizes  --bs, --page-size and --bssplit follow fio: 4k = 4096 bytes
  durations    s, min, h, d (90s, 10min, 2h); a bare number is seconds
  percentages  20 or 20%
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="overprov",
        description=(
            "How much SSD over-provisioning (OP) does a drive need? Simulate it, profile it\n"
            "on a real drive with fio, apply it safely, and read WAF and wear from SMART."
        ),
        epilog=UNITS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"overprov {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.command_line = ["overprov", *(sys.argv[1:] if argv is None else argv)]
    try:
        return int(args.func(args) or 0)
    except OverprovError as exc:
        print(f"overprov {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"overprov {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
