"""Diagnosis only (judges nothing, changes nothing): why calibrate's gate refuses the deep-onset
FEMU drives whose WAF is flat at about 8 and then gives way. For each stored measurement and
each arm (the flags `burst_start.LATE_START`, `cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`), the
points calibrate fits, its input rules, the plain greedy fit and every reserve reading the gate
(`plausibility.fit_misses_its_points`) tries, each at 0% and 40% against the figures and
FEMU's truth; then, read from the truth alone, where FEMU's curve leaves its floor, and a
floor-edge form placed by the two figures themselves. In process, surrogates only (no twin).

    PYTHONPATH=python python bench/results/reserveflat/diagnose.py > diagnosis.txt
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import (
    burst_start,
    cycle_evidence,
    evidence,
    gc_reserve,
    plausibility,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_twin_check import onset_from_empty

ROOT = Path(__file__).resolve().parents[3]
PLAIN = "bench/results/burstplain/femu"
#: (name, measurement folder, truth file, the arms' stored outcomes)
CASES = (
    (
        "P1 52 x 56 (thres 55)",
        f"{PLAIN}/femu-52lun-56blk-thres55-3800us-ns82-off",
        f"{PLAIN}/femu-52lun-56blk-thres55-3800us-ns82.json",
    ),
    (
        "P2 56 x 50 (thres 52)",
        f"{PLAIN}/femu-56lun-50blk-thres52-4300us-ns84-off",
        f"{PLAIN}/femu-56lun-50blk-thres52-4300us-ns84.json",
    ),
    (
        "P3 60 x 46 (thres 54, answered: contrast)",
        f"{PLAIN}/femu-60lun-46blk-thres54-3300us-ns80-off",
        f"{PLAIN}/femu-60lun-46blk-thres54-3300us-ns80.json",
    ),
    (
        "stored 37 x 74 (thres 53)",
        "bench/results/burststart/stored/femu-37lun-74blk-thres53-3450us-ns84-off",
        "bench/foreign/results/gatefix/femu-37lun-74blk-thres53-3450us-ns84.json",
    ),
)
ARMS = {"off": (False, False), "late": (True, False), "plain": (False, True), "both": (True, True)}
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def pct(a: float, b: float) -> str:
    return f"{100 * (a / b - 1):+.1f}%" if math.isfinite(a) else "inf"


def truth_waf(path: str) -> dict[float, float]:
    doc = json.loads((ROOT / path).read_text())
    return {
        float(r["extra_op_percent"]): r["steady_waf"]
        for r in doc["levels"]
        if r["queue_depth"] == 32
    }


def points_of(folder: str, late: bool, plain: bool):
    burst_start.LATE_START, cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = late, plain
    try:
        m = measurement_file.load(ROOT / folder / measurement_file.NAME)
        points, _ = fitmod.split_queue_depths(predmod.points_from(m), fitmod.WORKLOAD_QD)
        return m, points  # the workload's queue depth, as PredictionInput keeps them
    finally:
        burst_start.LATE_START, cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = False, False


def edge_form(s: float, floor: float, x: float) -> float:
    """The reserve reading's hard corner: min(greedy(s/(1 − x) − 1), floor)."""
    return min(fitmod.waf_at(s / (1 - x / 100) - 1), floor)


def spare_through(waf: float, x: float) -> float:
    """The spare factor s whose greedy curve passes through ``waf`` at ``x``% (s/(1−x) − 1 = ρ)."""
    return (1 + fitmod.rho_for_waf(waf)) * (1 - x / 100)


