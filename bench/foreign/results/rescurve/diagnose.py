"""The GC-reserve reading's curve between its floor and 40% on every stored FEMU case measured
by calibrate's own plan with the onset from empty dated (a diagnosis from stored records; no
run of FEMU, nothing predicted through a twin): FEMU's true WAF at 0-40% beside

- ``geometry``: the reading's form, WAF = min(greedy(s / (1 - x) - 1), 8), with the spare
  factor FEMU's ftl.c gives: the lines in use when the background collector first runs
  (``should_gc``: free lines <= ``gc_thres_lines``), less the open line, ÷ the namespace's
  lines, (tt_lines - gc_thres_lines - 1) ÷ namespace lines;
- ``onset``: the same form with s = the measured onset from empty and the fitted floor;
- ``fitted``: the reading as calibrate fitted it (``gc_reserve.ReserveForm`` with the onset,
  ONSET_REL_SD 0.03), its surrogate's WAF;
- the plan's measured WAF at 0% and 40% against the truth there;
- then the reading as calibrate offers and weighs it (``reserve_reading.offered``, the greedy
  design) with its spare fitted to the onset at relative sds 0.03 (the code's), 0.01, 0.005
  and 0.0001 (the onset as the spare): its spare factor, its weight, its residual χ² over its
  figures, and its surrogate's WAF errors at 10-30%.

    PYTHONPATH=python python bench/foreign/results/rescurve/diagnose.py

Output: bench/foreign/results/rescurve/diagnosis.txt.
"""

import json
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_reserve, reserve_reading
from overprov.calibrate import predict as predmod
from overprov.calibrate.uncertainty import recorded_model_form

R = Path("bench/foreign/results")
CASES = [  # (case folder, truth file)
    *[(f"onset-default5/femu/femu-10lun-260blk-thres66-3500us-{a}-s{s}",
       "onset-default5/femu/femu-10lun-260blk-thres66-3500us.json")
      for a in ("flag", "carryflag") for s in (1, 2, 3)],
    ("onset-default3/femu/femu-8lun-300blk-thres70-4ms-on",
     "onset-default3/femu/femu-8lun-300blk-thres70-4ms.json"),
    ("femu-end-to-end/femu-6lun-372blk-thres68-3ms-on",
     "femu-end-to-end/femu-6lun-372blk-thres68-3ms.json"),
    ("femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on",
     "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json"),
]  # fmt: skip
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
FIT_SDS = (0.03, 0.01, 0.005, 0.0001)


def form_waf(s: float, floor: float, x: float) -> float:
    return min(fitmod.waf_at(s / (1 - x / 100) - 1), floor)


def main() -> None:
    mf = recorded_model_form(False)
    cv_sd = mf.rel_sd if mf is not None else 0.0
    for case, truth_file in CASES:
        doc = json.loads((R / truth_file).read_text())
        truth = {float(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
        g = truth[0.0]["harness"]["geometry"]
        ns_lines = truth[0.0]["span_pages"] / g["pgs_per_line"]
        s_geo = (g["tt_lines"] - g["gc_thres_lines"] - 1) / ns_lines
        m = measurement_file.load(R / case / measurement_file.NAME)
        pts = predmod.points_from(m)
        onset = m.onset_spare_factor
        out = {"case": case, "onset": round(onset, 4), "s_geometry": round(s_geo, 4)}
        form = gc_reserve.ReserveForm(fitmod.waf_at, cv_sd, onset=onset)
        sur = form.fit(pts)
        s_fit, floor = 1 + sur.native_op, sur.waf_floor
        out |= {"s_fitted": round(s_fit, 4), "floor_fitted": floor and round(floor, 3)}
        meas = {lv.extra_op_percent: lv.waf for lv in m.levels if lv.queue_depth is None}
        out["measured_waf_err_pct"] = {
            x: round(100 * (w / truth[x]["steady_waf"] - 1), 1) for x, w in meas.items()
        }
        rows = {}
        for x in LEVELS:
            t = truth[x]["steady_waf"]
            rows[x] = {
                "truth": round(t, 3),
                "geometry": round(100 * (form_waf(s_geo, 8.0, x) / t - 1), 1),
                "onset": round(100 * (form_waf(onset, floor or 8.0, x) / t - 1), 1),
                "fitted": round(100 * (sur.waf(x) / t - 1), 1),
            }
        out["waf_err_pct"] = rows
        out["onset_rel_sd"] = variants(m, truth)
        print(json.dumps(out), flush=True)


def variants(m: measurement_file.Measurement, truth: dict) -> dict:
    """The reading offered and weighed as calibrate does, its spare fitted to the onset at each
    relative sd of :data:`FIT_SDS` (module docstring)."""
    fig = predmod.PredictionInput(predmod.points_from(m), LEVELS, fob_iops=m.fob_iops,
                                  measurement=m)  # fmt: skip
    plain, central = predmod.TwinReading(), fitmod.fit(fig.points)
    out, saved = {}, gc_reserve.ONSET_REL_SD
    for sd in FIT_SDS:
        gc_reserve.ONSET_REL_SD = sd
        try:
            evs = reserve_reading.offered(fig, plain, central)
            w = reserve_reading.weights(evs)
        finally:
            gc_reserve.ONSET_REL_SD = saved
        greedy = [r for r in evs if r.spare == predmod.RESERVE and r.design == "greedy"]
        if not greedy:
            out[sd] = "not offered (its capped fit misses its figures: ReserveForm.called_for)"
            continue
        r = greedy[0]
        gc_reserve.ONSET_REL_SD = sd
        try:
            sur = r.reserve.fit(fig.points)
        finally:
            gc_reserve.ONSET_REL_SD = saved
        out[sd] = {
            "s": round(1 + sur.native_op, 4),
            "weight": round(w[r], 3),
            "residual_chi2": f"{evs[r]['residual_chi2']:.1f} over {evs[r]['n_figures']} figures",
            "waf_err_pct_10_30": [round(100 * (sur.waf(x) / truth[x]["steady_waf"] - 1), 1)
                                  for x in (10.0, 20.0, 30.0)],
        }  # fmt: skip
    return out


if __name__ == "__main__":
    sys.exit(main())
