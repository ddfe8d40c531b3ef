"""Measure ``conformal_scale.SCALE`` (python/overprov/calibrate/conformal_scale.py) on today's 72
plan cases (bench/foreign/results/narrowband/today.py), before any joint arm is run.

For every unfitted figure (10/20/30%, QD32 IOPS and WAF) of an answered case whose model-form
term is rule 3's (``uncertainty.model_form_for`` sets it by the fit's residual R): the bootstrap
of the case's typed figures (``uncertainty.bootstrap``, 100 greedy refits, the greedy curve
standing in for each reading's own, as bench/foreign/results/scorenarrow/widths.py draws it),
its log half-width b on the truth's side, the unit sd hypot(floor, R), and the scale the truth
needs (``conformal_scale.needed_scale``). The scale: the 80% quantile over the families of each
family's 80% quantile (``conformal_scale.family_scale``), and the same leaving each family
out. Writes scale.json. ≈ 15 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowband/measure.py
"""

from __future__ import annotations

import datetime
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402


def case_needs(doc: dict) -> list[tuple[levels.Row, float]]:
    """(row, needed scale) for each unfitted figure of ``doc`` whose term is rule 3's."""
    points = levels.case_points(doc["command"])
    form = uncertainty.model_form_for(points, False)
    if form is None or form.residual_sd is None or form.iops_only_sd is not None:
        return []
    unit = math.hypot(form.floor, form.residual_sd)
    pts = [p for p in points if p.queue_depth is None]
    fob = next((p.iops for p in pts if p.fresh), None)
    xs = [float(lv["extra_op_percent"]) for lv in doc["levels"]]
    boot = uncertainty.bootstrap(pts, xs, fob_iops=fob)
    out = []
    for r in levels.case_rows(doc):
        if r.fitted:
            continue
        lo, hi = boot[r.figure][r.level]
        b = math.log(max(hi, 1e-9)) if r.truth >= r.pred else -math.log(max(lo, 1e-9))
        need = conformal_scale.needed_scale(r.log_error, max(b, 0.0), unit, uncertainty.Z80)
        out.append((r, need))
    return out


def main() -> int:
    c0 = cpu_s()
    needed: dict[str, list[float]] = defaultdict(list)
    n_rows = 0
    for doc in today.docs().values():
        if "levels" not in doc:
            continue
        for r, s in case_needs(doc):
            needed[r.family].append(s)
            n_rows += 1
    fams = sorted(needed)
    got = {
        "scale": conformal_scale.family_scale(needed),
        "scale_without_family": {
            f: conformal_scale.family_scale(needed, leave_out=f) for f in fams
        },
        "coverage": conformal_scale.COVERAGE,
        "figures": n_rows,
        "figures_by_family": {f: len(needed[f]) for f in fams},
        "family_quantile": {f: conformal_scale.quantile(needed[f], 0.8) for f in fams},
        "recorded_scale": uncertainty.recorded()["fit_residual"]["scale"],
        "source": "bench/foreign/results/narrowband/measure.py on the 72 plan cases of "
        "bench/foreign/results/narrowband/today.py",
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    got["cpu_s"] = round(cpu_s() - c0, 1)
    (HERE / "scale.json").write_text(json.dumps(got, indent=1) + "\n")
    print(json.dumps(got, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
