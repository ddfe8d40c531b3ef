"""Read profile folders and simulate JSON files into one shape the report draws from.

Two inputs, one model:

* a **profile** folder (``results.json`` of ``overprov profile``, docs/results-schema.md, with
  fio's json+ output per round in ``fio/``) becomes one :class:`Source` whose phases are the
  profile's OP levels;
* a **simulate** file (``overprov simulate --json``, schema ``overprov.simulate/1``) becomes
  one :class:`Source` per series of runs that differ only in their OP (a sweep of
  ``--extra-op`` is one series; a file holding two GC policies gives two).

A simulate run that carries ``timed`` (the timed simulator: per-interval IOPS, latency and a
state fob/transition/steady) gives the same IOPS and latency figures as a profile phase.
Nothing here invents a figure: a field that is missing stays ``None`` and the report says so.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov import engine
from overprov.errors import ConfigError
from overprov.units import binary_size, human_bytes

PROFILE_FORMAT = "overprov-profile-results"

# Keys of a simulate config that change with the OP of a sweep (not part of a series' identity).
_OP_KEYS = {
    "extra_op_percent",
    "op_ratio",
    "user_pages",
    "user_bytes",
}


class ReportInputError(ConfigError):
    """An input of ``overprov report`` is missing or not a profile or simulate result."""


@dataclass
class Latency:
    """A phase's completion-latency distribution.

    ``values_us``/``counts`` is a histogram (fio json+ bins: a bucket's latency; the timed
    simulator: a bucket's upper bound) when one exists; ``percentiles`` holds the figures a
    tool reported (``{"p50": µs, ...}``) and is all there is when no histogram was found.
    """

    values_us: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    percentiles: dict[str, float | None] = field(default_factory=dict)
    mean_us: float | None = None
    max_us: float | None = None
    source: str = ""  # where the figures come from, with the rounds and I/O count
    kind: str = ""  # the same in short, common to the phases of a source
    # the percentiles that tables and conclusions quote when they differ from the histogram's
    # (a timed simulation: the steady window's, while the histogram covers the whole run)
    window_percentiles: dict[str, float | None] | None = None

    @property
    def total(self) -> int:
        return int(sum(self.counts))

    @property
    def has_histogram(self) -> bool:
        return self.total > 0

    def cdf_points(self) -> tuple[list[float], list[float]]:
        """(latency µs, share of I/Os with latency ≤ it), for every bucket but the last (1)."""
        if not self.has_histogram:
            pairs = sorted(
                (PERCENTILE_SHARE[k], v)
                for k, v in self.percentiles.items()
                if k in PERCENTILE_SHARE and v is not None and v > 0
            )
            return [v for _, v in pairs], [p for p, _ in pairs]
        total = self.total
        xs, ys = [], []
        running = 0
        for v, c in zip(self.values_us, self.counts, strict=True):
            running += c
            share = running / total
            if c > 0 and share < 1.0 and v > 0:
                xs.append(v)
                ys.append(share)
        return xs, ys

    def exceedance_points(self) -> tuple[list[float], list[float]]:
        """(latency µs, share of I/Os with latency ≥ it), one point per non-empty bucket."""
        if not self.has_histogram:
            xs, ys = self.cdf_points()
            return xs, [1.0 - y for y in ys]
        total = self.total
        xs, ys = [], []
        below = 0
        for v, c in zip(self.values_us, self.counts, strict=True):
            if c > 0 and v > 0:
                xs.append(v)
                ys.append((total - below) / total)
            below += c
        return xs, ys

    def percentile(self, share: float) -> float | None:
        """The smallest bucket value with cumulative share ≥ ``share`` (fio's rule); the
        window's figure when ``window_percentiles`` holds it."""
        if self.window_percentiles:
            for key, s in PERCENTILE_SHARE.items():
                if abs(s - share) < 1e-12 and self.window_percentiles.get(key) is not None:
                    return self.window_percentiles[key]
        if not self.has_histogram:
            for key, s in PERCENTILE_SHARE.items():
                if abs(s - share) < 1e-12:
                    return self.percentiles.get(key)
            return None
        need = share * self.total
        running = 0
        for v, c in zip(self.values_us, self.counts, strict=True):
            running += c
            if running >= need - 1e-9:
                return v
        return self.values_us[-1]


PERCENTILE_SHARE: dict[str, float] = {
    "p50": 0.5,
    "p90": 0.9,
    "p99": 0.99,
    "p99_9": 0.999,
    "p99_99": 0.9999,
}


@dataclass
class Span:
    """A stretch of a phase's time axis: a state of the timed simulator or a steady window."""

    start_s: float
    end_s: float
    kind: str  # "steady-window", "last-window" (not steady); states "fob", "transition", "steady"


@dataclass
class Phase:
    """One OP level of one source."""

    op_percent: float  # the x value: extra OP %, or ρ % for a sweep of --op
    label: str
    status: str  # steady, not_steady, skipped, running, pending, simulated
    steady: bool
    steady_iops: float | None = None
    iops_mean: float | None = None  # steady window mean, or the last window's when not steady
    iops_min: float | None = None
    iops_max: float | None = None
    window_rounds: tuple[int, int] | None = None  # first, last round of that window
    rounds: int = 0
    skip_reason: str | None = None
    reason: str = ""
    duration_s: float | None = None  # I/O seconds summed over the rounds
    wall_s: float | None = None  # first round start to last round end
    bytes_written: float | None = None
    span_bytes: float | None = None
    # IOPS over time (1 s points) and round means
    time_s: list[float] = field(default_factory=list)
    iops: list[float] = field(default_factory=list)
    round_bounds_s: list[tuple[float, float]] = field(default_factory=list)
    round_iops: list[float] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    # write saturation: IOPS against host bytes written since the start of the source
    wsat_bytes: list[float] = field(default_factory=list)
    wsat_iops: list[float] = field(default_factory=list)
    latency: Latency | None = None
    fob_iops: float | None = None  # timed simulation: fresh-out-of-box IOPS of this run
    # simulation only
    waf: float | None = None
    rho: float | None = None
    user_bytes: float | None = None
    physical_bytes: float | None = None
    pages_per_block: int | None = None
    measured_drive_writes: float | None = None
    erase: dict[str, float] | None = None  # min, max, mean, stddev
    erase_histogram: list[tuple[int, int]] = field(default_factory=list)
    waf_drive_writes: list[float] = field(default_factory=list)  # WAF per interval ...
    waf_series: list[float] = field(default_factory=list)  # ... against drive writes

    @property
    def iops_figure(self) -> float | None:
        """Steady IOPS when steady, else the last window's mean (flagged where shown)."""
        return self.steady_iops if self.steady_iops is not None else self.iops_mean


@dataclass
class Source:
    """One drive (or one simulated drive series): what was tested and its phases."""

    kind: str  # "profile" or "simulate"
    path: Path
    label: str
    title: str
    status: str
    date: str
    phases: list[Phase]
    op_axis: str = "extra"  # "extra": extra OP %; "rho": total OP ρ %
    identity: list[tuple[str, str]] = field(default_factory=list)
    settings: list[tuple[str, str]] = field(default_factory=list)
    software: dict[str, str] = field(default_factory=dict)
    recommendation: dict[str, Any] | None = None
    target_iops: float | None = None
    fob_iops: float | None = None
    capacity_bytes: float | None = None  # tested per member (profile)
    drive_bytes: float | None = None  # whole member size (profile), advertised (simulate)
    members: int = 1
    rated_tbw: float | None = None  # TB written per member, as given to the profile
    bs_bytes: int | None = None
    total_bytes: float | None = None
    io_seconds: float | None = None
    policy: str | None = None
    workload: str | None = None
    uniform_workload: bool = False
    simulated_target: bool = False  # a profile of a sim:PRESET drive
    d_choices: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def has_iops(self) -> bool:
        return any(p.iops_figure is not None for p in self.phases)

    @property
    def has_waf(self) -> bool:
        return any(p.waf is not None for p in self.phases)

    @property
    def has_series(self) -> bool:
        return any(p.iops or p.round_iops for p in self.phases)

    @property
    def has_latency(self) -> bool:
        return any(p.latency is not None and p.latency.cdf_points()[0] for p in self.phases)


# ------------------------------------------------------------------------------------ helpers


def parse_time(text: str | None) -> datetime | None:
    """ISO 8601 UTC timestamps as the profile writes them (``2026-05-01T12:00:00.123Z``)."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def op_text(op: float, axis: str = "extra") -> str:
    return f"{op:g}%" if axis == "extra" else f"ρ {op:.3g}%"


# ------------------------------------------------------------------------------------ profile


def _fio_bins(out: Path, files: Iterable[str]) -> dict[int, int]:
    """Merge the json+ completion-latency bins (ns → count) of every group in these files."""
    from overprov.profile import fio

    bins: dict[int, int] = {}
    for name in files:
        if not name.endswith(".json"):
            continue
        path = out / name
        try:
            doc = fio.parse_json_output(path.read_text(errors="replace"))
        except (OSError, ValueError):
            continue
        for job in doc.get("jobs") or []:
            write = job.get("write") if isinstance(job, Mapping) else None
            if not isinstance(write, Mapping):
                continue
            for ns, count in fio.latency_bins_ns(write).items():
                bins[ns] = bins.get(ns, 0) + count
    return bins


def _profile_latency(
    out: Path, phase: Mapping[str, Any], first: int, last: int, simulated: bool = False
) -> Latency:
    rounds = [r for r in phase.get("rounds") or [] if first <= int(r.get("index", 0)) <= last]
    files = [f for r in rounds for f in r.get("files") or []]
    bins = _fio_bins(out, files)
    lat = phase.get("latency_us") or {}
    which = f"round {first}" if first == last else f"rounds {first}–{last}"
    if bins:
        items = sorted(bins.items())
        return Latency(
            values_us=[ns / 1000.0 for ns, _ in items],
            counts=[c for _, c in items],
            percentiles={k: _num(lat.get(k)) for k in PERCENTILE_SHARE},
            mean_us=_num(lat.get("mean")),
            max_us=max(ns for ns, _ in items) / 1000.0,
            source=f"fio json+ latency histogram of {which}, {sum(bins.values()):,} I/Os",
            kind="fio's json+ latency histograms of each phase's steady window (or last window)",
        )
    last_round = phase.get("latency_round")
    if simulated:
        source = f"percentiles of round {last_round} (a simulated profile records no histogram)"
        kind = "percentiles of each phase's last round (a simulated profile records no histogram)"
    else:
        source = (
            f"percentiles of round {last_round} only (fio's json+ output was not found in "
            f"{out / 'fio'})"
        )
        kind = "percentiles of each phase's last round (fio's json+ output not found)"
    return Latency(
        percentiles={k: _num(lat.get(k)) for k in PERCENTILE_SHARE},
        mean_us=_num(lat.get("mean")),
        max_us=_num(lat.get("max")),
        source=source,
        kind=kind,
    )


def _profile_phase(out: Path, p: Mapping[str, Any], simulated: bool = False) -> Phase:
    rounds = list(p.get("rounds") or [])
    verdict = p.get("verdict") or {}
    steady = bool(p.get("steady"))
    phase = Phase(
        op_percent=float(p["op_percent"]),
        label=str(p.get("label") or f"op{p['op_percent']:g}"),
        status=str(p.get("status") or "pending"),
        steady=steady,
        steady_iops=_num(p.get("steady_iops")),
        iops_mean=_num(p.get("window_iops_mean")),
        rounds=len(rounds),
        skip_reason=p.get("skip_reason"),
        reason=str(verdict.get("reason") or p.get("skip_reason") or ""),
        duration_s=_num(p.get("duration_s")),
        bytes_written=_num(p.get("bytes_written")),
        span_bytes=_num(p.get("span_bytes")),
    )
    window = [v for v in verdict.get("window") or [] if _num(v) is not None]
    first_w = verdict.get("window_first_round")
    if window and isinstance(first_w, int):
        phase.iops_min, phase.iops_max = min(window), max(window)
        phase.window_rounds = (first_w, first_w + len(window) - 1)
    elif rounds:
        values = [float(r["iops"]) for r in rounds if _num(r.get("iops")) is not None]
        if values:
            phase.iops_min, phase.iops_max = min(values), max(values)
            phase.window_rounds = (int(rounds[0]["index"]), int(rounds[-1]["index"]))
    if not rounds:
        return phase
    # Wall-clock round starts, unless they contradict the rounds' durations (a simulated
    # drive runs a round of simulated seconds in milliseconds): then I/O time, end to end.
    t0 = parse_time(rounds[0].get("started"))
    starts = [parse_time(r.get("started")) for r in rounds]
    wall = t0 is not None and all(s is not None for s in starts)
    if wall:
        offsets = [(s - t0).total_seconds() for s in starts]  # type: ignore[operator]
        durations = [_num(r.get("duration_s")) or 0.0 for r in rounds]
        wall = all(
            offsets[k + 1] >= offsets[k] + durations[k] - 1.0 for k in range(len(rounds) - 1)
        )
    clock = 0.0
    for k, r in enumerate(rounds):
        rs = offsets[k] if wall else clock
        dur = _num(r.get("duration_s")) or 0.0
        phase.round_bounds_s.append((rs, rs + dur))
        phase.round_iops.append(float(r.get("iops") or 0.0))
        for i, v in enumerate(r.get("iops_series") or []):
            phase.time_s.append(rs + i + 1.0)
            phase.iops.append(float(v))
        clock = rs + dur
    phase.wall_s = phase.round_bounds_s[-1][1]
    if phase.window_rounds:
        a, b = phase.window_rounds
        idx = {int(r["index"]): k for k, r in enumerate(rounds)}
        if a in idx and b in idx:
            phase.spans.append(
                Span(
                    phase.round_bounds_s[idx[a]][0],
                    phase.round_bounds_s[idx[b]][1],
                    "steady-window" if steady else "last-window",
                )
            )
        phase.latency = _profile_latency(out, p, a, b, simulated)
    return phase


def _profile_wsat(doc: Mapping[str, Any], phases: Sequence[Phase]) -> None:
    """Fill each phase's write-saturation points: IOPS against host bytes written since the
    profile started (FOB and precondition included)."""
    steps = doc.get("steps") or {}
    written = 0.0
    fob = (steps.get("fob") or {}).get("round")
    if fob:
        written += float(fob.get("bytes_written") or 0.0)
    for part in (steps.get("precondition") or {}).get("parts") or []:
        written += float(part.get("bytes_written") or 0.0)
    raw = {float(p["op_percent"]): p for p in doc.get("phases") or []}
    for phase in phases:
        for r in raw.get(phase.op_percent, {}).get("rounds") or []:
            dur = _num(r.get("duration_s")) or 0.0
            b = float(r.get("bytes_written") or 0.0)
            series = list(r.get("iops_series") or [])
            if series and dur > 0:
                for i, v in enumerate(series):
                    phase.wsat_bytes.append(written + b * min(1.0, (i + 1) / dur))
                    phase.wsat_iops.append(float(v))
            elif _num(r.get("iops")) is not None:
                phase.wsat_bytes.append(written + b)
                phase.wsat_iops.append(float(r["iops"]))
            written += b


def _kv(pairs: Iterable[tuple[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for k, v in pairs:
        if v is None or v == "" or v == []:
            continue
        out.append((k, v if isinstance(v, str) else str(v)))
    return out


def load_profile(folder: Path) -> Source:
    path = folder / "results.json"
    try:
        doc = json.loads(path.read_text())
    except OSError as exc:
        raise ReportInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ReportInputError(f"{path}: not JSON: {exc}") from None
    if doc.get("format") != PROFILE_FORMAT:
        raise ReportInputError(f"{path}: not a profile results file (format {doc.get('format')!r})")
    if doc.get("schema_version") != 1:
        raise ReportInputError(
            f"{path}: results schema version {doc.get('schema_version')!r}; this report reads 1"
        )
    settings = doc.get("settings") or {}
    target = doc.get("target") or {}
    members = target.get("members") or []
    bs = settings.get("bs_bytes")
    simulated = target.get("kind") == "sim"
    phases = [_profile_phase(folder, p, simulated) for p in doc.get("phases") or []]
    _profile_wsat(doc, phases)
    fob = ((doc.get("steps") or {}).get("fob") or {}).get("round") or {}
    spec = str(target.get("spec") or folder.name)
    name = ",".join(Path(s).name for s in spec.split(",")) or folder.name
    identity: list[tuple[str, Any]] = [
        ("target", spec),
        ("kind", target.get("kind")),
        ("tested capacity per member", human_bytes(_num(target.get("capacity_bytes")))),
    ]
    for i, m in enumerate(members):
        tag = f"member {i + 1}: " if len(members) > 1 else ""
        desc = [m.get("model"), m.get("serial") and f"serial {m['serial']}"]
        if m.get("kind") == "file":
            desc.append(m.get("fs_type") and f"file on {m['fs_type']} at {m.get('mount_point')}")
        desc.append(f"{human_bytes(_num(m.get('size_bytes')))} in all")
        if m.get("transport"):
            desc.append(str(m["transport"]))
        if m.get("write_cache"):
            desc.append(f"write cache: {m['write_cache']}")
        if m.get("rotational"):
            desc.append("rotational")
        if m.get("description"):
            desc.append(str(m["description"]))
        identity.append((f"{tag}{m.get('path') or m.get('name')}", ", ".join(d for d in desc if d)))
    crit = doc.get("steady_state_criteria") or {}
    setting_pairs: list[tuple[str, Any]] = [
        ("OP levels", ", ".join(f"{x:g}%" for x in settings.get("op_percents") or [])),
        (
            "workload",
            f"{binary_size(bs) if bs else '?'} random writes, QD {settings.get('qd')} × "
            f"{settings.get('jobs')} job(s) per member"
            + ("" if simulated else f", ioengine {settings.get('ioengine')}"),
        ),
        (
            "rounds",
            f"{settings.get('round_seconds')} s each, at most {settings.get('max_rounds')} per "
            "phase",
        ),
        (
            "steady state",
            f"SNIA: last {crit.get('window_rounds', 5)} rounds, range ≤ "
            f"{100 * crit.get('max_range_fraction', 0.2):g}% and slope excursion ≤ "
            f"{100 * crit.get('max_slope_excursion_fraction', 0.1):g}% of the mean",
        ),
        ("precondition", settings.get("precondition")),
        (
            "size tested",
            human_bytes(settings["size_bytes"]) if settings.get("size_bytes") else None,
        ),
        ("target IOPS", f"{settings['target_iops']:,.0f}" if settings.get("target_iops") else None),
        ("min IOPS (skip)", settings.get("min_iops")),
        ("stop at target", "yes" if settings.get("stop_at_target") else None),
        (
            "rated TBW per drive",
            f"{settings['rated_tbw']:g} TB" if settings.get("rated_tbw") else None,
        ),
        (
            "fio steadystate per round",
            None if simulated else doc.get("fio_steadystate_per_round"),
        ),
    ]
    created = parse_time(doc.get("created"))
    updated = parse_time(doc.get("updated"))
    date = (
        f"{created:%Y-%m-%d %H:%M} UTC" + (f" to {updated:%Y-%m-%d %H:%M} UTC" if updated else "")
        if created
        else "unknown"
    )
    totals = doc.get("totals") or {}
    source = Source(
        kind="profile",
        path=folder,
        label=name,
        title=f"profile of {spec}",
        status=str(doc.get("status") or "unknown"),
        date=date,
        phases=phases,
        identity=_kv(identity),
        settings=_kv(setting_pairs),
        software={str(k): str(v) for k, v in (doc.get("software") or {}).items()},
        recommendation=doc.get("recommendation"),
        target_iops=_num(settings.get("target_iops")),
        fob_iops=_num(fob.get("iops")),
        capacity_bytes=_num(target.get("capacity_bytes")),
        drive_bytes=min(
            (float(m["size_bytes"]) for m in members if _num(m.get("size_bytes"))),
            default=None,
        ),
        members=max(1, len(members)),
        rated_tbw=_num(settings.get("rated_tbw")),
        bs_bytes=int(bs) if bs else None,
        total_bytes=_num(totals.get("bytes_written")),
        io_seconds=_num(totals.get("io_seconds")),
        simulated_target=simulated,
    )
    if source.status != "complete":
        source.notes.append(
            f"this profile is {source.status}"
            + (f" ({doc['error']})" if doc.get("error") else "")
            + ": its figures are partial"
        )
    if settings.get("size_bytes") and target.get("kind") == "block":
        source.notes.append(
            "only the first "
            f"{human_bytes(settings['size_bytes'])} of the device were tested: unwritten or "
            "discarded space beyond it can act as extra OP and raise every phase's IOPS"
        )
    return source


# ----------------------------------------------------------------------------------- simulate


def _strip_op(config: Mapping[str, Any]) -> str:
    cfg = json.loads(json.dumps(config))
    geo = cfg.get("geometry") or {}
    for key in _OP_KEYS:
        geo.pop(key, None)
    (cfg.get("run") or {}).pop("seed", None)
    return json.dumps(cfg, sort_keys=True)


def _sim_phase(run: Mapping[str, Any], op_axis: str) -> Phase:
    geo = run.get("geometry") or {}
    cfg = run.get("config") or {}
    extra = (cfg.get("geometry") or {}).get("extra_op_percent")
    rho = _num(geo.get("op_ratio"))
    x = float(extra) if op_axis == "extra" else 100.0 * (rho or 0.0)
    measured = run.get("measured") or {}
    wear = run.get("wear") or {}
    user = _num(geo.get("user_bytes"))
    phase = Phase(
        op_percent=x,
        label=f"op{x:g}" if op_axis == "extra" else f"rho{x:.3g}",
        status="simulated" if run.get("done", True) else "stopped",
        steady=False,
        waf=_num(measured.get("waf")),
        rho=rho,
        user_bytes=user,
        physical_bytes=_num(geo.get("physical_bytes")),
        pages_per_block=geo.get("pages_per_block"),
        erase=wear.get("erase_count"),
        erase_histogram=[(int(a), int(b)) for a, b in wear.get("erase_histogram") or []],
        bytes_written=_num(measured.get("host_bytes")),
    )
    if user and measured.get("host_bytes"):
        phase.measured_drive_writes = float(measured["host_bytes"]) / user
    for iv in run.get("intervals") or []:
        if iv.get("phase") == "precondition":
            continue
        waf = _num((iv.get("delta") or {}).get("waf"))
        dw = _num(iv.get("drive_writes_total"))
        if waf is not None and dw is not None:
            phase.waf_drive_writes.append(dw)
            phase.waf_series.append(waf)
    timed = run.get("timed")
    if isinstance(timed, Mapping):
        _sim_timed(phase, timed)
    return phase


def _median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else None


def _sim_timed(phase: Phase, timed: Mapping[str, Any]) -> None:
    """IOPS over time, states, write saturation and latency from a timed simulation.

    ``timed.steady_window`` [first, last] (interval indexes) is the window whose mean is
    ``steady_iops``: its min–max and its latency (the median over the window of each
    interval's percentile, as ``overprov simulate`` prints it) are the phase's figures. Without
    it, the intervals whose state is "steady" stand in."""
    intervals = [iv for iv in timed.get("intervals") or [] if _num(iv.get("iops")) is not None]
    step = _num(timed.get("interval_s")) or 1.0
    steady_values = []
    for iv in intervals:
        t = _num(iv.get("time_s"))
        t = t if t is not None else (len(phase.time_s) + 1) * step
        phase.time_s.append(t)
        phase.iops.append(float(iv["iops"]))
        state = str(iv.get("state") or "")
        if state == "steady":
            steady_values.append(float(iv["iops"]))
        if phase.spans and phase.spans[-1].kind == state:
            phase.spans[-1].end_s = t
        elif state:
            phase.spans.append(Span(t - step, t, state))
        hb = _num(iv.get("host_bytes_total"))
        if hb is not None:
            phase.wsat_bytes.append(hb)
            phase.wsat_iops.append(float(iv["iops"]))
    phase.duration_s = phase.time_s[-1] if phase.time_s else None
    phase.wall_s = phase.duration_s
    phase.rounds = 0
    phase.fob_iops = _num(timed.get("fob_iops"))
    steady = _num(timed.get("steady_iops"))
    phase.steady_iops = steady
    phase.steady = steady is not None
    phase.status = "steady" if phase.steady else "not_steady"
    window = timed.get("steady_window")
    in_window: list[Mapping[str, Any]] = []
    if (
        isinstance(window, Sequence)
        and len(window) == 2
        and all(isinstance(k, int) for k in window)
        and 0 <= window[0] <= window[1] < len(intervals)
    ):
        in_window = intervals[window[0] : window[1] + 1]
        values = [float(iv["iops"]) for iv in in_window]
        phase.iops_min, phase.iops_max = min(values), max(values)
        phase.iops_mean = sum(values) / len(values)
        phase.spans.append(
            Span(phase.time_s[window[0]] - step, phase.time_s[window[1]], "steady-window")
        )
    elif steady_values:
        phase.iops_min, phase.iops_max = min(steady_values), max(steady_values)
        phase.iops_mean = sum(steady_values) / len(steady_values)
    elif phase.iops:
        tail = phase.iops[-max(1, len(phase.iops) // 5) :]
        phase.iops_min, phase.iops_max = min(tail), max(tail)
        phase.iops_mean = sum(tail) / len(tail)
        phase.reason = "no interval reached the steady state; figure: mean of the last fifth"
    if intervals and _num(intervals[-1].get("host_bytes_total")) is not None:
        phase.bytes_written = float(intervals[-1]["host_bytes_total"])
    hist = timed.get("latency_histogram") or {}
    uppers = [float(v) for v in hist.get("bucket_upper_us") or []]
    counts = [int(c) for c in hist.get("counts") or []]
    summary = timed.get("latency_us") or {}
    last = (intervals[-1].get("latency_us") or {}) if intervals else {}
    window_pct: dict[str, float | None] = {}
    if in_window:
        for key in PERCENTILE_SHARE:
            window_pct[key] = _median(
                [
                    float(v)
                    for iv in in_window
                    if (v := _num((iv.get("latency_us") or {}).get(key))) is not None
                ]
            )
    if uppers and len(uppers) == len(counts) and sum(counts) > 0:
        phase.latency = Latency(
            values_us=uppers,
            counts=counts,
            max_us=_num(summary.get("max")) or _num(last.get("max")),
            source=f"timed simulator latency histogram (bucket upper bounds), {sum(counts):,} I/Os"
            + (
                "; percentiles: median over the steady window of each interval's"
                if window_pct
                else ""
            ),
            kind="the timed simulator's latency histogram of each whole run (bucket upper bounds)",
        )
        phase.latency.percentiles = {
            k: phase.latency.percentile(s) for k, s in PERCENTILE_SHARE.items()
        }
        if any(v is not None for v in window_pct.values()):
            phase.latency.window_percentiles = window_pct
    elif last or window_pct:
        phase.latency = Latency(
            percentiles=window_pct or {k: _num(last.get(k)) for k in PERCENTILE_SHARE},
            max_us=_num(summary.get("max")) or _num(last.get("max")),
            source="percentiles of the steady window"
            if window_pct
            else "percentiles of the last interval (no histogram in the file)",
            kind="percentiles of each run (no histogram in the file)",
        )


def _flag(command: Sequence[Any], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` in a recorded command line."""
    args = [str(a) for a in command]
    for k, a in enumerate(args):
        if a == name and k + 1 < len(args):
            return args[k + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def _sim_label(
    cfg: Mapping[str, Any],
    differing: set[str],
    command: Sequence[Any] = (),
    recorded: Mapping[str, Any] | None = None,
) -> str:
    geo = cfg.get("geometry") or {}
    ftl = cfg.get("ftl") or {}
    wl = cfg.get("workload") or {}
    size = geo.get("advertised_bytes") or geo.get("physical_bytes")
    parts = ["sim"]
    # the preset as simulate recorded it; older files only have it on the command line
    preset = (recorded or {}).get("name") or _flag(command, "--preset")
    if preset:
        parts.append(preset)
        scale = (recorded or {}).get("scale") or _flag(command, "--scale")
        if scale and scale not in ("1", "1.0"):
            parts.append(f"×{scale}")
    elif size:
        parts.append(human_bytes(float(size)))
    policy = str(ftl.get("policy"))
    if policy == "d-choices":
        policy += f" d={ftl.get('d_choices')}"
    parts.append(policy)
    if "workload" in differing or wl.get("pattern") != "uniform":
        parts.append(str(wl.get("pattern")))
    if "pages_per_block" in differing:
        parts.append(f"b={geo.get('pages_per_block')}")
    return " ".join(parts)


def _timing_text(timing: Any) -> str | None:
    """The timed simulator's settings in one line (host, NAND, buffer, SLC cache)."""
    if not isinstance(timing, Mapping) or not timing.get("enabled"):
        return None
    host = timing.get("host") or {}
    nand = timing.get("nand") or {}
    buf = timing.get("buffer") or {}
    slc = timing.get("slc") or {}
    parts = [
        f"QD{host.get('queue_depth')} closed loop"
        if host.get("mode") == "closed"
        else f"open loop at {host.get('arrival_iops')} IOPS",
        "write-through" if host.get("write_through") else "write-back",
        f"{nand.get('channels')} channels × {nand.get('dies_per_channel')} dies, program "
        f"{nand.get('program_us'):g} µs, erase {nand.get('erase_us'):g} µs",
        f"buffer {binary_size(int(buf.get('bytes') or 0))}"
        + (" (power-loss protected)" if buf.get("power_loss_protected") else ""),
    ]
    if slc.get("enabled"):
        parts.append(f"SLC cache up to {human_bytes(_num(slc.get('max_bytes')))}")
    if host.get("link_mb_s"):
        parts.append(f"link {host['link_mb_s']:g} MB/s")
    return ", ".join(parts)


def _uniform(cfg: Mapping[str, Any], geo: Mapping[str, Any]) -> bool:
    w = cfg.get("workload") or {}
    return (
        w.get("pattern") == "uniform"
        and w.get("span_percent", 100) == 100
        and not w.get("read_percent")
        and not w.get("trim_percent")
        and not w.get("bssplit")
        and w.get("request_bytes", geo.get("page_size_bytes")) == geo.get("page_size_bytes")
    )


def load_simulate(path: Path) -> list[Source]:
    try:
        doc = engine.read_simulate_file(path)
    except ConfigError as exc:
        raise ReportInputError(str(exc)) from None
    runs = doc["runs"]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in runs:
        groups.setdefault(_strip_op(r.get("config") or {}), []).append(r)
    # what differs between series names them
    differing: set[str] = set()
    if len(groups) > 1:
        firsts = [g[0].get("config") or {} for g in groups.values()]
        for key in ("ftl", "workload", "wear", "run"):
            if len({json.dumps(c.get(key), sort_keys=True) for c in firsts}) > 1:
                differing.add(key)
        if len({(c.get("geometry") or {}).get("pages_per_block") for c in firsts}) > 1:
            differing.add("pages_per_block")
    mtime = datetime.fromtimestamp(os.stat(path).st_mtime, tz=UTC)
    command = doc.get("command") or []
    sources = []
    for runs_of in groups.values():
        cfg = runs_of[0].get("config") or {}
        geo_cfg = cfg.get("geometry") or {}
        geo = runs_of[0].get("geometry") or {}
        op_axis = (
            "extra"
            if all(
                (r.get("config") or {}).get("geometry", {}).get("extra_op_percent") is not None
                for r in runs_of
            )
            else "rho"
        )
        phases = sorted((_sim_phase(r, op_axis) for r in runs_of), key=lambda p: p.op_percent)
        ftl = cfg.get("ftl") or {}
        wl = cfg.get("workload") or {}
        run_cfg = cfg.get("run") or {}
        label = _sim_label(cfg, differing, command, doc.get("preset"))
        simulator = runs_of[0].get("simulator")
        software = dict(
            _kv(
                [
                    ("overprov", doc.get("overprov_version")),
                    (
                        "simulator",
                        f"{simulator} {runs_of[0].get('version')}" if simulator else None,
                    ),
                ]
            )
        )
        identity = _kv(
            [
                ("simulated drive", label),
                (
                    "advertised capacity",
                    human_bytes(_num(geo_cfg.get("advertised_bytes")))
                    if geo_cfg.get("advertised_bytes")
                    else None,
                ),
                ("physical NAND", human_bytes(_num(geo.get("physical_bytes")))),
                (
                    "geometry",
                    f"{geo.get('page_size_bytes')} B pages, {geo.get('pages_per_block')} pages "
                    f"per block, {geo.get('blocks')} blocks",
                ),
                ("file", str(path)),
            ]
        )
        settings = _kv(
            [
                (
                    "OP levels",
                    ", ".join(op_text(p.op_percent, op_axis) for p in phases)
                    + (" extra OP" if op_axis == "extra" else ""),
                ),
                (
                    "GC",
                    f"{ftl.get('policy')}"
                    + (f" (d={ftl.get('d_choices')})" if ftl.get("policy") == "d-choices" else "")
                    + f", GC frontier {ftl.get('gc_frontier')}, host streams "
                    f"{ftl.get('host_streams')}, GC at ≤ {ftl.get('gc_free_blocks')} free blocks",
                ),
                (
                    "workload",
                    f"{wl.get('pattern')}, {wl.get('request_bytes')} B requests, span "
                    f"{wl.get('span_percent'):g}%, reads {wl.get('read_percent'):g}%, trims "
                    f"{wl.get('trim_percent'):g}%"
                    if wl
                    else None,
                ),
                (
                    "run",
                    f"precondition {(cfg.get('precondition') or {}).get('kind', '?')}, warm-up "
                    f"{run_cfg.get('warmup_drive_writes')} + measured "
                    f"{run_cfg.get('drive_writes')} drive writes, seed {run_cfg.get('seed')}"
                    if run_cfg
                    else None,
                ),
                ("timing", _timing_text(cfg.get("timing"))),
                ("command", " ".join(str(c) for c in command) if command else None),
            ]
        )
        sources.append(
            Source(
                kind="simulate",
                path=path,
                label=label,
                title=f"simulation: {label}",
                status="complete" if all(r.get("done", True) for r in runs_of) else "stopped early",
                date=f"file written {mtime:%Y-%m-%d %H:%M} UTC",
                phases=phases,
                op_axis=op_axis,
                identity=identity,
                settings=settings,
                software=software,
                drive_bytes=_num(geo_cfg.get("advertised_bytes")),
                policy=ftl.get("policy"),
                workload=wl.get("pattern"),
                uniform_workload=_uniform(cfg, geo),
                d_choices=ftl.get("d_choices"),
                total_bytes=sum(p.bytes_written or 0.0 for p in phases) or None,
            )
        )
    return sources


# ------------------------------------------------------------------------------------- inputs


def load_inputs(inputs: Sequence[Path]) -> list[Source]:
    """Each input: a profile folder (or its results.json), or a simulate JSON file (or a
    folder holding such files)."""
    if not inputs:
        raise ReportInputError("give at least one profile folder or simulate JSON file")
    sources: list[Source] = []
    for raw in inputs:
        path = Path(raw)
        if not path.exists():
            raise ReportInputError(f"{path}: no such file or folder")
        if path.is_dir():
            if (path / "results.json").is_file():
                sources.append(load_profile(path))
                continue
            sims = sorted(path.glob("*.json"))
            found = []
            for f in sims:
                if engine.is_simulate_file(f):
                    found.extend(load_simulate(f))
            if not found:
                raise ReportInputError(
                    f"{path}: neither a profile folder (no results.json) nor a folder of "
                    "`overprov simulate --json` files"
                )
            sources.extend(found)
            continue
        try:
            head = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise ReportInputError(f"{path}: not a JSON file: {exc}") from None
        if isinstance(head, Mapping) and head.get("format") == PROFILE_FORMAT:
            sources.append(load_profile(path.parent))
        else:
            sources.extend(load_simulate(path))
    _unique_labels(sources)
    return sources


def _unique_labels(sources: list[Source]) -> None:
    seen: dict[str, int] = {}
    for s in sources:
        seen[s.label] = seen.get(s.label, 0) + 1
    for s in sources:
        if seen[s.label] > 1:
            s.label = f"{s.label} ({s.path.name})"
    counts: dict[str, int] = {}
    for s in sources:
        counts[s.label] = counts.get(s.label, 0) + 1
        if counts[s.label] > 1:
            s.label = f"{s.label} #{counts[s.label]}"
