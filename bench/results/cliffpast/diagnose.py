"""Task 1 of the cliffpast brief (bench/results/cliffpast/DIAGNOSIS.md): on seen drives, the
mix past the SLC cache's cliff (QD8 4 KiB random, 70% reads, from purged), twin against truth.

For each case the truth is drawn and calibrated as ``bench/cliffplan_eval.py
--probes-in-prediction`` does (``written_truth``, ``calibrate``; cliff_mix's form, the flag's
default), then:

- the truth's cliff as the rule judges it (``truth_cliff``: the core's closed loop);
- the truth run again over the request-level drive (``read_slot.request_loop``, no slot, no
  gate: every command simulated), each completion's kind logged (``kinds``): a write, a read
  of a written page, a read of trimmed space;
- the twin's prediction from purged made again in this process from the run's measurement and
  twin.toml (``cliff_prediction.predict``, ``PROBES_IN_PREDICTION`` on), its first mixed series
  with the read slot (the fitted cache's, not a bound's check) captured with kinds;
- per window (before the cliff: 20–80% of its time; past it: from 1.15× its time to the
  series' end), each side at its own cliff: IOPS, each kind's share and mean queue time (µs),
  and the dies' busy share estimated from the config's NAND times and the counts in the window
  (SLC programs, folds: an SLC read and a TLC program per 4 KiB unit, TLC programs of host
  writes past the cache, reads of written pages sent to the drive), the fold's share of it;
  the counts at the window's start from the same loop run again to there (deterministic);
- the counterfactuals: the truth with its host link booked in gaps (per direction), the
  twin's loop with its link booked in order (the core's default), both windows again;
- what the twin's level past the cliff is fitted from: the fit's TLC program time (QD32 write
  series), the program chosen by the probe past the cliff and its reads' time measured and
  simulated.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffpast/diagnose.py \
        259:0.01 245:0.01 246:0.01 > bench/results/cliffpast/diagnose.json
"""

from __future__ import annotations

import copy
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from cliff_bench import MIX, _seconds
from cliffplan_eval import calibrate, single_cases, truth_cliff, written_truth
from overprov import measurement_file
from overprov.calibrate import cliff, cliff_prediction, read_slot
from overprov.calibrate import twin as twinmod

KINDS = ("write", "read_written", "read_unwritten", "read_written_slot", "read_unwritten_slot")


