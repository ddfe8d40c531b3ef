"""bench/foreign/py_ssd_sim_target.py: py_ssd_sim behind calibrate's Target protocol, rounds
run one by one on a small drive (4 channels, 2 SLC super blocks). Needs a clone of the
simulator and an interpreter with its imports (PY_SSD_SIM_CHECKOUT, PY_SSD_SIM_PYTHON, or the
bench's /work/foreign-build/pysim and pysim-venv); skipped without them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import py_ssd_sim_target  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402
from overprov.profile.targets import RoundSpec  # noqa: E402

CHECKOUT = Path(os.environ.get("PY_SSD_SIM_CHECKOUT", "/work/foreign-build/pysim"))
PYTHON = os.environ.get("PY_SSD_SIM_PYTHON", "/work/foreign-build/pysim-venv/bin/python")

pytestmark = pytest.mark.skipif(
    not ((CHECKOUT / "sim_main.py").exists() and Path(PYTHON).exists()),
    reason="needs a clone of py_ssd_sim (PY_SSD_SIM_CHECKOUT) and an interpreter with its "
    "imports (PY_SSD_SIM_PYTHON)",
)


def test_rounds_through_the_target_protocol(tmp_path):
    t = py_ssd_sim_target.PySsdSimTarget(CHECKOUT, PYTHON, tmp_path, 4, 2)
    assert t.kind == "sim" and t.capacity_bytes == 2**30 and t.buffer_bytes == 2 * 2**20
    t.open()
    try:
        first = t.run(RoundSpec("w1", "randwrite", 4096, 32, 1, 2**30, seconds=0.005)).combined
        # a timed round: the host stops issuing past its seconds, then its queue drains
        assert first.duration_s >= 0.005 and first.bytes_written % 4096 == 0
        assert first.iops == pytest.approx(first.bytes_written / 4096 / first.duration_s)
        assert first.read_latency_us_mean is None
        fill = t.run(RoundSpec("f", "write", 131072, 32, 1, 1 << 20)).combined
        assert fill.bytes_written == 1 << 20  # the span written once, sequentially
        mixed = t.run(RoundSpec("m", "randwrite", 4096, 8, 1, 1 << 20, seconds=0.003,
                                read_percent=70)).combined  # fmt: skip
        assert mixed.read_latency_us_mean is not None and mixed.read_latency_us_mean > 0
        reads = t.last["nand_reads"] + t.last["instant_reads"]
        assert reads > t.last["writes"]  # 70% of the commands drawn reads
        assert t.last["pending"] == 0 and t.last["verify_wrong"] == 0
        with pytest.raises(ConfigError, match="trim"):
            t.discard_tail(1 << 29)
        with pytest.raises(ConfigError, match="untimed random"):
            t.run(RoundSpec("u", "randwrite", 4096, 32, 1, 1 << 20))
        t.purge()  # a fresh drive: the first round again, the same seed, the same figures
        again = t.run(RoundSpec("w1", "randwrite", 4096, 32, 1, 2**30, seconds=0.005)).combined
        assert again.bytes_written == first.bytes_written
        assert again.duration_s == pytest.approx(first.duration_s)
    finally:
        t.close()
    assert t.cpu_s > 0
