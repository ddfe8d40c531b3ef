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
    while kind == "until" and t < int(n[2]):  # a page at a time until the deadline
        host += 1
        t += {NS_PER_PAGE}
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
BUFFER_PAGES = 256  # the other stand-in: a round's first pages (after its `qd`), 1/8 ms each


def _stand_in(tmp_path: Path, monkeypatch, *edits: tuple[str, str]) -> Path:
    """The stand-in harness with its lines edited (old, new): another service time."""
    text = STAND_IN
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    binary = tmp_path / "femu-bbssd-harness"
    binary.write_text(text)
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("FEMU_STAND_IN_LOG", str(tmp_path / "phases.log"))
    return binary


def _overrun(binary: Path, rounds: int = 3, seconds: int = 10) -> list[float]:
    """Each of ``rounds`` timed rounds' duration ÷ the seconds asked, from a fresh drive."""
    t = femu_target.FemuTarget(binary, {"nchs": 2, "luns_per_ch": 2}, 64, "stand-in")
    t.open()
    try:
        return [t.run(RoundSpec(f"op0-r00{i}", "randwrite", 4096, 32, 1, t.capacity_bytes,
                                seconds=seconds)).combined.duration_s / seconds
                for i in range(rounds)]  # fmt: skip
    finally:
        t.close()


def test_a_round_whose_first_pages_are_buffer_fast_ends_near_its_seconds(tmp_path, monkeypatch):
    """A drive whose first 256 pages of each round land 8x faster (a buffer filling, the queue
    ramping, a GC pause on other LUNs): with the default sizing every round, the first after the
    purge included, ends within 25% of the 10 s asked; sized at the last chunk's rate (every
    FEMU end-to-end run before femufix) or the round's rate with no cap on a chunk (femularge's
    round-rate arms), the first round runs several times its seconds (FEMU: 85.7 s for 11 s)."""
    binary = _stand_in(
        tmp_path,
        monkeypatch,
        ("host = t = 0", "host = t = w = 0"),  # w: pages since the last `qd`
        ("    if kind in", "    w = 0 if kind == 'qd' else w\n    if kind in"),
        (f"t += int(n[-1]) * {NS_PER_PAGE}",
         f"k = int(n[-1]); fast = max(0, min(k, {BUFFER_PAGES} - w)); w += k; "
         f"t += fast * {NS_PER_PAGE // 8} + (k - fast) * {NS_PER_PAGE}"),
    )  # fmt: skip
    assert femu_target.CHUNK_SIZING == "grown"
    assert max(_overrun(binary)) < 1.25
    for old in ("last-chunk", "round-rate"):
        monkeypatch.setattr(femu_target, "CHUNK_SIZING", old)
        assert _overrun(binary)[0] > 3.0


def test_a_round_after_fast_small_chunks_ends_near_its_seconds(tmp_path, monkeypatch):
    """A round's last chunks that finish fast (here a phase of at most 256 pages costs 1 ms a
    page, a larger one 8 ms) size the next round from their rate with ``last-chunk``, and it
    overruns its seconds several times over (FEMU: 85.7 s for 11 s); the default sizing ends
    every round within 30% of its seconds."""
    binary = _stand_in(
        tmp_path,
        monkeypatch,
        (f"t += int(n[-1]) * {NS_PER_PAGE}",
         f"k = int(n[-1]); t += k * (1 if k <= {FAST_CHUNK_PAGES} else 8) * {NS_PER_PAGE}"),
    )  # fmt: skip
    assert max(_overrun(binary)) < 1.3
    monkeypatch.setattr(femu_target, "CHUNK_SIZING", "last-chunk")
    assert max(_overrun(binary)[1:]) > 2.0  # a round sized from a fast 64-page chunk runs long


def test_an_unknown_chunk_sizing_is_refused(target, monkeypatch):
    monkeypatch.setattr(femu_target, "CHUNK_SIZING", "fastest")
    with pytest.raises(ConfigError, match="chunk sizing"):
        target.run(RoundSpec("op0-r001", "randwrite", 4096, 32, 1, 4096, seconds=1))


def test_each_timed_round_is_logged_with_its_seconds_asked_and_run(target):
    target.run(RoundSpec("op0-r001", "randwrite", 4096, 32, 1, target.capacity_bytes, seconds=2))
    target.run(RoundSpec("fill", "write", 4096, 32, 1, target.capacity_bytes))  # untimed: not
    [(label, asked_s, ran_s)] = target.timed_rounds
    assert (label, asked_s) == ("op0-r001", 2.0)
    assert 2.0 <= ran_s <= 2.0 + 2 * femu_target.MIN_CHUNK_PAGES / 1000  # and its last drain


