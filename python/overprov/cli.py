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
    "overprov.plan",
    "overprov.report.cli",
    "overprov.drive_cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="overprov",
        description=(
            "How much SSD over-provisioning (OP) does a drive need? Simulate it, profile it "
            "on a real drive with fio, apply it safely, and read WAF and wear from SMART."
        ),
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
