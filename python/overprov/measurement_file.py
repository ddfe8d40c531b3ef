"""``measurement.json``: what calibrate measured (:class:`Measurement`, its :class:`Level` and
:class:`Round` records), kept as it is measured and read back checked. The report reads it too.

Written atomically (a temporary file beside it, fsync, rename: ``overprov.results``) after every
round, so a crash, a kill or a full disk leaves the last good copy. Read through
``overprov.inputs`` (a bounded regular UTF-8 file, no NaN or infinity) and checked field by
field against :data:`MEASUREMENT`, :data:`LEVEL`, :data:`ROUND` and :data:`PLAN` (type, range,
whether it may be null), so a damaged or hand-edited file is refused naming the file and the
field, never half-used. Fields the reader does not know are ignored.
"""

from __future__ import annotations

import copy
import functools
import math
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from overprov.errors import InputError
from overprov.inputs import load_json
from overprov.results import write_json_atomic

NAME = "measurement.json"
WHAT = "calibrate measurement (measurement.json)"
STATUSES = ("running", "interrupted", "failed", "complete")
#: How a plan lays each level out before its window (``calibrate/plan.py``).
PRECONDITIONS = ("graded", "random")
#: How a graded plan sizes its first level (``plan.spare_from``): measured by the onset of
#: garbage collection, or for an assumed native OP.
SPARE_FROM = ("assumed", "onset")
#: Bounds on figures measured or typed in (a value past them, 1e308, overflows the fit's
#: arithmetic). A typed IOPS figure above this is a typing mistake (the fastest drives are near
#: 10⁷).
MAX_IOPS = 1e9
#: A typed WAF above this is a typing mistake (greedy GC at 0.1% spare is near 300).
MAX_WAF = 1e4


@dataclass
class Round:
    """What one round did, as the fit and ``--from`` need it."""

    label: str
    extra_op_percent: float
    iops: float
    bytes_written: int
    duration_s: float
    p99_latency_us: float | None
    host_bytes: int | None = None
    """Host and NAND write counters after the round (None: the target has none)."""
    nand_bytes: int | None = None
    run: int = 0
    """Which run of the measurement wrote it: 0, then 1 after the first ``--resume``, ..."""
    host_share: float | None = None
    """On a drive ``overprov emulate`` serves: the share of the round's request time the host
    held, not the drive (``emulate.host_share``); None on any other target."""


@dataclass
class Level:
    """One settled (or budget-stopped) write-saturation segment."""

    extra_op_percent: float
    steady_iops: float
    """Completions ÷ time over the window rounds."""
    iops_rel_sd: float
    """Standard error of the window's mean IOPS from round-to-round variation, relative."""
    waf: float | None
    """NAND ÷ host bytes written over the window (write counters), None if unknown."""
    p99_latency_us: float | None
    settled: bool
    window_rounds: int
    drive_writes_before_window: float
    drive_writes: float
    queue_depth: int | None = None
    """Its rounds' queue depth when not the measurement's (the plan's second-queue-depth
    probe, ``plan.with_probe``); None: the measurement's ``qd``."""


