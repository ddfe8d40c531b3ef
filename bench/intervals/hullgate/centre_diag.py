"""Why the effective d-choices-2 reading keeps the weight (and the centre) on gen-R10 and gen-R12,
whose floor gives way before 20%, while the greedy reserve reading takes it on R9 and R11: each
reading's evidence as ``spare_readings.weigh`` computes it with ``reserve_hull.OFFERED`` on (the
surrogates' fits, milliseconds; nothing simulated), from hullres2's stored flag-on runs' typed
figures, with its surrogate WAF and IOPS at the held-out levels against the truth.

    PYTHONPATH=python python bench/intervals/hullgate/centre_diag.py \
        > bench/intervals/hullgate/centre_diag.txt
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

from overprov.calibrate import cli, reserve_hull, spare_readings, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod

ROOT = Path(__file__).resolve().parents[3]
RUNS = ROOT / "bench/intervals/hullres2/runs"
DRIVES = ("gen-R9-reserve-sf078-floor6.5", "gen-R10-reserve-sf087-floor11",
          "gen-R11-reserve-sf083-floor4", "gen-R12-reserve-sf091-floor7.5")  # fmt: skip


def fig_of(command: str) -> predmod.PredictionInput:
    argv = shlex.split(command)
    opt = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("--")}
    pts = cli.user_points(opt.get("--points"), opt.get("--waf-points"))
    fob = float(opt["--fob-iops"])
    pts.append(fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True))
    return predmod.PredictionInput(pts, [0.0, 10.0, 20.0, 30.0, 40.0], typed=True, fob_iops=fob,
                                   model_form=uncertainty.model_form_for(pts, False))  # fmt: skip


def main() -> None:
    reserve_hull.OFFERED = True
    for name in DRIVES:
        run = json.loads((RUNS / f"generated-{name}--IOPSWAF040QD3240QD4FOB--on.json").read_text())
        truth = json.loads((ROOT / run["truth"]).read_text())
        held = {lv["extra_op_percent"]: lv for lv in truth["levels"] if lv["queue_depth"] == 32}
        fig = fig_of(run["result"]["command"])
        evs, _ = spare_readings.weigh(fig)
        w = spare_readings.class_weights(evs)
        print(f"\n{name}: truth WAF " + ", ".join(
            f"{x:g}%: {held[x]['steady_waf']:.2f}" for x in (0, 10, 20, 30, 40)))  # fmt: skip
        for r, e in sorted(evs.items(), key=lambda kv: -w[kv[0]]):
            res = {(d["extra_op_percent"], d["figure"], d.get("queue_depth")): d["log_error"]
                   for d in e["residuals"]}  # fmt: skip
            loo = {(d["extra_op_percent"], d["figure"], d.get("queue_depth")): d["log_error"]
                   for d in e["held_out"]}  # fmt: skip
            print(f"  {r.spare}:{r.design:12s} w={w[r]:.3g} chi2={e['chi2']:.1f} "
                  f"residual={e['residual_chi2']:.1f} loo={e['chi2'] - e['residual_chi2']:.1f} "
                  f"reproduces={spare_readings._reproduces(e)}")  # fmt: skip
            print("    fit log errors: " + ", ".join(
                f"{k[1]}@{k[0]:g}{'/qd' + str(k[2]) if k[2] else ''} {v:+.3f}"
                for k, v in res.items()))  # fmt: skip
            print("    left-one-out log errors: " + ", ".join(
                f"{k[1]}@{k[0]:g}{'/qd' + str(k[2]) if k[2] else ''} {v:+.3f}"
                for k, v in loo.items()))  # fmt: skip
            try:
                form = (reserve_hull.form_of(r.design, uncertainty.weighing_rel_sd(fig.model_form))
                        if r.spare == predmod.RESERVE else None)  # fmt: skip
                s = (form or r.form(fitmod.waf_at)).fit(fig.points) if form or r.design == \
                    "greedy" else None  # fmt: skip
            except Exception:  # noqa: BLE001  (a diagnosis: say it)
                s = None
            if s is not None:
                print("    surrogate WAF/IOPS vs truth: " + ", ".join(
                    f"{x:g}%: {s.waf(x):.2f}/{held[x]['steady_waf']:.2f} "
                    f"{math.log(s.iops(x) / held[x]['steady_iops']):+.2f} log IOPS"
                    for x in (10.0, 20.0, 30.0)))  # fmt: skip


if __name__ == "__main__":
    main()
