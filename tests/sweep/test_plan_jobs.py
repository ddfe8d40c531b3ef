"""``plan --simulate`` runs its levels in parallel and gets the WAFs of one level at a time."""

from __future__ import annotations

import json

import pytest
from overprov.cli import main
from overprov.simulated_waf import quick_simulation


def test_quick_simulation_parallel_equals_serial() -> None:
    rhos = [0.0737, 0.19, 0.43]
    serial = quick_simulation(rhos, "greedy", 64, jobs=1)
    parallel = quick_simulation(rhos, "greedy", 64, jobs=2)
    assert serial == parallel
    assert len({p.waf for p in parallel.points}) == 3


def test_plan_simulate_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["plan", "--capacity", "480GB", "--extra-op", "0,20", "--simulate", "--json", "-"]
    rows = {}
    for jobs in ("1", "2"):
        assert main([*args, "--pages-per-block", "64", "--jobs", jobs]) == 0
        rows[jobs] = json.loads(capsys.readouterr().out)["rows"]
    assert rows["1"] == rows["2"]
    assert all("simulated" in r["waf_source"] for r in rows["2"])


def test_plan_jobs_needs_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--capacity", "480GB", "--jobs", "2"]) == 2
    assert "--jobs: only runs with --simulate" in capsys.readouterr().err
