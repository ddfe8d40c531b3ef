"""Surrogate-level diagnosis (milliseconds a drive): on the stored tcmd-bound2 runs of the
generated reserve drives, the GC-reserve reading fitted without an onset (its floor read from
the lowest level, ``gc_reserve.ReserveForm(onset=None)``) beside the effective-spare readings,
weighed by ``evidence.py`` as ``spare_readings.weigh`` weighs typed figures. Prints each
reading's weight, whether it reproduces its figures, and its surrogate WAF and IOPS at the
held-out levels against the truth."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from overprov.calibrate import cli, evidence, gc_designs, gc_reserve, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.uncertainty import recorded_model_form


def figures(run: dict) -> list[fitmod.Point]:
    argv = shlex.split(run["result"]["command"])
    opt = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("--")}
    pts = cli.user_points(opt.get("--points"), opt.get("--waf-points"))
    pts = [p for p in pts if p.queue_depth is None]
    if "--fob-iops" in opt:
        pts.append(fitmod.Point(0.0, float(opt["--fob-iops"]), cli.USER_POINT_REL_SD, fresh=True))
    return pts


def main(paths: list[str]) -> None:
    cv_sd = evidence.model_form_rel_sd(recorded_model_form(False))
    for path in paths:
        run = json.loads(Path(path).read_text())
        truth = json.loads(Path(run["truth"]).read_text())
        held = {lv["extra_op_percent"]: lv for lv in truth["levels"] if lv["queue_depth"] == 32}
        pts = figures(run)
        evs, forms = {}, {}
        for design in gc_designs.UNIFORM_DESIGNS:
            eff = spare_readings.reading(predmod.EFFECTIVE, design, None, True)
            curve = gc_designs.curve(design) or fitmod.waf_at
            forms[("eff", design)] = eff.form(curve)
            evs[("eff", design)] = evidence.assess(forms[("eff", design)], pts, cv_sd)
            rf = gc_reserve.ReserveForm(curve, cv_sd)
            test = rf.floor_test(pts)
            if rf.called_for(pts):
                forms[("res", design)] = rf
                evs[("res", design)] = evidence.assess(rf, rf.checked_points(pts), cv_sd)
            else:
                print(f"  reserve {design}: not offered: {test.get('why', test)}")
        w = evidence.weights(
            {k: e["chi2"] for k, e in evs.items()},
            {k: spare_readings._reproduces(e) for k, e in evs.items()},
        )
        print(Path(run["truth"]).stem)
        for k, e in evs.items():
            s = forms[k].fit(pts)
            row = " ".join(
                f"{x:g}%:{s.waf(x):.2f}/{held[x]['steady_waf']:.2f}" for x in (10, 20, 30)
            )
            print(f"  {k[0]} {k[1]:12s} w={w[k]:.3f} chi2={e['chi2']:.2f} "
                  f"res={e['residual_chi2']:.2f} repro={spare_readings._reproduces(e)} "
                  f"rho0={s.native_op:+.3f} floor={getattr(s, 'waf_floor', None)} "
                  f"WAF {row}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
