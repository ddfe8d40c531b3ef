"""The installed `overprov` command as a newcomer meets it."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from overprov import cli

COMMANDS = ("simulate", "profile", "apply", "status", "capacity", "smart", "plan")


def _overprov() -> str:
    found = shutil.which("overprov") or str(Path(sys.executable).parent / "overprov")
    assert Path(found).exists(), "the overprov console script is not installed (make build)"
    return found


def test_every_subcommand_is_registered_and_documented():
    parser = cli.build_parser()
    text = parser.format_help()
    for name in COMMANDS:
        assert name in text, name


def test_console_script_runs_help_and_version():
    exe = _overprov()
    out = subprocess.run([exe, "--help"], capture_output=True, text=True, check=True).stdout
    assert all(c in out for c in COMMANDS)
    ver = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True).stdout
    assert ver.startswith("overprov ")
    sim = subprocess.run([exe, "simulate", "--help"], capture_output=True, text=True, check=True)
    assert "--extra-op" in sim.stdout and "ρ = (T−U)/U" not in sim.stderr


def test_console_script_error_exit_code_and_message():
    proc = subprocess.run(
        [_overprov(), "simulate", "--read-pct", "100", "--no-progress"],
        capture_output=True,
        text=True,
    )  # a value of the right kind that the core refuses: its field is named
    assert proc.returncode == 2
    assert "workload.read_percent" in proc.stderr and "Traceback" not in proc.stderr


def test_retired_op_names_both_replacements_in_every_command():
    for argv in (["simulate", "--op", "0.1"], ["plan", "--capacity", "1T", "--op", "10"],
                 ["profile", "sim:x", "--op", "10"]):  # fmt: skip
        proc = subprocess.run([_overprov(), *argv], capture_output=True, text=True)
        assert proc.returncode == 2, argv
        assert "--extra-op PCT" in proc.stderr and "--rho R" in proc.stderr, argv
        assert proc.stderr.startswith(f"usage: overprov {argv[0]} "), proc.stderr


def _parsers(parser: argparse.ArgumentParser, name: str):
    """``parser`` and every (sub)command parser under it, with its command line."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def test_every_positional_argument_has_help():
    """`overprov CMD --help` explains every argument, the positional ones too (DEVICE...)."""
    bare = [
        f"{name}: {action.metavar or action.dest}"
        for name, parser in _parsers(cli.build_parser(), "overprov")
        for action in parser._actions
        if not action.option_strings
        and not isinstance(action, argparse._SubParsersAction)
        and not action.help
    ]
    assert bare == []


def test_the_confirmation_help_mentions_resuming_only_where_there_is_resume():
    """The confirmation's help is shared; its sentence on a resumed run appears only in the
    commands that have --resume, naming that command's run."""
    resumed = {}
    for name, parser in _parsers(cli.build_parser(), "overprov"):
        flags = {o: a for a in parser._actions for o in a.option_strings}
        confirm = flags.get("--i-understand-this-destroys-data")
        if confirm is not None and " " in name:
            said = re.search(r"a resumed (\w+) asks again", confirm.help)
            resumed[name] = said and said.group(1)
            assert bool(said) == ("--resume" in flags), (name, confirm.help)
    assert resumed == {
        "overprov profile": "profile",
        "overprov qualify": None,
        "overprov calibrate": "calibration",
        "overprov apply": None,
    }
