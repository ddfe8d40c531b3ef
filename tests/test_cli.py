"""The installed `overprov` command as a newcomer meets it."""

from __future__ import annotations

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
        [_overprov(), "simulate", "--op", "0", "--no-progress"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "geometry.op_ratio" in proc.stderr and "Traceback" not in proc.stderr
