"""Measure ``conformal_scale.SCALE_FLOOR`` (python/overprov/calibrate/conformal_scale.py): the
smallest scale at which the needed scales' coverage averaged over the FTL families reaches 80%
AND no group C2 of bench/foreign/results/narrowmean/RULE.md floors (a family, or a family's IOPS
or WAF figures, at >= 70% today on status72's stored cases) falls under 70%
(``conformal_scale.floored_mean_scale``), and the same leaving each family out.

The needed scales are narrowmean's (bench/foreign/results/narrowband/measure.py's ``case_needs``
on bench/foreign/results/narrowband/today.py's 72 plan cases, checked against
narrowmean/scale_mean.json's ``needed_by_family``), split here by figure. The floored groups
are read from status72's cases (bench/foreign/results/status72/cases/) as C2 reads them
(bench/foreign/results/jointband/judge.py's ``by_family``). No calibrate run; writes
scale_floor.json. ≈ 30 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowfloor/measure_floor.py
"""

from __future__ import annotations

import datetime
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

# narrowmean's scripts put scorecover, narrowband and bench on the path and import what this reads
mean = load_script("narrowmean_measure_mean", RESULTS / "narrowmean" / "measure_mean.py")
feasible = load_script("narrowmean_feasible", RESULTS / "narrowmean" / "feasible.py")
measure, today, cpu_s, conformal_scale = mean.measure, mean.today, mean.cpu_s, mean.conformal_scale
levels, by_family = feasible.levels, feasible.by_family
FLOOR = conformal_scale.FLOOR


def needs_by_group(docs: dict[str, dict]) -> dict[str, list[float]]:
    """group ("Family" or "Family iops"/"Family waf") → needed scales of its unfitted figures."""
    pairs = [rs for doc in docs.values() if "levels" in doc for rs in measure.case_needs(doc)]
    out: dict[str, list[float]] = defaultdict(list)
    for r, s in pairs:
        for group in (r.family, f"{r.family} {r.figure}"):
            out[group].append(s)
    return dict(out)


def main() -> int:
    c0 = cpu_s()
    conformal_scale.ON = False  # the stored cases carry the recorded scale
    groups = needs_by_group(today.docs())
    fams = sorted(g for g in groups if " " not in g)
    needed = {f: groups[f] for f in fams}
    stored = json.loads((RESULTS / "narrowmean" / "scale_mean.json").read_text())
    if {f: sorted(v) for f, v in needed.items()} != stored["needed_by_family"]:
        raise SystemExit("recomputed needed scales differ from narrowmean's scale_mean.json")
    base, _ = feasible.estimate(feasible.load(RESULTS / "status72" / "cases"))
    t = by_family(base)
    c2 = sorted(g for g in t if g != "all" and g not in levels.FIGURES
                and t[g]["inside"] / t[g]["n"] >= FLOOR)  # fmt: skip
    floored = [(g.split(" ")[0], groups[g]) for g in c2 if g in groups]
    s = conformal_scale.floored_mean_scale(needed, floored)
    got = {
        "scale_floor": s,
        "scale_floor_without_family": {
            f: conformal_scale.floored_mean_scale(needed, floored, leave_out=f) for f in fams
        },
        "scale_mean": conformal_scale.family_mean_scale(needed),
        "floor_quantile_by_group": {
            g: conformal_scale.quantile(groups[g], FLOOR) for g in c2 if g in groups
        },
        "floored_groups_c2": c2,
        "family_mean_coverage_at_scale_floor": conformal_scale.family_mean_coverage(needed, s),
        "coverage_by_group_at_scale_floor": {
            g: sum(x <= s for x in v) / len(v) for g, v in sorted(groups.items())
        },
        "figures_by_group": {g: len(v) for g, v in sorted(groups.items())},
        "needed_by_group": {g: sorted(v) for g, v in sorted(groups.items())},
        "coverage": conformal_scale.COVERAGE,
        "floor": FLOOR,
        "source": "bench/foreign/results/narrowfloor/measure_floor.py",
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    got["cpu_s"] = round(cpu_s() - c0, 1)
    out = HERE / "scale_floor.json"
    out.write_text(json.dumps(got, indent=1) + "\n")
    for key in ("scale_floor", "scale_floor_without_family", "floor_quantile_by_group", "cpu_s"):
        print(key, got[key])
    return 0


if __name__ == "__main__":
    sys.exit(main())
