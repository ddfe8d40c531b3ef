"""What could happen, from today's stored counts, before RULE.md is written (feasible.txt).

Today's 72 (bench/foreign/results/narrowband/today.py): each family × figure's unfitted inside
count, its 70% floor (C2) and the figures it may lose above it; the pooled band C1 asks
(70–90% of 426); today's median width and C3's bound. Then, disclosed as seen before the rule,
the one-reading approximation of the flag alone (bench/foreign/results/narrowband/measure.py's
``case_needs``: a figure inside iff the scale it needs is at most the scale given), with the
statistic adopted (each family's 80% quantile, 80% over families: ``conformal_scale.SCALE``)
and the one computed before it (the 80% quantile of all figures' needed scales, each family
weighing 1), each family judged with the scale measured without it. ≈ 15 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowband/feasible.py > .../feasible.txt
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))
import levels  # noqa: E402
import measure  # noqa: E402
import today  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402

FLOOR, BAND = 0.70, (0.70, 0.90)


def pooled_quantile(needed: dict[str, list[float]], leave_out: str | None = None) -> float:
    """The statistic computed first: the 80% quantile of every figure's needed scale, each
    family's figures weighing 1 in all."""
    fams = {f: v for f, v in needed.items() if f != leave_out}
    pts = sorted((s, 1 / (len(fams) * len(v))) for v in fams.values() for s in v)
    acc = 0.0
    for s, w in pts:
        acc += w
        if acc >= conformal_scale.COVERAGE - 1e-12:
            return s
    return pts[-1][0]


def main() -> int:
    c0 = cpu_s()
    docs = today.docs()
    rows = [r for d in docs.values() for r in levels.case_rows(d) if not r.fitted]
    n = len(rows)
    k = sum(r.inside for r in rows)
    width = statistics.median(r.rel_width for r in rows)
    print(f"today: {k}/{n} ({100 * k / n:.1f}%) inside, median width {100 * width:.2f}%")
    lo_n, hi_n = math.ceil(BAND[0] * n), math.floor(BAND[1] * n)
    print(f"C1 band: {lo_n}..{hi_n} of {n}; today must lose at least {k - hi_n} net")
    print(f"C3 bound: median width <= {100 * 0.8 * width:.2f}%")
    groups: dict[str, list] = defaultdict(list)
    for r in rows:
        groups[r.family].append(r)
        groups[f"{r.family} {r.figure}"].append(r)
    losable = 0
    print("group: today inside/n, floor (C2, if >= 70% today), may lose")
    for g in sorted(groups):
        rs = groups[g]
        kin = sum(r.inside for r in rs)
        if kin / len(rs) >= FLOOR:
            floor = math.ceil(FLOOR * len(rs) - 1e-9)
            print(f"  {g}: {kin}/{len(rs)}, floor {floor}, may lose {kin - floor}")
            losable += (kin - floor) if " " not in g else 0
        else:
            print(f"  {g}: {kin}/{len(rs)} (< 70% today: no floor)")
    print(f"families' figures losable above their floors: {losable} (C1 needs >= {k - hi_n} net)")
    print("C1 and C2 are jointly satisfiable; whether they hold together depends on where the")
    print("narrowing takes figures out and on what steephull brings into FEMU (not computed here).")
    needed: dict[str, list[float]] = defaultdict(list)
    parts: list[tuple[levels.Row, float]] = []
    for d in docs.values():
        if "levels" in d:
            for r, s in measure.case_needs(d):
                needed[r.family].append(s)
                parts.append((r, s))
    print("\nSeen before the rule (one-reading approximation, flag alone, no calibrate run):")
    for name, stat in (
        ("adopted: family 80% quantiles, 80% over families", conformal_scale.family_scale),
        ("computed first: 80% of all figures, families weighing 1", pooled_quantile),
    ):
        by = {f: stat(needed, leave_out=f) for f in needed}
        cnt: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        ws = []
        for r, s in parts:
            c = by[r.family]
            for g in (r.family, f"{r.family} {r.figure}", "all"):
                cnt[g][0] += s <= c
                cnt[g][1] += 1
            form = uncertainty.model_form_for(levels.case_points(docs[r.case]["command"]), False)
            ratio = c / form.residual_scale
            m = uncertainty.Z80 * (r.model_sd or 0.0)
            h = r.half_width if r.half_width > 0 else 0.0
            h_new = math.sqrt(max(h * h - m * m, 0.0) + (m * ratio) ** 2)
            ws.append(r.rel_width * (h_new / h if h else 1.0))
        print(f"  {name}: scale {stat(needed):.4f} (without each family: "
              f"{', '.join(f'{f} {v:.3f}' for f, v in sorted(by.items()))})")  # fmt: skip
        for g in sorted(cnt):
            a, b = cnt[g]
            print(f"    {g}: {a}/{b} ({100 * a / b:.1f}%)")
        print(
            f"    median width (stored width with the model term rescaled): "
            f"{100 * statistics.median(ws):.2f}%"
        )
    print(f"\nCPU s: {cpu_s() - c0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
