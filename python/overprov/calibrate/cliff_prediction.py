"""The cliff step's answer: the SLC cache fitted on its series and the cliff predicted under
the user's workload, as ``prediction.json``'s ``cliff`` object.

The series (``cliff_step.series``: the step's rounds, full-size time) is fitted as
bench/cliff_bench.py fits a purged series by default: ``cliff.fit_cache`` at a 10% step and,
where the series shows none, at a 5% one (docs/calibrate-cliff.md, "Declined cases: the sixth
rule"), on the calibrated twin (its other figures: dies, program time, controller), simulated
at the twin's own scale with its write buffer scaled with it (an unscaled buffer of a drive
simulated at 1/100 would hold 100 times its bytes and step on its own before the cache:
docs/calibrate-cliff.md, "The consumer presets' step"). The fitted drive then predicts the
cliff under the workload from a purged drive and from a filled one (``cliff.predict``, the
read probes not measured: ``cliff_step``'s docstring). A fit the series cannot identify, or a
prediction the fit cannot make, is ``declined`` with its reason, never a figure.
"""

from __future__ import annotations

import statistics
from typing import Any

from overprov import presets
from overprov.calibrate import cliff
from overprov.calibrate.cliff_step import CliffPlan, CliffWorkload, series
from overprov.errors import ConfigError

#: What the prediction says of the two read probes ``read_probes`` takes (not measured here)
READ_PROBES_NOTE = (
    "not in the prediction: the read slot before the cliff and the TLC program's form past it "
    "are the twin's (read_probes.py)"
)
#: Intervals of a predicted series (bench/cliff_bench.py's)
PREDICT_INTERVALS = 60


def cliff_twin(
    drive: dict[str, Any], scale: str, fill_bytes: float = 0.0
) -> tuple[dict[str, Any], float]:
    """The twin's drive (``twin.drive_dict``) as the cliff is fitted on, and its scale factor:
    its write buffer scaled to the factor (it holds as many full-size bytes as at full size),
    or, where the measured drive's buffer held ``fill_bytes`` of full-size writes (a simulated
    target's, ``cliff_step``), one holding as many."""
    d = {**drive, "config": {**drive["config"], "timing": dict(drive["config"]["timing"])}}
    _, factor = presets.drive_config(d, scale, "calibrated twin")
    timing = d["config"]["timing"]
    buffer = timing.get("buffer") or {"bytes": 0, "power_loss_protected": False}
    held = fill_bytes * factor if fill_bytes > 0 else buffer["bytes"] * factor
    if held > 0:
        timing["buffer"] = {**buffer, "bytes": max(4096, int(held))}
    return d, float(factor)


def fit(
    measured: cliff.Series, twin: dict[str, Any], scale: float, bs_bytes: int,
    past_buffer: bool = False,
) -> cliff.CacheFit:  # fmt: skip
    """The purged series fitted at a 10% step or, where it shows none, a 5% one (with
    ``past_buffer``, a first step at the twin's write buffer's fill passed over)."""
    try:
        return cliff.fit_cache(measured, twin, scale, precondition="none", bs_bytes=bs_bytes,
                               past_buffer=past_buffer)  # fmt: skip
    except ConfigError as exc:
        if "no cliff" not in str(exc):
            raise
    return cliff.fit_cache(measured, twin, scale, precondition="none", bs_bytes=bs_bytes,
                           min_drop=0.05, past_buffer=past_buffer)  # fmt: skip


def _seconds(
    drive: dict[str, Any], scale: float, wl: CliffWorkload, state: str, cache: float
) -> float:
    """Long enough for the fitted drive under ``wl`` to write its cache 2.25 times (purged) or
    its spare 1.3 times (filled), at the write rate of a 5-s probe (bench/cliff_bench.py's)."""
    probe = cliff.simulate_series(
        drive, scale, qd=wl.qd, read_percent=wl.read_percent, seconds=5.0 / scale,
        interval_s=1.0 / scale, precondition=state,
    )  # fmt: skip
    rate = statistics.median(probe.write_iops) * 4096
    if rate < 4096:
        rate = statistics.fmean(probe.write_iops) * 4096
    spare = presets.physical_bytes(drive) - drive["advertised_bytes"]
    room = 2.25 * cache if state == "none" else 1.3 * spare
    return max(room, 1.0) / max(rate, 1.0)


def predict(doc: dict[str, Any], drive: dict[str, Any], scale: str) -> dict[str, Any]:
    """``prediction.json``'s ``cliff``: the step's measurement ``doc`` (``measurement.json``'s
    ``cliff``) fitted on the twin ``drive`` (``twin.drive_dict``, simulated at ``scale``) and
    predicted under its workload from purged and from filled."""
    plan = CliffPlan.from_dict(doc["plan"])
    wl = plan.workload
    out: dict[str, Any] = {
        "workload": {"qd": wl.qd, "read_percent": wl.read_percent, "text": wl.text()},
        "measured_drive_writes": doc.get("drive_writes"),
        "measured_rounds": len(doc["rounds"]),
        "read_probes": probes_note(doc.get("probes")),
        "fit": None, "declined": None, "purged": None, "filled": None,
    }  # fmt: skip
    if doc.get("status") == "bound":
        out["declined"] = (
            f"no step in the series within the step's bound of {plan.max_drive_writes:g} "
            "drive writes: no cache found (or one larger than the bound, or one its writes "
            "cannot see)"
        )
        return out
    if doc.get("status") != "found":
        out["declined"] = f"the cliff step did not finish (status {doc.get('status')!r})"
        return out
    fill = float(doc.get("buffer_fill_bytes") or 0.0)
    twin, factor = cliff_twin(drive, scale, fill)
    if "program_us" not in twin["config"]["timing"].get("nand", {}):
        out["declined"] = "the twin has no NAND program time (timing.nand.program_us) to fit from"
        return out
    try:
        f = fit(series(doc), twin, factor, int(doc.get("bs_bytes", 4096)), fill > 0)
    except ConfigError as exc:
        out["declined"] = str(exc).removeprefix("cliff: ")
        return out
    out["fit"] = {
        "cache_bytes": f.cache_bytes,
        "slc_program_us": f.slc_program_us,
        "tlc_program_us": f.tlc_program_us,
        "min_drop": f.min_drop,
        "measured": f.measured.to_dict() if f.measured is not None else None,
    }
    fitted = cliff.fitted_drive(twin, f)
    for state, key in (("none", "purged"), ("sequential", "filled")):
        try:
            seconds = _seconds(fitted, factor, wl, state, f.cache_bytes)
            pred = cliff.predict(
                twin, f, factor, qd=wl.qd, read_percent=wl.read_percent, seconds=seconds,
                interval_s=seconds / PREDICT_INTERVALS, precondition=state,
            )  # fmt: skip
        except ConfigError as exc:
            out[key] = {"declined": str(exc).removeprefix("cliff: ")}
            continue
        if pred is None:
            out[key] = {
                "declined": f"the fitted drive shows no cliff under {wl.text()} before garbage "
                f"collection (within {seconds:,.0f} s)"
            }
        else:
            out[key] = pred.to_dict()
    return out


