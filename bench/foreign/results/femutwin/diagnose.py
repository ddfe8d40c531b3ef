"""Why the d-choices reserve twins miss FEMU's 0% floor (a diagnosis, judging nothing).

One seen drive's typed figures (femuweight's fresh femu-48lun-42blk-thres66, arm B's command),
weighed with ``steep_pair.READ_AS_FLOOR`` and ``reserve_held_out.SAME_FORM_ONLY`` on; for each
reserve reading: the surrogate's parameters, the twin's config keys (``twin.reserve_collector``,
``GcReserve.ftl_keys``), and untimed WAF-only core runs of that twin at 0% and 10% extra OP:
as built, with the policy swapped to greedy (same keys), without the floor, and with the core's
floor fraction scaled. Each run's victims' invalid-fraction mean is read from the core's
``victim_valid_histogram``.

    PYTHONPATH=python python bench/foreign/results/femutwin/diagnose.py > diagnosis.txt
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import replace
from pathlib import Path

from overprov import engine, sweep
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_held_out, reserve_hull, spare_readings, steep_pair, twin_runs
from overprov.calibrate import twin as twinmod

HERE = Path(__file__).resolve().parent
WEIGHT = HERE.parent / "femuweight"
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402

STEM = "femu-48lun-42blk-thres66"


def figures():
    case = json.loads((WEIGHT / "fresh-b" / f"FEMU--femuweight_fresh--{STEM}.json").read_text())
    cmd = case["command"] if isinstance(case["command"], str) else shlex.join(case["command"])
    fig = fig_of("x " + cmd.split(" calibrate ", 1)[1])
    fig.jobs, fig.progress = 1, False
    return fig


def run(config: dict, x: float, workload: dict, over: dict | None = None) -> tuple[float, float]:
    """WAF of one untimed level and the mean WAF of its victims (1 / mean invalid fraction)."""
    cfg = twin_runs.level_config(config, x, workload, timed=False)
    if over:
        cfg = engine.merge(cfg, over)
    rep = sweep.run_points([cfg], jobs=1, label="diag")[0]
    hist = rep.get("victim_valid_histogram") or rep.get("measured", {}).get(
        "victim_valid_histogram"
    )
    victim_waf = float("nan")
    if hist:
        ppb = len(hist) - 1
        n = sum(hist)
        inv = sum((ppb - v) * c for v, c in enumerate(hist)) / max(n, 1)
        victim_waf = ppb / inv if inv else float("inf")
    return rep["measured"]["waf"], victim_waf


def main() -> None:
    steep_pair.READ_AS_FLOOR = True
    reserve_held_out.SAME_FORM_ONLY = True
    fig = figures()
    evs, curves = spare_readings.weigh(fig)
    workload = fig.workload_or_uniform()
    for r in sorted(evs, key=lambda k: k.key):
        s = r.reserve.fit(fig.points)
        curve = reserve_hull.curve_of(r, curves[r.design])
        prep = predmod.prepare(fig, r, curve)
        tw = prep.fitted.twin
        cfg = twinmod.sim_config(tw)
        keys = tw.gc_reserve.ftl_keys(twinmod.twin_advertised_bytes(tw))
        print(f"\n{r.key}: surrogate spare factor {1 + s.native_op:.4f}, floor W {s.waf_floor:.3f}"
              f" (curve at that spare, 0%: {curve(s.native_op):.1f})")
        print(f"  twin: native_op rho0 {tw.native_op:.4f} (curve(rho0) {curve(tw.native_op):.2f},"
              f" = W/2 by reserve_collector), reserve {tw.gc_reserve.reserve:.4f}, ftl "
              f"{json.dumps({k: cfg['ftl'].get(k) for k in ('policy', 'd_choices')})} {keys}")
        for x in (0.0, 10.0):
            got = run(cfg, x, workload)
            print(f"  core {x:g}%: as built WAF {got[0]:.3f} (victims' mean {got[1]:.3f})")
        if r.design != "greedy":
            for label, over in (
                ("policy greedy, same keys", {"ftl": {"policy": "greedy"}}),
                ("no floor (forced collector only)",
                 {"ftl": {"gc_victim_min_invalid_fraction": 1e-6}}),
            ):
                got = run(cfg, 0.0, workload, over)
                print(f"  core 0%: {label}: WAF {got[0]:.3f} (victims' mean {got[1]:.3f})")
            # the split the surrogate leaves open, taken where the forced collector runs AT the
            # floor's WAF (not half of it): same spare factor, a smaller reserve
            rho_w = fitmod.rho_for_waf(s.waf_floor, curve)
            at_w = replace(tw, native_op=rho_w, gc_reserve=replace(
                tw.gc_reserve, reserve=max(0.0, rho_w - s.native_op)))  # fmt: skip
            cfg_w = twinmod.sim_config(at_w)
            for x in (0.0, 10.0, 20.0):
                got = run(cfg_w, x, workload)
                print(f"  core {x:g}%: rho0 {rho_w:.4f} (curve = W), reserve "
                      f"{at_w.gc_reserve.reserve:.4f}: WAF {got[0]:.3f} "
                      f"(victims' mean {got[1]:.3f})")
            frac = keys["gc_victim_min_invalid_fraction"]
            for scale in (0.8, 0.65):
                over = {"ftl": {"gc_victim_min_invalid_fraction": frac * scale}}
                got = run(cfg, 0.0, workload, over)
                print(f"  core 0%: floor fraction x{scale} (1/{1 / (frac * scale):.2f}): WAF "
                      f"{got[0]:.3f} (victims' mean {got[1]:.3f})")


if __name__ == "__main__":
    main()
