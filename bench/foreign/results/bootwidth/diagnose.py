"""Why the bootstrap band of the 72 plan cases is as wide as it is (DIAGNOSIS.md's figures).

For every unfitted figure (10/20/30% extra OP, QD32 IOPS and WAF) of the 72 plan cases as
bench/foreign/results/status72/cases/ ran them (today's defaults; 432 figures), from the case's
own typed figures and its truth file, without running calibrate:

- the truth's own round-to-round spread at each typed level (the last 8 rounds of its series,
  the window bench/foreign/common.py's ``settle`` averages): relative sd, standard error
  (sd / sqrt(8)) and lag-1 autocorrelation;
- the bootstrap's log half-width on the truth's side under three noise models of the typed
  figures (``uncertainty.bootstrap``, 100 greedy refits, as bench/foreign/results/narrowband/
  measure.py draws it): *typed*, what the plan case gives (cli.USER_POINT_REL_SD, 5% on every
  figure: today); *measured*, what calibrate's own measurement would give the same rounds
  (measure.py's ``_level``: the IOPS standard error, the WAF the nominal 2% of
  ``fit.Point.waf_rel_sd``; the bootstrap's 1% floor ``fit.MIN_REL_SD``); *own*, the truth's own
  standard errors with no floor;
- the truth's |log error|, the model-form term's log half-width (Z80 · ``model_sd``), rule 3's
  unit hypot(floor, R) and the scale each figure needs under each noise model
  (``conformal_scale.needed_scale``; rows whose term is not rule 3's get none).

Writes rows.json (one row per figure) beside this file. ≈ 60 CPU s.

    PYTHONPATH=python python bench/foreign/results/bootwidth/diagnose.py
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
ROOT = RESULTS.parents[2]
sys.path.insert(0, str(RESULTS / "scorecover"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(HERE))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

STATUS72 = RESULTS / "status72" / "cases"
WINDOW_ROUNDS = 8  # bench/foreign/common.py's settling window
NOISES = ("typed", "measured", "own")
#: the least relative sd the "own" model redraws with (no floor but a numerical one)
OWN_MIN_REL_SD = 1e-5


def round_spread(values: list[float]) -> dict[str, float]:
    """Relative sd, standard error and lag-1 autocorrelation of a window's rounds."""
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) / mean
    dev = [v / mean - 1 for v in values]
    var = sum(d * d for d in dev)
    lag1 = sum(a * b for a, b in zip(dev, dev[1:], strict=False)) / var if var > 0 else 0.0
    return {"sd": sd, "se": sd / math.sqrt(len(values)), "lag1": lag1}


def truth_spreads(truth: dict, qd: int) -> dict[tuple[float, str], dict[str, float]]:
    """(extra OP, "iops"/"waf") → the truth's round spread over its steady window, at ``qd``."""
    out = {}
    for lv in truth["levels"]:
        if lv.get("queue_depth", qd) != qd:
            continue
        window = lv["series"][-WINDOW_ROUNDS:]
        for f in ("iops", "waf"):
            vals = [r[f] for r in window if r.get(f) is not None]
            if len(vals) >= 2:
                out[(float(lv["extra_op_percent"]), f)] = round_spread(vals)
    return out


def noisy_points(points: list[fitmod.Point], spreads: dict, noise: str) -> list[fitmod.Point]:
    """``points`` with the relative sds the noise model gives them."""
    if noise == "typed":
        return points
    out = []
    for p in points:
        own_iops = spreads.get((p.extra_op_percent, "iops"), {}).get("se", 0.0)
        own_waf = spreads.get((p.extra_op_percent, "waf"), {}).get("se", 0.0)
        if p.fresh or p.queue_depth is not None:
            own_iops = own_waf = 0.0  # no rounds recorded for a FOB figure
        if noise == "measured":
            out.append(replace(p, iops_rel_sd=own_iops, waf_rel_sd=0.02))
        else:
            out.append(replace(p, iops_rel_sd=own_iops, waf_rel_sd=own_waf))
    return out


def boot_of(points: list[fitmod.Point], xs: list[float], noise: str) -> dict:
    """The bootstrap of ``points`` (QD32 only), the 1% floor lifted for the "own" model."""
    pts = [p for p in points if p.queue_depth is None]
    fob = next((p.iops for p in pts if p.fresh), None)
    least = OWN_MIN_REL_SD if noise == "own" else fitmod.MIN_REL_SD
    return uncertainty.bootstrap(pts, xs, fob_iops=fob, min_rel_sd=least)


def side_half(boot: dict, r: levels.Row) -> float:
    """The bootstrap's log half-width on the truth's side of the prediction (≥ 0)."""
    lo, hi = boot[r.figure][r.level]
    b = math.log(max(hi, 1e-9)) if r.truth >= r.pred else -math.log(max(lo, 1e-9))
    return max(b, 0.0)


def case_rows(doc: dict) -> list[dict]:
    points = levels.case_points(doc["command"])
    truth = json.loads((ROOT / doc["truth"]).read_text())
    spreads = truth_spreads(truth, int(doc.get("qd", fitmod.WORKLOAD_QD)))
    form = uncertainty.model_form_for(points, False)
    rule3 = form is not None and form.residual_sd is not None and form.iops_only_sd is None
    unit = math.hypot(form.floor, form.residual_sd) if rule3 else None
    xs = [float(lv["extra_op_percent"]) for lv in doc["levels"]]
    boots = {n: boot_of(noisy_points(points, spreads, n), xs, n) for n in NOISES}
    typed = sorted({p.extra_op_percent for p in points if not p.fresh and p.queue_depth is None})
    fitted_spread = {
        f: [spreads[(x, f)] for x in typed if (x, f) in spreads] for f in ("iops", "waf")
    }
    out = []
    for r in levels.case_rows(doc):
        if r.fitted:
            continue
        own = spreads.get((float(r.level), r.figure), {})
        fs = fitted_spread[r.figure]
        row = {
            "family": r.family, "case": r.case, "level": r.level, "figure": r.figure,
            "inside": r.inside, "log_error": r.log_error, "stored_half": r.half_width,
            "rel_width": r.rel_width, "model_log_half": uncertainty.Z80 * (r.model_sd or 0.0),
            "unit": unit, "residual_sd": form.residual_sd if rule3 else None,
            "truth_sd": own.get("sd"), "truth_se": own.get("se"), "truth_lag1": own.get("lag1"),
            "typed_se": max((s["se"] for s in fs), default=None),
            "typed_sd": max((s["sd"] for s in fs), default=None),
        }  # fmt: skip
        for n in NOISES:
            b = side_half(boots[n], r)
            row[f"boot_{n}"] = b
            row[f"need_{n}"] = (
                conformal_scale.needed_scale(r.log_error, b, unit, uncertainty.Z80)
                if rule3
                else None
            )
        out.append(row)
    return out


def main() -> int:
    c0 = cpu_s()
    rows = []
    for p in sorted(STATUS72.glob("*.json")):
        doc = json.loads(p.read_text())
        doc["_stem"] = p.stem
        if "levels" in doc:
            rows += case_rows(doc)
    got = {"rows": rows, "cpu_s": round(cpu_s() - c0, 1), "source": "status72/cases"}
    (HERE / "rows.json").write_text(json.dumps(got, indent=0) + "\n")
    print(f"{len(rows)} rows; CPU {got['cpu_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
