"""Measure ``conformal_scale.SCALE_MEAN`` (python/overprov/calibrate/conformal_scale.py): the
scale at which the needed scales' coverage averaged over the FTL families (each weighed equally)
is 80% (``conformal_scale.family_mean_scale``), and the same leaving each family out.

scale.json of bench/foreign/results/narrowband/ stores only the count of figures, not each
figure's needed scale, so they are recomputed here exactly as narrowband measured them
(bench/foreign/results/narrowband/measure.py's ``case_needs`` on the 72 plan cases of
bench/foreign/results/narrowband/today.py; the same 426 figures, checked against its count).
Alongside, for disclosure only (it sets nothing), the same statistic on today's defaults'
cases (bench/foreign/results/status72/cases/, femucarry's six reserve flags on). No calibrate
run; writes scale_mean.json. ≈ 30 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowmean/measure_mean.py
"""

from __future__ import annotations

import datetime
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS / "scorecover"))
sys.path.insert(0, str(RESULTS.parents[1]))
sys.path.insert(0, str(RESULTS / "narrowband"))
import measure  # noqa: E402  (bench/foreign/results/narrowband/measure.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import conformal_scale  # noqa: E402

STATUS72 = RESULTS / "status72" / "cases"


def needs(docs: dict[str, dict]) -> dict[str, list[float]]:
    """family → the needed scale of each unfitted figure whose term is rule 3's."""
    out: dict[str, list[float]] = defaultdict(list)
    for doc in docs.values():
        if "levels" in doc:
            for r, s in measure.case_needs(doc):
                out[r.family].append(s)
    return dict(out)


def statistics_of(needed: dict[str, list[float]]) -> dict:
    fams = sorted(needed)
    s = conformal_scale.family_mean_scale(needed)
    return {
        "scale_mean": s,
        "scale_mean_without_family": {
            f: conformal_scale.family_mean_scale(needed, leave_out=f) for f in fams
        },
        "family_mean_coverage_at_scale_mean": conformal_scale.family_mean_coverage(needed, s),
        "coverage_by_family_at_scale_mean": {
            f: sum(x <= s for x in needed[f]) / len(needed[f]) for f in fams
        },
        "quantile_of_quantiles": conformal_scale.family_scale(needed),
        "figures": sum(len(v) for v in needed.values()),
        "figures_by_family": {f: len(needed[f]) for f in fams},
    }


def main() -> int:
    c0 = cpu_s()
    conformal_scale.ON = False  # the stored cases carry the recorded scale
    nb = needs(today.docs())
    stored = json.loads((RESULTS / "narrowband" / "scale.json").read_text())
    if sum(len(v) for v in nb.values()) != stored["figures"]:
        raise SystemExit("recomputed figures differ from narrowband's scale.json count")
    if abs(conformal_scale.family_scale(nb) - stored["scale"]) > 1e-9:
        raise SystemExit("recomputed quantile of quantiles differs from narrowband's scale")
    docs72 = {}
    for p in sorted(STATUS72.glob("*.json")):
        doc = json.loads(p.read_text())
        doc["_stem"] = p.stem
        docs72[p.stem] = doc
    got = {
        **statistics_of(nb),
        "coverage": conformal_scale.COVERAGE,
        "needed_by_family": {f: sorted(v) for f, v in sorted(nb.items())},
        "status72_disclosed_only": statistics_of(needs(docs72)),
        "source": "bench/foreign/results/narrowmean/measure_mean.py: "
        "bench/foreign/results/narrowband/measure.py's "
        "case_needs on the 72 plan cases of bench/foreign/results/narrowband/today.py",
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    got["cpu_s"] = round(cpu_s() - c0, 1)
    (HERE / "scale_mean.json").write_text(json.dumps(got, indent=1) + "\n")
    print(json.dumps({k: v for k, v in got.items() if k != "needed_by_family"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
