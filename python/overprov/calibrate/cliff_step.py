"""calibrate's cliff step (``--cliff``): the SLC cache's write cliff measured in the plan.

Before the plan's FOB segment, on the purged drive, 4 KiB random writes at the plan's queue
depth (QD32) over the whole capacity, logged as short rounds of one length (on a simulated
drive about :data:`INTERVAL_DRIVE_WRITES` of the capacity each at :data:`SIZING_IOPS`; on a
real one a second), run until the SLC cache's end shows as a
step in the rounds' IOPS (``cliff_series.cache_step``, at a 10% or, where none, a 5% step; on a
simulated drive a first step at its write buffer's fill passed over: the buffer is not scaled
with the drive, so it holds its bytes ÷ the scale of full-size writes, and the buffer the
target reports, ``SimTarget.buffer_bytes``, is the one figure of its configuration the step
reads, as calibrate's default budget does) and
:data:`AFTER_INTERVALS` rounds past it have given the level after, or until the bound:
:data:`MAX_DRIVE_WRITES` drive writes of the capacity (a cache larger than that is not found).
Then the drive is purged again and left idle :data:`IDLE_SECONDS` (its cache folded and freed,
as after a fresh purge) before the plan's own purge and FOB, so the rest of the plan measures
what it measures without the step.

The rounds go through the Target protocol like every other round (``sim:`` and a real device
via fio alike: the same ``RoundSpec``), each its own round of the target (a real target's at
least a second), and are kept in ``measurement.json``'s ``cliff`` object, not among the plan's
``rounds`` (whose readings count the plan's rounds since its purge). Their writes and I/O time
count in the measurement's ``bytes_written`` and ``io_seconds``; the budget is raised by the
step's bound (``with_cliff_budget``). Whether a round's writes were past the onset of garbage
collection is read from the write counters where the target reports them (a round's WAF above
:data:`GC_WAF`), else taken as not.

The two mixed read probes (:func:`probe`: a region written sequentially, then the workload's
mix over it, so every read is of a written page): one past the cliff right after the series,
one before it after the idle round. They need a round that reports its reads' latency
(``Figures.read_latency_us_mean``: a fio target's, and a simulated one's, whose core rounds
mix reads in, ``RoundRequest.read_percent``), measured by the same code on both; on a
simulated drive a probe lasts :data:`PROBE_SECONDS` × the scale (its writes the same share of
the drive as at full size; a read's latency is not scaled). They are kept in ``probes``, and
used in the prediction only with ``cliff_prediction.PROBES_IN_PREDICTION``.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import asdict, dataclass, replace
from typing import Any

from overprov.calibrate import cliff_ceiling
from overprov.calibrate.cliff_ceiling import at_ceiling
from overprov.calibrate.cliff_series import Series, cache_step
from overprov.calibrate.plan import Budget, MeasurementPlan
from overprov.errors import ConfigError
from overprov.profile.sim_target import SUBROUND_MIN_S
from overprov.profile.targets import RoundSpec

#: The workload the cliff is predicted under by default: QD8, 70% random reads (the QD8 70:30
#: of the cliff's benches, bench/cliff_bench.py's ``MIX``).
DEFAULT_WORKLOAD = "qd8,read70"
#: Each round of the series writes about this share of the capacity (at the last round's
#: IOPS): a cache of 0.5% of the capacity, the smallest the bench sizes, spans 10 rounds.
INTERVAL_DRIVE_WRITES = 0.0001
#: The step's bound: it ends after this many drive writes of the capacity without a cliff.
MAX_DRIVE_WRITES = 0.5
#: Rounds logged past the cliff for the level after it.
AFTER_INTERVALS = 12
#: Idle time (full-size seconds) after the step's second purge, before the plan's FOB.
IDLE_SECONDS = 60.0
#: A round whose writes cost more NAND writes than this per host write ran past the onset of
#: garbage collection.
GC_WAF = 1.02
#: The IOPS a simulated drive's rounds are sized at: every round of the series lasts the same
#: time (the fit simulates the twin on the series' grid, ``cliff.fit_cache``), before the
#: drive's speed is known; a real target's rounds last a second each.
SIZING_IOPS = 50_000.0
#: ...and last at least this long (simulated seconds): a round drains its queue at its end, and
#: rounds shorter than a few queue cycles would not last the time asked (the simulated target's
#: own sub-round floor, ``sim_target.SUBROUND_MIN_S``)
SIM_ROUND_MIN_S = SUBROUND_MIN_S

#: The read probes' region, written sequentially before each probe so that its reads all
#: land on written pages: this share of the host bytes the series wrote before its cliff (so
#: the probe before the cliff stays inside the cache), at most
#: :data:`PROBE_SPAN_MAX_SHARE` of the capacity
PROBE_SPAN_SHARE_OF_CACHE = 0.25
PROBE_SPAN_MAX_SHARE = 0.01
#: Each probe's mixed round (seconds)
PROBE_SECONDS = 2.0

#: How the idle before the probe before the cliff is set: ``"fixed"`` (:data:`IDLE_SECONDS`,
#: the default) or ``"sized"`` (with ``cliff_prediction.PROBES_IN_PREDICTION``:
#: :func:`sized_idle_s`, the probe before the cliff checked (:func:`check_free`) and a probe of
#: reads over trimmed space run after the second purge: bench/results/cliffidle/RULE.md)
IDLE_FORMS = ("fixed", "sized")
#: A sized idle: the bytes the series wrote before its cliff ÷ its write rate past it (the time
#: the drive needs to fold a full cache at the rate it writes TLC), times this margin...
IDLE_MARGIN = 1.5
#: ...at least :data:`IDLE_SECONDS`, at most this long (full-size seconds)
IDLE_MAX_SECONDS = 1800.0
#: The probe before the cliff wrote a free cache when its writes wait less than the probe past
#: the cliff's by at least this share of the series' step (:func:`check_free`)
FREE_SHARE_OF_STEP = 0.25
#: How a sized step judges the probe before the cliff's cache free (:func:`judge_free`):
#: ``"littles_law"`` (:func:`check_free`: the mix's writes' latency by Little's law, as
#: bench/results/cliffidle/RULE.md ran it; what a stored sized plan without the field ran) or
#: ``"fill_iops"`` (:func:`check_free_fill`: the probe's own pure-write fill, before against
#: past the cliff; with ``cliff_prediction.PROBES_IN_PREDICTION``:
#: bench/results/cliffcheck/RULE.md)
CHECK_FORMS = ("littles_law", "fill_iops")
#: The probe before the cliff wrote a free cache when its sequential fill ran faster than the
#: probe past the cliff's by at least this share of the series' step (:func:`check_free_fill`:
#: half way between no step, a full cache, and the series' whole step)
FILL_SHARE_OF_STEP = 0.5
#: A sized step's probes on a simulated drive last at least this many drains of its unscaled
#: write buffer (:func:`buffer_drain_s`): the first reads after a probe's fill wait one drain,
#: a tenth of the round at most
PROBE_DRAINS = 10
#: The probe of reads over trimmed space: this share of reads (a round takes 0..99), over the
#: whole capacity right after a purge (nearly every read of a page never written)
UNWRITTEN_READ_PERCENT = 99

_WORKLOAD_RE = re.compile(r"^\s*qd\s*(\d+)\s*,\s*read\s*(\d+)\s*%?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class CliffWorkload:
    """The workload the cliff is predicted under: ``qd`` commands outstanding, 4 KiB random
    I/O with ``read_percent`` % reads."""

    qd: int
    read_percent: int

    def text(self) -> str:
        return f"QD{self.qd} 4 KiB random, {self.read_percent}% reads"

    def to_doc(self) -> dict[str, Any]:
        """prediction.json's ``cliff.workload``."""
        return {"qd": self.qd, "read_percent": self.read_percent, "text": self.text()}


