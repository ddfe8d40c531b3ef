"""Is one change of the bootstrap's noise model, or of rule 3's unit, feasible on the 72
(feasible.txt)? From diagnose.py's rows.json, no calibrate run, by the one-reading
approximation bench/foreign/results/narrowband/measure.py and
bench/foreign/results/narrowfloor/feasible.py use (a figure inside iff its truth lies within
sqrt(b² + (Z80 · s · unit)²) of the prediction, b the bootstrap's log half-width on the truth's
side, unit = hypot(floor, R); checked below against the stored cases at today's noise and
scale). The clauses, as bench/foreign/results/narrowmean/RULE.md's: C1 the 72's unfitted
figures pooled inside 303..388 of 432 (70–90%); C2 every family, and each family's IOPS and WAF
figures, at >= 70% today (status72) stays >= 70%.

A. each noise model alone, rule 3's recorded scale kept (0.82);
B. each noise model with one scale for every figure, scanned 0.01..1.50;
C. each noise model with rule 3's floor (0.02) changed, scanned with the scale;
D. (disclosed; two changes) each noise model with the IOPS figures' scale kept at 0.82 and the
   WAF figures' scanned; and the WAF scale conformal_scale.py's three rules measure on the 72,
   with each family left out.

≈ 3 CPU s.

    PYTHONPATH=python python bench/foreign/results/bootwidth/feasible.py > .../feasible.txt
"""

from __future__ import annotations

import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import diagnose  # noqa: E402  (bench/foreign/results/bootwidth/diagnose.py)
import table  # noqa: E402  (bench/foreign/results/bootwidth/table.py)
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402

RECORDED = uncertainty.recorded()["fit_residual"]["scale"]
FLOOR, BAND = 0.70, (0.70, 0.90)
SCALES = [k / 100 for k in range(1, 151)]
UNIT_FLOORS = (0.0, 0.005, 0.01, 0.02, 0.04)


def group_names(r: dict) -> tuple[str, ...]:
    return (r["family"], f"{r['family']} {r['figure']}", "all")


def inside(r: dict, noise: str, s: float, unit_floor: float = uncertainty.AT_FITTED_REL_SD):
    b = r[f"boot_{noise}"]
    m = uncertainty.Z80 * s * math.hypot(unit_floor, r["residual_sd"])
    return abs(r["log_error"]) <= math.sqrt(b * b + m * m)


class Clauses:
    def __init__(self, rows: list[dict]):
        today, self.n = Counter(), Counter()
        for r in rows:
            for g in group_names(r):
                today[g] += r["inside"]
                self.n[g] += 1
        self.today = today
        self.floors = {
            g: math.ceil(FLOOR * self.n[g] - 1e-9)
            for g in self.n
            if g != "all" and today[g] / self.n[g] >= FLOOR
        }
        self.band = (math.ceil(BAND[0] * self.n["all"]), math.floor(BAND[1] * self.n["all"]))

    def judge(self, flags: list[tuple[dict, bool]]) -> tuple[int, list[str]]:
        got = Counter()
        for r, ins in flags:
            for g in group_names(r):
                got[g] += ins
        below = [f"{g} {got[g]}/{self.n[g]}" for g, f in sorted(self.floors.items()) if got[g] < f]
        return got["all"], below

    def meets(self, pooled: int, below: list[str]) -> bool:
        return self.band[0] <= pooled <= self.band[1] and not below


def scan(
    rows: list[dict], cl: Clauses, noise: str, unit_floor: float
) -> tuple[tuple[float, int] | None, list[float]]:
    """One scale for every figure over SCALES: the smallest at which C2 holds (with the pooled
    count there) and every scale meeting C1 and C2."""
    ok, first_c2 = [], None
    for s in SCALES:
        pooled, below = cl.judge([(r, inside(r, noise, s, unit_floor)) for r in rows])
        if not below and first_c2 is None:
            first_c2 = (s, pooled)
        if cl.meets(pooled, below):
            ok.append(s)
    return first_c2, ok


