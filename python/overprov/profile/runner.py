"""The profile: identify → FOB → purge → precondition → one phase per OP level → recommend.

Every step is logged with a timestamp to ``profile.log`` (and to the progress callback), and
``results.json`` is rewritten atomically after every round, so a crash, Ctrl-C or reboot loses
at most the round in progress; :meth:`Profile.run` on a folder with a stored run continues it
and never reruns a finished step or phase.
"""

from __future__ import annotations

import fcntl
import math
import os
import platform
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from overprov import __version__
from overprov.errors import ConfigError, OverprovError
from overprov.profile import results as res
from overprov.profile.steady import SteadyStateCriteria, assess, snia_equivalent_fio_slope_percent
from overprov.profile.targets import RoundResult, RoundSpec, Target, make_target, now_iso

GIB = 1024**3
PRECONDITION_BS = 128 * 1024
PRECONDITION_PART_MAX_BYTES = 64 * GIB
"""A precondition pass is split into parts of at most this size: the unit a crash can lose."""

ASSUMED_SEQ_BYTES_PER_S = 500e6
ASSUMED_RANDOM_IOPS = 50_000.0

DONE_PHASE = ("steady", "not_steady", "skipped")


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)


def parse_size(text: str | int, what: str = "size") -> int:
    """Bytes from "65536", "64M", "64MiB" (binary), "64MB" (decimal), "4k"."""
    if isinstance(text, int):
        return text
    m = _SIZE_RE.match(str(text))
    if not m:
        raise ConfigError(f"{what}: cannot read {text!r} as a size (e.g. 4096, 4k, 64MiB, 1GB)")
    number, unit, tail = m.groups()
    power = "kmgtp".find(unit.lower()) + 1 if unit else 0
    decimal = tail.lower() == "b" and unit != ""
    value = float(number) * ((1000 if decimal else 1024) ** power)
    if value != int(value):
        raise ConfigError(f"{what}: {text!r} is not a whole number of bytes")
    return int(value)


def human_bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} B"


def human_seconds(s: float) -> str:
    s = int(round(s))
    if s < 120:
        return f"{s} s"
    d, rem = divmod(s, 86400)
    h, rem = divmod(rem, 3600)
    m = rem // 60
    if d:
        return f"{d} d {h} h"
    if h:
        return f"{h} h {m:02d} min"
    return f"{m} min"


