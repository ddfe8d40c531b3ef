"""What could happen to the arm of bench/foreign/results/narrowsix/RULE.md, before it is written
(feasible.txt): ``conformal_scale.ON`` (each family on the scale measured without it) with
``steep_pair.HULL_WHERE_AMBIGUOUS`` as redefined for femucarry's six reserve flags (on), on the
72 plan cases as status72 ran them (bench/foreign/results/status72/cases/, today's defaults). No
calibrate run.

Per case, three estimates, in this order:
- **same**: the status72 case equals narrowband's today (six off,
  bench/foreign/results/narrowband/today.py) on every centre and interval (1e-9 relative): the
  six and the median centre did not act on it, so the arm is narrowtwo's arm with the six off
  (bench/foreign/results/narrowtwo/arm-72/, run for real), taken as it is;
- **hull**: the hull acts (``reserve_hull.spanned_beside`` keeps a plain reading beside the
  reserve ones on the case's figures): a figure counts inside if the one-reading approximation
  of the scale on the status72 case holds it or narrowtwo's arm-72 interval does (that arm
  spanned the plain and reserve readings as one class; an upper estimate), the width the
  larger of the two;
- **approx**: otherwise the one-reading approximation of the scale on the status72 case
  (bench/foreign/results/narrowtwo/feasible.py's ``approximated``).
Then the counts against today's (status72), C2's 70% floors, C1's band and C3's bound; and the
scale re-measured on the status72 cases (narrowband's measure.py statistic), to say whether
FEMU's rows moved it. ≈ 20 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowsix/feasible.py > .../feasible.txt
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS / "scorecover"))
sys.path.insert(0, str(RESULTS.parents[1]))
sys.path.insert(0, str(RESULTS.parent))
sys.path.insert(0, str(RESULTS / "narrowband"))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import measure  # noqa: E402  (bench/foreign/results/narrowband/measure.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import (  # noqa: E402
    conformal_scale,
    reserve_hull,
    spare_readings,
    steep_pair,
    uncertainty,
)
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402

STATUS72 = RESULTS / "status72" / "cases"
ARM_SIX_OFF = RESULTS / "narrowtwo" / "arm-72"
FLOOR, BAND, WIDTH_RATIO = 0.70, (0.70, 0.90), 0.8
#: bench/foreign/results/narrowtwo/feasible.py's one-reading approximation of the scale alone
approximated = load_script("narrowtwo_feasible", RESULTS / "narrowtwo" / "feasible.py").approximated
by_family = load_script("jointband_judge", RESULTS / "jointband" / "judge.py").by_family


def status_docs() -> dict[str, dict]:
    out = {}
    for p in sorted(STATUS72.glob("*.json")):
        doc = json.loads(p.read_text())
        doc["_stem"] = p.stem
        out[p.stem] = doc
    return out


def same_levels(a: dict, b: dict) -> bool:
    """Every centre and interval of ``a`` equal to ``b``'s within 1e-9 relative."""
    keys = ("iops_pred", "iops_low", "iops_high", "waf_pred", "waf_low", "waf_high")
    la, lb = a.get("levels"), b.get("levels")
    if not la or not lb or len(la) != len(lb):
        return False
    for x, y in zip(la, lb, strict=True):
        for k in keys:
            u, v = x.get(k), y.get(k)
            if (u is None) != (v is None):
                return False
            if u is not None and abs(u - v) > 1e-9 * max(abs(u), abs(v), 1e-300):
                return False
    return True


def hull_acts(doc: dict) -> bool:
    """Whether the redefined hull keeps a plain reading beside the reserve ones on the case's
    typed figures (``spare_readings.weigh``, the surrogate's fits: milliseconds)."""
    points = levels.case_points(doc["command"])
    fig = predmod.PredictionInput(
        list(points), [0.0, 10.0, 20.0, 30.0, 40.0], typed=True,
        model_form=uncertainty.model_form_for(points, False),
    )  # fmt: skip
    try:
        evidences, _ = spare_readings.weigh(fig)
    except ConfigError:  # a case the weighing refuses: the hull cannot act
        return False
    return any(reserve_hull.spans_only(e) for e in evidences.values())


