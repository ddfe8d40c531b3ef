"""What the report draws from: a :class:`Source` (one profile, or one series of simulated runs)
holding one :class:`Phase` per OP level, with its latency and time spans. The loaders
(``load_profile``, ``load_simulate``) fill it; nothing here invents a figure: a field that is
missing stays ``None`` and the report says so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import ConfigError, InputError
from overprov.prediction_file import Prediction
from overprov.units import factor_text

PROFILE_FORMAT = "overprov-profile-results"


class ReportInputError(ConfigError):
    """An input of ``overprov report`` is missing or not a profile or simulate result."""

    @classmethod
    def missing(cls, path: Path) -> ReportInputError:
        """The error for an input that does not exist (said alike by the check before the
        report's modules are imported and by the loader)."""
        return cls(f"{path}: no such file or folder")


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

    @property
    def curve_from_histogram(self) -> bool:
        """True when the drawn CDF is the histogram; False when it is the quoted percentiles
        (no histogram, or a histogram of another stretch than the steady window)."""
        return self.has_histogram and not self.window_percentiles

    def cdf_points(self) -> tuple[list[float], list[float]]:
        """(latency µs, share of I/Os with latency ≤ it), for every bucket but the last (1);
        the quoted percentiles alone when they are the window's (the same window as the
        tables) or when there is no histogram."""
        if not self.curve_from_histogram:
            quoted = self.window_percentiles or self.percentiles
            pairs = sorted(
                (PERCENTILE_SHARE[k], v)
                for k, v in quoted.items()
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
        if not self.curve_from_histogram:
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


WAF_RISE_LIMIT = 0.05  # a fitted rise of more than 5% of the mean across a window: still rising

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

    op_percent: float  # the x value: extra OP %, or ρ % for a sweep of --rho
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
    # the window that ``waf`` covers, in words ("steady window: intervals 474–568 ..."), the
    # whole measured part's WAF when it differs, and whether WAF still rose over the window
    waf_window: str = ""
    waf_whole_run: float | None = None
    # a trace run: ``waf`` is the measured passes' WAF, whatever window the IOPS come from
    waf_is_measured_passes: bool = False
    waf_rise_fraction: float | None = None  # fitted rise across the window / its mean
    waf_rising: bool = False
    # profile: why the phase was accepted (results.json ``verdict`` and ``precondition``)
    verdict: dict[str, Any] = field(default_factory=dict)
    precondition: dict[str, Any] = field(default_factory=dict)
    written_before_window_drive_writes: float | None = None
    host_share: float | None = None  # on an emulated drive: the host's share of the window's time

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
    # the drives tested, as (model, serial) per member (profile and calibrate of a real drive)
    drive_ids: list[tuple[str | None, str | None]] = field(default_factory=list)
    # simulated data: the drive (preset name or drive file), the scale, and whether the drive
    # is an illustrative preset or a calibrated twin of a real drive
    simulated: bool = False
    sim_drive: str | None = None
    sim_scale: str | None = None
    sim_basis: str | None = None  # "illustrative" or "calibrated twin"
    # what decides the comparison of inputs: drive, scale, method, precondition, round length
    comparison_keys: dict[str, str] = field(default_factory=dict)
    preparation: list[tuple[str, str]] = field(default_factory=list)  # purge, preconditions
    # simulate: a queue-depth sweep's runs and preset (overprov.qd_sweep), on its file's first
    # series only
    qd_runs: list[Any] = field(default_factory=list)
    qd_preset: str | None = None
    wsat_before: list[Phase] = field(default_factory=list)  # FOB and precondition, from byte 0
    criteria: dict[str, Any] = field(default_factory=dict)  # profile: steady_state_criteria
    prediction: Prediction | None = None  # calibrate: prediction.json (prediction_file.load)
    qualify: dict[str, Any] = field(default_factory=dict)  # qualify: the overprov.qualify/1 doc
    plan: dict[str, Any] = field(default_factory=dict)  # plan: the overprov.plan/1 document
    # calibrate: the levels it measured (extra_op_percent, steady_iops, waf, p99_latency_us)
    measured_levels: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sim_tag(self) -> str:
        """ "SIMULATED · preset X · ×1/32 scale · illustrative" (empty for measured data)."""
        if not self.simulated:
            return ""
        bits = ["SIMULATED"]
        if self.sim_drive:
            bits.append(self.sim_drive)
        if self.sim_scale:
            bits.append(f"scale {self.sim_scale}")
        bits.append(self.sim_basis or "illustrative")
        return " · ".join(bits)

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


def number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def sim_basis_of(drive: str | None) -> str:
    """ "calibrated twin" for a drive file written by ``overprov calibrate`` (it records the fit
    under ``[notes.calibration]``), else "illustrative" (a preset or a hand-written drive file)."""
    if drive and drive.endswith(".toml"):
        try:
            doc = inputs.load_toml(drive, "drive file")
        except InputError:
            return "illustrative"
        notes = doc.get("notes")
        if isinstance(notes, dict) and isinstance(notes.get("calibration"), dict):
            return "calibrated twin"
    return "illustrative"


def scale_text(drive: str, scale: str | None, advertised_bytes: float | None = None) -> str:
    """The scale of a simulated drive as a factor, "1/32" (or "1" at full size), from the
    scale as given (a factor or a NAND size) or, when none was given, from the simulated
    advertised capacity against the preset's; the scale as given when it cannot be read."""
    from overprov import presets

    try:
        preset = presets.get(drive)
        if scale is None and advertised_bytes:
            factor = advertised_bytes / float(preset["advertised_bytes"])
        else:
            factor = presets.scale_factor(preset, scale)
    except (ConfigError, KeyError, TypeError, ValueError, OSError):
        return scale or "as given"
    return factor_text(factor)


def read_document(path: Path, schema: str, what: str) -> dict[str, Any]:
    """A JSON document of ``schema`` (``overprov.qualify/1``, ...), read bounded
    (``overprov.inputs``) and validated against its schema; ReportInputError names the file
    and the field otherwise."""
    from overprov import inputs
    from overprov.errors import InputError
    from overprov.json_schemas import validate_document

    try:
        doc = inputs.load_json(path, what)
    except InputError as exc:
        raise ReportInputError(str(exc)) from None
    if not isinstance(doc, dict) or doc.get("schema") != schema:
        raise ReportInputError(f"{path}: not a {what} (schema {schema})")
    try:
        validate_document(doc, schema, str(path))
    except InputError as exc:
        raise ReportInputError(str(exc)) from None
    return doc


_BARE_NUMBER = re.compile(r"(?<![\w.,/])(\d{5,}|\d{4}(?=\.\d)|\d{4}(?= IOPS))(\.\d+)?(?!\w)")


def grouped(text: str) -> str:
    """Numbers of 5 digits or more (4 with decimals) in a sentence another tool wrote
    ("reached 30000 IOPS (best: 25717.4 IOPS)", "mean 7190.89") with thousands separators,
    one decimal at most: the report's one way of writing numbers ("30,000", "25,717.4",
    "7,190.9", "1,000 IOPS"); other 4-digit whole numbers (1024 pages, a year) stay as they
    are."""

    def one(m: re.Match[str]) -> str:
        whole = f"{int(m.group(1)):,}"
        frac = m.group(2)
        return whole + (f"{float(frac):.1f}"[1:] if frac else "")

    return _BARE_NUMBER.sub(one, text)


def op_text(op: float, axis: str = "extra") -> str:
    return f"{op:g}%" if axis == "extra" else f"ρ {op:.3g}%"


def kv(pairs: Iterable[tuple[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for k, v in pairs:
        if v is None or v == "" or v == []:
            continue
        out.append((k, v if isinstance(v, str) else str(v)))
    return out
