"""Calibrate on generated drives it has never seen, against their long-run truth (two drives
here for CI; bench/calibrate_bench.py runs the whole seeded family and records the figures)."""

from __future__ import annotations

import pytest
from overprov.calibrate import validation


@pytest.mark.timeout(900)  # minutes on a loaded machine
@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 6])
def test_generated_drive_prediction_matches_its_truth(seed, tmp_path):
    # the random plan (a budget that holds it): at 1 GiB these drives' 256 MiB write buffers are
    # 28-29% of the capacity, the case the graded plan (the default 2dw) leaves to it
    # (docs/calibrate-graded-plan.md, "Two drive writes", Limits)
    c = validation.compare(seed, 2**30, tmp_path, budget="6dw")
    assert c.median_abs_rel_error <= 0.10
    assert c.worst_abs_rel_error <= 0.20
    # from at most a quarter of the drive writes the full measurement needs
    assert c.calibrate_drive_writes <= 0.25 * c.truth_drive_writes
    # the twin reproduces its own measured points within 5%
    assert c.twin_worst_rel_error <= 0.05


def test_generated_drives_differ_and_repeat():
    a, b = validation.drive(1), validation.drive(2)
    assert a == validation.drive(1)
    assert a["config"] != b["config"]
    ops = [validation.drive(s)["physical_bytes"] / validation.drive(s)["advertised_bytes"] - 1
           for s in range(1, 30)]  # fmt: skip
    assert min(ops) >= 0.01 and max(ops) <= 0.28
