"""tests/xdist_groups.py: under ``--dist loadgroup`` the tests of one ``xdist_group`` run on one
worker (pytest-xdist's own marking of the group has no effect under pytest 9)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_a_group_runs_on_one_worker_in_its_order(tmp_path):
    (tmp_path / "test_g.py").write_text(
        "import os, pytest\n"
        "pytestmark = pytest.mark.xdist_group('g')\n"
        "@pytest.mark.parametrize('i', range(8))\n"
        "def test_in_group(i):\n"
        "    with open('ran.txt', 'a') as f:\n"
        "        f.write(f\"{i} {os.environ['PYTEST_XDIST_WORKER']}\\n\")\n"
    )
    # the child is its own pytest, not an xdist worker of this run (its variables would name it one)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(HERE)
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist_groups", "-p", "no:cacheprovider",
         "-n", "2", "--dist", "loadgroup", "-q", "test_g.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    ran = [line.split() for line in (tmp_path / "ran.txt").read_text().splitlines()]
    assert [int(i) for i, _ in ran] == list(range(8))
    assert len({worker for _, worker in ran}) == 1, ran
