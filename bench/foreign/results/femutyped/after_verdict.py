"""After the verdict, judging nothing: why the flag-on arm refused two fresh FEMU drives and
missed the third's 20% WAF. Each fresh drive's typed figures (the on arm's command) weighed as
``spare_readings.weigh`` weighs them with ``steep_pair.READ_AS_FLOOR`` on: every reserve reading's
weight, χ² (residual + leave-one-out), surrogate WAF at 0-40% against the truth; then the twin of
each reading kept (``spare_readings.SPAN_MIN_WEIGHT``) prepared and simulated as ``read_all``
does, and ``reserve_hull.twin_miss``'s reason.

    PYTHONPATH=python python bench/foreign/results/femutyped/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_hull, spare_readings, steep_pair
from overprov.errors import ConfigError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402


def main() -> None:
    steep_pair.READ_AS_FLOOR = True
    for truth in sorted((HERE / "fresh").glob("*.json")):
        doc = json.loads(truth.read_text())
        waf = {lv["extra_op_percent"]: lv["steady_waf"] for lv in doc["levels"]
               if lv["queue_depth"] == 32}  # fmt: skip
        off = json.loads(
            (HERE / "fresh-off" / f"FEMU--femutyped_fresh--{truth.stem}.json").read_text()
        )
        fig = fig_of("x " + off["command"].split(" calibrate ", 1)[1])
        fig.jobs, fig.progress = 1, False
        evs, curves = spare_readings.weigh(fig)
        w = spare_readings.class_weights(evs)
        print(f"\n{truth.stem}: truth WAF " + ", ".join(f"{x}%: {v:.3f}" for x, v in waf.items()))
        for r, e in sorted(evs.items(), key=lambda kv: -w[kv[0]]):
            s = r.reserve.fit(fig.points)
            said = ", ".join(
                f"{x}%: {s.waf(x):.3f} ({s.waf(x) / v - 1:+.1%})" for x, v in waf.items()
            )
            print(f"  {r.key:24s} w={w[r]:.3g} chi2={e['chi2']:.1f} res={e['residual_chi2']:.2f} "
                  f"loo={spare_readings.loo_chi2(e):.1f} spare factor {1 + s.native_op:.3f} "
                  f"floor {s.waf_floor:.3f}\n    surrogate WAF {said}")  # fmt: skip
            if w[r] < spare_readings.SPAN_MIN_WEIGHT * max(w.values()):
                print("    not simulated (weight)")
                continue
            curve = reserve_hull.curve_of(r, curves[r.design])
            try:
                pred = predmod.read(fig, r, curve, predmod.prepare(fig, r, curve))
            except ConfigError as exc:
                print(f"    its twin cannot be run: {exc}")
                continue
            got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
            print(f"    twin WAF {', '.join(f'{x:g}%: {v:.3f}' for x, v in got.items())}")
            print(f"    set aside: {reserve_hull.twin_miss(pred)}")


if __name__ == "__main__":
    main()
