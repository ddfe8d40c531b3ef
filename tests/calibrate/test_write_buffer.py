"""The twin's write buffer, read from IOPS at two queue depths (calibrate/write_buffer.py): a
buffer the drive has is found, one it has not is not invented, and without figures at two
queue depths the twin keeps its 64 MiB and says it is assumed."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
from overprov import presets
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod
from overprov.calibrate import write_buffer
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, MeasurementPlan, segments_for, with_probe
from overprov.profile.sim_target import SimTarget

#: The README's calibration of sim:consumer-tlc-sata@4GiB fitted this twin (its analytic
#: reading: a negative t_cmd, the NAND alone).
TWIN = twinmod.TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.0697, t_page_us=13.18, t_cmd_us=-1.35,
    uncertainty={}, source="test",
)  # fmt: skip


def declared(record: dict) -> None:
    """``fit.write_buffer`` as prediction.schema.json declares it: every key written is
    declared with its type (docs/json.md names them; they were written, not declared)."""
    path = Path(write_buffer.__file__).parent / "prediction.schema.json"
    fit = json.loads(path.read_text(encoding="utf-8"))["properties"]["fit"]
    schema = fit["properties"]["write_buffer"]
    jsonschema.validate(record, schema)
    assert set(record) == set(schema["properties"])


def measured(buffer_bytes: int) -> tuple[list[fitmod.Point], list[fitmod.Point]]:
    """calibrate's figures at 40% and its QD4 probe there, of the consumer preset at 1 GiB
    with this write buffer: (the QD32 figure, the QD4 one)."""
    drive = copy.deepcopy(presets.get("consumer-tlc-sata"))
    drive["config"]["timing"]["buffer"]["bytes"] = buffer_bytes
    plan = with_probe(MeasurementPlan(budget=Budget(), segments=segments_for([40.0])), 4)
    with SimTarget("sim:truth@1GiB", seed=1, drive=drive) as target:
        m = measure(target, plan)
    points = [
        fitmod.Point(lv.extra_op_percent, iops=lv.steady_iops, queue_depth=lv.queue_depth)
        for lv in m.levels
    ]
    return fitmod.split_queue_depths(points, plan.qd)


@pytest.mark.parametrize("buffer_bytes", [32 * 2**20, 0])
def test_a_buffer_the_drive_has_is_found_and_one_it_has_not_is_not_invented(
    monkeypatch, buffer_bytes
):
    monkeypatch.setattr(twinmod, "TWIN_SIM_PHYSICAL_BYTES", 2**30)  # a small twin
    got = write_buffer.read(TWIN, *measured(buffer_bytes))
    assert got.identified
    assert (got.buffer_bytes > 0) == (buffer_bytes > 0)
    # the measured ratio is nearer the twin that was kept
    kept, other = (
        (got.twin_qd_ratio_buffered, got.twin_qd_ratio_unbuffered)
        if got.buffer_bytes
        else (got.twin_qd_ratio_unbuffered, got.twin_qd_ratio_buffered)
    )
    assert abs(got.measured_qd_ratio - kept) < abs(got.measured_qd_ratio - other)
    twin = twinmod.drive_dict(dataclasses.replace(TWIN, buffer_bytes=got.buffer_bytes))
    assert twin["config"]["timing"]["buffer"]["bytes"] == got.buffer_bytes
    declared(got.to_dict())


def test_without_figures_at_two_queue_depths_the_twin_keeps_its_buffer_and_says_it_is_assumed():
    """Figures without a second queue depth cannot tell: the twin keeps the 64 MiB it always
    had, and prediction_source says it is assumed; nor are figures under a skewed workload or
    typed ones read (for these the buffer also moves the IOPS, unchecked on the corpus)."""
    got = write_buffer.read(TWIN, [fitmod.Point(40.0, iops=60_000.0)], [])
    assert (got.buffer_bytes, got.identified) == (write_buffer.BUFFER_BYTES, False)
    assert "assumed (not identified" in got.describe()
    declared(got.to_dict())
    skewed = write_buffer.read(
        TWIN, [fitmod.Point(40.0, iops=6e4)], [fitmod.Point(40.0, iops=6e4, queue_depth=4)],
        skewed=True,
    )  # fmt: skip
    assert (skewed.buffer_bytes, skewed.identified) == (write_buffer.BUFFER_BYTES, False)
    typed = write_buffer.read(
        TWIN, [fitmod.Point(40.0, iops=6e4)], [fitmod.Point(40.0, iops=2e4, queue_depth=4)],
        typed=True,
    )  # fmt: skip
    assert (typed.buffer_bytes, typed.identified) == (write_buffer.BUFFER_BYTES, False)
