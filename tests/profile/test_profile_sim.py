"""The profiler on simulated drives (sim:PRESET): the same pipeline as a real drive."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import RoundSpec, Target
from overprov.results import SCHEMA_PATH

REPO = Path(__file__).resolve().parents[2]


TARGET_IOPS = 30000


@pytest.fixture(scope="module")
def profiled(tmp_path_factory) -> tuple[dict, str, Path]:
    """One profile of a 4 GiB simulated drive at three levels with a target, read by the two
    tests below (the target changes only the recommendation, not what is measured): its
    results, its text and its folder."""
    out = tmp_path_factory.mktemp("sim-profile") / "prof"
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", "profile", "sim:consumer-tlc-sata@4GiB",
         "--round-seconds", "2500", "--max-rounds", "25", "--extra-op", "0,20,40",
         "--target-iops", str(TARGET_IOPS), "--out", str(out), "--no-report"],
        capture_output=True, text=True, timeout=900, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO / "python")},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((out / "results.json").read_text()), proc.stdout, out


@pytest.mark.slow  # a profile of a 4 GiB simulated drive at three levels
@pytest.mark.timeout(900)  # minutes on a loaded machine
def test_steady_iops_rise_with_op_and_results_validate(profiled):
    doc, text, out = profiled
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.validate(doc, schema)
    phases = doc["phases"]
    assert [p["extra_op_percent"] for p in phases] == [0, 20, 40]
    assert all(p["steady"] for p in phases), [p.get("verdict") for p in phases]
    iops = [p["steady_iops"] for p in phases]
    assert iops[0] < iops[1] < iops[2], iops
    assert doc["target"]["kind"] == "sim"
    assert "overprov-sim" in doc["software"]
    assert "fio job files" not in text and "(simulated)" in text
    assert (out / "phase-op20.csv").exists()
    # --no-report: the results without the HTML report, and nothing said of one
    assert not (out / "report.html").exists() and not (out / "report-files").exists()
    assert "report:" not in text


@pytest.mark.slow  # the same profile
@pytest.mark.timeout(900)
def test_recommendation_is_the_smallest_op_meeting_the_target(profiled):
    doc, _, _ = profiled
    assert doc["settings"]["target_iops"] == TARGET_IOPS
    steady = {p["extra_op_percent"]: p["steady_iops"] for p in doc["phases"]}
    meeting = sorted(op for op, v in steady.items() if v is not None and v >= TARGET_IOPS)
    assert meeting, steady
    assert doc["recommendation"]["extra_op_percent"] == meeting[0]
    assert steady[0] < TARGET_IOPS  # the smallest level does not meet it: the choice is not trivial


@pytest.mark.slow  # reads the profile above
def test_the_identify_line_reads_as_text_not_as_python(profiled):
    """profile.log's identify line gives a float field to 6 figures and the software as
    "name version" pairs, not a float's binary noise or a Python dict."""
    _, _, out = profiled
    line = next(x for x in (out / "profile.log").read_text().splitlines() if "tested per" in x)
    assert "scale_factor=0.004," in line, line
    assert "software: overprov " in line and ", python 3." in line, line
    assert "{" not in line and "'" not in line.split("description=")[0], line


def test_sim_target_follows_the_protocol_and_discards_make_spare_space():
    t = make_target("sim:enterprise-tlc-nvme@2GiB", None)
    assert isinstance(t, Target)
    t.open()
    try:
        assert t.identity()["members"][0]["preset"] == "enterprise-tlc-nvme"
        half = t.capacity_bytes // 2
        spec = RoundSpec(label="r1", rw="randwrite", bs_bytes=4096, qd=32, jobs=1,
                         span_bytes=t.capacity_bytes, seconds=2)  # fmt: skip
        full = t.run(spec).combined
        assert full.iops > 0 and len(full.iops_series) == 2
        assert full.latency_us["p50"] <= full.latency_us["p99"] <= full.latency_us["max"]
        assert "TRIM" in t.discard_tail(half)
        once = t.run(RoundSpec(label="seq", rw="write", bs_bytes=131072, qd=32, jobs=1,
                               span_bytes=half, seconds=None))  # fmt: skip
        assert once.combined.bytes_written == half  # the span written exactly once
    finally:
        t.close()


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("sim:", "give a preset"),
        ("sim:nope", "no preset 'nope'"),
        ("sim:consumer-tlc-sata@3", "@SCALE: must shrink the drive"),
    ],
)
def test_bad_sim_specs_are_explained(spec, needle):
    with pytest.raises(Exception, match=needle):
        make_target(spec, None)


def test_a_simulated_profile_cannot_be_resumed_and_says_why():
    t = make_target("sim:older-mlc-sata@1GiB", None)
    with pytest.raises(Exception, match="cannot be resumed"):
        t.open(resuming=True)


def test_a_simulated_mixed_round_reports_its_reads_mean_latency_as_fio_does():
    """A round with ``read_percent`` on ``sim:``: its writes' figures (fio's write side) and its
    reads' mean latency (``Figures.read_latency_us_mean``); a round without reads has none."""
    t = make_target("sim:enterprise-tlc-nvme@2GiB", None)
    t.open()
    try:
        span = t.capacity_bytes // 8
        t.run(RoundSpec(label="fill", rw="write", bs_bytes=131072, qd=32, jobs=1,
                        span_bytes=span, seconds=None))  # fmt: skip
        kw = {"rw": "randwrite", "bs_bytes": 4096, "qd": 8, "jobs": 1, "span_bytes": span,
              "seconds": 0.2, "idle_seconds": 1.0}  # fmt: skip
        mixed = t.run(RoundSpec(label="mix", read_percent=70, **kw)).combined
        writes = t.run(RoundSpec(label="w", **kw)).combined
        assert (
            writes.read_latency_us_mean is None and "read_latency_us_mean" not in writes.to_dict()
        )
        assert mixed.read_latency_us_mean is not None and mixed.read_latency_us_mean > 0
        assert mixed.bytes_written == pytest.approx(mixed.iops * mixed.duration_s * 4096, rel=1e-6)
        assert mixed.iops < writes.iops  # the reads hold queue slots: fewer writes a second
        with pytest.raises(Exception, match="rate_iops"):
            t.run(RoundSpec(label="open", rate_iops=1000.0, **kw))
    finally:
        t.close()