def die_time_ns(cfg: dict[str, Any], counts: dict[str, float]) -> dict[str, float]:
    """Die time (ns) of ``counts`` (4 KiB units: ``slc``, ``folded``, ``tlc``, ``reads``) at
    ``cfg``'s NAND and SLC times (the core's per-unit costs: timing/slc.rs, ``Slc::new``)."""
    nand, slc = cfg["timing"]["nand"], cfg["timing"]["slc"]
    upp = max(1, nand["flash_page_bytes"] // 4096)
    slc_upp = max(1.0, upp / 3)
    tlc_unit = nand["program_us"] * 1e3 / upp
    fold_unit = slc.get("read_us", 0.0) * 1e3 / slc_upp + tlc_unit
    return {
        "slc": counts["slc"] * slc["program_us"] * 1e3 / slc_upp,
        "fold": counts["folded"] * fold_unit,
        "tlc": counts["tlc"] * tlc_unit,
        "reads": counts["reads"] * nand["read_us"] * 1e3,
    }


def window(run: dict[str, Any], lo_ns: float, hi_ns: float, at_lo: dict[str, Any]) -> dict:
    """One window of a logged loop (``run``: cfg, kwargs, events, kinds, report) from ``lo_ns``
    to ``hi_ns`` (simulated), ``at_lo`` the report of the same loop ended at ``lo_ns``."""
    ev = [(e, k) for e, k in zip(run["events"], run["kinds"], strict=True) if lo_ns <= e[0] < hi_ns]
    dt_s = (hi_ns - lo_ns) / 1e9
    out: dict[str, Any] = {"iops": len(ev) / dt_s, "commands": len(ev)}
    for kind in KINDS:
        lat = [e[2] for e, k in ev if k == kind and e[2] is not None]
        out[kind] = {"share": sum(k == kind for _, k in ev) / max(1, len(ev)),
                     "mean_us": sum(lat) / len(lat) / 1e3 if lat else None}  # fmt: skip
    rep = run["report"]
    slc = (rep.get("slc_written_bytes") or 0) - (at_lo.get("slc_written_bytes") or 0)
    folded = (rep.get("slc_folded_bytes") or 0) - (at_lo.get("slc_folded_bytes") or 0)
    writes = sum(k == "write" for _, k in ev)
    counts = {"slc": slc / 4096, "folded": folded / 4096, "tlc": max(0.0, writes - slc / 4096),
              "reads": sum(k == "read_written" for _, k in ev)}  # fmt: skip
    dies = cfg_dies(run["cfg"])
    die = die_time_ns(run["cfg"], counts)
    busy = sum(die.values())
    out["counts_4k"] = counts
    out["die_busy_share"] = busy / (dies * (hi_ns - lo_ns))
    out["die_time_shares"] = {k: v / busy if busy else None for k, v in die.items()}
    return out


def cfg_dies(cfg: dict[str, Any]) -> int:
    nand = cfg["timing"]["nand"]
    return int(nand["channels"] * nand["dies_per_channel"])


def windows(cfg: dict[str, Any], kwargs: dict[str, Any], cliff_s: float, scale: float) -> dict:
    """Before (20–80% of ``cliff_s``, full size) and past (1.15× to the loop's end) the cliff
    of the loop ``request_loop(cfg, **kwargs)``, each window's counts at its start from the
    same loop ended there (deterministic: the same seed)."""
    t, end = cliff_s * scale * 1e9, kwargs["end_ns"]
    res = {}
    for name, lo, hi in (("before", 0.2 * t, 0.8 * t), ("past", 1.15 * t, end)):
        at_lo = read_slot.request_loop(cfg, **{**kwargs, "end_ns": int(lo)})[1]
        kinds: list[str] = []
        events, report = read_slot.request_loop(cfg, **{**kwargs, "end_ns": int(hi)}, kinds=kinds)
        run = {"cfg": cfg, "events": events, "kinds": kinds, "report": report}
        res[name] = window(run, lo, hi, at_lo)
    return res


def booked(cfg: dict[str, Any], booking: str) -> dict[str, Any]:
    """``cfg`` with its host link booked as ``booking`` (the counterfactual runs)."""
    out = copy.deepcopy(cfg)
    out["timing"].setdefault("host", {})["link_booking"] = booking
    return out


def twin_run(out: Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The twin's prediction made again (``cliff_prediction.predict``, the flag on) and its
    first mixed series with the read slot (the fitted cache's): its loop's cfg, arguments and
    scale."""
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    calls: list[dict[str, Any]] = []
    plain_loop, plain_series = read_slot.request_loop, cliff.read_slot_series

    def series_spy(drive: dict[str, Any], scale: float, **kw: Any):  # noqa: ANN202
        calls.append({"scale": scale})
        return plain_series(drive, scale, **kw)

    def loop_spy(cfg: dict[str, Any], **kw: Any):  # noqa: ANN202 - request_loop's
        if calls and "cfg" not in calls[-1]:
            calls[-1].update(cfg=cfg, kwargs=kw)
        return plain_loop(cfg, **kw)

    flag, cliff_prediction.PROBES_IN_PREDICTION = cliff_prediction.PROBES_IN_PREDICTION, True
    read_slot.request_loop, cliff.read_slot_series = loop_spy, series_spy
    try:
        pred = cliff_prediction.predict(doc, drive, tw_scale)
    finally:
        read_slot.request_loop, cliff.read_slot_series = plain_loop, plain_series
        cliff_prediction.PROBES_IN_PREDICTION = flag
    return pred, (calls[0] if calls else None)


def case(seed: int, share: float, work: Path) -> dict:
    truth, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    calibrate(path, scale, out, probes=True)
    pred, twin = twin_run(out)
    true = truth_cliff(truth, float(scale), "none")
    row: dict[str, Any] = {"case": f"{seed} at {100 * share:g}%",
                           "truth_cliff": true.to_dict() if true else None,
                           "twin_cliff": pred.get("purged"), "fit": pred.get("fit"),
                           "selection": pred.get("read_probes_selection"),
                           "read_probes": pred.get("read_probes"),
                           "truth_nand": truth["config"]["timing"]["nand"],
                           "truth_slc": truth["config"]["timing"]["slc"]}  # fmt: skip
    if true is not None:
        t = _seconds(truth, float(scale), MIX["qd"], MIX["read_percent"], "none")
        cfg = cliff._config(truth, float(scale), qd=8, read_percent=70, seconds=t * float(scale),
                            interval_s=t * float(scale) / 60, precondition="none")  # fmt: skip
        kw = {"qd": 8, "read_percent": 70, "end_ns": int(t * float(scale) * 1e9)}
        row["truth"] = windows(cfg, kw, true.time_s, float(scale))
        row["truth_gaps"] = windows(booked(cfg, "gaps"), kw, true.time_s, float(scale))
    tw = pred.get("purged") or {}
    if twin is not None and "time_s" in tw:
        row["twin_nand"] = twin["cfg"]["timing"]["nand"]
        row["twin_slc"] = twin["cfg"]["timing"]["slc"]
        row["twin_kwargs"] = twin["kwargs"]
        row["twin"] = windows(twin["cfg"], twin["kwargs"], tw["time_s"], twin["scale"])
        row["twin_in_order"] = windows(
            booked(twin["cfg"], "in-order"), twin["kwargs"], tw["time_s"], twin["scale"]
        )
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
