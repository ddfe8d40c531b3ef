"""SSD-iq's GC simulator's uniform truths as held-out cases with their readings' parts, for
``bench/intervals/width_terms.py`` and ``bench/conditioned_intervals.py``.

The stored evaluation (``bench/foreign/results/ssdiq-sim/evaluation.json``, made by
``bench/foreign/evaluate.py`` through calibrate's command line) keeps each level's combined
80% interval, not each reading's figure, noise interval, weight and distance, which an interval
rule needs to be rebuilt. This predicts the same cases the same way — the WAF figures typed
(``--waf-points``: 3 decimals, relative sd ``cli.USER_POINT_REL_SD``), fitted on WAF at 0% and
40% or at 0% alone, the raw NAND given or not — through ``spare_readings.read_all`` without a
model-form error (as ``bench/corpus_bench.py`` does), and writes each held-out level as a case
in ``bench/corpus_bench.py``'s JSON-lines form, with the fit's residual sd
(``uncertainty.fit_residual_sd``) beside it. No foreign simulator is run: the truths are the
stored results files.

    PYTHONPATH=python python bench/intervals/ssdiq_sim_cases.py --out CASES.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

from overprov.calibrate import cli, spare_readings, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "foreign" / "results" / "ssdiq-sim"
DRIVES = ("greedy", "2r-greedy", "2r-fifo")  # the uniform truths; the skewed ones take ~200 s each
LEVELS = (0, 10, 20, 30, 40)
FITS = {"WAF 0+40": (0, 40), "WAF 0 only": (0,)}
FAMILY = "SSD-iq GC simulator"


def cases_of(stem: str, fit_name: str, raw: bool, folder: Path) -> list[dict]:
    doc = json.loads((RESULTS / f"{stem}.json").read_text())
    waf = {int(lv["extra_op_percent"]): float(lv["steady_waf"]) for lv in doc["levels"]}
    fitted_at = FITS[fit_name]
    typed = {x: round(waf[x], 3) for x in fitted_at}  # as --waf-points carries them
    points = [
        fitmod.Point(float(x), None, cli.USER_POINT_REL_SD, v, cli.USER_POINT_REL_SD)
        for x, v in typed.items()
    ]
    raw_op = doc["physical_bytes"] / doc["advertised_bytes"] - 1 if raw else None
    held = [x for x in LEVELS if x not in fitted_at]
    t0 = time.process_time()
    fig = predmod.PredictionInput(
        points, [float(x) for x in held], typed=True, raw_native_op=raw_op,
        source=stem, model_form=uncertainty.NO_MODEL_FORM, jobs=1,
    )  # fmt: skip
    pred = spare_readings.read_all(fig, None).document(folder / f"{stem}-{fit_name}-{raw}")
    cpu = time.process_time() - t0
    residual = uncertainty.fit_residual_sd(points)
    out = []
    for i, x in enumerate(held):
        got = pred["levels"][i]["waf"]
        parts = []
        for name, r in (pred.get("readings") or {"only": {**pred, "weight": 1.0}}).items():
            row = r["levels"][i]
            fit = r["fit"]
            parts.append({
                "reading": name, "value": row["waf"], "low": row["waf_low"],
                "high": row["waf_high"], "weight": r.get("weight", 1.0),
                "distance": uncertainty.spare_distance(
                    float(x), [float(f) for f in fitted_at], fit["surrogate"]["native_op"],
                    fit.get("spare_efficiency", 1.0)),
            })  # fmt: skip
        out.append({
            "drive": f"ssdiq-sim-{stem}", "name": doc["drive"], "foreign": True,
            "waf_only": True, "family": FAMILY, "workload": "uniform", "fit": fit_name,
            "fitted": [{"kind": "waf", "extra_op_percent": x, "value": v}
                       for x, v in typed.items()],
            "raw_nand_given": raw,
            "held_out": {"kind": "waf", "extra_op_percent": x, "value": waf[x],
                         "rel_sd": cli.USER_POINT_REL_SD},
            "predicted": got, "log_error": math.log(got / waf[x]),
            "rel_error": got / waf[x] - 1.0, "parts": parts, "residual_sd": residual,
            "cpu_s": cpu,
        })  # fmt: skip
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="the cases, JSON lines")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for stem in DRIVES:
            for fit_name in FITS:
                for raw in (False, True):
                    got = cases_of(stem, fit_name, raw, Path(tmp))
                    rows += got
                    print(
                        f"{stem} {fit_name} raw={raw}: "
                        + ", ".join(
                            f"{c['held_out']['extra_op_percent']}% {100 * c['rel_error']:+.1f}%"
                            for c in got
                        )
                        + f" ({got[0]['cpu_s']:.0f} CPU s)",
                        file=sys.stderr,
                        flush=True,
                    )
    args.out.write_text("".join(json.dumps(c) + "\n" for c in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
