"""Feasibility of a rule for a scale per figure kind before any is written: narrowfloor's
feasible.py approach (narrowmean's ``estimate``: narrowtwo's one-reading approximation on
status72's 72 plan cases) with each family's IOPS figures on the IOPS scale measured without it
and its WAF figures on the WAF scale measured without it (scale_kind.json), against C1's band,
C2's floors and C3's bound (bench/foreign/results/narrowmean/RULE.md's clauses); the same with
every family on the full-data scales (disclosed); and, disclosed only, at the full-data scales
on the fresh truths seen so far (narrowsix's five, narrowmean's four defaults cases) for F4.
No calibrate run. ≈ 250 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowkind/feasible.py > .../feasible.txt
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
sys.path.insert(0, str(RESULTS.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

nf = load_script("narrowfloor_feasible", RESULTS / "narrowfloor" / "feasible.py")
nm, levels, cpu_s, conformal_scale = nf.nm, nf.levels, nf.cpu_s, nf.conformal_scale
SEEN_FRESH = nf.SEEN_FRESH


def estimate_by_kind(docs: dict[str, dict], by_kind: dict[str, dict[str, float]]):
    """narrowmean's ``estimate`` with each figure on its kind's scale for its family
    (``by_kind``: kind → family → scale): the approximation once per kind, its rows kept."""
    base, est = [], []
    for doc in docs.values():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if not mine:
            continue
        base += mine
        for kind, per_family in by_kind.items():
            conformal_scale.SCALE_WITHOUT_FAMILY = dict(per_family)
            est += [x for x in nm.approximated(doc) if x[0].figure == kind]
    return base, est


def report(name: str, base, est, t: dict, n: int, band: tuple[int, int], w0: float) -> bool:
    e = nm.by_family([replace(r, inside=ins) for r, ins, _ in est])
    low = nf.below_floor(t, e)
    ka = e["all"]["inside"]
    w = statistics.median(x for _, _, x in est)
    c1, c3 = band[0] <= ka <= band[1], w <= 0.8 * w0
    c2 = "fails: " + ", ".join(low) if low else "holds"
    print(f"{name}:")
    for g in sorted(x for x in t if x not in levels.FIGURES):
        floor = nf.floor_of(t[g])
        tail = "" if floor is None else f", floor {floor}" + ("  BELOW" if g in low else "")
        print(f"  {g}: {t[g]['inside']}/{t[g]['n']} -> {e[g]['inside']}/{t[g]['n']}{tail}")
    print(f"  estimated pooled {ka}/{n} ({100 * ka / n:.1f}%), C1 {'holds' if c1 else 'fails'}"
          f" (band {band[0]}..{band[1]}); median width {100 * w:.2f}% (C3 "
          f"{'holds' if c3 else 'fails'}); C2 {c2}")  # fmt: skip
    return c1 and c3 and not low


def main() -> int:
    c0 = cpu_s()
    got = json.loads((HERE / "scale_kind.json").read_text())
    kinds = levels.FIGURES
    fams = sorted(got["iops"]["scale_without_family"])
    lofo = {k: got[k]["scale_without_family"] for k in kinds}
    full = {k: dict.fromkeys(fams, got[k]["scale"]) for k in kinds}
    print("scales: " + "; ".join(f"{k} {got[k]['scale']:.4f}, without each family "
                                 f"{json.dumps({f: round(v, 4) for f, v in lofo[k].items()})}"
                                 for k in kinds))  # fmt: skip
    conformal_scale.ON = False  # the stored widths carry the recorded scale: rescale from it
    docs = nm.load(RESULTS / "status72" / "cases")
    base, est = estimate_by_kind(docs, lofo)
    n, k = len(base), sum(r.inside for r in base)
    w0 = statistics.median(r.rel_width for r in base)
    band = (math.ceil(nm.BAND[0] * n), math.floor(nm.BAND[1] * n))
    print(f"today (status72): {k}/{n} inside, median width {100 * w0:.2f}%")
    t = nm.by_family(base)
    ok = report("each family on its left-out values (as the arm would run)", base, est, t, n,
                band, w0)  # fmt: skip
    _, est_full = estimate_by_kind(docs, full)
    ok_full = report("every family on the full-data values (disclosed)", base, est_full, t, n,
                     band, w0)  # fmt: skip
    for folder in SEEN_FRESH:
        fb, fe = estimate_by_kind(nm.load(folder), full)
        print(f"seen fresh {folder.parent.name} (disclosed): defaults "
              f"{sum(r.inside for r in fb)}/{len(fb)}, estimated at the full-data values "
              f"{sum(ins for _, ins, _ in fe)}/{len(fe)}")  # fmt: skip
    said = (f"jointly feasible in the estimate: {'yes' if ok else 'NO'} on the left-out values"
            f" (the arm's); {'yes' if ok_full else 'no'} on the full-data values")  # fmt: skip
    print(f"{said}; CPU {cpu_s() - c0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
