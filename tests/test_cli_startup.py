"""The command's start-up: what `overprov` imports before it does anything. Every command (and
every child process the tests start) pays it, so these check what is imported — not how long
it takes, which depends on the machine's load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from overprov import cli

REPO = Path(__file__).resolve().parents[1]

# Modules a command's start-up must not load unless that command runs them. (The core,
# overprov._core, loads in about a millisecond; the drive presets ask it for their defaults.)
HEAVY = (
    "numpy",
    "jsonschema",
    "matplotlib",
    "overprov.calibrate.predict",
    "overprov.calibrate.twin",
    "overprov.profile.runner",
    "overprov.apply.auto",
    "overprov.smart.cli",
    "overprov.qualify.session",
    "overprov.report.validate",
)

PROBE = (
    "import json, sys\n"
    "from overprov import cli\n"
    "try:\n"
    "    code = cli.main(sys.argv[1:])\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    "sys.stdout.flush()\n"
    "print(json.dumps({'code': code, 'modules': sorted(sys.modules)}), file=sys.stderr)\n"
)


def imported(*argv: str) -> tuple[int, set[str]]:
    """The exit code and the modules loaded by `overprov ARGV` in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    last = proc.stderr.strip().splitlines()[-1]
    doc = json.loads(last)
    return doc["code"], set(doc["modules"])


def test_version_imports_no_command_module():
    code, modules = imported("--version")
    assert code == 0
    assert not [m for m in modules if m in (*cli.COMMAND_MODULES, *HEAVY, "overprov._core")]


def test_importing_the_package_reads_no_metadata():
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    code = "import sys, overprov; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize(
    ("argv", "allowed"),
    [
        (("capacity", "--help"), ()),
        (("calibrate", "--help"), ()),
        (("drive", "--help"), ()),
        (("profile", "--help"), ()),
        (("apply", "--help"), ("overprov.apply.auto", "overprov.capacity")),
    ],
    ids=lambda value: (
        value[0] if value and isinstance(value[0], str) and "." not in value[0] else ""
    ),
)
def test_a_command_imports_only_its_own_module(argv, allowed):
    code, modules = imported(*argv)
    assert code == 0
    own = cli.COMMAND_MODULE_OF[argv[0]]
    others = [m for m in cli.COMMAND_MODULES if m not in (own, *allowed) and m in modules]
    assert others == [], f"`overprov {argv[0]}` imports the other commands' modules {others}"
    heavy = [m for m in HEAVY if m in modules and m not in allowed]
    assert heavy == [], f"`overprov {' '.join(argv)}` imports {heavy}"


def _registrations() -> dict[str, tuple[str, str]]:
    """Each command as its module registers it: the module and the command's `help=`."""
    import argparse
    import importlib

    seen: dict[str, tuple[str, str]] = {}
    for name in cli.COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(name).register(sub)
        for action in sub._choices_actions:
            seen[action.dest] = (name, action.help)
    return seen


def test_the_command_table_matches_the_registrations():
    """COMMAND_MODULE_OF names, for every command, the module that registers it, in order."""
    registered = _registrations()
    assert {command: module for command, (module, _) in registered.items()} == (
        cli.COMMAND_MODULE_OF
    )
    assert list(registered) == list(cli.COMMANDS)


def test_the_declared_summaries_are_the_modules_own():
    """`overprov --help` lists COMMANDS' summaries: each is the help its module registers."""
    registered = _registrations()
    assert {command: summary for command, (_, summary) in registered.items()} == {
        command: summary for command, (_, summary) in cli.COMMANDS.items()
    }


@pytest.mark.parametrize("argv", [("--help",), (), ("nosuchcmd",), ("-x",)], ids=repr)
def test_the_command_list_imports_no_command_module(argv):
    """`overprov --help`, no command and an unknown one list the commands from the table."""
    code, modules = imported(*argv)
    assert code == (0 if argv == ("--help",) else 2)
    light = ("overprov._core", "overprov.presets", "overprov.engine")
    loaded = [m for m in modules if m in (*cli.COMMAND_MODULES, *HEAVY, *light)]
    assert loaded == [], f"`overprov {' '.join(argv)}` imports {loaded}"


def test_the_command_list_reads_as_with_every_command(capsys):
    full = cli.build_parser()
    for argv in (["--help"], [], ["nosuchcmd"]):
        assert cli.build_parser(argv).format_help() == full.format_help()
    for argv in ([], ["nosuchcmd"]):
        errors = []
        for parser in (cli.build_parser(argv), full):
            with pytest.raises(SystemExit) as exc:
                parser.parse_args(argv)
            errors.append((exc.value.code, capsys.readouterr().err))
        assert errors[0] == errors[1]
        assert errors[0][0] == 2


def test_a_command_after_an_option_is_parsed_by_its_own_parser(capsys):
    """`overprov --x capacity`: the line names no command first, so the commands are listed
    without their modules; the command is then parsed by its real parser."""
    with pytest.raises(SystemExit) as exc:
        cli.main(["--x", "capacity", "512G"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: overprov capacity ")
    assert err.strip().endswith("overprov capacity: error: unrecognized arguments: --x")


def test_a_named_command_parses_as_with_every_command():
    argv = ["capacity", "512G", "--json", "-"]
    full, alone = cli.build_parser(), cli.build_parser(argv)
    assert list(alone._subparsers._group_actions[0].choices) == ["capacity"]
    assert vars(alone.parse_args(argv)) == vars(full.parse_args(argv))
    assert (
        cli._subparser(alone, "capacity").format_help()
        == cli._subparser(full, "capacity").format_help()
    )
