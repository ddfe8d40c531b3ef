"""bench/foreign/common.py's ``level_record``, the per-level record the EagleTree, FEMU,
SimpleSSD and DiskSim drivers each built on their own: every level of their stored results
re-derived from its stored per-interval series (the steady figures and the window are settled
again by ``common.settle``) is the stored level, field for field and in the same order, so the
results files stay what they are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

FOREIGN = Path(__file__).resolve().parents[2] / "bench" / "foreign"
sys.path.insert(0, str(FOREIGN))

import common  # noqa: E402

STORED = ["eagletree.json", "femu.json", "simplessd.json", "simplessd-spare0125.json",
          "disksim-ssd.json"]  # fmt: skip


@pytest.mark.parametrize("name", STORED)
def test_each_stored_level_is_its_series_recorded_again(name):
    doc = json.loads((FOREIGN / "results" / name).read_text())
    assert doc["levels"]
    for stored in doc["levels"]:
        again = common.level_record(
            stored["extra_op_percent"], stored["queue_depth"], stored["span_pages"],
            stored["drive_writes"], stored["series"], stored["fob_iops"], stored["fob"],
            wall_s=stored["wall_s"], runs=stored.get("runs"), harness=stored.get("harness"),
        )  # fmt: skip
        assert json.dumps(again) == json.dumps(stored)


def test_a_series_shorter_than_the_window_is_refused():
    series = [{"span_writes": i, "iops": 1.0, "waf": 1.0} for i in range(3)]
    with pytest.raises(ValueError, match="the window needs 8"):
        common.level_record(0, 32, 100, 1.0, series, 1.0, {}, wall_s=1.0)
