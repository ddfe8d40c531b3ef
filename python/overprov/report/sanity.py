"""Checks of a report's inputs against themselves, printed on the page and in ``report --json``.

Each check is one function of the loaded sources (and the SMART files given) returning the
``Check``s it finds: a fresh-out-of-box figure below steady state (the FOB round ran past the
write cliff), a window called steady that the data marks as a transition, a quoted WAF that is
not the run's measured WAF, a calibration whose predicted p99 latency or WAF at a level it
measured is far from what it measured there, and a SMART file of a drive other than the one
tested. A check
that finds nothing returns an empty list; none of them changes a figure, they say what to
distrust.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from overprov.report.model import Phase, Source, op_text
from overprov.units import human_bytes

#: A quoted WAF further than this from the run's measured WAF is called out.
WAF_GAP_LIMIT = 0.05
#: FOB IOPS this far below steady state are called out (FOB is never slower on a sane run).
FOB_MARGIN = 0.02
#: A predicted p99 latency more than this factor from the measured one (either way) is called
#: out: a tail percentile of a window of rounds varies by tens of percent from run to run, a
#: factor of 1.5 is beyond that spread.
P99_RATIO_LIMIT = 1.5


@dataclass(frozen=True)
class Check:
    """One thing on the page not to take at face value."""

    id: str  # "fob-below-steady", "steady-window-in-transition", "waf-not-measured", ...
    source: str  # the input's label ("" for the SMART files)
    message: str

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "input": self.source, "message": self.message}


def _steady(p: Phase) -> float | None:
    return p.steady_iops if p.steady_iops is not None else None


def fob_below_steady(source: Source, smart: Sequence[Any] = ()) -> list[Check]:
    """A fresh drive is never slower than the same drive in steady state: a FOB figure below a
    steady one means the FOB round wrote past the write cliff (or the cache was full)."""
    out = []
    steady = [(p, s) for p in source.phases if (s := _steady(p)) is not None]
    if source.fob_iops and steady:
        p, best = max(steady, key=lambda t: t[1])
        if source.fob_iops < (1 - FOB_MARGIN) * best:
            fob_step = next((q for q in source.wsat_before if q.label == "fob"), None)
            written = fob_step.wsat_bytes[-1] if fob_step and fob_step.wsat_bytes else None
            cap = source.capacity_bytes
            wrote = (
                f"; it wrote {human_bytes(written)}"
                + (f", {written / cap:.1f} fills of the tested capacity" if cap else "")
                if written
                else ""
            )
            out.append(
                Check(
                    "fob-below-steady",
                    source.label,
                    f"fresh-out-of-box IOPS {source.fob_iops:,.0f} are below the steady IOPS "
                    f"at {op_text(p.op_percent, source.op_axis)} ({best:,.0f}): the FOB round "
                    f"ran past the write cliff{wrote}, so it is not a fresh-drive figure",
                )
            )
    for p in source.phases:
        s = _steady(p)
        if p.fob_iops and s is not None and p.fob_iops < (1 - FOB_MARGIN) * s:
            out.append(
                Check(
                    "fob-below-steady",
                    source.label,
                    f"at {op_text(p.op_percent, source.op_axis)} the fresh-out-of-box IOPS "
                    f"({p.fob_iops:,.0f}) are below the steady IOPS ({s:,.0f}): the FOB "
                    "interval ran past the write cliff",
                )
            )
    return out


def steady_window_in_transition(source: Source, smart: Sequence[Any] = ()) -> list[Check]:
    """A window quoted as steady that overlaps intervals the run itself marked as transition."""
    out = []
    for p in source.phases:
        windows = [s for s in p.spans if s.kind == "steady-window"]
        trans = [s for s in p.spans if s.kind == "transition"]
        for w in windows:
            overlap = sum(
                max(0.0, min(w.end_s, t.end_s) - max(w.start_s, t.start_s)) for t in trans
            )
            if overlap > 0:
                out.append(
                    Check(
                        "steady-window-in-transition",
                        source.label,
                        f"at {op_text(p.op_percent, source.op_axis)} the steady window "
                        f"({w.start_s:g}–{w.end_s:g} s) holds {overlap:g} s the run marked as "
                        "transition: its figures are not steady-state figures",
                    )
                )
    return out


def waf_not_measured(source: Source, smart: Sequence[Any] = ()) -> list[Check]:
    """A quoted WAF more than 5% from the run's own measured WAF, said with both figures."""
    out = []
    for p in source.phases:
        if p.waf is None or p.waf_whole_run is None or not p.waf_whole_run:
            continue
        gap = p.waf / p.waf_whole_run - 1
        if abs(gap) > WAF_GAP_LIMIT:
            out.append(
                Check(
                    "waf-not-measured",
                    source.label,
                    f"at {op_text(p.op_percent, source.op_axis)} the quoted WAF {p.waf:.2f} "
                    f"({p.waf_window or 'its window'}) is {100 * gap:+.0f}% from the whole "
                    f"measured run's {p.waf_whole_run:.2f}",
                )
            )
    return out


