"""FEMU behind calibrate's Target protocol (``bench/foreign/femu_target.py``): how a round, a
discard and a purge become harness phases. FEMU itself is built outside the repository, so the
harness here is a stand-in speaking its ``--workload`` protocol (a page every millisecond, NAND
pages = host pages): it checks the adapter's protocol, not FEMU's figures."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
from overprov.errors import ConfigError
from overprov.profile.targets import RoundSpec

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import femu_target  # noqa: E402

NS_PER_PAGE = 1_000_000  # the stand-in's service time: 1,000 IOPS at any queue depth

STAND_IN = f"""#!{sys.executable}
import os, sys
log = open(os.environ["FEMU_STAND_IN_LOG"], "a")
print("G tt_pgs 65536 pgs_per_line 256 tt_lines 256 tt_luns 4", flush=True)
print("R 0 0 0 0 255", flush=True)
host = t = 0
for line in sys.stdin:
    log.write(line)
    log.flush()
    kind, *n = line.split()
    if kind in ("seq", "rand"):
        host += int(n[-1])
        t += int(n[-1]) * {NS_PER_PAGE}
    print(f"P {{host}} {{t}} {{host}} 0 255", flush=True)
"""


@pytest.fixture
def target(tmp_path, monkeypatch):
    binary = tmp_path / "femu-bbssd-harness"
    binary.write_text(STAND_IN)
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("FEMU_STAND_IN_LOG", str(tmp_path / "phases.log"))
    t = femu_target.FemuTarget(binary, {"nchs": 2, "luns_per_ch": 2}, 64, "stand-in")
    t.open()
    yield t
    t.close()


def _phases(tmp_path: Path) -> list[str]:
    return (tmp_path / "phases.log").read_text().splitlines()


def test_a_timed_round_writes_until_its_simulated_seconds_then_stops(target, tmp_path):
    spec = RoundSpec("op0-r001", "randwrite", 4096, 32, 1, target.capacity_bytes, seconds=2)
    r = target.run(spec).combined
    pages = r.bytes_written // 4096
    # 2 s at 1,000 IOPS, ended within one chunk past its time
    assert 2000 <= pages <= 2000 + femu_target.MIN_CHUNK_PAGES
    assert r.duration_s == pytest.approx(pages * NS_PER_PAGE / 1e9)
    assert r.iops == pytest.approx(1000.0)
    phases = _phases(tmp_path)
    assert phases[0] == "qd 32" and phases[-1] == "qd 32"  # a job's start and its drain
    assert all(p.startswith(f"rand 0 {64 * 256} ") for p in phases[1:-1])
    assert target.write_counters() == {"host_bytes": pages * 4096, "nand_bytes": pages * 4096}


def test_a_sequential_round_writes_its_span_once_at_its_offset(target, tmp_path):
    spec = RoundSpec("fill-001", "write", 131072, 32, 1, 1 << 20, offset_bytes=1 << 21)
    r = target.run(spec).combined
    assert r.bytes_written == 1 << 20
    assert r.iops == pytest.approx(1000.0 / 32)  # 128 KiB writes: 32 pages each
    assert _phases(tmp_path) == ["qd 32", "seq 512 256", "qd 32"]


def test_the_discard_unmaps_the_tail_and_the_purge_starts_a_fresh_drive(target, tmp_path):
    cap_pages = target.capacity_bytes // 4096
    said = target.discard_tail(int(target.capacity_bytes * 0.6) // 4096 * 4096)
    first = int(cap_pages * 0.6)
    assert _phases(tmp_path) == [f"trim {first} {cap_pages - first}"]
    assert f"({cap_pages - first} pages)" in said
    target.run(RoundSpec("r", "randwrite", 4096, 4, 1, 4096 * 100, seconds=1))
    assert target.write_counters()["host_bytes"] > 0
    target.purge()
    assert target.write_counters() == {"host_bytes": 0, "nand_bytes": 0}
    assert target.discard_tail(target.capacity_bytes) == (
        f"unmapped pages {cap_pages}..{cap_pages - 1} (0 pages)"
    )


def test_what_the_harness_cannot_run_is_refused(target):
    with pytest.raises(ConfigError, match="reads, a rate"):
        target.run(RoundSpec("mix", "randwrite", 4096, 4, 1, 4096, seconds=1, read_percent=30))
    with pytest.raises(ConfigError, match="past the namespace"):
        target.run(RoundSpec("big", "write", 4096, 4, 1, target.capacity_bytes + 4096))


FAST_CHUNK_PAGES = 256  # the stand-in below: a phase this small takes 1 ms a page, others 8


def test_round_rate_sizes_a_round_at_its_own_rate_not_a_fast_last_chunk(tmp_path, monkeypatch):
    """A round's last chunks that finish fast (here a phase of at most 256 pages costs 1 ms a
    page, a larger one 8 ms) size the next round from their rate with ``ROUND_RATE`` off, and
    it overruns its seconds several times over (FEMU: 85.7 s for 11 s); on, the round's own rate
    so far sizes it and it ends near its seconds."""
    stand_in = STAND_IN.replace(
        f"t += int(n[-1]) * {NS_PER_PAGE}",
        f"k = int(n[-1]); t += k * (1 if k <= {FAST_CHUNK_PAGES} else 8) * {NS_PER_PAGE}",
    )
    binary = tmp_path / "femu-bbssd-harness"
    binary.write_text(stand_in)
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("FEMU_STAND_IN_LOG", str(tmp_path / "phases.log"))
    overrun = {}
    for on in (False, True):
        monkeypatch.setattr(femu_target, "ROUND_RATE", on)
        t = femu_target.FemuTarget(binary, {"nchs": 2, "luns_per_ch": 2}, 64, "stand-in")
        t.open()
        try:
            spans = []
            for i in range(3):
                spec = RoundSpec(f"op0-r00{i}", "randwrite", 4096, 32, 1, t.capacity_bytes,
                                 seconds=10)  # fmt: skip
                spans.append(t.run(spec).combined.duration_s)
        finally:
            t.close()
        overrun[on] = max(spans[1:]) / 10
    assert femu_target.ROUND_RATE is True  # (monkeypatched; off by default: below)
    assert overrun[False] > 2.0  # a round sized from a fast 64-page chunk runs long
    assert overrun[True] < 1.5


def test_round_rate_is_off_by_default():
    assert femu_target.ROUND_RATE is False
