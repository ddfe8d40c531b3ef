"""After the verdict (judged.txt), judging nothing: the reserve twin that carries on the fresh
drive both arms refused (femu-65lun-37blk-thres64: d-choices-2 at weight 1), simulated as
``predict.read`` simulates it, with ``reserve_plateau.ON`` off and on: its WAF at 0-40% against
the truth, its refinement history (worst miss per iteration) and its victim threshold. First
each fresh drive's reserve weights with ``evidence.WAF_WEIGHTS`` as on the base (on) and off
(as femuweight's runs weighed, before it was on).

    PYTHONPATH=python python bench/foreign/results/femutwin/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from overprov.calibrate import (
    evidence,
    reserve_held_out,
    reserve_hull,
    reserve_plateau,
    spare_readings,
    steep_pair,
)
from overprov.calibrate import predict as predmod

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402

STEM = "femu-65lun-37blk-thres64"


def figures(stem: str):
    case = json.loads((HERE / "fresh-b" / f"FEMU--femutwin_fresh--{stem}.json").read_text())
    cmd = case["command"] if isinstance(case["command"], str) else shlex.join(case["command"])
    fig = fig_of("x " + cmd.split(" calibrate ", 1)[1])
    fig.jobs, fig.progress = 1, False
    return fig


def weights() -> None:
    base = evidence.WAF_WEIGHTS
    for line in (HERE / "drives.txt").read_text().splitlines():
        stem = line.split(" ")[0]
        for on in (base, not base):
            evidence.WAF_WEIGHTS = on
            evs, _ = spare_readings.weigh(figures(stem))
            w = spare_readings.class_weights(evs)
            print(f"{stem} WAF_WEIGHTS={on}: " + ", ".join(f"{r.key} {w[r]:.3g}" for r in evs))
    evidence.WAF_WEIGHTS = base


def main() -> None:
    steep_pair.READ_AS_FLOOR = True
    reserve_held_out.SAME_FORM_ONLY = True
    weights()
    truth = json.loads((HERE / "fresh" / f"{STEM}.json").read_text())
    waf = {lv["extra_op_percent"]: lv["steady_waf"] for lv in truth["levels"]
           if lv["queue_depth"] == 32}  # fmt: skip
    fig = figures(STEM)
    evs, curves = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    print(f"\n{STEM}: truth WAF " + ", ".join(f"{x:g}%: {v:.3f}" for x, v in waf.items()))
    print("weights: " + ", ".join(f"{r.key} {w[r]:.3g}" for r in evs))
    r = max(evs, key=lambda k: w[k])
    curve = reserve_hull.curve_of(r, curves[r.design])
    for on in (False, True):
        reserve_plateau.ON = on
        pred = predmod.read(fig, r, curve, predmod.prepare(fig, r, curve))
        got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
        print(f"\n{r.key}, reserve_plateau.ON = {on}")
        print("  twin WAF " + ", ".join(f"{x:g}%: {v:.3f} ({v / waf[x] - 1:+.1%})"
                                        for x, v in got.items()))  # fmt: skip
        print(f"  refinement: {pred.fit.get('refinement')}")
        print(f"  twin's collector: {pred.fit.get('twin', {}).get('gc_reserve')}")
        print(f"  twin check: {pred.fit.get('twin_check')}")
        print(f"  set aside: {reserve_hull.twin_miss(pred)}")


if __name__ == "__main__":
    main()