@dataclass
class Measurement:
    """Everything calibrate measured on one target (``measurement.json``)."""

    target: str
    capacity_bytes: int
    scale_factor: float
    """Tested capacity ÷ full-size capacity (1 except for scaled simulated drives)."""
    bs_bytes: int
    qd: int
    fob_iops: float | None = None
    fob_p99_latency_us: float | None = None
    levels: list[Level] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    bytes_written: int = 0
    io_seconds: float = 0.0
    counters: bool = False
    kind: str = "unknown"
    """The target's kind ("sim", "block", "file"): which model-form error applies."""
    status: str = "complete"
    """"running" (being measured, or killed while it was), "interrupted", "failed" or
    "complete"; a stored measurement without the field is complete."""
    fill_done: bool = True
    """The sequential fill has finished (segments start from a filled drive)."""
    plan: dict[str, Any] | None = None
    """The plan being measured (``MeasurementPlan.to_dict``): a resumed run keeps it."""
    identity: dict[str, Any] | None = None
    """The target's identity when measuring started: a resumed run must find the same."""
    runs: list[dict[str, Any]] = field(default_factory=list)
    """One entry per run: when it started, whether it resumed, how it ended."""
    stop_reason: str | None = None
    """Why measuring stopped before every planned segment was done (the budget), or None."""
    cut_levels: list[dict[str, Any]] | None = None
    """The segments the budget cut short, each ``{"extra_op_percent", "queue_depth"}`` (null
    queue depth: the plan's), as ``calibrate/measure.py`` cut them; None: written before the
    field (``calibrate/stopped_early.py`` then reads ``stop_reason``'s words)."""
    spare_drive_writes: float | None = None
    """Graded plan: what the first level's rounds were sized to (of the capacity): the host
    writes from the fill to the onset of garbage collection, or the assumed share
    (``spare_source`` says which); None: not graded."""
    spare_source: str | None = None
    """Where ``spare_drive_writes`` comes from (``calibrate/graded_run.py``): "garbage-collection
    onset", "assumed: …" (no onset seen, and why) or "lower bound: …" (the budget ended first)."""
    onset_spare_factor: float | None = None
    """The onset of garbage collection from empty (``calibrate/gc_onset.py``): host writes from
    the purge to the first garbage-collection copy ÷ the capacity, or the lower bound
    ``onset_source`` names; None: not measured."""
    onset_source: str | None = None
    """How ``onset_spare_factor`` was found, or why it was not (``calibrate/gc_onset.py``)."""
    cliff: dict[str, Any] | None = None
    """The cliff step's plan and rounds (``calibrate/cliff_step.py``; None: not asked for, and
    then not written)."""
    fob_waf: float | None = None
    """NAND ÷ host bytes over the FOB segment, read from the write counters (no garbage
    collection yet: the FTL's own metadata writes, ``calibrate/metadata_factor.py``); None:
    no counters, and then not written."""

    @property
    def drive_writes(self) -> float:
        return self.bytes_written / self.capacity_bytes

    def to_dict(self) -> dict[str, Any]:
        """As ``dataclasses.asdict`` gives it, plus ``drive_writes``: its records (whose fields
        are numbers, strings and None) copied field by field and the rest deep-copied, without
        asdict's walk and deep copy of every number. The file is saved after every round, so
        this runs hundreds of times a measurement (a simulated drive's: 210 saves, asdict 0.5
        of calibrate's 12.6 CPU s; docs/testing.md, "Round 15")."""
        d = _record(self)
        d["levels"] = [_record(x) for x in self.levels]
        d["rounds"] = [_record(x) for x in self.rounds]
        d["plan"], d["identity"], d["runs"] = copy.deepcopy((self.plan, self.identity, self.runs))
        d["drive_writes"] = self.drive_writes
        if self.fob_waf is None:  # no counters: the document as without the figure
            del d["fob_waf"]
        if not self.cut_levels:  # nothing cut short: the document as before the record
            d.pop("cut_levels", None)  # (read back as None: stopped_early reads stop_reason,
            # which then names no cut either)
        if self.cliff is None:  # not asked for: the document as without the step
            del d["cliff"]
        else:
            d["cliff"] = copy.deepcopy(self.cliff)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Measurement:
        """From a checked document (``measurement_file.load`` checks one read from a file)."""
        d = dict(d)
        d.pop("drive_writes", None)
        d["levels"] = [Level(**x) for x in d.get("levels", [])]
        d["rounds"] = [Round(**x) for x in d.get("rounds", [])]
        return cls(**d)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _record(obj: Any) -> dict[str, Any]:
    """A dataclass's fields by name, in their order (the values as they are)."""
    return {name: getattr(obj, name) for name in _field_names(type(obj))}


@dataclass(frozen=True)
class Field:
    kind: str
    """"int", "number", "bool", "str", "dict", "list"."""
    lo: float | None = None
    hi: float | None = None
    hi_open: bool = False
    lo_open: bool = False
    null: bool = False
    required: bool = True


def _n(lo: float | None = None, **kw: Any) -> Field:
    return Field("number", lo, **kw)


def _i(lo: float | None = None, **kw: Any) -> Field:
    return Field("int", lo, **kw)


OP = _n(0.0, hi=100.0, hi_open=True)
#: A relative spread above this (1000%) is no measurement.
MAX_REL_SD = 10.0

