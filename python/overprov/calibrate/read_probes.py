"""Reads measured in two short mixed probes, one before the SLC cache's cliff and one past it,
taken into the cliff twin's prediction of a mixed workload's cliff.

A write series fixes the cache and the SLC and TLC program rates (``cliff.fit_cache``), not how
long a read waits behind a program. Under a mix of reads and writes that wait holds the host's
queue slots, and it sets the cliff's IOPS (docs/calibrate-cliff.md, "What a read costs the
queue" and the sections after it):

- *before the cliff* the twin's own read wait is not carried by the core's default host link
  (``read_slot``); a probe before the cliff (4 KiB random writes with a share of reads of
  written pages, from purged) measures the slot a read holds, and the twin holds it too,
  booking nothing (``cliff.predict``'s ``read_slot_us``), but only until the host has written
  the fitted cache (``read_slot_until_cache``);
- *past the cliff* a read waits behind TLC programs on its die. A drive that programs a TLC
  word line's three pages in one operation (one-shot programming) and keeps the die busy for
  all of it, without program suspend, makes a read wait up to the whole program; one that
  programs page by page, or suspends a program for a read, makes it wait a page's share. The
  write series cannot tell the two apart (the same bytes per die-second), a read's wait can: a
  probe past the cliff (writes only until past the cache, then the same mix) measures it, and
  :func:`select_program` takes the twin's NAND whose probe, simulated, waits nearer to it.
  Past the cache the twin's reads go to its core, the host link booked per direction
  (``timing.host.link_booking = "gaps"``, :data:`LINK_BOOKING`), so a read's wait does not
  hold up later writes' transfers as the default in-order link would.

- :func:`probe_reading`: a probe run's JSON (bench/foreign/py_ssd_sim_cliff.py's) as a
  :class:`Probe`; the one function that reads a probe.
- :func:`one_shot`: a twin's NAND programmed one-shot (``bits`` flash pages whole in one
  program, no suspend: ``timing.nand.program_granularity = "page"``).
- :func:`probe_read_us`: the probe simulated on a fitted twin, its reads' mean wait.
- :func:`select_program`: per-unit or one-shot, fitted and chosen by the probe past the cliff.
- :func:`predict`: the mixed cliff with both probes (:data:`READ_PROBES`: on, by the eighth
  rule: bench/results/cliff-foreign8/).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from overprov.calibrate import cliff, cliff_at_cache, cliff_span, read_slot
from overprov.errors import ConfigError

#: whether calibrate's mixed cliff prediction takes the two read probes (:func:`predict`): on
#: since bench/results/cliff-foreign8/RULE.md was met
#: (bench/results/cliff-foreign8/verdict.md)
READ_PROBES = True
#: the host link of a twin whose reads past the cache go to its core
LINK_BOOKING = "gaps"
#: the NAND programs :func:`select_program` chooses from
PROGRAMS = ("unit", "one-shot")
#: a long enough end for a probe bounded by its request count (ns)
_PROBE_END_NS = 10**12


@dataclass(frozen=True)
class Probe:
    """A mixed probe: ``qd`` commands outstanding, 4 KiB random writes over the span and, once
    the host has written ``writes_before_bytes``, ``read_percent`` % reads of written pages;
    ``requests`` commands in all; ``read_us``: the reads' mean queue time (full size)."""

    qd: int
    read_percent: int
    requests: int
    writes_before_bytes: int
    read_us: float


def probe_reading(run: dict[str, Any]) -> Probe:
    """A probe run (bench/foreign/py_ssd_sim_cliff.py ``--read-pages written``; past the cliff
    with ``--reads-after-mib``): its reads' mean queue time, over the run (``queue_time``) or,
    for a probe past the cliff, from its first read on (``queue_time_late``)."""
    if run.get("read_pages") != "written" or not run.get("read_percent"):
        raise ConfigError("read_probes: a probe reads written pages only, at a read share > 0")
    after_mib = run.get("reads_after_mib") or 0
    summary = run["queue_time_late"] if after_mib else run["queue_time"]
    read_us = summary.get("read_latency_us_mean")
    if read_us is None or read_us <= 0:
        raise ConfigError("read_probes: the probe has no read's queue time")
    return Probe(
        qd=int(run["qd"]),
        read_percent=int(run["read_percent"]),
        requests=int(run["amount_mib"]) * 2**20 // read_slot.PAGE_BYTES,
        writes_before_bytes=int(after_mib) * 2**20,
        read_us=float(read_us),
    )