def _predicted_and_measured(source: Source, key: str) -> list[tuple[float, float, float]]:
    """(extra OP %, predicted, measured) of a calibration's ``key`` at each level it measured
    and predicted, both figures present and positive."""
    if source.kind != "calibrate" or source.prediction is None:
        return []
    predicted = {float(lv.extra_op_percent): getattr(lv, key) for lv in source.prediction.levels}
    out = []
    for m in source.measured_levels:
        x = float(m["extra_op_percent"])
        pred, meas = predicted.get(x), m.get(key)
        if pred and meas and pred > 0 and meas > 0:
            out.append((x, float(pred), float(meas)))
    return out


def p99_predicted_vs_measured(source: Source, smart: Sequence[Any] = ()) -> list[Check]:
    """A calibration's predicted p99 latency at a level it measured, more than
    :data:`P99_RATIO_LIMIT` times off the p99 it measured there (either way)."""
    out = []
    for x, pred, meas in _predicted_and_measured(source, "p99_latency_us"):
        ratio = pred / meas
        if ratio > P99_RATIO_LIMIT or ratio < 1 / P99_RATIO_LIMIT:
            out.append(
                Check(
                    "p99-predicted-vs-measured",
                    source.label,
                    f"at {x:g}% the predicted p99 latency {pred:,.0f} µs is {ratio:.2f}× the "
                    f"measured {meas:,.0f} µs: the twin is fitted to IOPS and WAF, not latency; "
                    "read its p99 column as a trend, not a figure",
                )
            )
    return out


def waf_predicted_vs_measured(source: Source, smart: Sequence[Any] = ()) -> list[Check]:
    """A calibration's predicted WAF at a level it measured, more than 5% from the WAF it
    measured there."""
    out = []
    for x, pred, meas in _predicted_and_measured(source, "waf"):
        gap = pred / meas - 1
        if abs(gap) > WAF_GAP_LIMIT:
            out.append(
                Check(
                    "waf-predicted-vs-measured",
                    source.label,
                    f"at {x:g}% the predicted WAF {pred:.2f} is {100 * gap:+.0f}% from the "
                    f"measured {meas:.2f}: the fit misses the WAF it was given there",
                )
            )
    return out


def _ids(source: Source) -> list[tuple[str, str]]:
    return [(m or "", s or "") for m, s in source.drive_ids]


def smart_of_another_drive(sources: Sequence[Source], smart: Sequence[Any]) -> list[Check]:
    """A SMART file whose drive (serial, else model) is none of the drives tested."""
    tested = [i for s in sources for i in _ids(s)]
    out = []
    for rep in smart:
        snap = rep.snapshot
        name = " ".join(x for x in (snap.model, snap.serial and f"(serial {snap.serial})") if x)
        if not tested:
            simulated = any(s.simulated for s in sources)
            out.append(
                Check(
                    "smart-other-drive" if simulated else "smart-unmatched",
                    "",
                    f"the SMART file of {name or 'a drive'} belongs to a real drive, and the "
                    "figures beside it are simulated"
                    if simulated
                    else f"the SMART file of {name or 'a drive'} cannot be matched to the "
                    "target tested (it names no drive model or serial): check it is the same "
                    "drive",
                )
            )
            continue
        same = any(
            (snap.serial and serial and snap.serial.strip() == serial.strip())
            or (not (snap.serial and serial) and snap.model and model == snap.model)
            for model, serial in tested
        )
        if not same:
            drives = ", ".join(" ".join(x for x in pair if x) or "unnamed" for pair in tested)
            out.append(
                Check(
                    "smart-other-drive",
                    "",
                    f"the SMART file of {name or 'a drive'} is not of the drive tested "
                    f"({drives}): its lifetime figures describe another drive",
                )
            )
    return out


PER_SOURCE: tuple[Callable[..., list[Check]], ...] = (
    fob_below_steady,
    steady_window_in_transition,
    waf_not_measured,
    p99_predicted_vs_measured,
    waf_predicted_vs_measured,
)


def run_checks(sources: Sequence[Source], smart: Sequence[Any] = ()) -> list[Check]:
    """Every check over every source, then the SMART files against the drives tested."""
    out = [c for s in sources for check in PER_SOURCE for c in check(s)]
    measured = [s for s in sources if s.kind not in ("qualify", "plan")]
    return out + smart_of_another_drive(measured, smart)
