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


def test_the_command_table_matches_the_registrations():
    """COMMAND_MODULE_OF names, for every command, the module that registers it."""
    import argparse
    import importlib

    seen: dict[str, str] = {}
    for name in cli.COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(name).register(sub)
        seen.update(dict.fromkeys(sub.choices, name))
    assert seen == cli.COMMAND_MODULE_OF


def test_a_named_command_parses_as_with_every_command():
    argv = ["capacity", "512G", "--json", "-"]
    full, alone = cli.build_parser(), cli.build_parser(argv)
    assert list(alone._subparsers._group_actions[0].choices) == ["capacity"]
    assert vars(alone.parse_args(argv)) == vars(full.parse_args(argv))
    assert (
        cli._subparser(alone, "capacity").format_help()
        == cli._subparser(full, "capacity").format_help()
    )