def probes_note(probes: dict[str, Any] | None) -> str:
    """What the prediction says of the step's read probes."""
    if not probes or "after" not in probes or "before" not in probes:
        why = (probes or {}).get("not_measured", "not measured")
        return f"{READ_PROBES_NOTE} ({why})"
    reads = [probes[k].get("read_us") for k in ("before", "after")]
    if None in reads:
        return f"{READ_PROBES_NOTE} (the target reported no read latency)"
    return (
        f"measured and kept, not used in the prediction (their protocol not checked against "
        f"read_probes' rule): reads of written "
        f"pages waited {reads[0]:,.0f} µs before the cliff and {reads[1]:,.0f} µs past it"
    )


def twin_note(c: dict[str, Any]) -> dict[str, Any] | None:
    """What twin.toml's ``notes.calibration.cliff`` keeps of a prediction's ``cliff``: the
    fitted cache as the core's ``[timing.slc]`` keys, or None where it was declined."""
    f = c.get("fit")
    if not f:
        return None
    note: dict[str, Any] = {
        "enabled": True,
        "max_bytes": int(f["cache_bytes"]),
        "program_us": round(f["slc_program_us"], 3),
        "read_us": 30.0,
    }
    if f.get("tlc_program_us") is not None:
        note["tlc_program_us"] = round(f["tlc_program_us"], 3)
    note["use"] = (
        "the SLC cache calibrate --cliff fitted: set [timing.slc] to enabled, max_bytes, "
        "program_us and read_us (and [timing.nand] program_us to tlc_program_us) to simulate "
        "the cliff; the twin's [timing] keeps no cache, so its steady levels are the ones "
        "predicted"
    )
    return note


#: What the summary says of a cliff predicted under a workload with reads: on held-out generated
#: drives (bench/results/cliffplan/verdict.md) the cache was fitted within 1% and the cliff under
#: writes alone within 3%, but with 70% reads 2 of 6 cases were predicted, both off by over 50%.
UNVALIDATED_WITH_READS = (
    "with reads the twin's read path is not measured: held-out cases were off by over 50%, "
    "docs/calibrate.md"
)


def summary_line(c: dict[str, Any]) -> str:
    """The printed summary's line of a prediction's ``cliff``."""
    wl = c["workload"]["text"]
    if c.get("declined"):
        return f"write cliff: declined: {c['declined']}"
    f = c["fit"]
    parts = []
    for key, name in (("purged", "from purged"), ("filled", "from filled")):
        p = c.get(key) or {}
        if "time_s" in p:
            parts.append(
                f"{name} after {p['time_s']:,.0f} s ({p['host_write_bytes_before'] / 1e9:,.1f} GB "
                f"written), {p['iops_before']:,.0f} -> {p['iops_after']:,.0f} IOPS "
                f"({p['lost_iops']:,.0f} lost)"
            )
        else:
            parts.append(f"{name}: declined ({p.get('declined', 'not predicted')})")
    line = f"write cliff under {wl}: SLC cache {f['cache_bytes'] / 1e9:,.2f} GB fitted; "
    line += "; ".join(parts)
    if c["workload"].get("read_percent"):  # the held-out rule failed there: say so
        line += f" ({UNVALIDATED_WITH_READS})"
    return line


def attach(pred: Any, doc: dict[str, Any]) -> None:
    """Predict the cliff of the step's measurement ``doc`` on ``pred``'s twin (a calibrate
    ``Prediction``) into ``pred.cliff``, and the fitted cache into the twin's notes."""
    from overprov.calibrate import twin as twinmod

    p = pred.twins.get(pred.twin) if pred.twin else None
    if not isinstance(p, twinmod.TwinParameters):
        plan = CliffPlan.from_dict(doc["plan"])
        pred.cliff = {
            "workload": {"qd": plan.workload.qd, "read_percent": plan.workload.read_percent,
                         "text": plan.workload.text()},
            "read_probes": READ_PROBES_NOTE, "fit": None, "purged": None, "filled": None,
            "declined": "no twin held in memory to fit the cache on",
        }  # fmt: skip
        return
    pred.cliff = predict(doc, twinmod.drive_dict(p), twinmod.sim_scale(
        twinmod.twin_advertised_bytes(p), p.native_op))  # fmt: skip
    note = twin_note(pred.cliff)
    if note is not None:
        p.cliff = note
