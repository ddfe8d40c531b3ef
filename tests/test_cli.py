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


def test_every_option_has_help_and_a_metavar_of_its_own():
    """`overprov exporter --help` listed --smartctl and --nvme with no word (nor their
    defaults); `capacity --extra-op EXTRA_OP`, `plan --target-dwpd TARGET_DWPD` showed argparse's
    upper-cased names instead of what the value is (PERCENT, DWPD)."""
    silent, dest_named = [], []
    for name, parser in _parsers(cli.build_parser(), "overprov"):
        for action in parser._actions:
            if not action.option_strings or action.help == argparse.SUPPRESS:
                continue
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                continue
            if not action.help:
                silent.append(f"{name} {action.option_strings[0]}")
            if action.nargs != 0 and action.choices is None and action.metavar is None:
                dest_named.append(f"{name} {action.option_strings[0]}")
    assert silent == []
    assert dest_named == []


def test_simulate_s_options_say_the_core_s_defaults():
    """simulate's options default to None (a --config file or a preset may set the field), so
    argparse showed no default: --drive-writes, --policy, --precondition said nothing of what a
    run does without them. The help ends with the core's default (engine.default_config)."""
    from overprov import engine

    sim = next(p for n, p in _parsers(cli.build_parser(), "overprov") if n == "overprov simulate")
    helps = {a.option_strings[0]: a.help for a in sim._actions if a.option_strings}
    run = engine.default_config()["run"]
    assert helps["--drive-writes"].endswith(f"(default: {run['drive_writes']:g})")
    assert helps["--warmup"].endswith(f"(default: {run['warmup_drive_writes']:g})")
    assert helps["--policy"].endswith(f"(default: {engine.default_config()['ftl']['policy']})")
    assert helps["--bs"].endswith("(4k, 64k, 512; default: 4096 bytes)")
    assert helps["--span"].endswith("(default: 100%%)")
    for option in ("--drive-writes", "--policy", "--precondition", "--seed", "--workload"):
        assert "default" in helps[option], option
    assert "simulator's own: --demo, a --config file or a --preset" in sim.description


def test_an_option_that_picks_for_the_user_says_what_it_picks():
    """Options with no argparse default that still choose something when left out: their help
    says what (smart --nvme-log-source detects the log; exporter --smartctl runs smartctl)."""
    helps = {
        (name, a.option_strings[0]): a.help or ""
        for name, parser in _parsers(cli.build_parser(), "overprov")
        for a in parser._actions
        if a.option_strings
    }
    picked = [
        ("overprov smart", "--nvme-log-source"),
        ("overprov smart-nvme", "--nvme-log-source"),
        ("overprov report", "--title"),
        ("overprov plan", "--pe-cycles"),
        ("overprov report", "--nand"),  # and that no endurance table is drawn without a budget
    ]
    for key in picked:
        assert "default" in helps[key], key


def test_profile_and_qualify_size_is_one_option():
    """qualify's --size said nothing of its units (k = 1000, KiB = 1024) that profile's said:
    two definitions of one option (options.add_size_option now)."""
    helps = [
        a.help
        for name, parser in _parsers(cli.build_parser(), "overprov")
        if name in ("overprov profile", "overprov qualify")
        for a in parser._actions
        if "--size" in a.option_strings
    ]
    assert len(helps) == 2 and helps[0] == helps[1]
    assert "powers of 1000" in helps[0] and "default: the whole member" in helps[0]


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
        "overprov qualify": "qualification",
        "overprov calibrate": "calibration",
        "overprov apply": None,
    }


def test_every_option_with_a_default_says_it():
    """An option that takes a value by default says which (its help names 'default' or the
    value itself): apply --md-name made /dev/md/overprov without its help saying so."""
    import argparse

    silent = [
        (name, a.option_strings[0], a.default)
        for name, parser in _parsers(cli.build_parser(), "overprov")
        for a in parser._actions
        if a.option_strings and a.default not in (None, False, [], argparse.SUPPRESS)
        and "default" not in (a.help or "").lower() and str(a.default) not in (a.help or "")
    ]  # fmt: skip
    assert silent == []
