"""Measure ``conformal_scale.SCALE_BY_KIND`` (python/overprov/calibrate/conformal_scale.py): per
figure kind (IOPS, WAF), narrowfloor's floored family-averaged scale
(``conformal_scale.floored_mean_scale``) on that kind's needed scales alone: the smallest scale
at which that kind's coverage averaged over the FTL families reaches 80% AND every group of that
kind C2 of bench/foreign/results/narrowmean/RULE.md floors (a family's IOPS or WAF figures at
>= 70% today) holds >= 70%; and the same leaving each family out.

The needed scales by group and the floored groups are narrowfloor's, read from
bench/foreign/results/narrowfloor/scale_floor.json (``needed_by_group``, ``floored_groups_c2``;
measured there by measure_floor.py). No calibrate run; writes scale_kind.json. < 1 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowkind/measure_kind.py
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS.parent.parent))
from cpu_clock import cpu_s  # noqa: E402  (bench/cpu_clock.py)
from overprov.calibrate import conformal_scale  # noqa: E402

KINDS = ("iops", "waf")


def kind_scales(stored: dict, kind: str) -> dict:
    """The floored family-averaged scale of ``kind``'s figures, with and without each family."""
    groups, c2 = stored["needed_by_group"], stored["floored_groups_c2"]
    fams = sorted(g for g in groups if " " not in g)
    needed = {f: groups[f"{f} {kind}"] for f in fams if f"{f} {kind}" in groups}
    floored = [(g.split(" ")[0], groups[g]) for g in c2 if g.endswith(f" {kind}")]
    s = conformal_scale.floored_mean_scale(needed, floored)
    return {
        "scale": s,
        "scale_without_family": {
            f: conformal_scale.floored_mean_scale(needed, floored, leave_out=f) for f in fams
        },
        "family_mean_scale": conformal_scale.family_mean_scale(needed),
        "family_mean_scale_without_family": {
            f: conformal_scale.family_mean_scale(needed, leave_out=f) for f in fams
        },
        "floored_groups": [g for g in c2 if g.endswith(f" {kind}")],
        "family_mean_coverage_at_scale": conformal_scale.family_mean_coverage(needed, s),
    }


def main() -> int:
    c0 = cpu_s()
    src = RESULTS / "narrowfloor" / "scale_floor.json"
    stored = json.loads(src.read_text())
    got = {k: kind_scales(stored, k) for k in KINDS}
    got["source"] = "bench/foreign/results/narrowkind/measure_kind.py"
    got["needed_from"] = "bench/foreign/results/narrowfloor/scale_floor.json"
    got["made"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    got["cpu_s"] = round(cpu_s() - c0, 2)
    (HERE / "scale_kind.json").write_text(json.dumps(got, indent=1) + "\n")
    for k in KINDS:
        print(k, round(got[k]["scale"], 4), {f: round(v, 4) for f, v in
                                              got[k]["scale_without_family"].items()})  # fmt: skip
    print("cpu_s", got["cpu_s"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
