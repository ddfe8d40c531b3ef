"""Task 1 (b) of the cliffseries brief (bench/results/cliffseries/DIAGNOSIS.md): on the seen cases
whose write-series fit was refused in bench/results/cliffpast/runs.json (for the plateau: 267 at
3%, 273 at 1% and 3%; for the cliff: 264 at 3%, 268 at 1%), why.

For each case the truth is drawn and calibrated as ``bench/cliffplan_eval.py
--probes-in-prediction`` does (``written_truth``, ``calibrate``); its measured series (the cliff
step's rounds) and twin.toml are kept beside this script (``stored/``). Then, in this process,
the prediction's steps up to the fit are made again as ``cliff_prediction.predict`` makes them
(``PROBES_IN_PREDICTION`` on: the twin scaled, its controller lifted only under the measured
plateau, the plateau read past its buffer's fill), and:

- the truth's and the twin's ceilings (4 KiB commands a second: link, controller, dies in TLC
  mode and in SLC mode at the bisection's bounds 20 and 2000 µs; the twin's ``link_mb_s`` as
  calibrate wrote it);
- the fit (``cliff_prediction.fit``) run again with every simulation it makes recorded (the
  drive's SLC size and program time, its TLC program time, the series' IOPS): its outcome, and
  the plateau as the bisection reads it (``cliff._past_fill_plateau`` / the plain median) at
  SLC program times over the bounds;
- for a refusal for the cliff, the fitted drive's own series against the measured one.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffseries/fit_refused.py \
        267:0.03 273:0.01 273:0.03 264:0.03 268:0.01 > bench/results/cliffseries/fit_refused.json
"""

from __future__ import annotations

import json
import statistics
import sys
import tomllib
from pathlib import Path
from typing import Any

from cliffplan_eval import calibrate, single_cases, written_truth
from overprov import measurement_file
from overprov.calibrate import cliff, cliff_mix, cliff_prediction, cliff_refit
from overprov.calibrate import twin as twinmod
from overprov.calibrate.cliff_step import measured_step, series
from overprov.errors import ConfigError
from truth_series import ceilings

HERE = Path(__file__).resolve().parent
SLC_GRID_US = (20.0, 60.0, 200.0, 600.0, 2000.0)


def twin_ceilings(twin: dict[str, Any]) -> dict[str, Any]:
    tm = twin["config"]["timing"]
    n = tm["nand"]
    dies = n["channels"] * n["dies_per_channel"]
    upp = n["flash_page_bytes"] // 4096
    slc = {f"dies_slc_{us:g}us": dies * max(1.0, upp / 3) / (us * 1e-6) for us in (20.0, 2000.0)}
    return {
        "link": tm.get("host", {}).get("link_mb_s", 0.0) * 1e6 / 4096,
        "controller": cliff_prediction.controller_ceiling_iops(twin),
        "dies_tlc": dies * upp / (n["program_us"] * 1e-6), **slc, "dies": dies,
        "flash_page_bytes": n["flash_page_bytes"], "tlc_program_us": n["program_us"],
        "buffer_bytes": tm.get("buffer", {}).get("bytes"),
    }  # fmt: skip


