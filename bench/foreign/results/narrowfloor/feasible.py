"""Feasibility of a rule for the floored scale before any is written (feasible.txt; none was):
narrowmean's estimate (bench/foreign/results/narrowmean/feasible.py's ``estimate``: narrowtwo's
one-reading approximation on status72's 72 plan cases) with each family of the 72 on its
``scale_floor_without_family`` (scale_floor.json), against C1's band, C2's floors and C3's bound
(bench/foreign/results/narrowmean/RULE.md's clauses); a scan of one scale for every family; and,
disclosed only, at ``scale_floor`` on the fresh truths seen so far (narrowsix's five and
narrowmean's four defaults cases) for F4. No calibrate run. ≈ 120 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowfloor/feasible.py > .../feasible.txt
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

# narrowmean's feasible.py puts scorecover and bench on the path and imports what this reads
nm = load_script("narrowmean_feasible", RESULTS / "narrowmean" / "feasible.py")
levels, cpu_s, conformal_scale = nm.levels, nm.cpu_s, nm.conformal_scale
SCAN = (0.33, 0.35, 0.37, 0.38, 0.385, 0.39, 0.40)
SEEN_FRESH = (RESULTS / "narrowsix" / "fresh-defaults", RESULTS / "narrowmean" / "fresh-defaults")


def floor_of(today: dict) -> int | None:
    """C2's floor of a group counted ``today`` (None: under 70% today, not floored)."""
    n = today["n"]
    return math.ceil(nm.FLOOR * n - 1e-9) if today["inside"] / n >= nm.FLOOR else None


def below_floor(t: dict, e: dict) -> list[str]:
    """The groups C2 floors (``t`` today) that the estimate ``e`` puts under their floor."""
    groups = [g for g in t if g not in levels.FIGURES and floor_of(t[g]) is not None]
    return [g for g in groups if e[g]["inside"] < floor_of(t[g])]


def one_scale_meets_c1_c2(one: float, t: dict, n: int, band: tuple[int, int]) -> bool:
    """Every family on scale ``one``: print the estimated 72 and the groups under C2's floor."""
    conformal_scale.SCALE_WITHOUT_FAMILY = dict.fromkeys(conformal_scale.SCALE_WITHOUT_FAMILY, one)
    _, est = nm.estimate(nm.load(RESULTS / "status72" / "cases"))
    e = nm.by_family([replace(r, inside=ins) for r, ins, _ in est])
    low = below_floor(t, e)
    print(f"  {one:.4f}: {e['all']['inside']}/{n}, below: {', '.join(low) or 'none'}")
    return band[0] <= e["all"]["inside"] <= band[1] and not low


def main() -> int:
    c0 = cpu_s()
    scales = json.loads((HERE / "scale_floor.json").read_text())
    at, without = scales["scale_floor"], scales["scale_floor_without_family"]
    print(f"scale_floor {at:.4f}; without each family: {json.dumps(without)}")
    conformal_scale.ON = False  # the stored widths carry the recorded scale: rescale from it
    conformal_scale.SCALE_WITHOUT_FAMILY = dict(without)
    base, est = nm.estimate(nm.load(RESULTS / "status72" / "cases"))
    n, k = len(base), sum(r.inside for r in base)
    w0 = statistics.median(r.rel_width for r in base)
    lo, hi = math.ceil(nm.BAND[0] * n), math.floor(nm.BAND[1] * n)
    print(f"today (status72): {k}/{n} inside, median width {100 * w0:.2f}%; C1 band {lo}..{hi}")
    t, e = nm.by_family(base), nm.by_family([replace(r, inside=ins) for r, ins, _ in est])
    dropped = below_floor(t, e)
    for g in sorted(x for x in t if x not in levels.FIGURES):
        floor = floor_of(t[g])
        tail = "" if floor is None else f", floor {floor}" + ("  BELOW" if g in dropped else "")
        print(f"  {g}: {t[g]['inside']}/{t[g]['n']} -> {e[g]['inside']}/{t[g]['n']}{tail}")
    ka = e["all"]["inside"]
    w = statistics.median(x for _, _, x in est)
    c1 = lo <= ka <= hi
    print(f"estimated pooled: {ka}/{n} ({100 * ka / n:.1f}%), C1 {'holds' if c1 else 'fails'}"
          f" (ceiling {hi})")  # fmt: skip
    print(f"estimated median width {100 * w:.2f}% (C3 {'holds' if w <= 0.8 * w0 else 'fails'})")
    print(f"C2 {'holds' if not dropped else 'fails: ' + ', '.join(dropped)} in the estimate")
    conformal_scale.SCALE_WITHOUT_FAMILY = dict.fromkeys(conformal_scale.SCALE_WITHOUT_FAMILY,
                                                         at)  # fmt: skip
    fi = fn = 0
    for folder in SEEN_FRESH:
        fb, fe = nm.estimate(nm.load(folder))
        fi += sum(ins for _, ins, _ in fe)
        fn += len(fe)
        print(f"seen fresh {folder.parent.name} (disclosed): defaults "
              f"{sum(r.inside for r in fb)}/{len(fb)}, estimated at scale_floor "
              f"{sum(ins for _, ins, _ in fe)}/{len(fe)}")  # fmt: skip
    print(f"F4-like pool if a fresh 24 fared as the seen ones ({fi}/{fn}): the 72's {ka} + "
          f"{24 * fi / fn:.1f} of 24 = {(ka + 24 * fi / fn) / (n + 24) * 100:.1f}% of {n + 24} "
          f"(F4 ceiling {math.floor(0.9 * (n + 24))})")  # fmt: skip
    # disclosed only: one scale for every family, the smallest at which C2's floors hold in the
    # estimate, and the pooled count there (is any scale inside both C1 and C2?)
    print("one scale for all families: scale -> estimated 72 pooled, groups below C2's floor")
    both = [one for one in SCAN if one_scale_meets_c1_c2(one, t, n, (lo, hi))]
    verdict = "yes" if c1 and not dropped else "NO"
    said = [
        f"jointly feasible in the estimate: {verdict} at the candidate's values",
        f"one scale meeting C1 and C2 among those scanned: {', '.join(map(str, both)) or 'none'}",
        f"CPU {cpu_s() - c0:.1f} s",
    ]
    print("; ".join(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