def estimate(
    stem: str, doc: dict, old: dict[str, dict]
) -> tuple[str, list[tuple[levels.Row, bool, float]]]:
    """How the arm is estimated on the status72 case ``doc`` ("same", "hull" or "approx": the
    module doc) and (row, inside, width) for each unfitted figure; ``old`` narrowband's today."""
    arm_p = ARM_SIX_OFF / f"{stem}.json"
    arm = json.loads(arm_p.read_text()) if arm_p.exists() else {}
    arm["_stem"] = stem
    if stem in old and same_levels(doc, old[stem]) and "levels" in arm:
        return "same", [(r, r.inside, r.rel_width) for r in levels.case_rows(arm) if not r.fitted]
    if "levels" in arm and hull_acts(doc):
        six_off = {(r.level, r.figure): r for r in levels.case_rows(arm)}
        out = []
        for r, ins, w in approximated(doc):
            o = six_off.get((r.level, r.figure))
            in_o = o is not None and o.low <= r.truth <= o.high
            w_o = (o.high - o.low) / r.pred if o is not None else 0.0
            out.append((r, ins or in_o, max(w, w_o)))
        return "hull", out
    return "approx", approximated(doc)


def main() -> int:
    c0 = cpu_s()
    conformal_scale.ON = False  # the stored widths carry the recorded scale: rescale from it
    steep_pair.HULL_WHERE_AMBIGUOUS = True
    docs = status_docs()
    old = today.docs()
    base: list[levels.Row] = []
    est: list[tuple[levels.Row, bool, float]] = []
    how: dict[str, list[str]] = defaultdict(list)
    for stem, doc in docs.items():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if not mine:
            continue
        base += mine
        h, got = estimate(stem, doc, old)
        how[h].append(f"{doc['family']} {stem.split('--')[-1]}")
        est += got
    n, k = len(base), sum(r.inside for r in base)
    w0 = statistics.median(r.rel_width for r in base)
    print(f"today (status72): {k}/{n} ({100 * k / n:.1f}%) inside, median width {100 * w0:.2f}%")
    print(f"C1 band: {math.ceil(BAND[0] * n)}..{math.floor(BAND[1] * n)} of {n}")
    print(f"C3 bound: median width <= {100 * WIDTH_RATIO * w0:.2f}%")
    for h in ("same", "hull", "approx"):
        print(f"{h}: {len(how[h])} cases: {', '.join(how[h])}")
    t = by_family(base)  # jointband's counting (bench/foreign/results/jointband/judge.py)
    e = by_family([replace(r, inside=ins) for r, ins, _ in est])
    print("group: today -> estimated arm (C2 floor if >= 70% today)")
    dropped = []
    for g in sorted(k for k in t if k not in levels.FIGURES):
        (a, b), (c, d) = (t[g]["inside"], t[g]["n"]), (e[g]["inside"], e[g]["n"])
        floor = math.ceil(FLOOR * b - 1e-9) if a / b >= FLOOR else None
        below = floor is not None and c < floor
        dropped += [g] if below else []
        at = f", floor {floor}" if floor is not None else ""
        at += "  BELOW FLOOR" if below else ""
        print(f"  {g}: {a}/{b} -> {c}/{d} ({100 * c / d:.1f}%){at}")
    w = statistics.median(x for _, _, x in est)
    c_all = e["all"]["coverage"]
    print(f"estimated median width: {100 * w:.2f}% (C3 {'holds' if w <= 0.8 * w0 else 'fails'})")
    c2 = "holds" if not dropped else "fails: " + ", ".join(dropped)
    print(f"C1 {'holds' if BAND[0] <= c_all <= BAND[1] else 'fails'} in the estimate; "
          f"C2 {c2} in the estimate")  # fmt: skip
    # the scale re-measured on the status72 cases: does FEMU move it?
    needed: dict[str, list[float]] = defaultdict(list)
    for doc in docs.values():
        if "levels" in doc:
            for r, s in measure.case_needs(doc):
                needed[r.family].append(s)
    q = {f: round(conformal_scale.quantile(v, 0.8), 4) for f, v in sorted(needed.items())}
    print(f"\nscale on the status72 cases: {conformal_scale.family_scale(needed):.4f} "
          f"(narrowband's {conformal_scale.SCALE}); family 80% quantiles: {q}")  # fmt: skip
    wo = {f: round(conformal_scale.family_scale(needed, leave_out=f), 4) for f in sorted(needed)}
    print(f"without each family: {wo}")
    print(f"\nCPU s: {cpu_s() - c0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
