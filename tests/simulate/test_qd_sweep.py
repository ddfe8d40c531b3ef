"""``overprov simulate --qd 1,2,...,32``: one timed run per (OP level, queue depth), the PTS view
of latency against IOPS. Run on a small preset drive (1/256 scale, 70/30 read/write mix, 30 s
simulated per point) so the sweep takes seconds; every figure asserted is computed by the run."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from overprov.errors import ConfigError
from overprov.json_schemas import validate_document
from overprov.qd_sweep import QdPoint, expand, find_knee, sweep_levels

QDS = (1, 2, 4, 8, 16, 32)


@pytest.fixture(scope="module")
def sweep_run(tmp_path_factory) -> tuple[dict, str]:
    from overprov import cli

    out = tmp_path_factory.mktemp("qd-sweep") / "sim.json"
    argv = [
        "simulate", "--preset", "consumer-tlc-sata", "--scale", "1/256", "--extra-op", "0,20",
        "--qd", ",".join(map(str, QDS)), "--read-pct", "70", "--duration", "30s",
        "--no-progress", "--jobs", "1", "--json", str(out),
    ]  # fmt: skip
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main(argv) == 0
    return json.loads(out.read_text()), buf.getvalue()


def test_one_run_per_level_and_depth_and_the_document_validates(sweep_run):
    doc, _ = sweep_run
    validate_document(doc, "overprov.simulate", "simulate --qd")
    got = [
        (r["config"]["geometry"]["extra_op_percent"], r["config"]["timing"]["host"]["queue_depth"])
        for r in doc["runs"]
    ]
    assert got == [(op, qd) for op in (0.0, 20.0) for qd in QDS]
    assert all(r["config"]["workload"]["read_percent"] == 70.0 for r in doc["runs"])


def test_iops_rise_then_flatten_while_latency_rises(sweep_run):
    doc, _ = sweep_run
    levels = sweep_levels(doc["runs"])
    assert list(levels) == [0.0, 20.0]
    for op, pts in levels.items():
        assert [p.qd for p in pts] == list(QDS)
        iops = [p.iops for p in pts]
        assert iops[2] > 1.3 * iops[0], (op, iops)  # QD1 → QD4: more in flight, more IOPS
        assert iops[-1] < 1.1 * iops[-2], (op, iops)  # QD16 → QD32: the drive is saturated
        p99 = [p.p99_us for p in pts]
        assert p99[-1] > 3 * p99[0], (op, p99)
        mean = [p.mean_us for p in pts]
        assert mean == sorted(mean), (op, mean)  # Little's law: QD grows faster than IOPS
    # more OP, more IOPS at saturation
    assert levels[20.0][-1].iops > 1.2 * levels[0.0][-1].iops


def test_the_knee_is_found_and_printed(sweep_run):
    doc, text = sweep_run
    for op, pts in sweep_levels(doc["runs"]).items():
        knee = find_knee(pts)
        assert knee is not None and 1 < knee.qd < 32, op
        after = pts[pts.index(knee) + 1]
        assert after.iops < 1.1 * knee.iops and after.p99_us > 1.5 * knee.p99_us
        row = next(line for line in text.splitlines() if "knee" in line and f"{op:g}%" in line)
        assert f" {knee.qd} " in row and f"{knee.iops:,.0f}" in row
    assert "queue-depth sweep" in text and "QD1,2,4,8,16,32 closed loop" in text


def _pt(qd: int, iops: float, p99: float) -> QdPoint:
    return QdPoint(
        qd=qd, iops=iops, mean_us=qd / iops * 1e6, p99_us=p99, p99_9_us=None, steady=True
    )


def test_the_knee_rule():
    # IOPS still grow 20% while p99 doubles: not the knee; then +5% IOPS for 2× p99: the knee
    pts = [_pt(1, 100, 10), _pt(2, 120, 20), _pt(4, 126, 40), _pt(8, 127, 80)]
    assert find_knee(pts) == pts[1]
    # latency flat: no knee however little IOPS grow
    assert find_knee([_pt(1, 100, 10), _pt(2, 101, 12)]) is None


def test_a_depth_list_is_refused_with_an_open_loop_or_repeats():
    cfg = {"timing": {"enabled": True, "host": {"mode": "open", "arrival_iops": 1000}}}
    with pytest.raises(ConfigError, match="--qd"):
        expand([cfg], [1, 4])
    with pytest.raises(ConfigError, match="repeats"):
        expand([{}], [4, 4])
    assert expand([{}], [8]) == [{}]  # one depth: the config as given (set by the flag)
