"""Why the lifted twin's fitted drive runs its plateau 14-19% under the measured one
(diagnosis on seen cases only: bench/results/cliffcheck/UNDERLIFT.md; no rule judged).

For each case: calibrate --cliff with ``PROBES_IN_PREDICTION`` set (as cliffplan_eval.py runs
it), then, on its twin with the ceiling lifted (``cliff_prediction.lift_ceiling``) and the
fit's own steps (``cliff.fit_cache``: the SLC program time bisected on a cache ten times the
measured one, the first k intervals), the plateau (median of intervals lo..k-1, as the fit
reads it) and the SLC bytes folded by the k-th interval, for: the 10x cache (what the bisection
sees), the measured cache (what the fitted drive's check sees), the measured cache with the
fit's TLC time, and the fastest SLC program (20 us) on the 10x cache (the lifted twin's most).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffcheck/underlift.py \
        231:0.01 237:0.01 232:0.01 221:0.01 224:0.01 > bench/results/cliffcheck/underlift.json
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import tomllib
from pathlib import Path

from cliffplan_eval import calibrate, truth_drive
from cpu_clock import cpu_s
from overprov import engine, measurement_file
from overprov.calibrate import cliff, cliff_prediction, cliff_step, validation
from overprov.calibrate import twin as twinmod
from overprov.calibrate.cliff_series import cache_step
from overprov.errors import ConfigError


def run(drive: dict, scale: float, step_s: float, k: int) -> tuple[list[float], float]:
    """k intervals of QD32 4 KiB random writes from purged: IOPS per interval and the SLC
    bytes folded by the end (target bytes)."""
    cfg = cliff._config(  # noqa: SLF001 - the series' own config builder
        drive, scale, qd=32, read_percent=0, seconds=k * step_s * scale,
        interval_s=step_s * scale, precondition="none",
    )  # fmt: skip
    engine.validate(cfg)
    rep = engine.run(cfg)["timed"]
    return [i["iops"] for i in rep["intervals"]], float(rep.get("slc_folded_bytes") or 0.0)


def case(seed: int, share: float, tmp: Path) -> dict:
    rng = random.Random(seed * 7919)  # drawn in cliffplan_eval's order: 1% then 3%
    for s in (0.01, 0.03):
        truth = truth_drive(seed, s, rng)
        if s == share:
            break
    path = tmp / f"drive-{seed}-{share}.toml"
    path.write_text(twinmod.to_toml(truth) + "\n")
    out = tmp / f"out-{seed}-{share}"
    pred = calibrate(path, validation.scale_for(truth, 4 * 2**30), out, probes=True)
    doc = measurement_file.load(out / "measurement.json").cliff
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    fill = float(doc.get("buffer_fill_bytes") or 0.0)
    twin, factor = cliff_prediction.cliff_twin(drive, tw_scale, fill)
    measured = cliff_step.series(doc)
    plateau = cliff_prediction.measured_plateau(measured, 4096, fill)
    lifted = cliff_prediction.lift_ceiling(twin, plateau)
    buffer = lifted["config"]["timing"]["buffer"]["bytes"]
    target, _, lo = cache_step(measured, bs_bytes=4096, buffer_bytes=buffer / factor)
    lo = max(lo, 1)
    cache = max(target.host_write_bytes_before - buffer / factor, 1e6)
    k = next(i for i, t in enumerate(measured.times_s) if t >= target.time_s)
    step_s = measured.times_s[0]
    fit = pred.get("fit") or {}
    declined = str(pred.get("declined") or "")
    # the SLC program time the bisection found (the refusal names it; else the fit's)
    slc_us = fit.get("slc_program_us")
    if slc_us is None and "SLC " in declined and "µs)" in declined:
        slc_us = float(declined.split("SLC ")[1].split(" µs")[0])
    row: dict = {"case": f"{seed} at {100 * share:g}%", "declined": declined[:160],
                 "measured_plateau": target.iops_before, "k": k, "lo": lo,
                 "cache_bytes": cache, "slc_us": slc_us,
                 "controller_before": (twin["config"]["timing"].get("controller") or None),
                 "controller_lifted": lifted["config"]["timing"]["controller"]}  # fmt: skip
    if slc_us is None:
        return row
    variants = {
        "big_cache": cliff.with_cache(lifted, 10 * cache, slc_us),
        "own_cache": cliff.with_cache(lifted, cache, slc_us),
        "big_cache_slc_20us": cliff.with_cache(lifted, 10 * cache, 20.0),
    }
    # counterfactual: the bisection's plateau read without the buffer's slow fill (the twin's
    # buffer one page), the rest of the fit as calibrate makes it
    tiny = {**lifted, "config": {**lifted["config"], "timing": {
        **lifted["config"]["timing"], "buffer": {**lifted["config"]["timing"]["buffer"],
                                                 "bytes": 4096}}}}  # fmt: skip
    try:
        f = cliff_prediction.fit(measured, tiny, factor, 4096, fill > 0)
        row["fit_without_buffer"] = {"cache_bytes": f.cache_bytes, "slc_us": f.slc_program_us,
                                     "tlc_us": f.tlc_program_us}  # fmt: skip
    except ConfigError as exc:
        row["fit_without_buffer"] = {"declined": str(exc)[:300]}
    for name, d in variants.items():
        iops, folded = run(d, factor, step_s, k)
        row[name] = {"plateau": statistics.median(iops[lo:k]), "folded_bytes": folded,
                     "first_iops": [round(x) for x in iops[: k + 1]]}  # fmt: skip
    return row


def main() -> int:
    t0 = cpu_s()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in sys.argv[1:]:
            seed, share = c.split(":")
            rows.append(case(int(seed), float(share), Path(tmp)))
            print(json.dumps(rows[-1])[:400], file=sys.stderr, flush=True)
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
