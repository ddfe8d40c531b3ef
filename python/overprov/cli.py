"""The ``overprov`` command. Library code raises; only this module exits.

Each subcommand lives in its own module, which provides ``register(subparsers)``: it adds its
parser and sets ``func`` to a callable taking the parsed arguments and returning an exit code.
Every error becomes one line on stderr, ``overprov <command>: <what> (<where>)``, and one of the
exit codes of ``overprov.errors`` (docs/cli.md).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from overprov.errors import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    OverprovError,
    os_error_text,
)
from overprov.options import EXAMPLES, HelpFormatter, examples
from overprov.outputs import refuse_aliasing, release_all

# Every command: the module that registers it (which defines register(subparsers)) and its
# one-line summary, the `help=` that module gives it. `overprov CMD ...` imports only CMD's
# module, so a command does not pay for the start-up of all the others; `overprov --help`, no
# command or an unknown one list the commands from this table and import none of them.
# tests/test_cli_startup.py checks the table against the registrations and the summaries against
# the modules' own.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": (
        "overprov.simulate.cli",
        "simulate a drive: WAF per OP, GC policy and workload (no drive worn)",
    ),
    "capacity": (
        "overprov.capacity",
        "IDEMA LBA counts, GB↔GiB, hidden OP and total OP for an advertised capacity",
    ),
    "apply": ("overprov.apply.cli", "apply extra OP to drives (dry run unless --execute)"),
    "status": (
        "overprov.apply.status",
        "show a device's over-provisioning now (HPA, NVMe namespace, tail, discard)",
    ),
    "profile": (
        "overprov.profile.cli",
        "measure steady-state random-write IOPS at several OP levels (real fio)",
    ),
    "qualify": (
        "overprov.qualify.cli",
        "is this drive fit for the job? cache (power-loss protection), TRIM and idle recovery, "
        "write cliff, latency outliers",
    ),
    "smart": (
        "overprov.smart",
        "WAF, wear and days left from SMART (smartctl -j), for a device or saved files",
    ),
    "smart-nvme": (
        "overprov.smart.nvme_cli",
        "NVMe WAF from the OCP C0h, Endurance Group, Intel CAh or vendor logs (nvme-cli); "
        "the same as overprov smart --nvme-log FILE / overprov smart /dev/nvmeX",
    ),
    "exporter": (
        "overprov.exporter.cli",
        "Prometheus exporter: host/NAND bytes, WAF, wear and days left per drive",
    ),
    "plan": (
        "overprov.plan.cli",
        "endurance (WAF, TBW, DWPD, years) per OP level from the analytic models or a simulation",
    ),
    "report": (
        "overprov.report.cli",
        "HTML report (figures, tables, conclusion) of profiles and simulations",
    ),
    "calibrate": (
        "overprov.calibrate.cli",
        "fit a digital twin of a drive from a short test and predict its whole OP curve",
    ),
    "drive": (
        "overprov.drive_cli",
        "drive show NAME|FILE[@SCALE]: a drive's parameters, derived figures, sources",
    ),
    "emulate": (
        "overprov.emulate.cli",
        "serve a simulated drive as a real block device (FUSE file + loop device)",
    ),
    "completion": (
        "overprov.completion",
        "print a shell completion script (bash, zsh, tcsh) generated from the parser",
    ),
}

# The module that registers each command, and the modules in the order the commands are listed.
COMMAND_MODULE_OF: dict[str, str] = {name: module for name, (module, _) in COMMANDS.items()}
COMMAND_MODULES: tuple[str, ...] = tuple(COMMAND_MODULE_OF.values())


UNITS_HELP = """\
units, the same in every command (docs/cli.md):
  sizes        SI suffixes are powers of 1000: 512G = 512GB = 512·10^9 bytes (k, M, G, T);
               IEC suffixes are powers of 1024: 64GiB = 64·2^30 bytes (KiB, MiB, GiB, TiB);
               a bare number is bytes
  block sizes  --bs, --page-size and --bssplit follow fio: 4k = 4096 bytes
  durations    s, m or min, h, d (90s, 90m, 10min, 2h); a bare number is seconds
  OP           --extra-op PCT: extra OP in percent of the advertised capacity;
               --rho R: total OP ρ = (T−U)/U as a fraction (0.28; 28% is refused)
  percentages  20 or 20%
  TBW          --rated-tbw: a bare number is TB (600 = 600TB); units accepted (1.2PB)
  numbers      finite (nan and inf are refused), in the range that means something