@dataclass
class ProfileSettings:
    """Everything that decides what a profile does; stored in results.json ``settings``."""

    op_percents: list[float] = field(default_factory=lambda: [0, 10, 20, 30, 40, 50, 60])
    target_iops: float | None = None
    min_iops: float | None = None
    min_iops_rounds: int = 3
    """A phase whose first rounds (this many, or max_rounds if fewer) average below min_iops
    ends early, marked skipped."""
    stop_at_target: bool = False
    bs_bytes: int = 4096
    qd: int = 32
    jobs: int = 1
    size_bytes: int | None = None
    round_seconds: int = 60
    max_rounds: int = 25
    fob_seconds: int | None = None
    """Length of the FOB measurement; None: one round (round_seconds); 0: skip it."""
    precondition: str = "seq"
    ioengine: str = "libaio"
    steady_window_rounds: int = 5
    steady_max_range_fraction: float = 0.20
    steady_max_slope_excursion_fraction: float = 0.10
    rated_tbw: float | None = None
    """Rated endurance of one member in TB written (1e12 bytes), when known."""

    def validate(self) -> None:
        ops = self.op_percents
        if not ops:
            raise ConfigError("--op: give at least one OP level")
        for op in ops:
            if not (isinstance(op, int | float) and 0 <= op <= 95):
                raise ConfigError(f"--op: each level must be between 0 and 95 (%), got {op}")
        if len(set(ops)) != len(ops):
            raise ConfigError(f"--op: a level is repeated in {ops}")
        if list(ops) != sorted(ops):
            raise ConfigError(
                f"--op: give levels in ascending order ({sorted(ops)}): each phase discards "
                "more of the drive than the one before, which cannot be undone without a refill"
            )
        for name in ("target_iops", "min_iops", "rated_tbw"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ConfigError(f"--{name.replace('_', '-')}: must be positive, got {v}")
        if self.stop_at_target and self.target_iops is None:
            raise ConfigError("--stop-at-target: needs --target-iops")
        if self.bs_bytes < 512 or self.bs_bytes % 512:
            raise ConfigError(f"--bs: must be a multiple of 512 bytes, got {self.bs_bytes}")
        for name in ("qd", "jobs", "round_seconds", "min_iops_rounds"):
            if getattr(self, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')}: must be at least 1")
        if self.max_rounds < self.steady_window_rounds:
            raise ConfigError(
                f"--max-rounds: must be at least the steady-state window "
                f"({self.steady_window_rounds} rounds), got {self.max_rounds}"
            )
        if self.fob_seconds is not None and self.fob_seconds < 0:
            raise ConfigError("--fob-seconds: must be 0 (skip) or more")
        if self.precondition not in ("seq", "random"):
            raise ConfigError(f"--precondition: seq or random, got {self.precondition!r}")
        if self.size_bytes is not None and self.size_bytes < self.bs_bytes:
            raise ConfigError("--size: must be at least one block (--bs)")
        try:
            self.criteria()
        except ValueError as exc:
            raise ConfigError(f"steady state: {exc}") from None

    def criteria(self) -> SteadyStateCriteria:
        return SteadyStateCriteria(
            window_rounds=self.steady_window_rounds,
            max_range_fraction=self.steady_max_range_fraction,
            max_slope_excursion_fraction=self.steady_max_slope_excursion_fraction,
            max_rounds=self.max_rounds,
        )

    @property
    def fob_s(self) -> int:
        return self.round_seconds if self.fob_seconds is None else self.fob_seconds

    @property
    def precondition_passes(self) -> int:
        """seq: 2 × capacity (SNIA); random: one random-map pass (every block once)."""
        return 2 if self.precondition == "seq" else 1

    @property
    def fio_ss_slope_percent(self) -> float | None:
        """fio's ``iops_slope`` limit equivalent to our slope rule over one round's samples."""
        if self.round_seconds < 2:
            return None
        return round(snia_equivalent_fio_slope_percent(self.round_seconds, self.criteria()), 6)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["op_percents"] = [float(op) for op in self.op_percents]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ProfileSettings:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


def op_label(op: float) -> str:
    """0 → "op00", 7.5 → "op07_5"."""
    text = f"{op:g}"
    whole, _, frac = text.partition(".")
    return "op" + whole.zfill(2) + (f"_{frac}" if frac else "")


def span_for(op: float, capacity: int, bs: int) -> int:
    """Bytes the workload covers at OP level op%: (1 − op/100)·C, rounded down to a block."""
    span = int(capacity * (100.0 - op) / 100.0)
    return span - span % bs


# ----------------------------------------------------------------------------------- estimate


def estimate(
    settings: ProfileSettings,
    capacity_bytes: int,
    members: int,
    *,
    random_iops: float | None = None,
    seq_bytes_per_s: float | None = None,
    measured: str = "",
) -> dict[str, Any]:
    """Duration and bytes written of a whole run (per member; members run in parallel).

    The number of rounds is known within bounds (window … max_rounds per phase); the bytes
    depend on the drive's speed, so they are computed from ``random_iops`` and
    ``seq_bytes_per_s`` — measured figures when given, else stated assumptions.
    """
    assumptions = []
    if random_iops is None:
        random_iops = settings.target_iops or ASSUMED_RANDOM_IOPS
        assumptions.append(f"random writes at an assumed {random_iops:,.0f} IOPS per member")
    if seq_bytes_per_s is None:
        seq_bytes_per_s = ASSUMED_SEQ_BYTES_PER_S
        assumptions.append(
            f"sequential writes at an assumed {human_bytes(seq_bytes_per_s)}/s per member"
        )
    n = len(settings.op_percents)
    rounds_min = n * settings.steady_window_rounds
    rounds_max = n * settings.max_rounds
    pre_bytes = settings.precondition_passes * capacity_bytes
    if settings.precondition == "seq":
        pre_s = pre_bytes / seq_bytes_per_s
    else:
        pre_s = pre_bytes / (random_iops * settings.bs_bytes)
    rnd_bytes_per_s = random_iops * settings.bs_bytes
    fob_s = settings.fob_s
    seconds_min = fob_s + pre_s + rounds_min * settings.round_seconds
    seconds_max = fob_s + pre_s + rounds_max * settings.round_seconds
    bytes_min = pre_bytes + (fob_s + rounds_min * settings.round_seconds) * rnd_bytes_per_s
    bytes_max = pre_bytes + (fob_s + rounds_max * settings.round_seconds) * rnd_bytes_per_s
    share = None
    if settings.rated_tbw:
        share = bytes_max / (settings.rated_tbw * 1e12)
    return {
        "phases": n,
        "rounds_min": rounds_min,
        "rounds_max": rounds_max,
        "seconds_min": seconds_min,
        "seconds_max": seconds_max,
        "precondition_bytes_per_member": pre_bytes,
        "bytes_per_member_min": int(bytes_min),
        "bytes_per_member_max": int(bytes_max),
        "bytes_total_max": int(bytes_max * members),
        "endurance_share_max": share,
        "assumptions": assumptions,
        "measured": measured,
    }


def estimate_text(est: dict[str, Any], spec: str, kind: str, capacity: int, members: int) -> str:
    what = f"{members} members" if members > 1 else ("the device" if kind == "block" else "file")
    lines = [
        f"estimate for {spec} ({what}, {human_bytes(capacity)} tested"
        + (" each" if members > 1 else "")
        + "):",
        f"  duration {human_seconds(est['seconds_min'])} to {human_seconds(est['seconds_max'])} "
        f"({est['phases']} phases, {est['rounds_min']}–{est['rounds_max']} rounds)",
        f"  writes {human_bytes(est['bytes_per_member_min'])} to "
        f"{human_bytes(est['bytes_per_member_max'])}"
        + (" per member" if members > 1 else "")
        + f" (precondition {human_bytes(est['precondition_bytes_per_member'])})",
    ]
    if est.get("endurance_share_max") is not None:
        lines.append(f"  up to {est['endurance_share_max']:.2%} of the rated endurance (TBW)")
    if est["assumptions"]:
        lines.append("  assuming " + "; ".join(est["assumptions"]))
    if est.get("measured"):
        lines.append("  " + est["measured"])
    return "\n".join(lines)


def wear_warning(kind: str, spec: str) -> str:
    if kind == "block":
        return (
            f"WARNING: profiling destroys all data on {spec} and WEARS THE DRIVE: it writes the "
            "figures above, a share of its rated endurance. Shrink --size, --op levels or "
            "--max-rounds to write less."
        )
    return (
        f"WARNING: profiling overwrites {spec} and writes the figures above to the file system "
        "that holds it (and to the drive under it)."
    )


# ------------------------------------------------------------------------------------ profile


def _software(target: Target) -> dict[str, str]:
    sw = {
        "overprov": __version__,
        "python": platform.python_version(),
        "kernel": f"{platform.system()} {platform.release()}",
    }
    sw.update(target.software())
    return sw


def _round_record(index: int, r: RoundResult) -> dict[str, Any]:
    c = r.combined
    return {
        "index": index,
        "label": r.label,
        "started": r.started,
        "finished": r.finished,
        "duration_s": c.duration_s,
        "iops": c.iops,
        "bytes_written": c.bytes_written,
        "latency_us": c.latency_us,
        "iops_series": c.iops_series,
        "fio_steadystate": c.fio_steadystate,
        "members": [
            {
                "name": m.name,
                "iops": m.iops,
                "bytes_written": m.bytes_written,
                "duration_s": m.duration_s,
                "latency_us": m.latency_us,
                "iops_series": m.iops_series,
                "fio_steadystate": m.fio_steadystate,
            }
            for m in r.members
        ],
        "files": r.files,
    }


class Profile:
    """One profile run in an output folder; new (``create``) or continued (``resume``)."""

    def __init__(
        self,
        out_dir: Path,
        doc: dict[str, Any],
        *,
        confirm: list[str],
        allow_hdd: bool,
        progress: Callable[[str], None] | None,
        resuming: bool,
        target_factory: Callable[[], Target] | None = None,
    ) -> None:
        self.out = Path(out_dir)
        self.doc = doc
        self.settings = ProfileSettings.from_dict(doc["settings"])
        self.confirm = confirm
        self.allow_hdd = allow_hdd
        self.progress = progress
        self.resuming = resuming
        self._lock_fd: int | None = None
        self._target_factory = target_factory
        self._current: str | None = None
        """What was running (a round label or a step name), for the record of interruptions."""

    # ---------------------------------------------------------------------------- creation

    @classmethod
    def create(
        cls,
        target_spec: str,
        settings: ProfileSettings,
        out_dir: Path,
        *,
        confirm: list[str] | None = None,
        allow_hdd: bool = False,
        progress: Callable[[str], None] | None = None,
        target_factory: Callable[[], Target] | None = None,
    ) -> Profile:
        settings.validate()
        if target_factory is None:  # refuses sim: and mixed members before anything is made
            make_target(target_spec, Path(out_dir) / "fio")
        out = Path(out_dir)
        if (out / "results.json").exists():
            raise ConfigError(
                f"--out: {out} already holds a profile; continue it with --resume {out} "
                "or choose another folder"
            )
        out.mkdir(parents=True, exist_ok=True)
        now = now_iso()
        doc: dict[str, Any] = {
            "format": res.FORMAT,
            "schema_version": res.SCHEMA_VERSION,
            "status": "running",
            "created": now,
            "updated": now,
            "target": {"spec": target_spec, "kind": None, "capacity_bytes": None, "members": []},
            "settings": settings.to_dict(),
            "software": {},
            "steady_state_criteria": settings.criteria().to_dict(),
            "fio_steadystate_per_round": (
                f"iops_slope:{settings.fio_ss_slope_percent:g}%"
                if settings.fio_ss_slope_percent is not None
                else None
            ),
            "estimate": None,
            "steps": {
                name: {"status": "pending", "started": None, "finished": None, "detail": None}
                for name in ("identify", "fob", "purge", "precondition")
            },
            "phases": [
                {
                    "op_percent": float(op),
                    "label": op_label(op),
                    "status": "pending",
                    "started": None,
                    "finished": None,
                    "span_bytes": None,
                    "discard": None,
                    "rounds": [],
                    "verdict": None,
                    "steady": False,
                    "steady_iops": None,
                    "window_iops_mean": None,
                    "skipped": False,
                    "skip_reason": None,
                    "latency_us": None,
                    "bytes_written": 0,
                    "duration_s": 0.0,
                    "fio_steadystate": None,
                    "members": [],
                    "csv": f"phase-{op_label(op)}.csv",
                }
                for op in settings.op_percents
            ],
            "recommendation": None,
            "totals": {"bytes_written": 0, "io_seconds": 0.0},
            "runs": [],
            "error": None,
            "log": "profile.log",
        }
        return cls(
            out,
            doc,
            confirm=confirm or [],
            allow_hdd=allow_hdd,
            progress=progress,
            resuming=False,
            target_factory=target_factory,
        )

    @classmethod
    def resume(
        cls,
        out_dir: Path,
        *,
        confirm: list[str] | None = None,
        allow_hdd: bool = False,
        progress: Callable[[str], None] | None = None,
        target_factory: Callable[[], Target] | None = None,
    ) -> Profile:
        out = Path(out_dir)
        doc = res.load_results(out / "results.json")
        return cls(
            out,
            doc,
            confirm=confirm or [],
            allow_hdd=allow_hdd,
            progress=progress,
            resuming=True,
            target_factory=target_factory,
        )

    # ------------------------------------------------------------------------------ logging

    def log(self, step: str, message: str) -> None:
        line = f"{now_iso()}  {step}: {message}"
        with open(self.out / "profile.log", "a") as f:
            f.write(line + "\n")
        if self.progress is not None:
            self.progress(line)

    def save(self) -> None:
        self.doc["updated"] = now_iso()
        res.validate(self.doc)
        res.write_json_atomic(self.out / "results.json", self.doc)

    def _write_csv(self, phase: dict[str, Any]) -> None:
        names = [m["name"] for m in self.doc["target"]["members"]]
        res.write_atomic(self.out / phase["csv"], res.phase_csv_text(phase, names))

    def _lock(self) -> None:
        fd = os.open(self.out / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ConfigError(f"{self.out} is in use by another overprov profile") from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ---------------------------------------------------------------------------------- run

    def run(self) -> dict[str, Any]:
        """Run (or continue) the profile to the end; returns the results document."""
        self._lock()
        try:
            if self.doc["status"] == "complete":
                self.log("resume", "this profile is already complete; nothing to do")
                return self.doc
            self.doc["runs"].append({"started": now_iso(), "resumed": self.resuming})
            self.doc["status"] = "running"
            self.doc["error"] = None
            target = self._make_target()
            try:
                self._steps(target)
            except KeyboardInterrupt:
                self.doc["status"] = "interrupted"
                self.doc.setdefault("interruptions", []).append(
                    {"at": now_iso(), "during": self._current}
                )
                self.log(
                    "interrupted",
                    "stopped by the user; the round in progress is lost, "
                    f"everything before it is kept: continue with --resume {self.out}",
                )
                self.save()
                raise
            except OverprovError as exc:
                self.doc["status"] = "failed"
                self.doc["error"] = str(exc)
                self.log("failed", str(exc))
                self.save()
                raise
            finally:
                target.close()
            return self.doc
        finally:
            self._unlock()

    def _make_target(self) -> Target:
        """The target named in the results; ``target_factory`` (tests, other targets) wins."""
        if self._target_factory is not None:
            return self._target_factory()
        s = self.settings
        return make_target(
            self.doc["target"]["spec"],
            self.out / "fio",
            size_bytes=s.size_bytes,
            bs_bytes=s.bs_bytes,
            ioengine=s.ioengine,
            confirm=self.confirm,
            allow_hdd=self.allow_hdd,
            files_root=self.out,
        )

    def _begin(self, name: str) -> dict[str, Any]:
        self._current = name
        step = self.doc["steps"][name]
        step["status"] = "running"
        step["started"] = step["started"] or now_iso()
        return step

    def _end(self, name: str, detail: str, status: str = "done") -> None:
        step = self.doc["steps"][name]
        step["status"] = status
        step["finished"] = now_iso()
        step["detail"] = detail
        self.log(name, detail)
        self.save()

    def _run(self, target: Target, spec: RoundSpec) -> RoundResult:
        self._current = spec.label
        r = target.run(spec)
        self._account(r)
        return r

    def _account(self, r: RoundResult) -> None:
        self.doc["totals"]["bytes_written"] += r.combined.bytes_written
        self.doc["totals"]["io_seconds"] += r.combined.duration_s

    def _steps(self, target: Target) -> None:
        s = self.settings
        # 1. identify -------------------------------------------------------------------
        self._begin("identify")
        self.log("identify", f"opening {self.doc['target']['spec']} (safety checks)")
        # a stored run that never identified its target wrote nothing: it starts afresh
        recorded = self.resuming and bool(self.doc["target"].get("members"))
        target.open(resuming=recorded)
        identity = target.identity()
        if recorded:  # the fingerprint check (docs/safety.md)
            why = target.same_as(self.doc["target"])
            if why is not None:
                raise ConfigError(f"--resume: not the target of {self.out}: {why}")
        self.doc["target"] = identity
        self.doc["software"] = _software(target)
        described = "; ".join(
            ", ".join(f"{k}={v}" for k, v in m.items() if v not in (None, ""))
            for m in identity["members"]
        )
        self._end(
            "identify",
            f"{identity['kind']} target, {res_bytes(identity['capacity_bytes'])} tested per "
            f"member: {described}; software {self.doc['software']}",
        )
        cap = target.capacity_bytes
        members = len(target.member_names)

        if not self.resuming:
            est = estimate(s, cap, members)
            self.doc["estimate"] = est
            self.log("estimate", estimate_text(est, target.spec, target.kind, cap, members))
            self.log("warning", wear_warning(target.kind, target.spec))
            self.save()
        else:
            done = sum(1 for p in self.doc["phases"] if p["status"] in DONE_PHASE)
            self.log(
                "resume",
                f"continuing {self.out}: {done} of {len(self.doc['phases'])} phases finished "
                "(not rerun)",
            )

        # 2. FOB ------------------------------------------------------------------------
        if self.doc["steps"]["fob"]["status"] != "done":
            if s.fob_s == 0:
                self._end("fob", "skipped (--fob-seconds 0)", status="skipped")
            else:
                step = self._begin("fob")
                self.log(
                    "fob", f"initial random-write performance: {s.fob_s} s over the whole span"
                )
                r = self._run(
                    target,
                    RoundSpec(
                        label="fob",
                        rw="randwrite",
                        bs_bytes=s.bs_bytes,
                        qd=s.qd,
                        jobs=s.jobs,
                        span_bytes=cap,
                        seconds=s.fob_s,
                    ),
                )
                step["round"] = _round_record(1, r)
                per_member = r.combined.iops / members
                self._end(
                    "fob",
                    f"{r.combined.iops:,.0f} IOPS (fresh-out-of-box if the drive "
                    "was new or purged)",
                )
                est = estimate(
                    s,
                    cap,
                    members,
                    random_iops=per_member,
                    measured=(
                        f"refined with the measured initial {per_member:,.0f} IOPS per member "
                        "(steady-state IOPS are usually lower, so bytes are an upper bound)"
                    ),
                )
                self.doc["estimate_after_fob"] = est
                self.log("estimate", estimate_text(est, target.spec, target.kind, cap, members))
                self.save()

        # 3. purge ----------------------------------------------------------------------
        if self.doc["steps"]["purge"]["status"] != "done":
            self._begin("purge")
            self.save()
            self._end("purge", target.purge())

        # 4. precondition ---------------------------------------------------------------
        self._precondition(target, cap)

        # 5. phases ---------------------------------------------------------------------
        for phase in self.doc["phases"]:
            if phase["status"] in DONE_PHASE:
                continue
            met = self._target_met()
            if met is not None:
                self._skip(
                    phase, f"--stop-at-target: OP {met:g}% already meets {s.target_iops:g} IOPS"
                )
                continue
            self._phase(target, phase, cap)

        self.doc["recommendation"] = res.recommend(self.doc["phases"], s.target_iops)
        self.doc["status"] = "complete"
        self.log("recommendation", self.doc["recommendation"]["reason"])
        self.save()

    def _target_met(self) -> float | None:
        s = self.settings
        if not s.stop_at_target or s.target_iops is None:
            return None
        for p in self.doc["phases"]:
            if p["steady"] and p["steady_iops"] is not None and p["steady_iops"] >= s.target_iops:
                return float(p["op_percent"])
        return None

    def _skip(self, phase: dict[str, Any], reason: str) -> None:
        phase["status"] = "skipped"
        phase["skipped"] = True
        phase["skip_reason"] = reason
        phase["finished"] = now_iso()
        self.log(phase["label"], f"skipped: {reason}")
        self._write_csv(phase)
        self.save()

    def _precondition(self, target: Target, cap: int) -> None:
        s = self.settings
        step = self.doc["steps"]["precondition"]
        if step["status"] == "done":
            return
        parts_per_pass = max(1, math.ceil(cap / PRECONDITION_PART_MAX_BYTES))
        part_bytes = math.ceil(cap / parts_per_pass / (1 << 20)) * (1 << 20)
        plan = []
        for p in range(s.precondition_passes):
            for i in range(parts_per_pass):
                offset = i * part_bytes
                span = min(part_bytes, cap - offset)
                if span > 0:
                    plan.append((p, offset, span))
        self._begin("precondition")
        step.setdefault("parts", [])
        if s.precondition == "seq":
            how = (
                f"{s.precondition_passes} × capacity of {PRECONDITION_BS // 1024} KiB "
                "sequential writes"
            )
            rw, bs = "write", PRECONDITION_BS
        else:
            how = (
                f"one random-map pass of {s.bs_bytes} B writes (every block written "
                "exactly once, in random order)"
            )
            rw, bs = "randwrite", s.bs_bytes
        done = len(step["parts"])
        self.log("precondition", f"{how}: {len(plan)} part(s), {done} already done")
        self.save()
        for n, (p, offset, span) in enumerate(plan[done:], start=done + 1):
            r = self._run(
                target,
                RoundSpec(
                    label=f"pre-p{n:02d}",
                    rw=rw,
                    bs_bytes=bs,
                    qd=s.qd,
                    jobs=1,
                    offset_bytes=offset,
                    span_bytes=span,
                ),
            )
            rate = r.combined.bytes_written / r.combined.duration_s if r.combined.duration_s else 0
            step["parts"].append(
                {
                    "index": n,
                    "pass": p + 1,
                    "offset_bytes": offset,
                    "span_bytes": span,
                    "started": r.started,
                    "finished": r.finished,
                    "bytes_written": r.combined.bytes_written,
                    "duration_s": r.combined.duration_s,
                    "bytes_per_s": rate,
                    "files": r.files,
                }
            )
            left = len(plan) - n
            eta = (left * span / (rate / len(target.member_names))) if rate else 0
            self.log(
                "precondition",
                f"part {n}/{len(plan)} (pass {p + 1}): {res_bytes(r.combined.bytes_written)} in "
                f"{r.combined.duration_s:.3g} s ({res_bytes(rate)}/s)"
                + (f"; about {human_seconds(eta)} left" if left else ""),
            )
            self.save()
        self._end("precondition", f"{how}: {len(plan)} part(s) done")

    def _phase(self, target: Target, phase: dict[str, Any], cap: int) -> None:
        s = self.settings
        op = float(phase["op_percent"])
        span = span_for(op, cap, s.bs_bytes)
        if span <= 0:
            raise ConfigError(f"--op {op:g}: leaves no space to write in {cap} bytes")
        label = phase["label"]
        phase["status"] = "running"
        phase["started"] = phase["started"] or now_iso()
        phase["span_bytes"] = span
        again = " (again: idempotent after an interruption)" if phase["discard"] else ""
        phase["discard"] = target.discard_tail(span)
        self.log(
            label,
            f"OP {op:g}%: random writes on the first {res_bytes(span)} of "
            f"{res_bytes(cap)}; tail discarded{again}: {phase['discard']}",
        )
        self.save()
        criteria = s.criteria()
        verdict = assess([r["iops"] for r in phase["rounds"]], criteria)
        while len(phase["rounds"]) < s.max_rounds:
            n = len(phase["rounds"]) + 1
            r = self._run(
                target,
                RoundSpec(
                    label=f"{label}-r{n:03d}",
                    rw="randwrite",
                    bs_bytes=s.bs_bytes,
                    qd=s.qd,
                    jobs=s.jobs,
                    span_bytes=span,
                    seconds=s.round_seconds,
                    fio_ss_slope_percent=s.fio_ss_slope_percent,
                ),
            )
            phase["rounds"].append(_round_record(n, r))
            series = [x["iops"] for x in phase["rounds"]]
            verdict = assess(series, criteria)
            self._update_phase(phase, verdict)
            ss = r.combined.fio_steadystate
            fio_said = ""
            if ss is not None:
                fio_said = f"; fio {ss['ss']}: {'attained' if ss['attained'] else 'not attained'}"
            self.log(
                label,
                f"round {n}/{s.max_rounds}: {r.combined.iops:,.0f} IOPS, "
                f"p99 {_fmt_us(r.combined.latency_us.get('p99'))}{fio_said}; {verdict.reason}",
            )
            self._write_csv(phase)
            self.save()
            if verdict.steady:
                break
            first = min(s.min_iops_rounds, s.max_rounds)
            if s.min_iops is not None and n == first:
                mean_first = math.fsum(series[:first]) / first
                if mean_first < s.min_iops:
                    phase["finished"] = now_iso()
                    self._update_phase(phase, verdict)
                    self._skip(
                        phase,
                        f"--min-iops: the first {first} round(s) averaged {mean_first:,.0f} "
                        f"IOPS, below {s.min_iops:g}",
                    )
                    return
        phase["finished"] = now_iso()
        self._update_phase(phase, verdict)
        if verdict.steady:
            phase["status"] = "steady"
            self.log(label, f"STEADY at {phase['steady_iops']:,.0f} IOPS — {verdict.reason}")
        else:
            phase["status"] = "not_steady"
            self.log(label, f"NOT STEADY: {verdict.reason}")
        self._write_csv(phase)
        self.save()

    def _update_phase(self, phase: dict[str, Any], verdict: Any) -> None:
        rounds = phase["rounds"]
        phase["verdict"] = verdict.to_dict()
        phase["steady"] = bool(verdict.steady)
        phase["window_iops_mean"] = verdict.mean
        phase["steady_iops"] = verdict.mean if verdict.steady else None
        phase["bytes_written"] = sum(r["bytes_written"] for r in rounds)
        phase["duration_s"] = math.fsum(r["duration_s"] for r in rounds)
        last = rounds[-1] if rounds else None
        phase["latency_us"] = dict(last["latency_us"]) if last else None
        phase["latency_round"] = last["index"] if last else None
        phase["fio_steadystate"] = last["fio_steadystate"] if last else None
        w = len(verdict.window)
        members = []
        for i, name in enumerate(self.doc["target"]["members"]):
            window = [r["members"][i]["iops"] for r in rounds[-w:]] if w else []
            members.append(
                {
                    "name": name["name"],
                    "window_iops_mean": math.fsum(window) / len(window) if window else None,
                    "bytes_written": sum(r["members"][i]["bytes_written"] for r in rounds),
                    "latency_us": last["members"][i]["latency_us"] if last else None,
                    "fio_steadystate": last["members"][i]["fio_steadystate"] if last else None,
                }
            )
        phase["members"] = members


def res_bytes(n: float) -> str:
    return human_bytes(n)


def _fmt_us(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.0f} µs"


def stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
