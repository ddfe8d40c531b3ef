"""Helpers for the profile tests: the CLI as a subprocess, results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Run the real `overprov.cli.main` with only the profile subcommand registered, so that a
# sibling subcommand being rewritten by someone else cannot break these tests' imports.
CLI_CODE = (
    "import sys, overprov.cli as c; c.COMMAND_MODULES = ('overprov.profile.cli',); "
    "sys.exit(c.main(sys.argv[1:]))"
)


def cli_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI_CODE, "profile", *args]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli_argv(*args), capture_output=True, text=True, timeout=timeout, cwd=REPO, check=False
    )


def load_results(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())