MEASUREMENT: dict[str, Field] = {
    "target": Field("str"),
    "capacity_bytes": _i(1),
    "scale_factor": _n(1e-9, hi=1.0),
    "bs_bytes": _i(1),
    "qd": _i(1),
    "fob_iops": _n(0.0, hi=MAX_IOPS, lo_open=True, null=True, required=False),
    "fob_p99_latency_us": _n(0.0, null=True, required=False),
    "fob_waf": _n(0.0, lo_open=True, null=True, required=False),
    "levels": Field("list", required=False),
    "rounds": Field("list", required=False),
    "bytes_written": _i(0, required=False),
    "io_seconds": _n(0.0, required=False),
    "counters": Field("bool", required=False),
    "kind": Field("str", required=False),
    "status": Field("str", required=False),
    "fill_done": Field("bool", required=False),
    "plan": Field("dict", null=True, required=False),
    "identity": Field("dict", null=True, required=False),
    "runs": Field("list", required=False),
    "stop_reason": Field("str", null=True, required=False),
    "cut_levels": Field("list", null=True, required=False),
    "spare_drive_writes": _n(0.0, hi=100.0, null=True, required=False),
    "spare_source": Field("str", null=True, required=False),
    "onset_spare_factor": _n(0.0, hi=100.0, null=True, required=False),
    "onset_source": Field("str", null=True, required=False),
    "cliff": Field("dict", null=True, required=False),
}
LEVEL: dict[str, Field] = {
    "extra_op_percent": OP,
    "steady_iops": _n(0.0, hi=MAX_IOPS, lo_open=True),
    "iops_rel_sd": _n(0.0, hi=MAX_REL_SD),
    "waf": _n(1.0, hi=MAX_WAF, null=True),
    "p99_latency_us": _n(0.0, null=True),
    "settled": Field("bool"),
    "window_rounds": _i(1),
    "drive_writes_before_window": _n(),
    "drive_writes": _n(0.0),
    "queue_depth": _i(1, null=True, required=False),
}
ROUND: dict[str, Field] = {
    "label": Field("str"),
    "extra_op_percent": OP,
    "iops": _n(0.0, hi=MAX_IOPS),
    "bytes_written": _i(0),
    "duration_s": _n(0.0),
    "p99_latency_us": _n(0.0, null=True),
    "host_bytes": _i(0, null=True, required=False),
    "nand_bytes": _i(0, null=True, required=False),
    "run": _i(0, required=False),
}
PLAN: dict[str, Field] = {
    "budget": Field("dict"),
    "bs_bytes": _i(1),
    "qd": _i(1),
    "fob_drive_writes": _n(0.0, lo_open=True),
    "round_drive_writes": _n(0.0, lo_open=True),
    "window_rounds": _i(1),
    "settle_percent": _n(0.0, lo_open=True),
    "segments": Field("list"),
    "precondition": Field("str", required=False),
    "assumed_native_op_percent": _n(0.0, hi=100.0, required=False),
    "graded_rounds": _i(1, hi=1000, required=False),
    "spare_from": Field("str", required=False),
    "sweep_drive_writes": _n(0.0, hi=1.0, lo_open=True, required=False),
    "probe": Field("dict", null=True, required=False),
    "low_probe": Field("dict", null=True, required=False),
    "onset_from_empty": Field("bool", required=False),
    "onset_max_drive_writes": _n(0.0, hi=100.0, lo_open=True, required=False),
    "middle": Field("dict", null=True, required=False),
}
BUDGET: dict[str, Field] = {
    "drive_writes": _n(0.0, lo_open=True, null=True),
    "io_seconds": _n(0.0, lo_open=True, null=True),
}
SEGMENT: dict[str, Field] = {
    "extra_op_percent": OP,
    "min_drive_writes": _n(0.0),
    "max_drive_writes": _n(0.0),
    "precondition_drive_writes": _n(0.0, hi=100.0, required=False),
    "queue_depth": _i(1, null=True, required=False),
    "window_rounds": _i(1, null=True, required=False),
    "round_drive_writes": _n(0.0, lo_open=True, null=True, required=False),
    "refill_from_percent": _n(0.0, hi=100.0, hi_open=True, null=True, required=False),
}

_KINDS: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "number": (int, float),
    "bool": (bool,),
    "str": (str,),
    "dict": (dict,),
    "list": (list,),
}


