"""The report tests' way to the CLI: ``overprov(*args)`` runs the real command in a child
process, as a user would; ``made_in_process(*args)`` runs it in the test's own process, for the
inputs the tests build and do not check as a command (a child would import again what the
worker has imported: 0.1-0.5 CPU s a simulation, 0.3 a calibration; docs/testing.md, "Round
15"); ``ARTIFACTS`` is where the browser tests keep what they rendered.
A module of its own (not conftest.py) so that ``from report_cli import ...`` names this file
whichever other conftest.py a run imported first."""

from __future__ import annotations

import contextlib
import io
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


def made_in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real CLI's ``main`` in this process, its stdout and stderr kept: what
    :func:`overprov` returns, without a child. For inputs, not for the command's contract (its
    exit code and output as a process: test_report_build.py's and tests/contract's)."""
    from overprov import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(list(args))
        except SystemExit as exc:  # argparse errors
            rc = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(["overprov", *args], rc, out.getvalue(), err.getvalue())
