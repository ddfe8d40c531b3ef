"""Write cliff and IO consistency."""

from __future__ import annotations

from overprov.profile.sim_target import SimTarget
from overprov.qualify import consistency
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import INFO


def test_simulated_write_cliff_comes_when_the_nand_is_full():
    """Garbage collection first runs when every erase block holds data: the cliff lies just
    under the drive's NAND capacity written from fresh (less the free blocks GC keeps)."""
    spec = "sim:consumer-tlc-sata@2GiB"
    figures, method = consistency.measure_sim(spec, QualifySettings())
    cliff = figures["cliff"]
    nand = SimTarget(spec).physical_bytes
    print(cliff, nand)
    assert cliff["found"]
    assert 0.9 * nand <= cliff["cliff_bytes"] <= nand
    assert cliff["after_iops"] < 0.5 * cliff["fob_iops"]
    verdicts = consistency.judge(figures, method)
    assert [v.test for v in verdicts] == ["write_cliff", "consistency"]
    assert verdicts[0].verdict == INFO and f"{cliff['cliff_bytes']:,}" in verdicts[0].finding
    lat = figures["latency_p99_us"], figures["latency_p99_99_us"], figures["latency_max_us"]
    assert 0 < lat[0] <= lat[1] <= lat[2]


def test_find_cliff_on_a_measured_shape():
    # 10 intervals at 50k IOPS, then GC: 12k for the rest; 4 KiB writes
    iops = [50_000.0] * 10 + [12_000.0] * 30
    points, total = [], 0
    for x in iops:
        total += int(x) * 4096
        points.append((x, total))
    cliff = consistency.find_cliff(points)
    assert cliff["found"] and cliff["fob_iops"] == 50_000 and cliff["after_iops"] == 12_000
    assert cliff["cliff_bytes"] == 10 * 50_000 * 4096
    flat = consistency.find_cliff([(100.0, i) for i in range(20)])
    assert not flat["found"]


def test_the_consistency_limits_are_options():
    figures = {
        "cliff": {"found": False, "intervals": 10},
        "capacity_bytes": 1 << 30,
        "latency_p99_us": 100.0,
        "latency_p99_99_us": 2_000.0,
        "latency_max_us": 5_000.0,
    }
    _, default = consistency.judge(figures, "rule")
    assert default.verdict == "fail" and "above 10× p99" in default.finding
    _, loose = consistency.judge(figures, "rule", max_ratio=25.0)
    assert loose.verdict == "pass" and loose.figures["outlier_max_ratio"] == 25.0
    # a data sheet's 99.99% QoS figure holds the tail to an absolute limit as well
    _, qos = consistency.judge(figures, "rule", max_ratio=25.0, qos_us=1_500.0)
    assert qos.verdict == "fail" and "1,500 µs QoS limit" in qos.finding
    _, met = consistency.judge(figures, "rule", max_ratio=25.0, qos_us=3_000.0)
    assert met.verdict == "pass" and met.figures["qos_p99_99_us"] == 3_000.0
