"""Each scoreboard truth's typed figures (bench/foreign/results/scoreboard/cases-final/, the
command each case ran) read as ``spare_readings.weigh`` reads them, with the reserve reading of
each uniform design beside them (``reserve_hull.form_of``, no onset): each reading's weight, χ²
(residual + leave-one-out), whether it reproduces its fitted figures, and its surrogate WAF at
10-30% against the truth. The surrogates' fits only (milliseconds a case); nothing simulated.

    PYTHONPATH=python python bench/foreign/results/femutyped/diagnose.py [all] > diagnosis.txt
"""

from __future__ import annotations

import ast
import json
import shlex
import sys
from pathlib import Path

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_hull, spare_readings, uncertainty
from overprov.errors import ConfigError

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402

CASES = ROOT / "bench/foreign/results/scoreboard/cases-final"


def truth_waf(case: dict) -> dict[float, float]:
    return {float(lv["extra_op_percent"]): lv["waf_true"] for lv in case.get("levels", [])}


def truth_file_waf(path: str) -> dict[float, float]:
    doc = json.loads((ROOT / path).read_text())
    return {float(lv["extra_op_percent"]): lv["steady_waf"] for lv in doc["levels"]
            if lv["queue_depth"] == 32 and "steady_waf" in lv}  # fmt: skip


def surrogate(r: predmod.TwinReading, fig: predmod.PredictionInput, curves: dict):
    cv_sd = uncertainty.weighing_rel_sd(fig.model_form)
    if r.spare == predmod.RESERVE:
        return reserve_hull.form_of(r.design, cv_sd).fit(fig.points)
    return r.form(curves.get(r.design) or fitmod.waf_at).fit(fig.points)


def main(every: bool) -> None:
    reserve_hull.OFFERED = True
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text())
        if "command" not in case or (not every and case["family"] != "FEMU"):
            continue
        cmd = case["command"]
        if isinstance(cmd, list) or cmd.startswith("["):
            cmd = shlex.join(cmd if isinstance(cmd, list) else ast.literal_eval(cmd))
        fig = fig_of(cmd)
        truth = truth_waf(case) or truth_file_waf(case["truth"])
        try:
            evs, curves = spare_readings.weigh(fig)
        except ConfigError as exc:
            print(f"\n{path.stem}: {exc}")
            continue
        w = spare_readings.class_weights(evs)
        said = ", ".join(f"{x:g}%: {v:.3f}" for x, v in truth.items())
        print(f"\n{path.stem}: truth WAF {said}")
        for r, e in sorted(evs.items(), key=lambda kv: -w[kv[0]]):
            try:
                s = surrogate(r, fig, curves)
                waf = ", ".join(f"{x:g}%: {s.waf(x):.3f} ({s.waf(x) / truth[x] - 1:+.1%})"
                                for x in (10.0, 20.0, 30.0) if x in truth)  # fmt: skip
                extra = f" rho0={s.native_op:+.4f} floor={getattr(s, 'waf_floor', None)}"
            except (ConfigError, KeyError) as exc:
                waf, extra = f"({exc})", ""
            print(f"  {r.spare}:{r.design:12s} w={w[r]:.3g} chi2={e['chi2']:.1f} "
                  f"res={e['residual_chi2']:.2f} loo={e['chi2'] - e['residual_chi2']:.1f} "
                  f"repro={spare_readings._reproduces(e)}{extra}\n    WAF {waf}")  # fmt: skip


if __name__ == "__main__":
    main(len(sys.argv) > 1 and sys.argv[1] == "all")