def parse_workload(text: str) -> CliffWorkload:
    """``"qd8,read70"`` (queue depth 8, 70% reads) → :class:`CliffWorkload`; refused
    (ConfigError naming ``--cliff-workload``) otherwise."""
    m = _WORKLOAD_RE.match(text)
    why = "is not qdN,readP (e.g. qd8,read70: queue depth 8, 70% random reads)"
    if not m:
        raise ConfigError(f"--cliff-workload: {text!r} {why}")
    qd, read = int(m.group(1)), int(m.group(2))
    if not 1 <= qd <= 1024:
        raise ConfigError(f"--cliff-workload: queue depth {qd} not in 1..1024 (in {text!r})")
    if not 0 <= read <= 99:
        raise ConfigError(f"--cliff-workload: {read}% reads not in 0..99 (in {text!r})")
    return CliffWorkload(qd, read)


@dataclass(frozen=True)
class CliffPlan:
    """The cliff step as planned (kept in ``measurement.json``'s ``cliff.plan``)."""

    workload: CliffWorkload
    interval_drive_writes: float = INTERVAL_DRIVE_WRITES
    max_drive_writes: float = MAX_DRIVE_WRITES
    after_intervals: int = AFTER_INTERVALS
    idle_seconds: float = IDLE_SECONDS
    idle_form: str = "fixed"
    check_form: str = "littles_law"

    def __post_init__(self) -> None:
        if self.idle_form not in IDLE_FORMS:
            raise ConfigError(f"cliff step: idle form {self.idle_form!r} not in {IDLE_FORMS}")
        if self.check_form not in CHECK_FORMS:
            raise ConfigError(f"cliff step: check form {self.check_form!r} not in {CHECK_FORMS}")

    def check_text(self) -> str:
        if self.check_form == "littles_law":
            return (
                f"where its writes wait less than past the cliff's by under "
                f"{FREE_SHARE_OF_STEP:g} of the step"
            )
        return (
            f"where its sequential fill runs faster than past the cliff's by under "
            f"{FILL_SHARE_OF_STEP:g} of the step (the prediction then declined)"
        )

    def idle_text(self) -> str:
        if self.idle_form == "fixed":
            return f"{self.idle_seconds:g} s idle"
        return (
            f"reads over trimmed space probed (QD{self.workload.qd}, "
            f"{UNWRITTEN_READ_PERCENT}% reads), then idle the series' bytes before its cliff ÷ "
            f"its write rate past it × {IDLE_MARGIN:g} (at least {self.idle_seconds:g} s, at "
            f"most {IDLE_MAX_SECONDS:g} s), the probe before the cliff marked cache_not_free "
            f"{self.check_text()}"
        )

    def text(self) -> str:
        return (
            f"cliff step first: QD32 4 KiB random writes from purged in rounds of "
            f"{self.interval_drive_writes:g} drive writes until the SLC cache's cliff and "
            f"{self.after_intervals} rounds past it, at most {self.max_drive_writes:g} drive "
            f"writes{_again_text(self.max_drive_writes)}; then purged and {self.idle_text()}; "
            "predicted under "
            f"{self.workload.text()}"
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.idle_form == "fixed":  # as before the field
            del d["idle_form"]
        if self.check_form == "littles_law":  # as before the field
            del d["check_form"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CliffPlan:
        return cls(**{**d, "workload": CliffWorkload(**d["workload"])})


def _again_text(bound: float) -> str:
    if not cliff_ceiling.LARGER_REQUEST:
        return ""
    size_kib = cliff_ceiling.LARGER_REQUEST_BYTES // 1024
    return f" (where every round runs at one rate, again at {size_kib} KiB: up to {bound:g} more)"


def with_cliff_budget(plan: MeasurementPlan, cliff: CliffPlan) -> MeasurementPlan:
    """``plan`` with its drive-write budget raised by the step's bound: the step's writes
    count in the measurement's drive writes and do not take the plan's (an I/O-time budget is
    kept: the step's time comes out of it)."""
    dw = plan.budget.drive_writes
    if dw is None:
        return plan
    series_n = 2 if cliff_ceiling.LARGER_REQUEST else 1  # a second series at a ceiling
    budget = Budget(drive_writes=dw + series_n * cliff.max_drive_writes,
                    io_seconds=plan.budget.io_seconds)  # fmt: skip
    return replace(plan, budget=budget)


def series(doc: dict[str, Any]) -> Series:
    """The step's rounds (``measurement.json``'s ``cliff``) as a series in full-size time."""
    scale = float(doc["scale_factor"])
    times, t = [], 0.0
    for r in doc["rounds"]:
        t += r["duration_s"]
        times.append(t / scale)
    iops = [r["iops"] for r in doc["rounds"]]
    return Series(
        times_s=times, iops=iops, write_iops=list(iops),
        gc_started=[bool(r["gc"]) for r in doc["rounds"]],
    )  # fmt: skip


def measured_step(s: Series, bs_bytes: int, fill_bytes: float = 0.0) -> Any:
    """The series' cache step at 10% or, where none, 5% (a first step at the fill of a write
    buffer of ``fill_bytes``, full size, passed over: ``cache_step``), or None."""
    for min_drop in (0.1, 0.05):
        step = cache_step(s, bs_bytes=bs_bytes, min_drop=min_drop, buffer_bytes=fill_bytes)[0]
        if step is not None:
            return step
    return None


def found(s: Series, bs_bytes: int, buffer_fill_bytes: float = 0.0) -> int | None:
    """The interval the cache's step (:func:`measured_step`) falls in, or None."""
    step = measured_step(s, bs_bytes, buffer_fill_bytes)
    if step is None:
        return None
    return next(i for i, t in enumerate(s.times_s) if t >= step.time_s)


def sized_idle_s(rounds: list[dict[str, Any]], k: int, before_bytes: float, bs_bytes: int) -> float:
    """A sized idle (full-size seconds): ``before_bytes`` (the series' host bytes before its
    cliff, full size) ÷ the median write rate of the rounds after the step's interval ``k``,
    times :data:`IDLE_MARGIN`, within [:data:`IDLE_SECONDS`, :data:`IDLE_MAX_SECONDS`]."""
    after = [r["iops"] for r in rounds[k + 1 :]]
    rate = statistics.median(after) * bs_bytes if after else 0.0
    if rate <= 0:
        return IDLE_MAX_SECONDS
    return min(IDLE_MAX_SECONDS, max(IDLE_SECONDS, IDLE_MARGIN * before_bytes / rate))


def write_us(p: dict[str, Any]) -> float | None:
    """A mixed probe's writes' mean latency (µs) by Little's law: its ``iops`` are its writes'
    (as a round reports them: fio's and the core's write IOPS), so its commands run at
    ``iops`` ÷ (1 − the read share); ``qd`` commands outstanding over that is the mean
    command's time, less its reads' share of ``read_us``. None where the probe has no IOPS
    or no reads' time."""
    if not p.get("iops") or p.get("read_us") is None:
        return None
    share = p["read_percent"] / 100
    return p["qd"] / p["iops"] * 1e6 - share / (1 - share) * p["read_us"]


def check_free(
    before: dict[str, Any], after: dict[str, Any], iops_before: float | None,
    iops_after: float | None,
) -> dict[str, Any]:  # fmt: skip
    """The probe before the cliff checked against the one past it: its writes' mean latency
    (:func:`write_us`) under the probe past the cliff's by at least
    :data:`FREE_SHARE_OF_STEP` of the series' step (1 − ``iops_after`` ÷ ``iops_before``).
    Otherwise (or where a figure is missing), ``cache_not_free``: the probe is not used.
    (Against the plateau's own latency the check cannot be made on ``sim:``: the core's
    in-order host link makes a mix's writes wait behind its reads, ``read_slot``; and a mix's
    writes show only part of the step.)"""
    w, w_after = write_us(before), write_us(after)
    bound = None
    if w_after is not None and iops_before and iops_after:
        bound = w_after * (1 - FREE_SHARE_OF_STEP * (1 - iops_after / iops_before))
    free = w is not None and bound is not None and w <= bound
    return {**before, "write_us": w, "write_us_bound": bound, "cache_not_free": not free}


def check_free_fill(
    before: dict[str, Any], after: dict[str, Any], iops_before: float | None,
    iops_after: float | None,
) -> dict[str, Any]:  # fmt: skip
    """The probe before the cliff checked on a pure-write figure it measures: its sequential
    fill's IOPS (``fill_iops``, :func:`probe`) against the probe past the cliff's, whose ratio
    (past ÷ before) must be at most 1 − :data:`FILL_SHARE_OF_STEP` × the series' step (1 −
    ``iops_after`` ÷ ``iops_before``): a fill into a full cache runs as fast as past the
    cliff (ratio about 1), one into a free cache about the step faster. Otherwise (or where a
    figure is missing), ``cache_not_free``. Unlike :func:`check_free` nothing is subtracted:
    Little's law on a 70%-read round leaves the writes' latency a difference of two large
    terms, within which a small step is lost (bench/results/cliffnotfree/DIAGNOSIS.md)."""
    fb, fa = before.get("fill_iops"), after.get("fill_iops")
    ratio = bound = None
    if fb and fa:
        ratio = fa / fb
    if iops_before and iops_after:
        bound = 1 - FILL_SHARE_OF_STEP * (1 - iops_after / iops_before)
    free = ratio is not None and bound is not None and ratio <= bound
    return {**before, "free_check": "fill_iops", "fill_iops_ratio": ratio,
            "fill_iops_ratio_bound": bound, "cache_not_free": not free}  # fmt: skip


def judge_free(
    form: str, before: dict[str, Any], after: dict[str, Any], levels: tuple[Any, Any]
) -> dict[str, Any]:
    """The probe before the cliff judged by the check form named ``form``
    (:data:`CHECK_FORMS`), against the probe past it and the series' ``levels`` (IOPS before
    and after its step)."""
    if form == "fill_iops":
        return check_free_fill(before, after, *levels)
    return check_free(before, after, *levels)


def unwritten_probe(runner: Any, wl: CliffWorkload, seconds: float) -> dict[str, Any]:
    """Reads over trimmed space on the purged drive: ``wl``'s queue depth,
    :data:`UNWRITTEN_READ_PERCENT` % reads over the whole capacity for ``seconds`` (nearly every
    read of a page never written: answered by the host path and controller, not the NAND);
    its figures, the reads' mean latency (``read_us``) among them."""
    m, target, plan = runner.m, runner.target, runner.plan
    span = m.capacity_bytes // plan.bs_bytes * plan.bs_bytes
    c = target.run(RoundSpec("cliff-probe-unwritten", "randwrite", plan.bs_bytes, wl.qd, 1, span,
                             seconds=seconds,  # type: ignore[arg-type]
                             read_percent=UNWRITTEN_READ_PERCENT)).combined  # fmt: skip
    m.bytes_written += c.bytes_written
    m.io_seconds += c.duration_s
    return {"qd": wl.qd, "read_percent": UNWRITTEN_READ_PERCENT, "span_bytes": span,
            "iops": c.iops, "duration_s": c.duration_s, "bytes_written": c.bytes_written,
            "read_us": c.read_latency_us_mean}  # fmt: skip


def buffer_drain_s(target: Any, rounds: list[dict[str, Any]], k: int, bs_bytes: int) -> float:
    """On a simulated drive, the time its write buffer takes to drain at the series' median
    write rate past the cliff's interval ``k`` (target seconds): the buffer is not scaled with
    the drive, so after a probe's fill it holds up the probe's first reads for a full-size
    drain, longer than a scaled probe lasts (seen on drive 201: bench/results/cliffidle/RULE.md);
    a sized step's probes last at least :data:`PROBE_DRAINS` drains. A real drive's drains in
    a small part of its probe's :data:`PROBE_SECONDS` (0 there)."""
    after = [r["iops"] for r in rounds[k + 1 :]]
    if target.kind != "sim" or not after:
        return 0.0
    return getattr(target, "buffer_bytes", 0) / (statistics.median(after) * bs_bytes)


def probe(
    runner: Any, label: str, span_bytes: int, wl: CliffWorkload, seconds: float,
    fill_iops: bool = False,
) -> dict:  # fmt: skip
    """A mixed probe on ``runner``'s target: [0, ``span_bytes``) written sequentially, then
    ``wl``'s mix over it for ``seconds`` (the target's own time: simulated seconds on ``sim:``;
    every read of a written page); its figures, the reads' mean latency (``read_us``) among
    them (None where the target does not report it), and with ``fill_iops`` the fill's IOPS
    (:func:`check_free_fill`; off: measurement.json as before the check)."""
    m, target, plan = runner.m, runner.target, runner.plan
    span = max(span_bytes // plan.bs_bytes, wl.qd) * plan.bs_bytes
    # 128 KiB sequential writes; a span smaller than one (a step found only at 5%: no bytes
    # before a 10% one) in requests of its own size
    fill_bs = min(131072, span)
    fill = target.run(RoundSpec(f"{label}-fill", "write", fill_bs, plan.qd, 1, span)).combined
    mix = RoundSpec(label, "randwrite", plan.bs_bytes, wl.qd, 1, span, seconds=seconds,  # type: ignore[arg-type]
                    read_percent=wl.read_percent)  # fmt: skip
    c = target.run(mix).combined
    for r in (fill, c):
        m.bytes_written += r.bytes_written
        m.io_seconds += r.duration_s
    got = {
        "qd": wl.qd, "read_percent": wl.read_percent, "span_bytes": span,
        "fill_bytes": fill.bytes_written, "iops": c.iops, "duration_s": c.duration_s,
        "bytes_written": c.bytes_written, "read_us": c.read_latency_us_mean,
    }  # fmt: skip
    if fill_iops:
        got["fill_iops"] = fill.iops
    return got


def measure_cliff(runner: Any, cliff: CliffPlan, scale_factor: float) -> None:
    """Run the step on ``runner``'s target (a ``measure.SegmentRunner``) into its
    measurement's ``cliff``: purge, the series, purge and the idle round (module docstring)."""
    m, target, plan = runner.m, runner.target, runner.plan
    cap, bs, sim = m.capacity_bytes, plan.bs_bytes, target.kind == "sim"
    doc: dict[str, Any] = {
        "plan": cliff.to_dict(), "status": "running", "scale_factor": scale_factor,
        "bs_bytes": bs, "qd": plan.qd, "rounds": [],
    }  # fmt: skip
    # a simulated drive's write buffer is not scaled with it (``presets``): at scale s it holds
    # its bytes ÷ s of full-size writes, and its fill is a step of its own before the cache's
    # end; a real drive's fills within its first second
    fill = getattr(target, "buffer_bytes", 0) / scale_factor if sim else 0.0
    doc["buffer_fill_bytes"] = fill
    m.cliff = doc
    runner.progress(f"cliff step: purge: {target.purge()}")
    written = 0.0
    counters = runner.read().write_counters

    def one(label: str, seconds: float, idle_s: float = 0.0, size_bytes: int = 0) -> dict[str, Any]:
        nonlocal counters
        spec = RoundSpec(label, "randwrite", size_bytes or bs, plan.qd, 1, cap, seconds=seconds,  # type: ignore[arg-type]
                         idle_seconds=idle_s)  # fmt: skip
        c = target.run(spec).combined
        after = runner.read().write_counters
        waf = None
        if counters is not None and after is not None:
            dh = after["host_bytes"] - counters["host_bytes"]
            waf = (after["nand_bytes"] - counters["nand_bytes"]) / dh if dh > 0 else None
        counters = after
        m.bytes_written += c.bytes_written
        m.io_seconds += c.duration_s
        return {"iops": c.iops, "bytes_written": c.bytes_written, "duration_s": c.duration_s,
                "waf": waf, "gc": waf is not None and waf > GC_WAF}  # fmt: skip

    def round_s(size_bytes: int) -> float:
        seconds = cliff.interval_drive_writes * cap / size_bytes / SIZING_IOPS
        return round(max(SIM_ROUND_MIN_S, seconds), 6) if sim else 1.0

    def run_series(size_bytes: int, idle_s: float = 0.0) -> float:
        """The series of ``size_bytes``-byte writes into ``doc``'s rounds (the first after
        ``idle_s`` idle, the drive's own seconds); its drive writes."""
        seconds = round_s(size_bytes)
        done_drive_writes = 0.0
        while True:
            idle_first_s = 0.0 if doc["rounds"] else idle_s
            r = one(f"cliff-{len(doc['rounds']) + 1:04d}", seconds, idle_first_s, size_bytes)
            doc["rounds"].append(r)
            done_drive_writes += r["bytes_written"] / cap
            runner.save()
            k = found(series(doc), size_bytes, fill)
            if k is not None and len(doc["rounds"]) - 1 - k >= cliff.after_intervals:
                doc["status"] = "found"
                return done_drive_writes
            if done_drive_writes >= cliff.max_drive_writes:
                doc["status"] = "bound"
                return done_drive_writes

    written += run_series(bs)
    big_bytes = cliff_ceiling.LARGER_REQUEST_BYTES
    if cliff_ceiling.LARGER_REQUEST and doc["status"] == "bound" and at_ceiling(doc["rounds"]):
        # bench/results/cliffdecline/RULE.md: a ceiling per command hides the cache at 4 KiB
        doc["ceiling_series"] = {"bs_bytes": bs, "rounds": doc["rounds"]}
        doc["rounds"], doc["bs_bytes"], bs = [], big_bytes, big_bytes
        runner.progress(f"cliff step: every round at one level: again at {big_bytes // 1024} KiB: "
                        f"purge: {target.purge()}")  # fmt: skip
        counters = runner.read().write_counters
        # the first series' cache folded and freed first: the idle's cap (a cache of at most
        # that many seconds of the TLC rate, which the ceiling's rate is under)
        written += run_series(bs, IDLE_MAX_SECONDS * (scale_factor if sim else 1.0))
    doc["drive_writes"] = written
    said = "a step found" if doc["status"] == "found" else "no step within the bound"
    runner.progress(f"cliff step: {len(doc['rounds'])} rounds, {written:.3f} drive writes: {said}")
    probes = doc["status"] == "found" and cliff.workload.read_percent > 0
    # a simulated probe writes the share of the drive a full-size one does (its reads' latency
    # is a latency: not scaled), at least a round's floor
    probe_s = max(SIM_ROUND_MIN_S, PROBE_SECONDS * scale_factor) if sim else PROBE_SECONDS
    span = 0
    sized = cliff.idle_form == "sized"
    fill_iops = sized and cliff.check_form == "fill_iops"
    idle_s = cliff.idle_seconds
    levels: tuple[float | None, float | None] = (None, None)
    drain = 0.0
    if probes:
        step = cache_step(series(doc), bs_bytes=bs, buffer_bytes=fill)[0]
        before = step.host_write_bytes_before if step is not None else 0.0
        if sized:
            k = found(series(doc), bs, fill)
            assert k is not None  # status "found"
            sized_step = measured_step(series(doc), bs, fill)
            levels = (sized_step.iops_before, sized_step.iops_after) if sized_step else levels
            step_bytes = sized_step.host_write_bytes_before if sized_step is not None else 0.0
            idle_s = sized_idle_s(doc["rounds"], k, step_bytes, bs)
            drain = buffer_drain_s(target, doc["rounds"], k, bs)
            doc["probe_drain_s"] = drain
            probe_s = max(probe_s, PROBE_DRAINS * drain)
        # the series is in full-size bytes, the span in the drive's own: on sim: the scaled
        # drive's (bench/results/cliffnotfree/DIAGNOSIS.md: a 1% cache refilled by the span)
        own = before * (scale_factor if sim else 1.0)
        span = int(min(PROBE_SPAN_SHARE_OF_CACHE * own, PROBE_SPAN_MAX_SHARE * cap))
        doc["probes"] = {"after": probe(runner, "cliff-probe-after", span, cliff.workload,
                                        probe_s, fill_iops)}  # fmt: skip
        runner.save()
    else:
        doc["probes"] = {"not_measured": "no cliff, or no reads to probe"}
    runner.progress(f"cliff step: purge: {target.purge()}")
    if probes and sized:
        doc["probes"]["unwritten"] = unwritten_probe(runner, cliff.workload, probe_s)
        doc["idle_seconds"] = idle_s
        runner.progress(f"cliff step: idle {idle_s:,.0f} s (sized: {cliff.idle_text()})")
    idle = idle_s * (scale_factor if sim else 1.0)
    doc["idle_round"] = one("cliff-idle", round_s(plan.bs_bytes), idle, plan.bs_bytes)
    if probes:
        doc["probes"]["before"] = probe(runner, "cliff-probe-before", span, cliff.workload,
                                        probe_s, fill_iops)  # fmt: skip
        if sized:
            doc["probes"]["before"] = judge_free(
                cliff.check_form, doc["probes"]["before"], doc["probes"]["after"], levels
            )
    runner.forget_reading()
    runner.save()


def from_args(
    args: Any, stored: Any = None, idle_form: str = "fixed", check_form: str = "littles_law"
) -> CliffPlan | None:
    """The step calibrate's flags ask for (``--cliff``, ``--cliff-workload``), or the one a
    resumed measurement (``stored``) planned; None: none. Refused (ConfigError naming the
    flag): a workload without ``--cliff``, ``--cliff`` without a TARGET to measure, a bad
    workload. ``idle_form``, ``check_form``: the idle after the series and how a sized one's
    probe before the cliff is checked (``cliff_prediction.planned_step`` chooses them by the
    prediction's flag)."""
    if stored is not None and stored.cliff is not None:
        return CliffPlan.from_dict(stored.cliff["plan"])
    text = getattr(args, "cliff_workload", None)
    if not getattr(args, "cliff", False):
        if text is not None:
            raise ConfigError("--cliff-workload: give --cliff too (the step it predicts for)")
        return None
    if not getattr(args, "target", None) and stored is None:
        raise ConfigError(
            "--cliff: measures a TARGET (--from DIR refits the cliff a calibration measured)"
        )
    workload = parse_workload(text if text is not None else DEFAULT_WORKLOAD)
    return CliffPlan(workload, idle_form=idle_form, check_form=check_form)