def _check_value(value: Any, f: Field, where: str) -> None:
    if value is None:
        if not f.null:
            raise InputError(f"{where}: null where a {f.kind} is expected")
        return
    # bool is an int to Python, not to a reader of the file
    if not isinstance(value, _KINDS[f.kind]) or (isinstance(value, bool) and f.kind != "bool"):
        raise InputError(f"{where}: {value!r:.40} is not a {f.kind}")
    if f.kind not in ("int", "number"):
        return
    if not math.isfinite(value):
        raise InputError(f"{where}: {value!r} is not a number")
    low = f.lo is not None and (value <= f.lo if f.lo_open else value < f.lo)
    high = f.hi is not None and (value >= f.hi if f.hi_open else value > f.hi)
    if low or high:
        lo = "" if f.lo is None else f"{'>' if f.lo_open else '≥'} {f.lo:g}"
        hi = "" if f.hi is None else f"{'<' if f.hi_open else '≤'} {f.hi:g}"
        want = " and ".join(x for x in (lo, hi) if x)
        raise InputError(f"{where}: {value!r} is out of range (must be {want})")


def check_fields(doc: Any, fields: dict[str, Field], where: str) -> dict[str, Any]:
    """``doc`` as a dict of the known ``fields``, each checked (InputError naming ``where``
    and the field); unknown keys are left out."""
    if not isinstance(doc, dict):
        raise InputError(f"{where}: {type(doc).__name__} where an object is expected")
    out = {}
    for name, f in fields.items():
        if name not in doc:
            if f.required:
                raise InputError(f"{where}.{name}: missing")
            continue
        _check_value(doc[name], f, f"{where}.{name}")
        out[name] = doc[name]
    return out


def _check_list(items: Any, fields: dict[str, Field], where: str) -> list[dict[str, Any]]:
    return [check_fields(x, fields, f"{where}[{i}]") for i, x in enumerate(items)]


def check(doc: Any, where: str) -> Measurement:
    """A measurement document, checked (see the module's rules), as a Measurement."""
    d = check_fields(doc, MEASUREMENT, where)
    d["levels"] = _check_list(d.get("levels", []), LEVEL, f"{where}: levels")
    d["rounds"] = _check_list(d.get("rounds", []), ROUND, f"{where}: rounds")
    if d.get("status", "complete") not in STATUSES:
        raise InputError(f"{where}: status: {d['status']!r} is not one of {', '.join(STATUSES)}")
    seen: set[tuple[float, int | None]] = set()
    for i, lv in enumerate(d["levels"]):
        key = (lv["extra_op_percent"], lv.get("queue_depth"))
        if key in seen:
            at_qd = f" at QD{key[1]}" if key[1] else ""
            raise InputError(f"{where}: levels[{i}].extra_op_percent: a second level at "
                             f"{lv['extra_op_percent']:g}%{at_qd}")  # fmt: skip
        seen.add(key)
    if d.get("plan") is not None:
        plan = check_fields(d["plan"], PLAN, f"{where}: plan")
        check_fields(plan["budget"], BUDGET, f"{where}: plan.budget")
        _check_list(plan["segments"], SEGMENT, f"{where}: plan.segments")
        if not plan["segments"]:
            raise InputError(f"{where}: plan.segments: empty")
        for probe in ("probe", "low_probe", "middle"):
            if plan.get(probe) is not None:
                check_fields(plan[probe], SEGMENT, f"{where}: plan.{probe}")
        if plan.get("precondition", "random") not in PRECONDITIONS:
            raise InputError(f"{where}: plan.precondition: {plan['precondition']!r:.40} is not "
                             f"one of {', '.join(PRECONDITIONS)}")  # fmt: skip
        if plan.get("spare_from", "assumed") not in SPARE_FROM:
            raise InputError(f"{where}: plan.spare_from: {plan['spare_from']!r:.40} is not "
                             f"one of {', '.join(SPARE_FROM)}")  # fmt: skip
    for i, run in enumerate(d.get("runs", [])):
        if not isinstance(run, dict):
            raise InputError(f"{where}: runs[{i}]: not an object")
    return Measurement.from_dict(d)


def load(path: Path) -> Measurement:
    """Read and check a measurement.json; InputError names the file and the field."""
    return check(load_json(path, WHAT), str(path))


def save(m: Measurement, path: Path) -> None:
    """Write it atomically: a crash or a full disk leaves the previous copy whole."""
    write_json_atomic(path, m.to_dict())