JSON: every command that reports takes --json FILE ('-' is stdout); each document starts
with "schema": "overprov.<command>/<major>" (docs/json.md).

exit codes: 0 done; 1 a run failed or an action was refused; 2 bad usage or input;
  3 the run finished without reaching the answer (no steady phase, no recommendation);
  130 interrupted (what was finished is kept); 141 stdout closed early (| head);
  70 a bug in overprov (OVERPROV_TRACEBACK=1 shows the traceback)

examples (each command's --help has its own):
  overprov capacity 1TB --extra-op 20        # what 20% extra OP leaves of a 1 TB drive
  overprov plan --capacity 1TB --daily-writes 200GB --target-years 5
                                             # the extra OP an endurance target needs
  overprov profile /dev/sdX --target-iops 20000 --dry-run
                                             # the OP a drive needs for 20k IOPS, measured
                                             # with fio (the plan first; a run destroys data)
  overprov calibrate /dev/sdX --target-iops 20000 --dry-run
                                             # the same from a shorter test and a fitted twin
  overprov simulate --preset consumer-tlc-sata --extra-op 0,10,20,30
                                             # a simulated drive: WAF and IOPS per extra OP
  overprov smart /dev/sda                    # WAF, wear and days left of a drive in service
  overprov apply /dev/sdX --extra-op 20      # the plan to give a drive 20% extra OP
"""


class _VersionAction(argparse._VersionAction):
    """``--version``, its string read only when asked for (``overprov.__version__``)."""

    def __call__(self, parser, namespace, values, option_string=None):  # noqa: ANN001
        from overprov import __version__

        self.version = f"overprov {__version__}"
        super().__call__(parser, namespace, values, option_string)


def modules_for(argv: list[str] | None) -> tuple[str, ...]:
    """The command modules to import for a command line: the named command's alone when the
    first argument names one, none otherwise (``--version``, ``--help``, no or an unknown
    command: the commands are listed from COMMANDS)."""
    module = COMMAND_MODULE_OF.get(argv[0] if argv else "")
    return (module,) if module in COMMAND_MODULES else ()


# Set on the namespace by a command listed from COMMANDS without its module (main then parses
# the line again with every command registered).
_LISTED_ONLY = "_overprov_listed_only"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the ``overprov`` command; given a command line, with only the command
    module that line names (modules_for) or, when it names none, every command listed from
    COMMANDS without importing its module; else with every command."""
    parser = argparse.ArgumentParser(
        prog="overprov",
        description=(
            "How much SSD over-provisioning (OP) does a drive need? Simulate it, profile it\n"
            "on a real drive with fio, apply it safely, and read WAF and wear from SMART."
        ),
        epilog=UNITS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    modules = COMMAND_MODULES if argv is None else modules_for(argv)
    if not modules:
        # the listing of `overprov --help` and argparse's choices, in the same order and words
        for command, (module, summary) in COMMANDS.items():
            if module in COMMAND_MODULES:
                listed = sub.add_parser(command, help=summary, add_help=False)
                listed.set_defaults(**{_LISTED_ONLY: True})
        return parser
    for name in modules:
        importlib.import_module(name).register(sub)
    for command, sp in sub.choices.items():
        if "examples:" not in (sp.epilog or ""):
            lines = EXAMPLES.get(command, ())
            if lines:
                sp.epilog = ((sp.epilog or "") + "\n\n" + examples(*lines)).lstrip()
        if sp.formatter_class is argparse.HelpFormatter:
            sp.formatter_class = HelpFormatter
    return parser


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


# A unit written apart from its number (units.py's sizes, durations and percentages).
_UNIT_ALONE = re.compile(r"(?i)[kmgtp]i?b?|b|bytes?|%|s|min|h|d|dw")


# Options other tools call so, and what a command calls them (suggested where it has them).
_SYNONYMS = {
    "--dry-run": "--check",  # simulate's dry run
    "--quiet": "--no-progress",
    "--output": "--out",
    "--size": "--user-bytes",  # simulate: the drive's size
    "--dwpd": "--target-dwpd",
    "--iops": "--target-iops",
}


def _did_you_mean(parser: argparse.ArgumentParser, extra: list[str], line: list[str]) -> str:
    """`` (did you mean --extra-op?)`` for the first unknown option close to one of the
    command's own (a typo: ``--extra-ops``, ``--extraop``, ``--target_iops``), the unit to join
    to its number for a unit given apart (``1 TB``), else nothing."""
    import difflib

    known = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    unit = extra[0]
    at = line.index(unit) if unit in line else 0
    number = line[at - 1] if at > 0 else ""
    if _UNIT_ALONE.fullmatch(unit) and number[-1:].isdigit():  # `capacity 1 TB`, `4 GiB`
        return f" (a number and its unit are one word: {number}{unit}, not {number} {unit})"
    for word in extra:
        if word.startswith("--"):
            name = word.split("=", 1)[0]
            if _SYNONYMS.get(name) in known:
                return f" (did you mean {_SYNONYMS[name]}?)"
            close = difflib.get_close_matches(name.replace("_", "-"), known, n=1, cutoff=0.8)
            if close:
                return f" (did you mean {close[0]}?)"
    return ""


def one_line(message: str) -> str:
    """An error message on one line (a message of several lines is joined)."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def without_own_prefix(message: str, command: str) -> str:
    """``message`` without the command's own name in front: the CLI puts ``overprov
    COMMAND:`` before every error, so a message that starts with ``COMMAND:`` (a library
    naming its caller, or the positional argument named as the command is: ``capacity``)
    would read ``overprov calibrate: calibrate: ...``."""
    for prefix in (f"overprov {command}: ", f"{command}: "):
        while message.startswith(prefix):
            message = message[len(prefix) :]
    return message


def _quiet_broken_pipe() -> int:
    """stdout was closed by the reader (``| head``): stop without a word. Python would
    otherwise complain once more when it flushes stdout at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


def _refuse_a_mistyped_command(parser: argparse.ArgumentParser, line: list[str]) -> None:
    """``overprov simulat``: argparse's "invalid choice" with the command meant, when one is
    close (an unknown word far from every command gets argparse's own list)."""
    import difflib

    first = line[0] if line else ""
    commands = [c for c, (module, _) in COMMANDS.items() if module in COMMAND_MODULES]
    if first.startswith("-") or first in commands:
        return
    close = difflib.get_close_matches(first.lower(), commands, n=1, cutoff=0.75)
    if close:
        parser.error(f"argument COMMAND: invalid choice: {first!r}: did you mean {close[0]!r}?")


def main(argv: list[str] | None = None) -> int:
    line = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(line)
    _refuse_a_mistyped_command(parser, line)
    args, extra = parser.parse_known_args(line)
    if getattr(args, _LISTED_ONLY, False):
        # a command reached after an option (`overprov --x simulate`): parse with every command
        parser = build_parser()
        args, extra = parser.parse_known_args(line)
    if extra:
        # the subcommand's own usage, not the top-level one
        sub = _subparser(parser, args.command)
        hint = _did_you_mean(sub, extra, line)
        sub.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    args.command_line = ["overprov", *line]
    name = f"overprov {args.command}"
    try:
        refuse_aliasing(args)  # no output may be one of the inputs (every command)
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except OverprovError as exc:
        print(f"{name}: {without_own_prefix(one_line(str(exc)), args.command)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{name}: interrupted; what was finished is kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        print(f"{name}: {without_own_prefix(os_error_text(exc), args.command)}", file=sys.stderr)
        return EXIT_FAILED
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("OVERPROV_TRACEBACK"):
            raise
        print(
            f"{name}: internal error: {type(exc).__name__}: {one_line(str(exc))[:300]} — a bug "
            "in overprov; please report it with the command line (OVERPROV_TRACEBACK=1 shows "
            "the traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    finally:
        release_all()  # the --out folder held by this command (outputs.hold_out_dir)


if __name__ == "__main__":
    sys.exit(main())
