"""``sim:PRESET[@SCALE]``: a simulated drive behind the profiler's Target protocol.

The profile pipeline (purge, precondition, one phase per OP level to steady state) runs
unchanged against a drive simulated by the Rust core in simulated time: rounds are timed in
simulated seconds, discards are simulated TRIMs (trimmed space becomes spare space, as on most
controllers), and the figures come out in the same shape as fio's. The drive is a preset from
``overprov/data/presets.toml`` scaled (default: about 32 GiB of NAND; ``sim:NAME@1`` is full
size, ``sim:NAME@64GiB`` or ``sim:NAME@1/8`` other sizes), with 0% extra OP configured: the
profiler makes the OP by discarding the tail, exactly as on a real drive.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from overprov import __version__, engine, placement_options, presets
from overprov.errors import ConfigError
from overprov.profile.targets import Figures, RoundResult, RoundSpec, now_iso

LATENCY_KEYS = ("mean", "max", "p50", "p90", "p99", "p99_9", "p99_99")
SUBROUND_SPAN_DIVISOR = 32
"""A sub-round of a timed random round writes at most 1/32 of the span (see ``_iid_round``)."""
SUBROUND_MIN_S = 0.01
"""…and lasts at least 10 ms of simulated time, so draining the queue between sub-rounds costs
little against queue latencies of a millisecond or less (at most a few % at the worst GC
stalls)."""


def parse_spec(spec: str) -> tuple[str, str | None]:
    """ "sim:NAME" or "sim:NAME@SCALE" → (NAME, SCALE or None); NAME may be a drive file
    path ending in .toml."""
    body = spec.removeprefix("sim:")
    name, _, scale = body.partition("@")
    if not name:
        raise ConfigError(f"target {spec!r}: give a preset, e.g. sim:{presets.names()[0]}")
    if name not in presets.names() and not presets.is_drive_file(name):
        raise ConfigError(
            f"target {spec!r}: no preset {name!r} (nor a drive file: give a path ending in "
            f".toml); presets: {', '.join(presets.names())}"
        )
    return name, scale or None


def scale_option(spec: str) -> str:
    """How a refusal of ``spec``'s scale names it: the target's @SCALE (profile, qualify and
    calibrate have no --scale)."""
    return f"target {spec!r}: @SCALE"


class SimTarget:
    """A simulated drive (kind "sim"): one member, state kept in memory for the run."""

    kind = "sim"

    def __init__(
        self,
        spec: str,
        job_dir: Path | None = None,
        *,
        seed: int = 1,
        fdp_ranges: str | None = None,
        drive: dict[str, Any] | None = None,
        **_: Any,
    ):
        self.spec = spec
        self._drive = drive
        if drive is None:
            self.preset, self.scale = parse_spec(spec)
            cfg, self.factor = presets.preset_config(self.preset, self.scale, scale_option(spec))
        else:  # a drive held in memory (calibrate's twin), named by ``spec`` sim:NAME@SCALE
            name, _, scale = spec.removeprefix("sim:").partition("@")
            self.preset, self.scale = name, scale or None
            cfg, self.factor = presets.drive_config(drive, self.scale, name, scale_option(spec))
        cfg = engine.merge(
            cfg,
            {
                "geometry": {"extra_op_percent": 0.0},
                "precondition": {"kind": "none"},
                "run": {"warmup_drive_writes": 0.0, "drive_writes": 1.0, "seed": seed},
            },
        )
        if fdp_ranges is not None:
            # a reclaim-unit handle per placement ID of the range map; the core routes the
            # rounds' writes and the precondition by it (docs/fdp.md)
            ranges = placement_options.parse_ranges(fdp_ranges)
            cfg = engine.merge(
                cfg, {"placement": {"enabled": True, "source": "ranges", "ranges": ranges}}
            )
        self.fdp_ranges = fdp_ranges
        self.config = cfg
        self._checked = engine.check(cfg)
        geo = self._checked.resolved["geometry"]
        self.page_bytes = geo["page_size_bytes"]
        self.user_pages = geo["user_pages"]
        self.capacity_bytes = self.user_pages * self.page_bytes
        self.physical_bytes = geo["blocks"] * geo["pages_per_block"] * self.page_bytes
        """NAND behind the capacity (the phase precondition rule uses it)."""
        self.pages_per_block = geo["pages_per_block"]
        self.buffer_bytes = int(cfg.get("timing", {}).get("buffer", {}).get("bytes", 0))
        """The drive's write buffer (0: none); calibrate's default plan reads it."""
        self.member_names = [spec]
        self.seed = seed
        self._rounds = 0
        self._last_iops: float | None = None
        self._sim: Any = None
        self.time_factor = 1.0
        """Simulated seconds per second a round asks for (:meth:`scale_rounds`)."""

    def scale_rounds(self) -> None:
        """Rounds (and idle times) of a scaled drive last ``scale factor`` × their seconds, so a
        round writes the same share of the drive as on the full-size drive: a 60 s round of a
        1/1000 drive is 60 ms of simulated time. Unscaled, a round of a small drive at the
        full drive's IOPS writes the drive over many times (its FOB round crosses the write
        cliff) and the profile writes far more drive writes than the full-size one. The
        per-second IOPS series stays one sample per simulated second (none for a round
        shorter than a second)."""
        self.time_factor = min(1.0, float(self.factor))

    # ------------------------------------------------------------------ lifecycle
    def open(self, *, resuming: bool = False) -> None:
        if resuming:
            raise ConfigError(
                f"target {self.spec!r}: a simulated drive's state lives in memory and is not "
                "saved, so a simulated profile cannot be resumed; run it again (it takes seconds "
                "to minutes)"
            )
        self._sim = engine.simulator(self._checked)

    def close(self) -> None:
        self._sim = None

    def __enter__(self) -> SimTarget:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ facts
    def identity(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": self.kind,
            "capacity_bytes": self.capacity_bytes,
            "members": [
                {
                    "name": self.spec,
                    "path": self.spec,
                    "kind": self.kind,
                    "size_bytes": self.capacity_bytes,
                    "model": f"simulated {self.preset}",
                    "preset": self.preset,
                    "scale_factor": self.factor,
                    "description": (self._drive or presets.get(self.preset)).get("description"),
                }
            ],
            **({"fdp_ranges": self.fdp_ranges} if self.fdp_ranges is not None else {}),
        }

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        mine = self.identity()
        for key in ("kind", "capacity_bytes"):
            if stored_identity.get(key) != mine[key]:
                return f"{key} differs: stored {stored_identity.get(key)!r}, now {mine[key]!r}"
        return None

    def software(self) -> dict[str, str]:
        return {"overprov-sim": engine.core_version(), "overprov": __version__}

    def write_counters(self) -> dict[str, int]:
        """Host and NAND bytes written since open, as a drive's SMART counters report them:
        ``{"host_bytes", "nand_bytes"}`` (NAND: host, garbage-collection and wear-levelling
        programs of mapping units). Their ratio over an interval is the drive's WAF there."""
        totals = self._need_open().totals()
        nand_pages = totals["host_pages"] + totals["gc_pages"] + totals["wl_pages"]
        return {
            "host_bytes": totals["host_pages"] * self.page_bytes,
            "nand_bytes": nand_pages * self.page_bytes,
        }

    # ------------------------------------------------------------------ discards
    def _need_open(self) -> Any:
        if self._sim is None:
            raise ConfigError(f"target {self.spec!r} is not open")
        return self._sim

    def purge(self) -> str:
        self._need_open().trim(0, self.user_pages)
        return f"simulated TRIM of all {self.user_pages:,} pages ({self.capacity_bytes:,} bytes)"

    def discard_tail(self, start_bytes: int) -> str:
        start = -(-start_bytes // self.page_bytes)  # whole pages at or past start_bytes
        count = self.user_pages - start
        if count <= 0:  # 0% extra OP: the whole span is written (as punch_hole, blk_discard)
            return "nothing to discard"
        self._need_open().trim(start, count)
        return f"simulated TRIM of pages {start:,}..{self.user_pages:,} ({count:,} pages)"

    # ------------------------------------------------------------------ NAND counters
    def nand_bytes_written(self) -> int:
        """NAND bytes the drive has programmed so far (host, GC and wear-levelling pages): the
        counter real drives report through SMART, so the profiler can follow WAF round by
        round."""
        return self.write_counters()["nand_bytes"]

    # ------------------------------------------------------------------ rounds
    def run(self, spec: RoundSpec) -> RoundResult:
        if spec.bs_bytes % 512:
            raise ConfigError(f"round.bs_bytes: {spec.bs_bytes} is not a multiple of 512")
        if spec.write_through or spec.rate_iops is not None:
            raise ConfigError(
                f"round {spec.label}: a simulated round is closed-loop (no write_through or "
                "rate_iops); run a whole simulation with timing.host.write_through or an open "
                "loop instead"
            )
        started = now_iso()
        if self.time_factor != 1.0:
            spec = dataclasses.replace(
                spec,
                seconds=None if spec.seconds is None else spec.seconds * self.time_factor,
                idle_seconds=spec.idle_seconds * self.time_factor,
            )
        if spec.rw == "write" or spec.seconds is None:
            figures = self._figures(self._core_round(spec, spec.seconds, spec.idle_seconds))
        else:
            figures = self._iid_round(spec)
        return RoundResult(
            label=spec.label,
            started=started,
            finished=now_iso(),
            combined=figures,
            members=[figures],
            files=[],
        )

    def _core_round(
        self, spec: RoundSpec, seconds: float | None, idle_seconds: float = 0.0
    ) -> dict[str, Any]:
        """One round of the core; ``idle_seconds`` of host idle time (background garbage
        collection and SLC folding, the core's ``RoundRequest.idle_seconds``) before it."""
        self._rounds += 1
        round_request = {
            "sequential": spec.rw == "write",
            "request_bytes": spec.bs_bytes,
            "queue_depth": spec.qd * spec.jobs,
            "offset_pages": spec.offset_bytes // self.page_bytes,
            "span_pages": spec.span_bytes // self.page_bytes,
            "seconds": float(seconds) if seconds is not None else None,
            "seed": self.seed * 1_000_003 + self._rounds,
            "idle_seconds": float(idle_seconds),
        }
        if spec.read_percent:  # absent otherwise: the round as before the field
            round_request["read_percent"] = float(spec.read_percent)
        raw = self._need_open().run_round(json.dumps(round_request))
        return json.loads(raw)

    def _figures(self, fig: dict[str, Any]) -> Figures:
        lat = fig.get("latency_us") or {}
        return Figures(
            name=self.spec,
            iops=fig["iops"],
            bytes_written=fig["bytes_written"],
            duration_s=fig["duration_s"],
            latency_us={k: lat.get(k) for k in LATENCY_KEYS},
            iops_series=fig["iops_series"],
            fio_steadystate=None,
            read_latency_us_mean=(fig.get("read_latency_us") or {}).get("mean"),
        )

    def _iid_round(self, spec: RoundSpec) -> Figures:
        """A timed random-write round as fio runs it (``norandommap``: every write lands on a
        uniformly drawn block, independent of the others); with ``read_percent``, reads mixed
        in (their mean latency over the sub-rounds' reads, as fio reports a mixed job's).

        The core's round writes each block of the span at most once per pass (a random map);
        over a long round that is a different workload, with a lower WAF, than fio's. So the
        round is run as sub-rounds, each writing at most ``1/SUBROUND_SPAN_DIVISOR`` of the
        span with a fresh random map, which is independent draws to within a fraction of a
        percent of WAF (docs/profile.md, "Simulated targets"). The figures are summed; the
        per-second series spreads each sub-round's completions evenly over its time; latency
        percentiles are the median over sub-rounds of each sub-round's percentile (mean: over
        all I/Os; max: the largest)."""
        assert spec.seconds is not None
        span_pages = spec.span_bytes // self.page_bytes
        pages_per_io = max(1, -(-spec.bs_bytes // self.page_bytes))
        budget_ios = max(1.0, span_pages / pages_per_io / SUBROUND_SPAN_DIVISOR)
        total_s = float(spec.seconds)
        elapsed = 0.0
        ios = 0
        written = 0
        parts: list[tuple[float, float, int, dict[str, Any]]] = []
        reads: list[tuple[float, int]] = []  # each sub-round's reads: (mean µs, count)
        while elapsed < total_s - 1e-9:
            rate = self._last_iops or budget_ios / SUBROUND_MIN_S
            sub_s = min(total_s - elapsed, max(SUBROUND_MIN_S, budget_ios / rate))
            fig = self._core_round(spec, sub_s, 0.0 if parts else spec.idle_seconds)
            if fig["duration_s"] <= 0:
                break
            parts.append((elapsed, fig["duration_s"], fig["ios"], fig.get("latency_us") or {}))
            read_mean = (fig.get("read_latency_us") or {}).get("mean")
            if read_mean is not None:
                reads.append((read_mean, fig.get("read_ios") or 0))
            elapsed += fig["duration_s"]
            ios += fig["ios"]
            written += fig["bytes_written"]
            if fig["iops"] > 0:
                self._last_iops = fig["iops"]
        series = [0.0] * int(elapsed)
        for start, dur, n, _ in parts:
            a, b = start, start + dur
            sec = int(a)
            while sec < len(series) and sec < b:
                overlap = min(b, sec + 1) - max(a, sec)
                series[sec] += n * overlap / dur
                sec += 1
        latency: dict[str, float | None] = {}
        latency["mean"] = _weighted_mean(
            [(p[3]["mean"], p[2]) for p in parts if p[3].get("mean") is not None]
        )
        maxima = [p[3]["max"] for p in parts if p[3].get("max") is not None]
        latency["max"] = max(maxima) if maxima else None
        for key in LATENCY_KEYS:
            if key in ("mean", "max"):
                continue
            values = sorted(p[3][key] for p in parts if p[3].get(key) is not None)
            latency[key] = values[len(values) // 2] if values else None
        return Figures(
            name=self.spec,
            iops=ios / elapsed if elapsed > 0 else 0.0,
            bytes_written=written,
            duration_s=elapsed,
            latency_us={k: latency.get(k) for k in LATENCY_KEYS},
            iops_series=series,
            fio_steadystate=None,
            read_latency_us_mean=_weighted_mean(reads),
        )


def _weighted_mean(pairs: list[tuple[float, int]]) -> float | None:
    """The mean of (mean, count) pairs over all their counts; None without any."""
    n = sum(c for _, c in pairs)
    return sum(m * c for m, c in pairs) / n if n else None
