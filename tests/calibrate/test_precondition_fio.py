"""The graded plan's rounds through real fio on a loop device: the job files run, each round
writes the prefix (first level) or suffix (later level) it names, and the measurement records
what was written. A loop device has no FTL (no steady state to reach): this checks the plan
executes as it says."""

from __future__ import annotations

import configparser
import shutil
from dataclasses import replace

import pytest
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, design
from overprov.calibrate.precondition import graded_rounds
from overprov.profile.target_kinds import make_target

MIB = 2**20

pytestmark = pytest.mark.root


def _job(path) -> dict[str, str]:
    cp = configparser.ConfigParser(allow_no_value=True, interpolation=None)
    cp.read(path)
    return dict(cp["m0"]) | {f"global.{k}": v for k, v in cp["global"].items()}


def test_graded_rounds_run_through_fio_on_a_loop_device(loop_device, tmp_path):
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=64 * MIB)
    jobs = tmp_path / "fio"
    target = make_target(dev, jobs, confirm=[dev], allow_hdd=True)
    target.open()
    said: list[str] = []
    try:
        # the graded rounds after a plain fill, whatever plan.ONSET_FROM_EMPTY is (a loop
        # device reports no write counters, so calibrate would take no onset on it either)
        plan = design([0.0, 40.0], Budget(drive_writes=5000.0), precondition="graded",
                      onset_from_empty=False)  # fmt: skip
        # four prefixes and two-round windows keep the run to about half a minute of fio
        plan = replace(plan, graded_rounds=4, window_rounds=2)
        m = measure(target, plan, said.append)
    finally:
        target.close()
    assert m.status == "complete"
    assert [(lv.extra_op_percent, lv.queue_depth) for lv in m.levels] == [
        (0, None), (40, None), (40, 4)
    ]  # the levels, then the QD4 probe  # fmt: skip
    cap = m.capacity_bytes
    for seg in plan.segments:
        x = seg.extra_op_percent
        span = int(cap * (1 - x / 100)) // 4096 * 4096
        steps = graded_rounds(x, seg.precondition_drive_writes, plan.graded_rounds)
        assert len(steps) == 4
        for i, step in enumerate(steps):
            label = f"op{x:g}-g1.{i + 1:02d}-01"
            job = _job(jobs / f"{label}.fio")
            region = int(span * step.span_fraction) // 4096 * 4096
            if x == plan.segments[0].extra_op_percent:
                # the job covers the prefix (the first 4 KiB hold the run marker)
                assert int(job["offset"]) + int(job["size"]) == region, (label, job)
            else:  # a later level's rounds cover suffixes of its span
                assert int(job["offset"]) == max(span - region, 4096), (label, job)
                assert int(job["offset"]) + int(job["size"]) == span, (label, job)
            assert job["global.rw"] == "randwrite" and job["global.time_based"] == "1"
            rounds = [r for r in m.rounds if r.label.startswith(f"op{x:g}-g1.{i + 1:02d}-")]
            # a real round lasts at least a second: on 64 MiB it writes at least its share
            assert rounds and sum(r.bytes_written for r in rounds) >= step.drive_writes * cap
        assert any(f"{x:g}% extra OP: graded preconditioning" in s for s in said), said
    # what the measurement says it wrote is what its rounds wrote
    assert m.bytes_written == sum(r.bytes_written for r in m.rounds)
    assert m.plan is not None and m.plan["precondition"] == "graded"
    # a loop device reports no write counters: the onset of garbage collection cannot be seen,
    # and the first level falls back to the share of the assumed native OP, saying so
    assert m.plan["spare_from"] == "onset" and m.spare_source == "assumed: no write counters"
    assert m.spare_drive_writes == plan.segments[0].precondition_drive_writes
    assert any("no write counters" in s for s in said), said