def waf_scales(rows: list[dict], noise: str, cl: Clauses) -> None:
    """D's second part: the WAF scale each of conformal_scale's rules measures, left out."""
    needed: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["figure"] == "waf":
            needed[r["family"]].append(r[f"need_{noise}"])
    floored = [(f, v) for f, v in needed.items() if f"{f} waf" in cl.floors]
    rules = {
        "family_scale": lambda out: conformal_scale.family_scale(needed, leave_out=out),
        "family_mean_scale": lambda out: conformal_scale.family_mean_scale(needed, leave_out=out),
        "floored_mean_scale": lambda out: conformal_scale.floored_mean_scale(
            needed, floored, leave_out=out
        ),
    }
    for name, rule in rules.items():
        flags = []
        for r in rows:
            s = RECORDED if r["figure"] == "iops" else rule(r["family"])
            flags.append((r, r[f"need_{noise}"] <= s))
        pooled, below = cl.judge(flags)
        print(f"    {name}: on all 72 {rule(None):.3f}; each family left out: "
              + ", ".join(f"{f} {rule(f):.3f}" for f in sorted(needed))
              + f" -> the arm {pooled}/{cl.n['all']}, below: {', '.join(below) or 'none'}"
              + (" MEETS C1 and C2" if cl.meets(pooled, below) else ""))  # fmt: skip


def main() -> int:
    c0 = diagnose.cpu_s()
    rows = table.load_rows()
    cl = Clauses(rows)
    print(f"today (status72/cases, stored): {cl.today['all']}/{cl.n['all']} inside; C1 band "
          f"{cl.band[0]}..{cl.band[1]}; C2 floors on {len(cl.floors)} groups")  # fmt: skip
    agree = sum(inside(r, "typed", RECORDED) == r["inside"] for r in rows)
    print(f"approximation check (typed noise, scale {RECORDED:.2f}): agrees with the stored "
          f"inside/outside on {agree} of {len(rows)} figures")  # fmt: skip
    print(f"\nA. noise model alone, scale {RECORDED:.2f} (recorded):")
    for noise in diagnose.NOISES:
        pooled, below = cl.judge([(r, inside(r, noise, RECORDED)) for r in rows])
        print(f"  {noise}: {pooled}/{cl.n['all']}, below: {', '.join(below) or 'none'}")
    model_alone = sum(abs(r["log_error"]) <= r["model_log_half"] for r in rows)
    print(f"  no bootstrap at all (the model term alone): {model_alone}/{cl.n['all']}")
    print("\nB. noise model and one scale for every figure:")
    for noise in diagnose.NOISES:
        first_c2, ok = scan(rows, cl, noise, uncertainty.AT_FITTED_REL_SD)
        print(f"  {noise}: smallest scale with C2 holding {first_c2}; scales meeting C1 and "
              f"C2: {ok or 'none'}")  # fmt: skip
    print("\nC. noise model, rule 3's floor and one scale:")
    for noise in diagnose.NOISES:
        for f in UNIT_FLOORS:
            first_c2, ok = scan(rows, cl, noise, f)
            print(f"  {noise}, floor {f}: smallest scale with C2 holding {first_c2}; meeting "
                  f"C1 and C2: {ok or 'none'}")  # fmt: skip
    print(f"\nD. (disclosed; two changes) IOPS at {RECORDED:.2f}, WAF's scale scanned:")
    for noise in diagnose.NOISES:
        ok = []
        for s in SCALES:
            flags = [(r, inside(r, noise, RECORDED if r["figure"] == "iops" else s)) for r in rows]
            pooled, below = cl.judge(flags)
            if cl.meets(pooled, below):
                ok.append(f"{s}:{pooled}")
        print(f"  {noise}: WAF scales meeting C1 and C2 (scale:pooled): {ok or 'none'}")
        waf_scales(rows, noise, cl)
    print(f"\nCPU {diagnose.cpu_s() - c0:.1f} s (bench/cpu_clock.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
