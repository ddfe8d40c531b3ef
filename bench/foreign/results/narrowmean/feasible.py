"""What could happen to the arm of bench/foreign/results/narrowmean/RULE.md, before it is written
(feasible.txt): ``conformal_scale.ON`` with the family-averaged scale (scale_mean.json: each
family of the 72 on the value measured without it, ``SCALE_MEAN_WITHOUT_FAMILY``), the hull off,
on the 72 plan cases as status72 ran them (bench/foreign/results/status72/cases/, today's
defaults). No calibrate run.

Each case by bench/foreign/results/narrowtwo/feasible.py's one-reading approximation
(``approximated``: a figure inside iff the scale it needs, narrowband's ``case_needs``, is at most
the scale given; its width the stored one with the model term rescaled), as
bench/foreign/results/narrowsix/feasible.py's "approx" estimate (its "same" and "hull" estimates
read arms run with the hull and narrowband's scale, which do not apply here). Then the counts
against today's, C2's 70% floors, C1's band and C3's bound; and, disclosed only, the same
approximation at ``SCALE_MEAN`` on narrowsix's five fresh truths' defaults cases
(bench/foreign/results/narrowsix/fresh-defaults/, seen) for F2 and F4. ≈ 30 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowmean/feasible.py > .../feasible.txt
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
sys.path.insert(0, str(RESULTS / "scorecover"))
sys.path.insert(0, str(RESULTS.parents[1]))
sys.path.insert(0, str(RESULTS.parent))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale  # noqa: E402

STATUS72 = RESULTS / "status72" / "cases"
SEEN_FRESH = RESULTS / "narrowsix" / "fresh-defaults"
FLOOR, BAND, WIDTH_RATIO = 0.70, (0.70, 0.90), 0.8
approximated = load_script("narrowtwo_feasible", RESULTS / "narrowtwo" / "feasible.py").approximated
by_family = load_script("jointband_judge", RESULTS / "jointband" / "judge.py").by_family


def load(folder: Path) -> dict[str, dict]:
    out = {}
    for p in sorted(folder.glob("*.json")):
        doc = json.loads(p.read_text())
        doc["_stem"] = p.stem
        out[p.stem] = doc
    return out


Estimated = list[tuple[levels.Row, bool, float]]


def estimate(docs: dict[str, dict]) -> tuple[list[levels.Row], Estimated]:
    base, est = [], []
    for doc in docs.values():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if mine:
            base += mine
            est += approximated(doc)
    return base, est


def main() -> int:
    c0 = cpu_s()
    got = json.loads((HERE / "scale_mean.json").read_text())
    conformal_scale.ON = False  # the stored widths carry the recorded scale: rescale from it
    conformal_scale.SCALE_WITHOUT_FAMILY = dict(got["scale_mean_without_family"])
    without = got["scale_mean_without_family"]
    print(f"scale_mean {got['scale_mean']:.4f}; without each family: "
          + ", ".join(f"{f} {s:.4f}" for f, s in without.items()))  # fmt: skip
    base, est = estimate(load(STATUS72))
    n, k = len(base), sum(r.inside for r in base)
    w0 = statistics.median(r.rel_width for r in base)
    print(f"today (status72): {k}/{n} ({100 * k / n:.1f}%) inside, median width {100 * w0:.2f}%")
    print(f"C1 band: {math.ceil(BAND[0] * n)}..{math.floor(BAND[1] * n)} of {n}")
    print(f"C3 bound: median width <= {100 * WIDTH_RATIO * w0:.2f}%")
    t = by_family(base)
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
    print(f"estimated pooled: {e['all']['inside']}/{n} ({100 * c_all:.1f}%), "
          f"C1 {'holds' if BAND[0] <= c_all <= BAND[1] else 'fails'}")  # fmt: skip
    print(f"estimated median width: {100 * w:.2f}% (C3 {'holds' if w <= 0.8 * w0 else 'fails'})")
    print(f"C2 {'holds' if not dropped else 'fails: ' + ', '.join(dropped)} in the estimate")
    # disclosed only: narrowsix's seen fresh truths at the shipped value
    conformal_scale.SCALE_WITHOUT_FAMILY = dict.fromkeys(conformal_scale.SCALE_WITHOUT_FAMILY,
                                                         got["scale_mean"])  # fmt: skip
    fb, fe = estimate(load(SEEN_FRESH))
    fk, fi = sum(r.inside for r in fb), sum(ins for _, ins, _ in fe)
    print(f"seen fresh (narrowsix, disclosed): defaults {fk}/{len(fb)} at median width "
          f"{100 * statistics.median(r.rel_width for r in fb):.2f}%, estimated at scale_mean "
          f"{fi}/{len(fe)} at {100 * statistics.median(x for _, _, x in fe):.2f}%; pooled with "
          f"the 72: {e['all']['inside'] + fi}/{n + len(fe)} "
          f"({100 * (e['all']['inside'] + fi) / (n + len(fe)):.1f}%)")  # fmt: skip
    print(f"CPU {cpu_s() - c0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
