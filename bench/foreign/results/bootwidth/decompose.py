"""Where one NVMeVirt and one SSDsim plan case's bootstrap width comes from (decompose.txt).

For bench/foreign/results/status72/cases/'s NVMeVirt c and SSDsim a, the bootstrap
(``uncertainty.bootstrap``, 100 greedy refits) of the case's typed figures redrawn:

- *typed*: every figure at cli.USER_POINT_REL_SD (5%), what the plan case gives (today);
- one group of figures at 5% and the others at a negligible 1e-5: the two steady IOPS, the two
  steady WAF, the FOB IOPS alone (which figure's noise the band carries);
- *measured*: each steady IOPS at its truth's standard error over its 8-round window, floored at
  fit.MIN_REL_SD (1%), each WAF at the nominal 2% (what calibrate's own measurement of the same
  rounds would pass; FOB at the floor);
- *own*: each figure at its truth's standard error, no floor (FOB at 1e-5: no rounds recorded).

Prints, per level, the 80% band's log half-widths of IOPS and WAF (100 × ln(high), 100 ×
−ln(low)), the truth's log error and the 10th–90th percentiles of the fitted t_page, t_cmd and
native spare. ≈ 10 CPU s.

    PYTHONPATH=python python bench/foreign/results/bootwidth/decompose.py > .../decompose.txt
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import diagnose  # noqa: E402  (bench/foreign/results/bootwidth/diagnose.py)
from overprov.calibrate import cli, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

CASES = ("NVMeVirt--erasecost--nvmevirt-c", "SSDsim--ssdsim--ssdsim-a")
TINY = 1e-5
levels, cpu_s = diagnose.levels, diagnose.cpu_s


def only(points: list[fitmod.Point], which: str) -> list[fitmod.Point]:
    """``points`` with 5% on the ``which`` figures ("iops", "waf", "fob") and TINY elsewhere."""
    sd = cli.USER_POINT_REL_SD
    out = []
    for p in points:
        iops_sd = sd if (which == "fob") == p.fresh and which in ("iops", "fob") else TINY
        waf_sd = sd if which == "waf" else TINY
        out.append(replace(p, iops_rel_sd=iops_sd, waf_rel_sd=waf_sd))
    return out


def show(name: str, boot: dict, rows: list[levels.Row]) -> None:
    cells = []
    for r in rows:
        lo, hi = boot[r.figure][r.level]
        cells.append(f"{r.figure}@{r.level:g} +{100 * math.log(hi):.2f}/-{-100 * math.log(lo):.2f}")
    par = boot["parameters"]
    pars = ", ".join(f"{k} {v[0]:.3g}..{v[1]:.3g}" for k, v in par.items())
    print(f"  {name:>9}: {'; '.join(cells)}\n             {pars}")


def main() -> int:
    c0 = cpu_s()
    for stem in CASES:
        doc = json.loads((diagnose.STATUS72 / f"{stem}.json").read_text())
        doc["_stem"] = stem
        points = [p for p in levels.case_points(doc["command"]) if p.queue_depth is None]
        truth = json.loads((diagnose.ROOT / doc["truth"]).read_text())
        spreads = diagnose.truth_spreads(truth, int(doc["qd"]))
        rows = [r for r in levels.case_rows(doc) if not r.fitted]
        xs = sorted({float(r.level) for r in rows})
        fob = next(p.iops for p in points if p.fresh)
        print(f"{stem}: {doc['command'].split('--jobs 1 ')[1]}")
        for (x, f), s in sorted(spreads.items()):
            print(f"  truth {f}@{x:g}: round sd {100 * s['sd']:.3f}%, standard error "
                  f"{100 * s['se']:.3f}%, lag-1 autocorrelation {s['lag1']:+.2f}")  # fmt: skip
        errs = "; ".join(f"{r.figure}@{r.level:g} {100 * r.log_error:+.2f}" for r in rows)
        print(f"  truth log error ×100: {errs}")
        print("  model-form term's log half-width ×100 (Z80 · model sd): "
              f"{100 * uncertainty.Z80 * (rows[0].model_sd or 0):.2f}")  # fmt: skip
        for name in diagnose.NOISES:
            pts = diagnose.noisy_points(points, spreads, name)
            least = diagnose.OWN_MIN_REL_SD if name == "own" else fitmod.MIN_REL_SD
            show(name, uncertainty.bootstrap(pts, xs, fob_iops=fob, min_rel_sd=least), rows)
            if name == "typed":
                for which in ("iops", "waf", "fob"):
                    got = uncertainty.bootstrap(only(points, which), xs, fob_iops=fob,
                                                min_rel_sd=TINY)  # fmt: skip
                    show(f"{which} only", got, rows)
    print(f"CPU {cpu_s() - c0:.1f} s (bench/cpu_clock.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