def one_shot(drive: dict[str, Any], bits: int = 3) -> dict[str, Any]:
    """``drive`` (a preset's form) with its NAND programmed one-shot: ``bits`` flash pages in
    one program of ``bits`` times the page's time, whole, the die busy throughout (its SLC
    page a third of the flash page, as the core has it). The bytes per die-second are kept."""
    out = copy.deepcopy(drive)
    nand = out["config"]["timing"]["nand"]
    nand["flash_page_bytes"] = bits * nand["flash_page_bytes"]
    nand["program_us"] = bits * nand["program_us"]
    nand["program_granularity"] = "page"
    return out


def with_link(drive: dict[str, Any], booking: str = LINK_BOOKING) -> dict[str, Any]:
    """``drive`` with its host link booked as ``booking``."""
    out = copy.deepcopy(drive)
    out["config"].setdefault("timing", {}).setdefault("host", {})["link_booking"] = booking
    return out


def probe_read_us(drive: dict[str, Any], probe: Probe, scale: float = 1.0, seed: int = 1) -> float:
    """``probe`` run on ``drive`` (fitted, from purged: ``read_slot.request_loop``, reads of
    written pages sent to the drive; its bytes and commands at ``scale``): its reads' mean
    queue time (µs; a latency is the same at any scale)."""
    cfg = cliff._config(  # noqa: SLF001 - the cliff twin's own configuration of a run
        drive, scale, qd=probe.qd, read_percent=0, seconds=_PROBE_END_NS / 1e9,
        interval_s=_PROBE_END_NS / 1e9, precondition="none",
    )  # fmt: skip
    events, _ = read_slot.request_loop(
        cfg, qd=probe.qd, read_percent=probe.read_percent, end_ns=_PROBE_END_NS,
        read_pages="written", seed=seed, reads_after_bytes=int(probe.writes_before_bytes * scale),
        requests=max(1, int(probe.requests * scale)),
    )  # fmt: skip
    reads = [e[2] for e in events if e[1] == 0 and e[2] is not None]
    if not reads:
        raise ConfigError("read_probes: the twin's probe issued no read")
    # a latency, not scaled: a drive simulated at ``scale`` keeps its dies and their times
    return sum(reads) / len(reads) / 1e3


@dataclass(frozen=True)
class Selection:
    """The NAND program chosen by the probe past the cliff, its drive and cache fit, and each
    candidate's probe read time (µs) against the measured one."""

    program: str
    drive: dict[str, Any]
    fit: cliff.CacheFit
    measured_read_us: float
    twin_read_us: dict[str, float] = field(default_factory=dict)


#: How a cache is fitted on a write series: (series, drive, scale) → fit
Fitter = Callable[[cliff.Series, dict[str, Any], float], cliff.CacheFit]


def select_program(
    twin: dict[str, Any], series: cliff.Series, after: Probe, *, fit_qd: int,
    scale: float = 1.0, fitter: Fitter | None = None,
) -> Selection:  # fmt: skip
    """For each of :data:`PROGRAMS` (``twin`` as it is, and :func:`one_shot`), the cache fitted
    on the write series (``fitter``; by default ``cliff.fit_cache`` at ``fit_qd``, from purged)
    and the probe past the cliff simulated on it; the one whose reads wait nearer the measured
    (in ratio) is chosen."""
    best: tuple[float, str, dict[str, Any], cliff.CacheFit] | None = None
    reads: dict[str, float] = {}
    for program in PROGRAMS:
        drive = twin if program == "unit" else one_shot(twin)
        if fitter is not None:
            fit = fitter(series, drive, scale)
        else:
            fit = cliff.fit_cache(series, drive, scale, qd=fit_qd, precondition="none")
        reads[program] = probe_read_us(cliff.fitted_drive(drive, fit), after, scale)
        gap = abs(math.log(reads[program] / after.read_us))
        if best is None or gap < best[0]:
            best = (gap, program, drive, fit)
    assert best is not None
    return Selection(best[1], best[2], best[3], after.read_us, reads)


