"""The cliff step through real fio on a file: the same code path as on ``sim:``, its rounds fio
job files of QD32 4 KiB random writes over the whole file, each a second, read back from fio's
output. A file has no SLC cache: the step ends at its bound, and the prediction says why."""

from __future__ import annotations

import configparser
import shutil

import pytest
from overprov.calibrate import cliff_prediction, cliff_step
from overprov.calibrate.measure import SegmentRunner
from overprov.calibrate.plan import Budget, MeasurementPlan
from overprov.measurement_file import Measurement
from overprov.profile.fio_job import workload_start
from overprov.profile.fio_target import FioTarget

MIB = 2**20

pytestmark = pytest.mark.fio


def test_the_step_runs_through_fio_on_a_file(tmp_path):
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    path = tmp_path / "drive.img"
    target = FioTarget(str(path), tmp_path / "fio", size_bytes=16 * MIB, ioengine="psync")
    # a bound of a hundredth of a drive write: one round of a second passes it; no idle time
    step = cliff_step.CliffPlan(
        cliff_step.parse_workload("qd8,read70"), max_drive_writes=0.01, idle_seconds=0.0
    )
    with target:
        m = Measurement(target.spec, target.capacity_bytes, 1.0, 4096, 32)
        runner = SegmentRunner(target, MeasurementPlan(budget=Budget(drive_writes=10.0)), m)
        cliff_step.measure_cliff(runner, step, 1.0)
    doc = m.cliff
    assert doc["status"] == "bound" and doc["buffer_fill_bytes"] == 0.0
    first = doc["rounds"][0]
    assert first["bytes_written"] > 0 and first["iops"] > 0 and first["duration_s"] >= 0.9
    assert first["waf"] is None and first["gc"] is False  # a file reports no write counters
    job = configparser.ConfigParser(allow_no_value=True, interpolation=None)
    job.read(tmp_path / "fio" / "cliff-0001.fio")
    g = job["global"]
    assert (g["rw"], g["bs"], g["iodepth"]) == ("randwrite", "4096", "32")
    assert float(g["runtime"]) == 1.0 and g["norandommap"] == "1"
    assert (tmp_path / "fio" / "cliff-idle.fio").exists()  # the round after the second purge
    out = cliff_prediction.predict(doc, {}, "1")
    assert out["fit"] is None and "no step in the series" in out["declined"]


def test_a_read_probe_runs_through_fio_and_its_reads_are_read_back(tmp_path, monkeypatch):
    """The mixed probe: its region written sequentially, then the workload's mix over it (fio
    ``randrw``, ``rwmixread``, its queue depth); the reads' mean latency parsed from fio's
    read figures (``Figures.read_latency_us_mean``)."""
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    target = FioTarget(str(tmp_path / "d.img"), tmp_path / "fio", size_bytes=16 * MIB,
                       ioengine="psync")  # fmt: skip
    with target:
        m = Measurement(target.spec, target.capacity_bytes, 1.0, 4096, 32)
        runner = SegmentRunner(target, MeasurementPlan(budget=Budget(drive_writes=10.0)), m)
        wl = cliff_step.parse_workload("qd8,read70")
        out = cliff_step.probe(runner, "cliff-probe-after", 4 * MIB, wl, 1.0)
    # the fill writes the region the mix covers: from past the target's run marker on
    start = workload_start(131072)
    assert out["span_bytes"] == 4 * MIB and out["fill_bytes"] == 4 * MIB - start
    assert out["read_us"] is not None and out["read_us"] > 0 and out["bytes_written"] > 0
    job = configparser.ConfigParser(allow_no_value=True, interpolation=None)
    job.read(tmp_path / "fio" / "cliff-probe-after.fio")
    g = job["global"]
    assert (g["rw"], g["rwmixread"], g["iodepth"]) == ("randrw", "70", "8")
    fill = configparser.ConfigParser(allow_no_value=True, interpolation=None)
    fill.read(tmp_path / "fio" / "cliff-probe-after-fill.fio")
    assert fill["global"]["rw"] == "write"
    note = cliff_prediction.probes_note({"after": out, "before": out})
    assert note.startswith("measured and kept, not used in the prediction")  # the default
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    note = cliff_prediction.probes_note({"after": out, "before": out})
    assert note.startswith("measured and used in the prediction from purged")
