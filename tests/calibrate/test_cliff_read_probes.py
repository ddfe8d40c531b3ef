"""The mixed cliff from two read probes (calibrate/read_probes.py): a probe run read, the
one-shot NAND, the closed loop's probe past the cliff and its slot held only before the cache
is written, the program chosen by the probe, and the flag (on since the eighth rule). None
needs the simulator's clone (the stored probe and write series of bench/results/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))

import py_ssd_sim_cliff_eval  # noqa: E402
import py_ssd_sim_read_cost  # noqa: E402
import py_ssd_sim_twin  # noqa: E402
from overprov.calibrate import cliff, read_probes, read_slot  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402

FIT = ROOT / "bench/results/cliff-foreign3/evaluation-a-qd8-70-30.json"
FIT_SERIES = ROOT / "bench/results/cliff-foreign/fit-qd32-writes.json"
BEFORE = ROOT / "bench/results/cliff-foreign5/probe-sim-written-reads.json"


@pytest.fixture(scope="module")
def drive() -> dict:
    return py_ssd_sim_read_cost.fitted_twin(FIT, link_booking="gaps")


def _loop(drive: dict, **kw):
    cfg = cliff._config(  # noqa: SLF001
        drive, 1.0, qd=8, read_percent=0, seconds=1.0, interval_s=1.0, precondition="none"
    )
    return read_slot.request_loop(cfg, qd=8, read_percent=30, read_pages="written", **kw)


def test_probe_read_before_and_past_the_cliff():
    import json

    before = read_probes.probe_reading(json.loads(BEFORE.read_text()))
    assert before.read_us == pytest.approx(194.89, abs=0.01)
    assert before.writes_before_bytes == 0 and before.requests == 112 * 256
    after = {
        "qd": 8, "read_percent": 30, "read_pages": "written", "amount_mib": 24,
        "reads_after_mib": 16, "queue_time": {"read_latency_us_mean": 1.0},
        "queue_time_late": {"read_latency_us_mean": 900.0},
    }  # fmt: skip
    p = read_probes.probe_reading(after)
    assert (p.read_us, p.writes_before_bytes, p.requests) == (900.0, 16 * 2**20, 24 * 256)
    with pytest.raises(ConfigError):
        read_probes.probe_reading({**after, "read_pages": "any"})
    with pytest.raises(ConfigError):
        read_probes.probe_reading({**after, "queue_time_late": {"read_latency_us_mean": None}})


def test_one_shot_programs_three_pages_whole_at_the_same_rate():
    d = py_ssd_sim_twin.twin(8)
    o = read_probes.one_shot(d)
    nand, base = o["config"]["timing"]["nand"], d["config"]["timing"]["nand"]
    assert nand["flash_page_bytes"] == 3 * base["flash_page_bytes"] == 98304
    assert nand["program_us"] == 3 * base["program_us"] == 2100.0
    assert nand["program_granularity"] == "page" and "program_granularity" not in base
    assert (
        o is not d
        and read_probes.with_link(d)["config"]["timing"]["host"]["link_booking"] == "gaps"
    )
    assert "link_booking" not in d["config"]["timing"]["host"]


def test_a_probe_past_the_cliff_reads_only_after_its_writes(drive):
    # events in issue order: writes only until 8 MiB are written, then 30% reads
    events, _ = _loop(drive, end_ns=10**12, reads_after_bytes=8 * 2**20, requests=3000)
    assert len(events) == 3000
    first_read = next(i for i, e in enumerate(events) if not e[1])
    assert 2048 <= first_read < 2048 + 30
    assert 0.2 < sum(not e[1] for e in events[first_read:]) / (3000 - first_read) < 0.4


def test_the_slot_is_held_only_until_the_bytes_are_written(drive):
    slot_ns = 123_456
    events, _ = _loop(
        drive, end_ns=10**12, read_slot_ns=slot_ns, read_slot_until_bytes=4 * 2**20,
        requests=3000,
    )  # fmt: skip
    written = 0
    before, after = [], []
    for _, is_write, queue_ns in events:
        if is_write:
            written += 4096
        else:
            (before if written < 4 * 2**20 else after).append(queue_ns)
    assert before and all(q == slot_ns for q in before)
    assert after and sum(q != slot_ns for q in after) > 0.9 * len(after)


def test_the_probe_selects_the_program_whose_reads_wait_nearer():
    twin = read_probes.with_link(py_ssd_sim_twin.twin(8))
    _, series = py_ssd_sim_cliff_eval.load(FIT_SERIES)
    probe = read_probes.Probe(
        qd=8, read_percent=30, requests=24 * 256, writes_before_bytes=16 * 2**20, read_us=1.0
    )
    low = read_probes.select_program(twin, series, probe, fit_qd=32)
    unit, shot = low.twin_read_us["unit"], low.twin_read_us["one-shot"]
    assert unit < shot  # whole programs, no suspend: reads wait longer
    assert low.program == "unit" and low.measured_read_us == 1.0
    high = read_probes.select_program(
        twin, series, read_probes.Probe(**{**probe.__dict__, "read_us": 2 * shot}), fit_qd=32
    )
    assert high.program == "one-shot"
    assert high.drive["config"]["timing"]["nand"]["program_granularity"] == "page"
    assert high.fit.tlc_program_us == pytest.approx(2100, rel=0.05)


def test_on_by_default_and_off_the_prediction_is_calibrate_s_own():
    # adopted by bench/results/cliff-foreign8/RULE.md (met); cliff.predict itself unchanged
    assert read_probes.READ_PROBES is True
    assert cliff.READ_SLOT_US is None
    twin = py_ssd_sim_twin.twin(8)
    _, series = py_ssd_sim_cliff_eval.load(FIT_SERIES)
    probe = read_probes.Probe(
        qd=8, read_percent=30, requests=256, writes_before_bytes=0, read_us=100.0
    )
    kw = dict(qd=8, read_percent=30, seconds=0.1, interval_s=0.02)
    pred, chosen = read_probes.predict(
        twin, series, probe, probe, fit_qd=32, read_probes=False, **kw
    )
    fit = cliff.fit_cache(series, twin, 1.0, qd=32, precondition="none")
    assert chosen is None
    assert pred == cliff.predict(twin, fit, 1.0, precondition="none", **kw)
