"""Run a measurement plan through any Target, as a black box.

Only what the Target protocol returns is used: each round's IOPS, bytes, duration and latency,
and, where the target has them, the host and NAND write counters a drive reports via SMART
(:func:`write_counters`). Never a simulated drive's configuration: a simulated drive and a real
one are measured the same way, so a fit to one is a fit to what could be measured on the other.

What is measured is kept as it happens: ``measure(..., journal=...)`` hands the measurement to
the journal after every round (the CLI writes ``measurement.json`` atomically), and
``measure(..., resume=...)`` continues a stored measurement after its last finished segment
(``measurement_file.py`` reads and checks a stored one). The budget is a cap: a round starts only
when what it is expected to write (at the last round's IOPS) fits in what is left.

A level's window of rounds, its settling test and its figures are ``level_window.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overprov.calibrate import gc_onset, level_refill
from overprov.calibrate.cliff_step import CliffPlan, measure_cliff
from overprov.calibrate.counter_waf import segment_waf
from overprov.calibrate.graded_run import (
    BudgetSpent,
    graded_fill,
    precondition_level,
)
from overprov.calibrate.level_window import agree, over_bursts, round_wafs, window_level
from overprov.calibrate.plan import MeasurementPlan, Segment
from overprov.calibrate.sim_refill import FILL_AGAIN, filled_again
from overprov.emulate.counters import StatusReading
from overprov.emulate.host_share import HostBoundNotice, emulated_device, round_share
from overprov.errors import ConfigError, OverprovError
from overprov.measurement_file import Level, Measurement, Round
from overprov.profile.targets import RoundResult, RoundSpec, Target, now_iso

Progress = Callable[[str], None]
Journal = Callable[["Measurement"], None]
#: A round starts only when this many times what it is expected to write (at the last
#: round's IOPS) fits in what is left of the budget.
ROUND_MARGIN = 1.25


#: A graded level at the plan's queue depth ends at its first window whose IOPS and WAF hold
#: within this (the ±3% rule is met by few graded windows; ``segment``).
GRADED_EARLY_STOP_PERCENT = 10.0


def read_target(target: Target) -> StatusReading:
    """The target's write counters (host and NAND bytes written so far) and, on one drive
    ``overprov emulate`` serves, its requests' time in the drive (``emulate.host_share``);
    each None where the target does not report it.

    A target may offer ``write_counters()`` (simulated drives do). A block device that
    ``overprov emulate`` serves is read through its status file, both from one document
    (``emulate.counters.read``: one refresh per member); any other through SMART
    (``overprov.smart``): the sum over members of the vendor's NAND and host write counters,
    in the unit smart.py documents for the vendor.
    """
    own = getattr(target, "write_counters", None)
    if callable(own):
        return StatusReading(own(), None)
    if getattr(target, "kind", None) != "block":
        return StatusReading(None, None)
    from overprov import smart
    from overprov.emulate import counters as emulated

    readings = [r for r in map(emulated.read, target.member_names) if r is not None]
    if readings and len(readings) == len(target.member_names):
        counts = [r.write_counters for r in readings if r.write_counters is not None]
        sums = None
        if len(counts) == len(readings):
            sums = {k: sum(c[k] for c in counts) for k in ("host_bytes", "nand_bytes")}
        return StatusReading(sums, readings[0].drive_time if len(readings) == 1 else None)

    host = nand = 0
    try:
        for name in target.member_names:
            waf = smart.snapshot_from_target(name).waf_counters
            if waf is None:
                return StatusReading(None, None)
            host += waf.host
            nand += waf.nand
    except (OverprovError, OSError):
        return StatusReading(None, None)
    return StatusReading({"host_bytes": host, "nand_bytes": nand}, None)


def write_counters(target: Target) -> dict[str, int] | None:
    """Host and NAND bytes written so far, if the target reports them, else None
    (:func:`read_target`)."""
    return read_target(target).write_counters


def scale_factor_of(target: Target) -> float:
    """From the target's identity: a scaled simulated drive says its factor; else 1."""
    members = target.identity().get("members") or [{}]
    return float(members[0].get("scale_factor") or 1.0)


