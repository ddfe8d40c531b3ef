"""After the verdict (judged.txt), judging nothing: why arm B answered with greedy's reserve
reading alone on every fresh drive though its weights were about equal. Each fresh drive's typed
figures (its arm-B case's command) weighed with both flags on; the twin of each reserve reading
simulated as ``spare_readings.read_all`` simulates it (``predict.prepare`` and ``predict.read``),
its WAF at 0-40% against the truth, and ``reserve_hull.twin_miss``'s reason to set it aside.

    PYTHONPATH=python python bench/foreign/results/femuweight/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_held_out, reserve_hull, spare_readings, steep_pair

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402


def drive(stem: str) -> None:
    truth = json.loads((HERE / "fresh" / f"{stem}.json").read_text())
    waf = {lv["extra_op_percent"]: lv["steady_waf"] for lv in truth["levels"]
           if lv["queue_depth"] == 32}  # fmt: skip
    case = json.loads((HERE / "fresh-b" / f"FEMU--femuweight_fresh--{stem}.json").read_text())
    cmd = case["command"] if isinstance(case["command"], str) else shlex.join(case["command"])
    fig = fig_of("x " + cmd.split(" calibrate ", 1)[1])
    fig.jobs, fig.progress = 1, False
    evs, curves = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    print(f"\n{stem}: truth WAF " + ", ".join(f"{x:g}%: {v:.3f}" for x, v in waf.items()))
    for r in sorted(evs, key=lambda k: -w[k]):
        s = r.reserve.fit(fig.points)
        print(f"  {r.key:24s} w={w[r]:.3g} spare factor {1 + s.native_op:.3f} floor "
              f"{s.waf_floor:.3f}; surrogate WAF 20%: {s.waf(20) / waf[20] - 1:+.1%}")  # fmt: skip
        curve = reserve_hull.curve_of(r, curves[r.design])
        pred = predmod.read(fig, r, curve, predmod.prepare(fig, r, curve))
        got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
        print("    twin WAF " + ", ".join(f"{x:g}%: {v:.3f} ({v / waf[x] - 1:+.1%})"
                                          for x, v in got.items()))  # fmt: skip
        print(f"    set aside: {reserve_hull.twin_miss(pred)}")


def main() -> None:
    steep_pair.READ_AS_FLOOR = True
    reserve_held_out.SAME_FORM_ONLY = True
    for line in (HERE / "drives.txt").read_text().splitlines():
        drive(line.split(" ")[0])


if __name__ == "__main__":
    main()