def predict(
    twin: dict[str, Any], series: cliff.Series, before: Probe, after: Probe, *, fit_qd: int,
    qd: int, read_percent: int, seconds: float, interval_s: float, scale: float = 1.0,
    read_probes: bool = READ_PROBES, fitter: Fitter | None = None,
    unwritten_read_us: float | None = None, command_ceiling_iops: float | None = None,
    loop_kw: dict[str, Any] | None = None,
) -> tuple[cliff.Cliff | None, Selection | None]:  # fmt: skip
    """The cliff of a mix (``qd``, ``read_percent``, from purged) on ``twin`` with the cache
    fitted on the write series ``series`` (at ``fit_qd``). With ``read_probes``: the twin's link
    booked in gaps, its NAND chosen by the probe past the cliff (:func:`select_program`), and
    each read of a written page holding the slot measured before the cliff until the host has
    written the fitted cache; without: ``cliff.predict`` as it is (no selection returned).
    ``fitter``: how the cache is fitted (:func:`select_program`'s). ``unwritten_read_us``
    (with ``read_probes``; None: as before): a probe's reads of trimmed space, each read of a
    page never written holding its slot that long (``read_slot.request_loop``: the share of
    such reads follows the pages the host has written). ``command_ceiling_iops`` (with
    ``read_probes``; None: none): every command of the mix, a read holding its slot too,
    under that ceiling (``cliff.read_slot_series``; ``cliff_mix``). ``loop_kw`` (with
    ``read_probes``): more of the loop's arguments (``cliff_past``). With
    ``cliff_span.SPAN_FROM_MIX`` (off) the series' length (``seconds``) is set again by the
    mix as predicted (``cliff_span.mix_seconds``), its intervals as long as before (with
    ``cliff_span.INTERVALS_IN_PROPORTION``, lengthened with it). With
    ``cliff_at_cache.AT_CACHE`` (off) the cliff is dated where the host has written the chosen
    twin's fitted cache (``cliff_at_cache.dated``)."""
    if not read_probes:
        if fitter is not None:
            fit = fitter(series, twin, scale)
        else:
            fit = cliff.fit_cache(series, twin, scale, qd=fit_qd, precondition="none")
        return cliff.predict(
            twin, fit, scale, qd=qd, read_percent=read_percent, seconds=seconds,
            interval_s=interval_s, precondition="none",
        ), None  # fmt: skip
    chosen = select_program(
        with_link(twin), series, after, fit_qd=fit_qd, scale=scale, fitter=fitter
    )
    if cliff_span.SPAN_FROM_MIX:  # the series' length from the mix as predicted (cliff_span)
        span_s = cliff_span.mix_seconds(
            cliff.fitted_drive(chosen.drive, chosen.fit), scale, chosen.fit.cache_bytes,
            {"qd": qd, "read_percent": read_percent, "read_slot_us": before.read_us,
             "read_slot_until_bytes": chosen.fit.cache_bytes,
             "unwritten_read_us": unwritten_read_us,
             "command_ceiling_iops": command_ceiling_iops, "loop_kw": loop_kw},
        )  # fmt: skip
        if cliff_span.INTERVALS_IN_PROPORTION:
            interval_s *= span_s / seconds
        seconds = span_s
    pred = cliff.predict(
        chosen.drive, chosen.fit, scale, qd=qd, read_percent=read_percent, seconds=seconds,
        interval_s=interval_s, precondition="none", read_slot_us=before.read_us,
        read_slot_until_cache=True, unwritten_read_us=unwritten_read_us,
        command_ceiling_iops=command_ceiling_iops, loop_kw=loop_kw,
        date_at_cache=cliff_at_cache.AT_CACHE,
    )  # fmt: skip
    return pred, chosen
