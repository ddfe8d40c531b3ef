"""DIAGNOSIS.md's table: what the plan case's figures (QD32 IOPS and WAF at 0 and 40%, FOB) show
on the seen cases the erase twins harmed (bench/foreign/results/erasecheck/verdict.md) and on the
NVMeVirt drives they were adopted on. No simulator run, no fit.

    PYTHONPATH=python python bench/foreign/results/erasefloor/diagnose.py

Per truth: FOB ÷ the steady line's WAF-1 IOPS (``line_ratio`` of
bench/foreign/results/erasecost/ratios.py), the line's t_cmd ÷ t_page, and the native spare
greedy's WAF curve implies at 0% and at 40% (the inversion of
bench/foreign/results/nvmen/implied_spare.py) and their spread, and the smallest such spread
over the uniform designs (``erase_reading.shape_spread``, the condition ``WITHOUT_FLOOR`` reads).
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

from overprov.calibrate import erase_reading, fit

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

RESULTS = Path(__file__).resolve().parent.parent
ROOT = RESULTS.parent.parent.parent
ratios = load_script("ratios", RESULTS / "erasecost" / "ratios.py")

GEN = ROOT / "bench/intervals/hullres/generated"
#: name -> (truth, group)
CASES = {
    "R6": (GEN / "gen-R6-reserve-sf082-floor5.5.json", "harmed"),
    "R7": (GEN / "gen-R7-reserve-sf076-floor4.5.json", "harmed"),
    "R8": (GEN / "gen-R8-reserve-sf086-floor8.json", "harmed"),
    "MQSim": (RESULTS / "mqsim.json", "harmed"),
    "patched MQSim": (RESULTS / "patched/mqsim.json", "harmed"),
    "R5": (GEN / "gen-R5-reserve-sf090-floor9.json", "guard"),
    "N5": (GEN / "gen-N5-greedy-op013.json", "guard"),
    "N6": (GEN / "gen-N6-greedy-op024.json", "guard"),
    **{
        f"NVMeVirt {x.upper()}": (RESULTS / p / f"nvmevirt-{x}.json", "erase")
        for p, xs in (
            ("nvmevirt", "b"),
            ("erasereading", "jkl"),
            ("erasegate", "mn"),
            ("erasegreedy", "opqrst"),
        )
        for x in xs
    },
    "NVMeVirt A": (RESULTS / "nvmevirt/nvmevirt-a.json", "erase"),
}


def greedy_rho0(doc: dict) -> tuple[float, float]:
    lv = {r["extra_op_percent"]: r for r in doc["levels"] if r["queue_depth"] == 32}
    out = []
    for x in (0, 40):
        rho = fit.rho_for_waf(lv[x]["steady_waf"], fit.waf_at)
        out.append((1 + rho) * (1 - x / 100) - 1)
    return out[0], out[1]


def plan_points(doc: dict) -> list[fit.Point]:
    lv = {r["extra_op_percent"]: r for r in doc["levels"] if r["queue_depth"] == 32}
    return [
        fit.Point(x, lv[x]["steady_iops"], 0.02, waf=lv[x]["steady_waf"], waf_rel_sd=0.02)
        for x in (0, 40)
    ]


def main() -> None:
    print(
        "| truth | group | FOB ÷ line | t_cmd ÷ t_page | greedy ρ₀ at 0% / 40% (spread, pts) "
        "| smallest spread over the uniform designs (pts) |"
    )
    print("|---|---|---|---|---|---|")
    for name, (path, group) in CASES.items():
        doc = json.loads(path.read_text())
        t_page, t_cmd, r = ratios.line_ratio(doc)
        a, b = greedy_rho0(doc)
        print(
            f"| {name} | {group} | {r:.3f} | {t_cmd / t_page:+.3f} | "
            f"{100 * a:.2f} / {100 * b:.2f}% ({100 * (b - a):+.2f}) | "
            f"{100 * erase_reading.shape_spread(plan_points(doc)):.2f} |"
        )
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"\nCPU s: {ru.ru_utime + ru.ru_stime:.2f}")


if __name__ == "__main__":
    main()