def one_arm(label: str, m, points, truth: dict[float, float]) -> None:
    fob = m.fob_iops
    fig = {p.extra_op_percent: p for p in points if not p.fresh}
    w0, w40 = fig[0.0].waf, fig[40.0].waf
    print(
        f"  [{label}] figures: WAF 0% {w0:.3f} ({pct(w0, truth[0.0])} vs truth, sd "
        f"{fig[0.0].waf_rel_sd:.3f}), 40% {w40:.3f} ({pct(w40, truth[40.0])}, sd "
        f"{fig[40.0].waf_rel_sd:.3f}); 40% / 0% {pct(w40, w0)}"
    )
    probs = plausibility.input_problems(points)
    if probs:
        print(f"    input rule refuses: {'; '.join(probs)}")
        return
    plain_fit = fitmod.fit(points, fob_iops=fob)
    print(
        f"    plain greedy fit: rho0 {plain_fit.native_op:.4f}, WAF 0% {plain_fit.waf(0):.3f} "
        f"({pct(plain_fit.waf(0), w0)}), 40% {plain_fit.waf(40):.3f} "
        f"({pct(plain_fit.waf(40), w40)}); "
        f"gate: {plausibility.surrogate_misses_its_points(plain_fit, points) or 'passes'}"
    )
    onset = onset_from_empty(m)
    cv_sd = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, m.kind == "sim"))
    print(f"    onset from empty {onset:.4f}; model-form sd {cv_sd:.4f}")
    for design, form in gc_reserve.design_forms(onset, cv_sd):
        t = form.floor_test(points)
        line = f"    reserve/{design}: floor test "
        if not t["called_for"]:
            why = t.get("why") or f"log ratio {t['log_ratio']:.3f} <= {t['threshold']:.3f}"
            print(f"{line}not called for ({why})")
            continue
        s = form.fit(points)
        checked = form.checked_points(points)
        checked_40 = next(p.waf for p in checked if p.extra_op_percent == 40.0)
        ev = evidence.assess(form, checked, cv_sd)
        rep = evidence.reproduced(ev, untested=False)
        res = ", ".join(
            f"{r['extra_op_percent']:g}% {r['figure']}{' fob' if r['fresh'] else ''} "
            f"{r['log_error']:+.3f}/{r['rel_sd']:.3f}"
            for r in ev["residuals"]
        )
        chi_max = evidence.chi2_quantile(ev["n_figures"] - ev["n_parameters"])
        gate = plausibility.surrogate_misses_its_points(s, points)
        print(
            f"{line}called for (floor {t['waf']:.3f} read from "
            f"{', '.join(f'{k} {v:.3f}' for k, v in t['read_from'].items())}; predicted from 40% "
            f"{t['predicted_from_others']:.3g}); spare s {1 + s.native_op:.4f}, WAF 0% "
            f"{s.waf(0):.3f} ({pct(s.waf(0), w0)}), 40% {s.waf(40):.3f} "
            f"({pct(s.waf(40), w40)} vs figure, {pct(s.waf(40), truth[40.0])} vs truth); "
            f"40% figure checked as {checked_40:.3f}"
        )
        print(
            f"      residual chi2 {ev['residual_chi2']:.2f} on {ev['n_figures']} figures, "
            f"{ev['n_parameters']} parameters (bound {chi_max:.2f}): "
            f"{'reproduces' if rep else 'does NOT reproduce'} -> offered {rep}; [{res}]; "
            f"its own miss check: {gate or 'passes'}"
        )
    why = plausibility.fit_misses_its_points(points, fob, onset, None)
    print(f"    gate (plausibility.fit_misses_its_points): {why or 'passes'}")


def truth_shape(name: str, truth: dict[float, float], onset: float) -> None:
    floor = truth[0.0]
    s_greedy = [spare_through(truth[x], x) for x in LEVELS if truth[x] < floor * 0.99]
    print("  truth WAF: " + ", ".join(f"{x:g}% {truth[x]:.3f}" for x in LEVELS))
    print(
        f"  onset from empty {onset:.4f}: greedy from it at 40% "
        f"{fitmod.waf_at(onset / 0.6 - 1):.3f} (rho {onset / 0.6 - 1:.4f}); hard corner "
        f"min(greedy, {floor:.2f}) at 0-40%: "
        + ", ".join(f"{edge_form(onset, floor, x):.3f}" for x in LEVELS)
    )
    edge = 100 * (1 - onset / (1 + fitmod.rho_for_waf(floor)))
    print(f"    its edge (greedy meets the floor) at {edge:.1f}% extra OP")
    if s_greedy:
        s = s_greedy[-1]
        e2 = 100 * (1 - s / (1 + fitmod.rho_for_waf(floor)))
        print(
            f"  spare the truth's 40% figure reads on the greedy curve: s {s:.4f} "
            f"({pct(s, onset)} vs the onset); its edge at {e2:.1f}% extra OP"
        )
    else:
        print("  truth flat to 40% (no level below 99% of its 0% figure): the edge lies past 40%")


def main() -> int:
    t0 = os.times()
    for name, folder, truth_path in CASES:
        truth = truth_waf(truth_path)
        print(f"== {name}: {folder}; truth {truth_path}")
        m = None
        for arm, (late, plain) in ARMS.items():
            m, points = points_of(folder, late, plain)
            one_arm(arm, m, points, truth)
        truth_shape(name, truth, onset_from_empty(m))
        for arm, (late, plain) in ARMS.items():
            _, points = points_of(folder, late, plain)
            fig = {p.extra_op_percent: p.waf for p in points if not p.fresh}
            if fig[40.0] < fig[0.0]:
                s = spare_through(fig[40.0], 40.0)
                e = 100 * (1 - s / (1 + fitmod.rho_for_waf(fig[0.0])))
                print(
                    f"  [{arm}] edge placed by the figures (floor {fig[0.0]:.3f}, greedy "
                    f"through {fig[40.0]:.3f} at 40%): s {s:.4f} ({pct(s, onset_from_empty(m))} vs "
                    f"onset), edge {e:.1f}%; at 0-40%: "
                    + ", ".join(
                        f"{w:.3f} ({pct(w, truth[x])})"
                        for x, w in ((x, edge_form(s, fig[0.0], x)) for x in LEVELS)
                    )
                )
            else:
                print(f"  [{arm}] 40% figure {fig[40.0]:.3f} not below 0% {fig[0.0]:.3f}: no edge")
    t1 = os.times()
    print(f"CPU s (user + system): {t1.user - t0.user + t1.system - t0.system:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
