"""Command-line options shared by every command, defined once: ``--json FILE``, the retired
``--op``, and the help layout (examples in the epilog, no "(default: None)")."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from overprov.outputs import STDOUT

OP_IS_GONE = (
    "--op is gone, it meant different things in different commands: use --extra-op PCT "
    "(extra OP in percent of the advertised capacity; a list sweeps) or --rho R (total OP "
    "ρ = (T−U)/U as a fraction)"
)


class _RetiredOp(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None):
        parser.error(OP_IS_GONE)


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


def text_stream(args: argparse.Namespace) -> TextIO:
    """Where the human-readable text goes: stdout, or stderr when stdout carries the JSON."""
    return sys.stderr if getattr(args, "json", None) == STDOUT else sys.stdout


def examples(*lines: str) -> str:
    """An epilog of examples: ``examples:`` then one command per line."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs as written; a default shown only when there is one (no
    "(default: None)", no default for a flag that is off)."""

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
