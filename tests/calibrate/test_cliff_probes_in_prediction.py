"""The cliff step's read probes in the prediction (``cliff_prediction.PROBES_IN_PREDICTION``,
off until bench/results/cliffread/RULE.md is met): the probes as ``read_probes``' (full size),
and the twin's controller ceiling put just above the measured plateau (``lift_ceiling``)."""

from __future__ import annotations

import pytest
from overprov.calibrate import cliff, cliff_prediction

PLATEAU = 100_000.0


def _twin(controller: dict | None) -> dict:
    timing = {"nand": {"program_us": 500.0}}
    if controller is not None:
        timing["controller"] = controller
    return {"advertised_bytes": 1e12, "config": {"timing": timing}}


def _ceiling(twin: dict) -> float:
    c = twin["config"]["timing"]["controller"]
    per = c["command_us"] + c["data_us_per_4kib"] + c["map_update_us"]
    return c["contexts"] * 1e6 / per


def test_the_flag_is_off_since_the_pooled_check():
    """Off until bench/results/cliffseries/verdict.md, on after it, off again since
    bench/results/cliffpool/verdict.md (every held-out seed pooled: P2 not met)."""
    assert cliff_prediction.PROBES_IN_PREDICTION is False


@pytest.mark.parametrize("command_us", [1.0, 40.0])  # a ceiling above the plateau, one under
def test_the_controller_ceiling_is_put_just_above_the_plateau(command_us):
    ctrl = {"contexts": 2, "command_us": command_us, "data_us_per_4kib": 0.5,
            "map_update_us": 2.0}  # fmt: skip
    twin = _twin(ctrl)
    lifted = cliff_prediction.lift_ceiling(twin, PLATEAU)
    assert _ceiling(lifted) == pytest.approx(PLATEAU / (1 - cliff.CEILING_MARGIN))
    c = lifted["config"]["timing"]["controller"]
    assert c["command_us"] / c["map_update_us"] == pytest.approx(command_us / 2.0)  # in proportion
    assert twin["config"]["timing"]["controller"] == ctrl  # the twin given is not changed
    assert lifted["config"]["timing"]["nand"] == twin["config"]["timing"]["nand"]
    assert cliff_prediction._lift(twin, lifted)["command_us_before"] == command_us


def test_a_twin_without_a_controller_is_given_one():
    lifted = cliff_prediction.lift_ceiling(_twin(None), PLATEAU)
    assert lifted["config"]["timing"]["controller"]["contexts"] == 1
    assert _ceiling(lifted) == pytest.approx(PLATEAU / (1 - cliff.CEILING_MARGIN))
    assert cliff_prediction._lift(_twin(None), lifted)["command_us_before"] is None
    assert cliff_prediction._lift(lifted, lifted) is None


def _ctrl(command_us: float) -> dict:
    return {"contexts": 2, "command_us": command_us, "data_us_per_4kib": 0.5, "map_update_us": 2.0}


def test_only_a_ceiling_under_the_plateau_is_lifted():
    # 2 contexts at 1 + 0.5 + 2 µs: 571,429 a second, above the plateau: kept as it is
    above = _twin(_ctrl(1.0))
    assert cliff_prediction.controller_ceiling_iops(above) == pytest.approx(2e6 / 3.5)
    assert cliff_prediction.lift_ceiling(above, PLATEAU, only_under=True) is above
    # no controller: none given
    bare = _twin(None)
    assert cliff_prediction.controller_ceiling_iops(bare) is None
    assert cliff_prediction.lift_ceiling(bare, PLATEAU, only_under=True) is bare
    # 2 contexts at 40 + 0.5 + 2 µs: 47,059 a second, under it: lifted as before
    under = _twin(_ctrl(40.0))
    lifted = cliff_prediction.lift_ceiling(under, PLATEAU, only_under=True)
    want = PLATEAU / (1 - cliff.CEILING_MARGIN)
    assert cliff_prediction.controller_ceiling_iops(lifted) == pytest.approx(want)
    assert lifted == cliff_prediction.lift_ceiling(under, PLATEAU)
    # the form judged by bench/results/cliffcheck/RULE.md stays the default
    assert cliff_prediction.controller_ceiling_iops(
        cliff_prediction.lift_ceiling(above, PLATEAU)
    ) == pytest.approx(want)  # fmt: skip


def test_the_step_s_probes_read_as_full_size_probes():
    scale = 0.01
    probe = {"qd": 8, "read_percent": 70, "span_bytes": 4096 * 1000, "fill_bytes": 4096 * 1000,
             "iops": 3000.0, "duration_s": 0.02, "bytes_written": 4096 * 60}  # fmt: skip
    doc = {"rounds": [{"bytes_written": 4096 * 5000}, {"bytes_written": 4096 * 5000}]}
    probes = {"before": {**probe, "read_us": 300.0}, "after": {**probe, "read_us": 9000.0}}
    got = cliff_prediction._probes(probes, doc, scale)
    before, after = got.before, got.after
    assert got.unwritten_read_us is None  # no probe of trimmed space: as before it
    assert (before.read_us, after.read_us) == (300.0, 9000.0)  # a latency: not scaled
    assert before.writes_before_bytes == pytest.approx(4096 * 1000 / scale)
    # past the cliff: after the series' writes and its own fill, full size
    assert after.writes_before_bytes == pytest.approx(4096 * 11_000 / scale)
    # its commands: the writes before and the mix's 60 writes with 140 reads, full size
    assert after.requests == pytest.approx((11_000 + 200) / scale, rel=1e-6)
    assert cliff_prediction._probes({"not_measured": "no"}, doc, scale) is None
    no_reads = {"before": {**probe, "read_us": None}, "after": {**probe, "read_us": 1.0}}
    assert cliff_prediction._probes(no_reads, doc, scale) is None