SLOW_AFTER_PAGES = 2000  # the stand-in below: a round's pages past these take 8 ms, not 1


def _slowing(tmp_path: Path, monkeypatch) -> Path:
    """The stand-in with a drive that slows 8x inside each round (GC onset)."""
    return _stand_in(
        tmp_path,
        monkeypatch,
        ("host = t = 0", "host = t = w = 0"),  # w: pages since the last `qd`
        ("    if kind in", "    w = 0 if kind == 'qd' else w\n    if kind in"),
        (f"        t += {NS_PER_PAGE}\n",
         f"        w += 1\n        t += (1 if w <= {SLOW_AFTER_PAGES} else 8) * {NS_PER_PAGE}\n"),
        (f"t += int(n[-1]) * {NS_PER_PAGE}",
         f"k = int(n[-1]); fast = max(0, min(k, {SLOW_AFTER_PAGES} - w)); w += k; "
         f"t += fast * {NS_PER_PAGE} + (k - fast) * 8 * {NS_PER_PAGE}"),
    )  # fmt: skip


def test_a_deadline_round_ends_at_its_seconds_though_the_drive_slows(tmp_path, monkeypatch):
    """A drive that slows 8x after a round's first 2,000 pages (2 s of the 10 asked): with
    ``"grown"`` chunks the chunk begun at the fast rate carries the round well past its seconds
    (FEMU's fill at GC onset: 1 s rounds ran 3.7-5.5 s); the ``"deadline"`` sizing's ``until``
    phase ends every round within 1% of its seconds (one slow page, 8 ms, past them at most)."""
    binary = _slowing(tmp_path, monkeypatch)
    assert max(_overrun(binary)) > 1.5
    monkeypatch.setattr(femu_target, "CHUNK_SIZING", "deadline")
    ratios = _overrun(binary)
    assert all(1.0 <= r <= 1.01 for r in ratios), ratios


def test_a_deadline_round_is_one_until_phase_between_its_drains(target, tmp_path, monkeypatch):
    monkeypatch.setattr(femu_target, "CHUNK_SIZING", "deadline")
    spec = RoundSpec("op0-r001", "randwrite", 4096, 32, 1, target.capacity_bytes, seconds=2)
    r = target.run(spec).combined
    assert r.bytes_written == 2000 * 4096  # 2 s at 1,000 IOPS, to the page
    assert _phases(tmp_path) == ["qd 32", f"until 0 {64 * 256} {2 * 10**9}", "qd 32"]
    assert target.timed_rounds == [("op0-r001", 2.0, 2.0)]


DEADLINE_HARNESS = Path("/work/foreign-build/femu/femu-bbssd-harness-deadline")


NOT_BUILT = (
    f"FEMU's harness with `until` is not built at {DEADLINE_HARNESS} "
    "(bench/foreign/femu_harness/build.sh FEMU femu-v9.0.1 DIR femu-bbssd-harness-deadline)"
)


@pytest.mark.skipif(not DEADLINE_HARNESS.exists(), reason=NOT_BUILT)
def test_femus_harness_stops_a_round_at_its_simulated_seconds(monkeypatch):
    """The real harness (FEMU's ftl.c) on a small drive written past its GC onset: each 1 s
    round, the drain included, ends within 5% of its second (the 32 writes outstanding at it
    finish after it, queued on 4 LUNs behind GC's copies and erases: 0.3-1.5% measured)."""
    monkeypatch.setattr(femu_target, "CHUNK_SIZING", "deadline")
    drive = {"nchs": 2, "luns_per_ch": 2, "pgs_per_blk": 64, "blks_per_pl": 64}
    t = femu_target.FemuTarget(DEADLINE_HARNESS, drive, 48, "smoke")
    t.open()
    try:
        for i in range(4):
            t.run(RoundSpec(f"op0-r00{i}", "randwrite", 4096, 32, 1, t.capacity_bytes,
                            seconds=1))  # fmt: skip
        assert t.last.erases > 0  # GC ran
    finally:
        t.close()
    assert all(1.0 <= ran / asked <= 1.05 for _, asked, ran in t.timed_rounds), t.timed_rounds
