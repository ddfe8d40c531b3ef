"""A FEMU black-box SSD behind calibrate's Target protocol: the plan's rounds run one by one.

calibrate measures any drive through ``overprov.profile.targets.Target`` (``purge``,
``discard_tail``, ``run`` a round; ``calibrate/measure.py`` reads its write counters through a
``write_counters()`` method where the target has one). :class:`FemuTarget` is that protocol on
FEMU's black-box FTL (``femu-v9.0.1``'s ``hw/femu/bbssd/ftl.c``, unmodified, compiled with
``bench/foreign/femu_harness/``): one harness process per drive from its purge, fed the rounds
as ``--workload /dev/stdin`` phases as calibrate asks for them, its counters read after each.

- A drive as a FEMU guest sees it: kind ``block`` (rounds of whole seconds, at least one, as on
  a real device, in the harness's simulated time), its namespace the tested capacity. Its
  write counters (host and NAND pages, from the FTL's state) are what a drive's vendor SMART
  counters report; FEMU's own SMART log has no NAND counter, so this is a FEMU with one.
- ``purge``: a new harness process, every page unmapped (FEMU's drive at boot).
- ``discard_tail``: the harness's ``trim`` phase unmaps the pages (FEMU's ftl_thread answers a
  DSM command with latency 0 and no FTL change; the harness does what ``ssd_write`` does to a
  page it overwrites, without the write). The truth ``femu.py`` runs is a drive whose tail is
  never written, which that matches.
- A round: ``qd N`` first (the writes outstanding finish, then N are kept outstanding: a new
  fio job), then its writes — sequential (``seq``, 4 KiB writes, in order) for an untimed
  sequential round, uniform random 4 KiB pages of its span (``rand``) in chunks until the
  simulated time passes its seconds — then ``qd N`` again (its last writes complete). A chunk is
  sized (:data:`CHUNK_SIZING`, ``"grown"``) to end :data:`CHUNK_SHARE` of the time left at the
  round's own rate so far (at its start, the last round's whole rate), and is at most as many
  pages as the round has written so far (at least :data:`MIN_CHUNK_PAGES`): chunks double
  from 64 pages while the rate is read from few pages, so a round whose first pages are fast
  (a GC pause on other LUNs, the queue filling) ends near its seconds as a device under fio
  does, not several times past them. With ``CHUNK_SIZING = "deadline"`` the round is one
  ``until`` phase instead: the harness submits writes while the simulated time a slot frees is
  before the round's end, as fio stops issuing at its runtime, so a drive that slows inside the
  round (GC onset) cannot carry it past its seconds by more than its writes outstanding take to
  finish. Its duration is from the first drain to the last; its IOPS are its bytes ÷ the block
  size ÷ that. Latency is not reported (None).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import femu  # noqa: E402
from overprov.errors import ConfigError, OverprovError  # noqa: E402
from overprov.profile.targets import Figures, RoundResult, RoundSpec, now_iso  # noqa: E402
from piped_target import PipedTarget  # noqa: E402

PAGE_BYTES = femu.PAGE_BYTES
#: A timed round's chunks write at least this many pages (its overrun past its seconds).
MIN_CHUNK_PAGES = 64
#: A chunk is sized to end this share of the time left (a slower chunk overruns less).
CHUNK_SHARE = 0.97
#: How a timed round's chunks are sized: ``"grown"`` (the default, a bug fix:
#: bench/foreign/results/femufix/status.md) as the module docstring says. Kept only to reproduce
#: stored runs: ``"last-chunk"``, each chunk at the last chunk's rate, as every FEMU end-to-end
#: run stored before femufix was measured (a 64-page chunk finishing in a GC pause sized the
#: next at 8x the drive's rate: 85.7 s run for 11 s asked,
#: bench/foreign/results/femularge/DIAGNOSIS.md); ``"round-rate"``, at the round's own rate so
#: far with no cap on a chunk (femularge's ``--round-rate`` arms; its rounds still ran up to
#: 5.9x their seconds where a round began faster than the last one's whole rate:
#: bench/foreign/results/femularge/round_chunks--round-rate.txt). ``"deadline"``: one ``until``
#: phase that stops at the round's simulated end (needs a harness built with it:
#: bench/foreign/results/femudeadline/status.md).
CHUNK_SIZINGS = ("grown", "round-rate", "last-chunk", "deadline")
CHUNK_SIZING = "grown"
NO_REPORTS = 1 << 62  # the harness's --report-every: no `R` lines between phases
LATENCY_KEYS = ("mean", "max", "p50", "p90", "p99", "p99_9", "p99_99")


@dataclass(frozen=True)
class Counters:
    """A `P` line: cumulative host pages, simulated time (ns), NAND pages, erases, free lines."""

    host_pages: int
    t_ns: int
    nand_pages: int
    erases: int
    free_lines: int


class FemuTarget(PipedTarget):
    """One FEMU drive (``drive``: ``femu_onset.drive_of``'s FTL parameters) of ``namespace_mb``
    MiB, run by the harness ``binary``."""

    kind = "block"
    noun = "FEMU drive"

    def __init__(self, binary: Path, drive: dict[str, int], namespace_mb: int, name: str):
        self.binary = Path(binary)
        self.drive = dict(drive)
        self.namespace_pages = femu.logical_pages(namespace_mb)
        self.capacity_bytes = self.namespace_pages * PAGE_BYTES
        self.spec = f"femu:{name}"
        self.member_names = [self.spec]
        self.last: Counters | None = None
        self.geometry: dict[str, int] = {}
        self._rate: float | None = None  # pages per ns the next chunk is sized at
        self.timed_rounds: list[tuple[str, float, float]] = []
        """Each timed round's label, seconds asked and seconds run (simulated, to its drain)."""
        self.timed_issued_s: list[float] = []
        """Each timed round's seconds to its last write submitted (before its drain)."""

    # ------------------------------------------------------------------ the harness process
    def command(self) -> list[str]:
        return femu.command(self.binary, self.namespace_pages, 32, 1, NO_REPORTS, self.drive) + [
            "--workload",
            "/dev/stdin",
        ]

    def _start(self) -> None:
        self._spawn(self.command())
        self.geometry = {}
        assert self.proc.stdout is not None
        while True:  # its G line, then R 0 (nothing written)
            line = self.proc.stdout.readline()
            if not line:
                raise OverprovError(f"{self.spec}: the harness ended before its first report")
            parts = line.split()
            if parts[0] == "G":
                self.geometry = {parts[i]: int(parts[i + 1]) for i in range(1, len(parts) - 1, 2)}
            elif parts[0] == "R":
                self.last = Counters(*(int(p) for p in parts[1:]))
                break
        self._rate = None

    def phase(self, line: str) -> Counters:
        """Run one workload phase (the harness's ``--workload`` syntax) and read its counters."""
        out = self._exchange(line).split()
        if not out or out[0] != "P":
            self._stop()
            raise OverprovError(f"{self.spec}: the harness refused {line!r}")
        self.last = Counters(*(int(p) for p in out[1:]))
        return self.last

    # ------------------------------------------------------------------ the Target protocol
    def identity(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "capacity_bytes": self.capacity_bytes,
            "members": [{"name": self.spec, "size_bytes": self.capacity_bytes,
                         "femu_drive": self.drive}],
        }  # fmt: skip

    def software(self) -> dict[str, str]:
        commit = self.binary.resolve().parent / "COMMIT"
        return {"femu": commit.read_text().strip() if commit.exists() else "unknown"}

    def write_counters(self) -> dict[str, int]:
        if self.last is None:
            raise OverprovError(f"{self.spec}: not open")
        return {"host_bytes": self.last.host_pages * PAGE_BYTES,
                "nand_bytes": self.last.nand_pages * PAGE_BYTES}  # fmt: skip

    def purge(self) -> str:
        self._start()
        return "a fresh FEMU drive (the harness restarted: every page unmapped)"

    def discard_tail(self, start_bytes: int) -> str:
        first = -(-start_bytes // PAGE_BYTES)
        count = self.namespace_pages - first
        if count > 0:
            self.phase(f"trim {first} {count}")
        return f"unmapped pages {first}..{self.namespace_pages - 1} ({count} pages)"

    def run(self, spec: RoundSpec) -> RoundResult:
        if spec.read_percent or spec.rate_iops or spec.write_through or spec.idle_seconds:
            raise ConfigError(
                f"{self.spec}: round {spec.label}: reads, a rate, write-through and idle time "
                "are not run on the FEMU harness"
            )
        if spec.bs_bytes % PAGE_BYTES:
            raise ConfigError(f"{self.spec}: block size {spec.bs_bytes} is not whole pages")
        first = spec.offset_bytes // PAGE_BYTES
        pages = spec.span_bytes // PAGE_BYTES
        if first + pages > self.namespace_pages or pages < 1:
            raise ConfigError(f"{self.spec}: round {spec.label} runs past the namespace")
        started = now_iso()
        qd = spec.qd * spec.jobs
        start = self.phase(f"qd {qd}")
        if spec.seconds is None:
            if spec.rw != "write":
                raise ConfigError(f"{self.spec}: an untimed random round is not run here")
            self.phase(f"seq {first} {pages}")
        else:
            self._timed(spec, first, pages, start.t_ns + round(spec.seconds * 1e9))
            self.timed_issued_s.append((self.last.t_ns - start.t_ns) / 1e9)
        end = self.phase(f"qd {qd}")
        if spec.seconds is not None:
            ran_s = (end.t_ns - start.t_ns) / 1e9
            self.timed_rounds.append((spec.label, float(spec.seconds), ran_s))
        written = (end.host_pages - start.host_pages) * PAGE_BYTES
        duration_s = max(end.t_ns - start.t_ns, 1) / 1e9
        fig = Figures(
            name=self.spec,
            iops=written / spec.bs_bytes / duration_s,
            bytes_written=written,
            duration_s=duration_s,
            latency_us=dict.fromkeys(LATENCY_KEYS),
        )
        return RoundResult(spec.label, started, now_iso(), fig, [fig])

    def _timed(self, spec: RoundSpec, first: int, pages: int, deadline_ns: int) -> None:
        """Random 4 KiB writes over the round's pages until the simulated time passes
        ``deadline_ns`` (module docstring)."""
        at = start = self.last
        assert at is not None
        if CHUNK_SIZING not in CHUNK_SIZINGS:
            raise ConfigError(f"{self.spec}: chunk sizing {CHUNK_SIZING!r} is not one of "
                              f"{', '.join(CHUNK_SIZINGS)}")  # fmt: skip
        if CHUNK_SIZING == "deadline":
            self.phase(f"until {first} {pages} {deadline_ns}")
            return
        while at.t_ns < deadline_ns:
            left = deadline_ns - at.t_ns
            n = MIN_CHUNK_PAGES if self._rate is None else int(CHUNK_SHARE * left * self._rate)
            if CHUNK_SIZING == "grown":
                n = min(n, at.host_pages - start.host_pages)
            n = max(n, MIN_CHUNK_PAGES)
            after = self.phase(f"rand {first} {pages} {n}")
            since = at if CHUNK_SIZING == "last-chunk" else start  # the chunk's, or the round's
            if after.t_ns > since.t_ns:
                self._rate = (after.host_pages - since.host_pages) / (after.t_ns - since.t_ns)
            at = after
