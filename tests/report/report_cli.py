"""The report tests' way to the CLI: ``overprov(*args)`` runs the real command in a child
process, as a user would; ``ARTIFACTS`` is where the browser tests keep what they rendered.
A module of its own (not conftest.py) so that ``from report_cli import ...`` names this file
whichever other conftest.py a run imported first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "report"


def overprov(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a child process (as a user would)."""
    return subprocess.run(
        [sys.executable, "-m", "overprov.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
