"""scripts/pytest_cpu_log.py, the plugin docs/testing.md's CPU figures come from: one line per
test with its CPU seconds, children's included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_each_test_gets_its_cpu_seconds_with_its_childrens(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "import subprocess, sys\n"
        "def test_busy_child():\n"
        "    subprocess.run([sys.executable, '-c', 'sum(range(3 * 10**7))'], check=True)\n"
        "def test_idle():\n"
        "    pass\n"
    )
    # the child is its own pytest, not an xdist worker of this run (its variables would name it one)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env |= {"CPULOG": str(tmp_path / "cpu"), "PYTHONPATH": str(ROOT / "scripts")}
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "pytest_cpu_log", "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "test_x.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "cpu.main").read_text().splitlines())}
    busy, idle = rows["test_x.py::test_busy_child"], rows["test_x.py::test_idle"]
    assert busy["cpu"] > 0.2 > idle["cpu"]  # the child's summing counts, in its own test
    assert busy["wall"] >= 0 and idle["wall"] >= 0
