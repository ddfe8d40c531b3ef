"""What could happen to the arm of bench/foreign/results/narrowtwo/RULE.md, before it is written
(feasible.txt): ``conformal_scale.ON`` (each family on the scale measured without it) with
``steep_pair.HULL_WHERE_AMBIGUOUS``, ``own_erase_residual.ON`` off, on the 72 plan cases of
bench/foreign/results/narrowband/today.py. No calibrate run.

narrowband's joint arm (bench/foreign/results/narrowband/joint-72/) differs from this arm only by
``own_erase_residual.ON``, which changes only an erase-cost reading's form. So a case where no
``+erase`` reading carries weight (in today's case and in narrowband's joint one) is counted as
narrowband's joint arm ran it (exact, up to the mixture's zero-weight readings). A case an
erase-cost reading carries is counted by narrowband's one-reading approximation of the flag alone
(bench/foreign/results/narrowband/measure.py's ``case_needs``: a figure inside iff the scale it
needs is at most the scale given; its width the stored one with the model term rescaled, as
bench/foreign/results/narrowband/feasible.py draws it): steephull's hull on those is not
estimated. Then each family's and family × figure's count against today's, C2's 70% floors, C1's
band and C3's bound. ≈ 15 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowtwo/feasible.py > .../feasible.txt
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
NB = HERE.parent / "narrowband"
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(NB))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import measure  # noqa: E402  (bench/foreign/results/narrowband/measure.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402

FLOOR, BAND, WIDTH_RATIO = 0.70, (0.70, 0.90), 0.8


def erase_carries(doc: dict) -> bool:
    """Whether an erase-cost reading (``+erase``) carries weight in the case."""
    return any("+erase" in k and w > 0 for k, w in doc.get("readings", {}).items())


def approximated(doc: dict) -> list[tuple[levels.Row, bool, float]]:
    """(row, inside, width) of the flag alone by the one-reading approximation."""
    c = conformal_scale.SCALE_WITHOUT_FAMILY[doc["family"]]
    form = uncertainty.model_form_for(levels.case_points(doc["command"]), False)
    needs = {(r.level, r.figure): s for r, s in measure.case_needs(doc)}
    out = []
    for r in levels.case_rows(doc):
        if r.fitted:
            continue
        s = needs.get((r.level, r.figure))
        if s is None:  # not rule 3's term: the flag leaves it
            out.append((r, r.inside, r.rel_width))
            continue
        m = uncertainty.Z80 * (r.model_sd or 0.0)
        h = r.half_width if r.half_width > 0 else 0.0
        h_new = math.sqrt(max(h * h - m * m, 0.0) + (m * c / form.residual_scale) ** 2)
        out.append((r, s <= c, r.rel_width * (h_new / h if h else 1.0)))
    return out


def main() -> int:
    c0 = cpu_s()
    # today's stored widths carry the recorded scale: rescale from it (the flag is on since
    # bench/foreign/results/narrowtwo/verdict.md)
    conformal_scale.ON = False
    docs = today.docs()
    est: list[tuple[levels.Row, bool, float]] = []
    base: list[levels.Row] = []
    erase_cases = []
    for stem, doc in docs.items():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if not mine:
            continue
        base += mine
        p = NB / "joint-72" / f"{stem}.json"
        got = json.loads(p.read_text()) if p.exists() else {}
        got["_stem"] = stem
        if erase_carries(doc) or erase_carries(got) or "levels" not in got:
            erase_cases.append(f"{doc['family']} {stem.split('--')[-1]}")
            est += approximated(doc)
        else:
            est += [(r, r.inside, r.rel_width) for r in levels.case_rows(got) if not r.fitted]
    n, k = len(base), sum(r.inside for r in base)
    w0 = statistics.median(r.rel_width for r in base)
    print(f"today: {k}/{n} ({100 * k / n:.1f}%) inside, median width {100 * w0:.2f}%")
    print(f"C1 band: {math.ceil(BAND[0] * n)}..{math.floor(BAND[1] * n)} of {n}")
    print(f"C3 bound: median width <= {100 * WIDTH_RATIO * w0:.2f}%")
    print(f"cases an erase-cost reading carries (approximated, hull not estimated): "
          f"{len(erase_cases)}: {', '.join(erase_cases)}")  # fmt: skip
    t: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    e: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in base:
        for g in (r.family, f"{r.family} {r.figure}", "all"):
            t[g][0] += r.inside
            t[g][1] += 1
    for r, ins, _ in est:
        for g in (r.family, f"{r.family} {r.figure}", "all"):
            e[g][0] += ins
            e[g][1] += 1
    print("group: today -> estimated arm (C2 floor if >= 70% today)")
    dropped = []
    for g in sorted(t):
        (a, b), (c, d) = t[g], e[g]
        floor = math.ceil(FLOOR * b - 1e-9) if a / b >= FLOOR else None
        flag = ""
        if floor is not None and c < floor:
            flag = "  BELOW FLOOR"
            dropped.append(g)
        print(f"  {g}: {a}/{b} -> {c}/{d} ({100 * c / d:.1f}%)"
              f"{f', floor {floor}' if floor is not None else ''}{flag}")  # fmt: skip
    w = statistics.median(x for _, _, x in est)
    c_all = e["all"][0] / e["all"][1]
    print(f"estimated median width: {100 * w:.2f}% (C3 {'holds' if w <= 0.8 * w0 else 'fails'})")
    c2 = "holds" if not dropped else "fails: " + ", ".join(dropped)
    print(f"C1 {'holds' if BAND[0] <= c_all <= BAND[1] else 'fails'} in the estimate; "
          f"C2 {c2} in the estimate")  # fmt: skip
    print(f"\nCPU s: {cpu_s() - c0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