class Recorder:
    """``cliff.simulate_series`` wrapped: each call's drive figures and IOPS kept."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.inner = cliff.simulate_series

    def __call__(self, drive: dict[str, Any], scale: float, **kw: Any) -> cliff.Series:
        s = self.inner(drive, scale, **kw)
        tm = drive["config"]["timing"]
        slc = tm.get("slc", {})
        self.calls.append({
            "slc_bytes": slc.get("max_bytes"), "slc_program_us": slc.get("program_us"),
            "tlc_program_us": tm["nand"].get("program_us"), "intervals": len(s.iops),
            "iops": [round(x) for x in s.iops],
        })  # fmt: skip
        return s


def lifted_twin(doc: dict[str, Any], drive: dict[str, Any], tw_scale: str) -> tuple:
    """The prediction's steps up to the fit, as ``cliff_prediction.predict`` makes them with
    ``PROBES_IN_PREDICTION``: the measured series, its request size, the buffer's fill, the
    cliff twin and its scale, and the twin lifted only under the measured plateau."""
    fill = float(doc.get("buffer_fill_bytes") or 0.0)
    twin, factor = cliff_prediction.cliff_twin(drive, tw_scale, fill)
    bs = int(doc.get("bs_bytes", 4096))
    s = series(doc)
    plateau = cliff_prediction.measured_plateau(s, bs, fill, cliff_mix.MIX_CAPPED)
    lifted = twin if plateau is None else cliff_prediction.lift_ceiling(twin, plateau, True)
    return s, bs, fill, twin, factor, lifted


def fit_outcome(s: Any, lifted: dict[str, Any], factor: Any, bs: int, fill: float) -> dict:
    """``cliff_prediction.fit`` as the prediction calls it (past the buffer's fill where there
    is one, the plateau read past it): the fitted cache and times, or why it was refused."""
    try:
        f = cliff_prediction.fit(s, lifted, factor, bs, fill > 0, True)
    except ConfigError as exc:
        return {"refused": str(exc)}
    return {"cache_bytes": f.cache_bytes, "slc_program_us": f.slc_program_us,
            "tlc_program_us": f.tlc_program_us}  # fmt: skip


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    truth, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    pred = calibrate(path, scale, out, probes=True)
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    drive = tomllib.loads((out / "twin.toml").read_text())
    keep = HERE / "stored" / f"{seed}-{share:g}"
    keep.mkdir(parents=True, exist_ok=True)
    (keep / "cliff.json").write_text(json.dumps(doc, indent=1) + "\n")
    (keep / "twin.toml").write_text((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    cliff_prediction.PROBES_IN_PREDICTION = True
    cliff_refit.REFIT_REFUSED = False  # the fit as calibrate made it (the diagnosis came first)
    s, bs, fill, twin, factor, lifted = lifted_twin(doc, drive, tw_scale)
    step = measured_step(s, bs, fill)
    rec = Recorder()
    cliff.simulate_series = rec
    try:
        outcome = fit_outcome(s, lifted, factor, bs, fill)
        fit_calls = rec.calls
        rec.calls = []
        # the plateau as the bisection reads it, over the SLC program times
        k = next(i for i, t in enumerate(s.times_s) if t >= step.time_s)
        lo = 1
        cache = max(step.host_write_bytes_before - lifted["config"]["timing"]["buffer"]["bytes"]
                    / factor, 1e6)  # fmt: skip
        grid = {}
        step_s = s.times_s[0]
        for us in SLC_GRID_US:
            d = cliff.with_cache(lifted, 10 * cache, us)
            iops = rec(d, factor, qd=32, seconds=k * step_s, interval_s=step_s,
                       precondition="none", bs_bytes=bs).iops  # fmt: skip
            grid[f"{us:g}"] = {"plain_median": statistics.median(iops[lo:k]),
                               "iops": [round(x) for x in iops]}  # fmt: skip
    finally:
        cliff.simulate_series = rec.inner
        cliff_prediction.PROBES_IN_PREDICTION = False
    return {
        "case": f"{seed} at {100 * share:g}%", "scale": scale, "twin_scale": factor,
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "true_slc_program_us": truth["config"]["timing"]["slc"]["program_us"],
        "truth_ceilings": ceilings(truth), "twin_ceilings": twin_ceilings(twin),
        "lifted_ceilings": twin_ceilings(lifted), "buffer_fill_bytes": fill,
        "measured": {"times_s": s.times_s, "iops": [round(x) for x in s.iops],
                     "gc": s.gc_started, "step": step.to_dict() if step else None,
                     "k": k},  # fmt: skip
        "calibrate_declined": pred.get("declined") if "error" not in pred else pred["error"],
        "fit_again": outcome, "fit_calls": fit_calls, "plateau_grid": grid,
    }  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
