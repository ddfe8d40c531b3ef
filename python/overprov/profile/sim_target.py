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

import json
from pathlib import Path
from typing import Any

from overprov import __version__, presets, simulate
from overprov.errors import ConfigError
from overprov.profile.targets import Figures, RoundResult, RoundSpec, now_iso


def parse_spec(spec: str) -> tuple[str, str | None]:
    """ "sim:NAME" or "sim:NAME@SCALE" → (NAME, SCALE or None)."""
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


class SimTarget:
    """A simulated drive (kind "sim"): one member, state kept in memory for the run."""

    kind = "sim"

    def __init__(self, spec: str, job_dir: Path | None = None, *, seed: int = 1, **_: Any):
        self.spec = spec
        self.preset, self.scale = parse_spec(spec)
        cfg, self.factor = presets.preset_config(self.preset, self.scale)
        cfg = simulate.merge(
            cfg,
            {
                "geometry": {"extra_op_percent": 0.0},
                "precondition": {"kind": "none"},
                "run": {"warmup_drive_writes": 0.0, "drive_writes": 1.0, "seed": seed},
            },
        )
        self.config = cfg
        resolved = simulate.validate(cfg)
        geo = resolved["geometry"]
        self.page_bytes = geo["page_size_bytes"]
        self.user_pages = geo["user_pages"]
        self.capacity_bytes = self.user_pages * self.page_bytes
        self.member_names = [spec]
        self.seed = seed
        self._rounds = 0
        self._sim: Any = None

    # ------------------------------------------------------------------ lifecycle
    def open(self, *, resuming: bool = False) -> None:
        if resuming:
            raise ConfigError(
                f"target {self.spec!r}: a simulated drive's state lives in memory and is not "
                "saved, so a simulated profile cannot be resumed; run it again (it takes seconds "
                "to minutes)"
            )
        from overprov import _core

        self._sim = _core.Simulator(json.dumps(self.config))

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
                    "description": presets.get(self.preset).get("description"),
                }
            ],
        }

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        mine = self.identity()
        for key in ("kind", "capacity_bytes"):
            if stored_identity.get(key) != mine[key]:
                return f"{key} differs: stored {stored_identity.get(key)!r}, now {mine[key]!r}"
        return None

    def software(self) -> dict[str, str]:
        from overprov import _core

        return {"overprov-sim": _core.__version__, "overprov": __version__}

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
        if count > 0:
            self._need_open().trim(start, count)
        return f"simulated TRIM of pages {start:,}..{self.user_pages:,} ({max(count, 0):,} pages)"

    # ------------------------------------------------------------------ rounds
    def run(self, spec: RoundSpec) -> RoundResult:
        sim = self._need_open()
        if spec.bs_bytes % 512:
            raise ConfigError(f"round.bs_bytes: {spec.bs_bytes} is not a multiple of 512")
        offset = spec.offset_bytes // self.page_bytes
        span = spec.span_bytes // self.page_bytes
        self._rounds += 1
        started = now_iso()
        raw = sim.run_round(
            spec.rw == "write",
            spec.bs_bytes,
            spec.qd * spec.jobs,
            offset,
            span,
            float(spec.seconds) if spec.seconds is not None else None,
            self.seed * 1_000_003 + self._rounds,
        )
        fig = json.loads(raw)
        lat = fig.get("latency_us") or {}
        figures = Figures(
            name=self.spec,
            iops=fig["iops"],
            bytes_written=fig["bytes_written"],
            duration_s=fig["duration_s"],
            latency_us={
                k: lat.get(k) for k in ("mean", "max", "p50", "p90", "p99", "p99_9", "p99_99")
            },  # fmt: skip
            iops_series=fig["iops_series"],
            fio_steadystate=None,
        )
        return RoundResult(
            label=spec.label,
            started=started,
            finished=now_iso(),
            combined=figures,
            members=[figures],
            files=[],
        )