class SegmentRunner:
    """Runs rounds on an open target and keeps the books (bytes, I/O time, budget)."""

    def __init__(
        self,
        target: Target,
        plan: MeasurementPlan,
        measurement: Measurement,
        progress: Progress | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.target = target
        self.plan = plan
        self.m = measurement
        self.progress = progress or (lambda _line: None)
        self.journal = journal
        self.emulated = emulated_device(target) is not None
        """Whether the target is one drive ``overprov emulate`` serves: each round then records
        the host's share of its request time (``Round.host_share``)."""
        self._last: StatusReading | None = read_target(target)
        """The target's reading after the last thing done on it: the next round's start, so
        that a round reads the target once, after it (None: read before the next round)."""
        self.counters_ok = self._last.write_counters is not None
        self.m.counters = self.counters_ok
        self._host_bound = HostBoundNotice(self.progress)
        self.run_index = max(0, len(measurement.runs) - 1)
        self._n = 0
        self.purge_counters: dict[str, int] | None = None
        """The write counters right after this run's purge (the onset step counts host
        writes from there, ``gc_onset.py``); None: not read."""
        self._overrun_s = 0.0
        """How far the last timed round ran past its seconds (its queue draining): the next
        one may too, so an I/O-time budget keeps room for it."""

    def read(self) -> StatusReading:
        """The target's reading now (:func:`read_target`), kept as the next round's start."""
        self._last = read_target(self.target)
        return self._last

    def forget_reading(self) -> None:
        """Something other than a round ran on the target (a purge, a discard, a caller's
        work between levels): the next round reads its start afresh."""
        self._last = None

    def save(self) -> None:
        if self.journal is not None:
            self.journal(self.m)

    # --------------------------------------------------------------------------- rounds
    def seconds_for(self, drive_writes: float, span_bytes: int, iops: float) -> float:
        ios = drive_writes * self.m.capacity_bytes / self.plan.bs_bytes
        seconds = ios / max(iops, 1.0)
        if self.target.kind == "sim":  # simulated time: any length
            return max(0.001, round(seconds, 4))
        return float(max(1, round(seconds)))

    def expected_drive_writes(self, seconds: float, iops: float, bs_bytes: int) -> float:
        return seconds * iops * bs_bytes / self.m.capacity_bytes

    def fits(self, drive_writes: float, seconds: float, reserve_drive_writes: float = 0.0) -> bool:
        """Whether a round expected to write ``drive_writes`` in ``seconds`` of I/O fits in
        the budget (with :data:`ROUND_MARGIN` to spare: a round's IOPS may be higher than the
        last one's), leaving ``reserve_drive_writes`` for the segments after it."""
        budget, (again_dw, again_s) = self.plan.budget, filled_again(self.m)
        dw = drive_writes * ROUND_MARGIN + reserve_drive_writes
        if (
            budget.drive_writes is not None
            and self.m.drive_writes - again_dw + dw > budget.drive_writes
        ):
            return False
        return budget.io_seconds is None or (
            self.m.io_seconds - again_s + seconds * ROUND_MARGIN + self._overrun_s
            <= budget.io_seconds
        )

    def run(self, spec: RoundSpec, extra_op_percent: float) -> Round:
        self._n += 1
        measured = self.counters_ok or self.emulated
        before = (self._last or self.read()) if self.emulated else None
        result: RoundResult = self.target.run(spec)
        c = result.combined
        after = self.read() if measured else None
        counters = after.write_counters if after is not None and self.counters_ok else None
        # the host's share of its request time on an emulated drive (None elsewhere), said
        # once per level and queue depth when the round's figure is more the host's
        share = round_share(before, after, c.iops, spec.qd * spec.jobs)
        self._host_bound.check(spec.label.rsplit("-", 1)[0], spec.label, share)
        r = Round(
            label=spec.label,
            extra_op_percent=extra_op_percent,
            iops=c.iops,
            bytes_written=c.bytes_written,
            duration_s=c.duration_s,
            p99_latency_us=c.latency_us.get("p99"),
            host_bytes=counters["host_bytes"] if counters else None,
            nand_bytes=counters["nand_bytes"] if counters else None,
            run=self.run_index,
            host_share=share,
        )
        if spec.seconds is not None:
            self._overrun_s = max(0.0, c.duration_s - spec.seconds)
        self.m.rounds.append(r)
        self.m.bytes_written += c.bytes_written
        self.m.io_seconds += c.duration_s
        self.save()
        return r

    # --------------------------------------------------------------------------- steps
    def fob(self) -> None:
        cap = self.m.capacity_bytes
        self.progress(f"purge: {self.target.purge()}")
        self.forget_reading()
        if (self.plan.onset_from_empty or self.plan.fill_hazard) and self.counters_ok:
            self.purge_counters = self.read().write_counters
        start = self.purge_counters or (self.read().write_counters if self.counters_ok else None)
        rounds: list[Round] = []
        iops = 0.0
        written = 0.0
        while written < self.plan.fob_drive_writes:
            if not rounds:  # a short probe: the drive's speed is not known yet
                seconds: float = 0.05 if self.target.kind == "sim" else 1.0
            else:
                seconds = self.seconds_for(self.plan.fob_drive_writes - written, cap, iops)
            expected = self.expected_drive_writes(seconds, iops, self.plan.bs_bytes)
            if not self.fits(expected if rounds else 0.0, seconds):
                raise BudgetSpent("the budget is spent before the FOB segment finished")
            spec = RoundSpec(
                f"fob-{len(rounds) + 1:02d}", "randwrite", self.plan.bs_bytes, self.plan.qd, 1,
                cap, seconds=seconds,  # type: ignore[arg-type]
            )  # fmt: skip
            r = self.run(spec, 0.0)
            rounds.append(r)
            iops = r.iops
            written += r.bytes_written / cap
        ios = sum(r.iops * r.duration_s for r in rounds)
        self.m.fob_iops = ios / sum(r.duration_s for r in rounds)
        self.m.fob_p99_latency_us = rounds[0].p99_latency_us
        self.m.fob_waf = segment_waf(start, rounds[-1])  # the FOB WAF (metadata_factor.py)
        self.save()
        self.progress(f"FOB: {self.m.fob_iops:,.0f} IOPS over {written:.3f} drive writes")

    def check_round_floor(self) -> None:
        """On a real target a round lasts at least a second: on a small, fast device one
        round can write more than the plan's share, and a settled level needs
        ``window_rounds`` of them. Refuse (before the fill) a budget that cannot hold that."""
        budget = self.plan.budget
        if self.target.kind == "sim" or budget.drive_writes is None or not self.m.fob_iops:
            return
        floor = self.expected_drive_writes(1.0, self.m.fob_iops, self.plan.bs_bytes)
        if floor <= self.plan.round_drive_writes:
            return
        needed = self.m.drive_writes + self.plan.minimum_drive_writes(
            round_drive_writes=floor, with_fob=False
        )
        if needed > budget.drive_writes:
            raise ConfigError(
                f"--budget: {budget.text()} is too little for {self.target.spec}: a round lasts "
                f"at least 1 s and writes up to {floor:.2f} drive writes of its "
                f"{self.m.capacity_bytes:,} bytes at {self.m.fob_iops:,.0f} IOPS, so the fill and "
                f"{self.plan.window_rounds} rounds per level need about {needed:.1f}; give a "
                "larger budget or a larger target"
            )

    def fill(self, label: str = "fill") -> None:
        if label != FILL_AGAIN and not self.fits(1.0, 0.0):
            raise BudgetSpent("the budget leaves no room for the sequential fill")
        spec = RoundSpec(label, "write", 131072, self.plan.qd, 1, self.m.capacity_bytes)
        r = self.run(spec, 0.0)
        self.m.fill_done = True
        self.save()
        self.progress(
            f"sequential fill: {r.bytes_written / self.m.capacity_bytes:.2f} drive writes"
        )

    def segment(
        self, seg: Segment, *, reserve_drive_writes: float = 0.0, first_window_ends: bool = False
    ) -> Level:
        """Random writes at ``seg``'s level until the last rounds agree (or the budget or the
        segment's maximum stops it). A round starts only when it fits in the budget, leaving
        ``reserve_drive_writes`` for the segments after this one; raises BudgetSpent when not
        even one round fits."""
        cap = self.m.capacity_bytes
        bs = self.plan.bs_bytes
        span = int(cap * (1 - seg.extra_op_percent / 100.0)) // bs * bs
        at_qd = f" at QD{seg.queue_depth}" if seg.queue_depth else ""  # the probe: its own line
        cut = {"extra_op_percent": float(seg.extra_op_percent), "queue_depth": seg.queue_depth}
        self.m.cut_levels = [c for c in self.m.cut_levels or [] if c != cut]  # measured anew
        self.progress(
            f"{seg.extra_op_percent:g}% extra OP{at_qd}: {self.target.discard_tail(span)}"
        )
        self.forget_reading()
        # a graded fill leaves the first level its onset's sweeps even at 0% (graded_run.py)
        first_after_fill = bool(self.plan.fill_hazard) and not self.m.levels
        level_start = len(self.m.rounds)  # the level's rounds, its graded ones first
        if self.plan.precondition == "graded" and (
            seg.precondition_drive_writes > 0 or first_after_fill
        ):
            seg = precondition_level(self, seg, span, reserve_drive_writes)
        refilled = level_refill.refill(self, seg, span) if seg.refill_from_percent else 0.0
        k = seg.window_rounds or self.plan.window_rounds
        qd, round_dw = seg.queue_depth or self.plan.qd, seg.round_drive_writes
        tol = self.plan.settle_percent / 100.0
        rounds: list[Round] = []
        written = refilled  # the refill counts toward the level's minimum, not its window
        iops = self.m.fob_iops or 10_000.0
        settled = False
        # the level's start: its counters, and its first round's start on an emulated drive
        start = (self._last or self.read()) if self.counters_ok or self.emulated else None
        start_counters = start.write_counters if start is not None and self.counters_ok else None
        while True:
            seconds = self.seconds_for(round_dw or self.plan.round_drive_writes, span, iops)
            expected = self.expected_drive_writes(seconds, iops, bs)
            if not self.fits(expected, seconds, reserve_drive_writes):
                if not rounds:
                    raise BudgetSpent(
                        f"the budget is spent before the {seg.extra_op_percent:g}% segment"
                    )
                self.m.stop_reason = (
                    f"the budget cut the {seg.extra_op_percent:g}% segment short "
                    f"({self.plan.budget.text()})"
                )
                self.m.cut_levels = [*(self.m.cut_levels or []), cut]
                break
            qd_tag = f"qd{qd}-" if seg.queue_depth else ""
            label = f"op{seg.extra_op_percent:g}-{qd_tag}r{len(rounds) + 1:03d}"
            spec = RoundSpec(label, "randwrite", bs, qd, 1, span, seconds=seconds)  # type: ignore[arg-type]
            r = self.run(spec, seg.extra_op_percent)
            rounds.append(r)
            # the next round is sized at the fastest of the last three: one slow round (a
            # cache fold, a GC burst) must not make the next one write many times its share
            recent = [x.iops for x in rounds[-3:]]
            if len(rounds) < 3:  # too few yet: the last level's figure, or the FOB's
                recent.append(self.m.levels[-1].steady_iops if self.m.levels else iops)
            iops = max(recent)
            written += r.bytes_written / cap
            window = rounds[-k:]
            before = written - sum(x.bytes_written for x in window) / cap
            if len(rounds) >= k and before >= seg.min_drive_writes:
                settled = agree([x.iops for x in window], tol) and (
                    not self.counters_ok or agree(round_wafs(rounds, k, start_counters), tol)
                )
            if settled or written >= seg.max_drive_writes:
                break
            if first_window_ends and len(rounds) >= k and before >= seg.min_drive_writes:
                # its random writes scatter the span's data over the blocks, which the next
                # level's graded rounds cannot spread (precondition.py, "A later level"), and
                # run on they bring a graded level's own swing (a crest 0.3-0.4 drive writes
                # after its rounds): the first window that holds within
                # GRADED_EARLY_STOP_PERCENT ends the level
                loose = GRADED_EARLY_STOP_PERCENT / 100.0
                if agree([x.iops for x in window], loose) and (
                    not self.counters_ok or agree(round_wafs(rounds, k, start_counters), loose)
                ):
                    break
        stretch = over_bursts(self.plan, self.m, self.m.rounds[level_start:], seg, cap)
        if stretch:
            wrote = sum(r.bytes_written for r in stretch) / cap
            level = window_level(seg.extra_op_percent, stretch, self.m.rounds, settled,
                                 max(written, wrote), cap, start_counters)  # fmt: skip
            self.progress(
                f"{seg.extra_op_percent:g}% extra OP: the collector holds a reserve (onset from "
                f"empty at {self.m.onset_spare_factor:.3f}): read over {len(stretch)} rounds, "
                f"{wrote:.3f} drive writes (WAF {level.waf or 0:.2f})"
            )
        else:
            level = window_level(seg.extra_op_percent, rounds[-k:], rounds, settled, written,
                                 cap, start_counters)  # fmt: skip
        level.queue_depth = seg.queue_depth
        self.m.levels.append(level)
        self.save()
        waf = f", WAF {level.waf:.2f}" if level.waf else ""
        self.progress(
            f"{seg.extra_op_percent:g}% extra OP{at_qd}: {level.steady_iops:,.0f} IOPS{waf} "
            f"({'settled' if settled else 'NOT settled'} after {written:.2f} drive writes)"
        )
        return level


def measure(
    target: Target,
    plan: MeasurementPlan,
    progress: Progress | None = None,
    *,
    journal: Journal | None = None,
    resume: Measurement | None = None,
    after_level: Callable[[SegmentRunner, Segment], None] | None = None,
    cliff: CliffPlan | None = None,
    middle: Callable[[MeasurementPlan, Measurement], Any] | None = None,
) -> Measurement:
    """Run ``plan`` on an opened ``target``: FOB, fill, each segment lowest OP first.

    ``journal`` is called with the measurement after every round and step (to keep it);
    ``resume``: a stored measurement of this target to continue — its finished FOB, fill and
    segments are kept and not run again; the segment that was running starts afresh. A
    simulated drive's state is not stored, so a resumed one is filled again first.
    ``after_level(runner, segment)``: called after each segment's level is kept, on the drive
    still at that level (e.g. the latency window of ``bench/twin_buffer_bench.py``).
    ``cliff``: the cliff step first (``cliff_step.py``; None: none).
    ``middle(plan, m)``: once the plan's segments are measured, the third level's decision
    (``middle_level.decide``): where it gives reasons they are recorded in the run, and the
    segment it gives is measured then (``level_refill.third_level``; None: no decision, as
    before it existed). A third level the plan holds (``plan.middle``) is left its minimum, a
    window and a round (:data:`ROUND_MARGIN`'s) by the segments before it.
    """
    if resume is None:
        m = Measurement(
            target=target.spec,
            capacity_bytes=target.capacity_bytes,
            scale_factor=scale_factor_of(target),
            bs_bytes=plan.bs_bytes,
            qd=plan.qd,
            kind=target.kind,
            status="running",
            fill_done=False,
            plan=plan.to_dict(),
            identity=target.identity(),
            cut_levels=[],
        )
    else:
        m = resume
        m.status, m.stop_reason = "running", None
    m.runs.append({"started": now_iso(), "resumed": resume is not None, "ended": None})
    runner = SegmentRunner(target, plan, m, progress, journal)
    say = runner.progress
    runner.save()

    def end(status: str, how: str) -> None:
        m.status = status
        m.runs[-1]["ended"] = how
        runner.save()

    try:
        if cliff is not None and m.fob_iops is None and (m.cliff or {}).get("status") in (
            None, "running"
        ):  # fmt: skip
            measure_cliff(runner, cliff, m.scale_factor)
        if m.fob_iops is None:
            runner.fob()
        else:
            say(f"FOB: {m.fob_iops:,.0f} IOPS, kept from the earlier run")
        runner.check_round_floor()
        if plan.onset_from_empty and m.onset_source is None:
            if runner.purge_counters is None and runner.counters_ok:
                m.onset_source = gc_onset.ONSET_RESUMED  # not from the purge: no onset
            else:  # the fill and every level's minimum stay in the budget
                after = plan.minimum_drive_writes(with_fob=False)
                gc_onset.onset_from_empty(
                    runner, after - plan.onset_step_drive_writes(expected=True)
                )
                # the step left the drive at its collector's threshold: the fill starts from a
                # purged drive again, as in the plan without the step (gc_onset.py)
                say(f"purge: {target.purge()}")
                runner.forget_reading()
        if not m.fill_done and plan.fill_hazard:
            after = plan.minimum_drive_writes(with_fob=False)
            graded_fill(runner, after - 1.0 - plan.fill_random_drive_writes())
            gc_onset.date_in_rounds(runner, final=False)
        elif not m.fill_done:
            runner.fill()
        elif resume is not None and target.kind == "sim":
            say("a simulated drive's state is not stored: filling it again (outside the budget)")
            runner.fill(label=FILL_AGAIN)
        done = {(lv.extra_op_percent, lv.queue_depth) for lv in m.levels}
        third = 0.0  # a third level held: its minimum and a window, and a round the margin needs
        if plan.middle is not None:
            third = plan.least_drive_writes(plan.middle) + plan.round_drive_writes * ROUND_MARGIN
        segments = plan.all_segments()
        for i, seg in enumerate(segments):
            if (seg.extra_op_percent, seg.queue_depth) in done:
                say(f"{seg.extra_op_percent:g}% extra OP: kept from the earlier run")
                continue
            later = segments[i + 1 :]
            reserve = sum(s.precondition_drive_writes + s.min_drive_writes
                          + plan.window_drive_writes(s) for s in later) + third  # fmt: skip
            # a graded level at the plan's queue depth (not the probe, which has no swing)
            early = plan.precondition == "graded" and seg.queue_depth is None
            runner.segment(seg, reserve_drive_writes=reserve, first_window_ends=early)
            if plan.fill_hazard and i == 0:  # an onset after the fill: in the level's sweeps
                gc_onset.date_in_rounds(runner, final=True)
            if after_level is not None:
                after_level(runner, seg)
                runner.forget_reading()
        if middle is not None:
            level_refill.third_level(runner, middle, after_level)
    except BudgetSpent as exc:
        m.stop_reason = f"{exc} ({plan.budget.text()})"
        say(f"stopped: {m.stop_reason}")
        end("complete", "stopped by the budget")
        return m
    except KeyboardInterrupt:
        end("interrupted", "interrupted")
        raise
    except OverprovError as exc:
        end("failed", f"failed: {exc}")
        raise
    end("complete", "complete")
    return m
