"""Why FEMU's typed figures carry the plain d-choices-2 reading, and why greedy's reserve reading
puts WAF at 20% 8-18% high (a diagnosis on seen drives; judging nothing).

For each seen fresh FEMU drive below, its typed figures read back from its stored case's command
(``bench/intervals/hullgate/centre_diag.py``'s ``fig_of``), then:

(a) today's defaults: every reading ``spare_readings.weigh`` offers, its χ² split into the terms
    ``evidence.assess`` adds (residuals, held-out figures), its WAF-only χ² (``waf_chi2``, what
    ``evidence.WAF_WEIGHTS`` shares the class by), parameters, and the class weights; then the
    same with the reserve readings offered beside the plain ones
    (``steep_pair.HULL_WHERE_AMBIGUOUS``), so the reserve readings' terms sit beside d = 2's.
(b) ``steep_pair.READ_AS_FLOOR`` + ``reserve_held_out.SAME_FORM_ONLY``: greedy's reserve
    surrogate (spare factor s = 1 + ρ₀ − reserve, floor W, where its curve meets W) against the
    FEMU config's true threshold reserve (the truth's harness geometry: lines, gc_thres_lines,
    the namespace in lines; the free lines its rounds end with), and the greedy curve at the true
    s and at the s each truth level implies.

Surrogates only; nothing simulated.

    PYTHONPATH=python python bench/foreign/results/femucarry/diagnose.py > diagnosis.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import reserve_held_out, spare_readings, steep_pair

HERE = Path(__file__).resolve().parent
RES = HERE.parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
sys.path.insert(0, str(RES / "steephull"))
from centre_diag import fig_of  # noqa: E402
from fires import command_of  # noqa: E402  (steephull's)

#: Seen drives: (folder under results/, the folder of a stored case of it, stem).
DRIVES = [("femutwin", "fresh-a", "femu-44lun-43blk-thres67"),
          ("femutwin", "fresh-a", "femu-56lun-39blk-thres66"),
          ("femunext", "fresh-off", "femu-63lun-33blk-thres63")]  # fmt: skip
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def figures(case: str):
    """The typed figures of a stored case (under results/) as its command gave them."""
    fig = fig_of(command_of(json.loads((RES / case).read_text())))
    fig.jobs, fig.progress = 1, False
    return fig


def truth_of(path: str) -> dict:
    """The truth's QD32 levels (WAF, mean free lines over the steady window) and geometry."""
    doc = json.loads((RES / path).read_text())
    geo = None
    levels = {}
    for lv in doc["levels"]:
        if lv["queue_depth"] != 32:
            continue
        geo = lv["harness"]["geometry"]
        lo, hi = lv["steady_window"]["span_writes"]
        free = [r["free_lines"] for r in lv["series"] if lo < r["span_writes"] <= hi]
        levels[float(lv["extra_op_percent"])] = {
            "waf": lv["steady_waf"],
            "free_lines": sum(free) / len(free),
            "span_lines": lv["span_pages"] / geo["pgs_per_line"],
        }
    return {"geometry": geo, "levels": levels}


def weigh_table(fig, title: str) -> list[str]:
    evs, _ = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    out = [f"  {title}"]
    for r in sorted(evs, key=lambda k: -w[k]):
        ev = evs[r]
        terms = []
        for x in ev["residuals"]:
            where = "FOB" if x["fresh"] else f"{x['extra_op_percent']:g}%"
            qd = f"@qd{x['queue_depth']}" if "queue_depth" in x else ""
            terms.append(f"{where} {x['figure']}{qd} {(x['log_error'] / x['rel_sd']) ** 2:.2f}")
        held = []
        for h in ev["held_out"]:
            qd = f"@qd{h['queue_depth']}" if "queue_depth" in h else ""
            held.append(f"{h['extra_op_percent']:g}% {h['figure']}{qd} ln {h['log_error']:+.3f}")
        out.append(
            f"    {r.key:28s} w={w[r]:.3g}  chi2={ev['chi2']:.2f} = residual "
            f"{ev['residual_chi2']:.2f} + held-out {spare_readings.loo_chi2(ev):.2f}; "
            f"waf_chi2={ev.get('waf_chi2', float('nan')):.2f} (WAF residual "
            f"{ev.get('waf_residual_chi2', float('nan')):.3f}); params {ev['n_parameters']}, "
            f"figures {ev['n_figures']}"
        )
        out.append("      residual terms: " + "; ".join(terms))
        out.append("      held-out log errors: " + "; ".join(held))
        if r.spare == predmod.RESERVE:
            s = r.reserve.fit(fig.points)
            out.append(f"      reserve surrogate: s={1 + s.native_op:.4f} floor={s.waf_floor}")
    return out


def edge_of(s: float, floor: float, curve=fitmod.waf_at) -> float:
    """The extra OP (%) where curve(s/(1-x) - 1) falls to ``floor`` (bisection)."""
    lo, hi = 0.0, 0.9
    if curve(s / (1 - lo) - 1) <= floor:
        return 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if curve(s / (1 - mid) - 1) > floor:
            lo = mid
        else:
            hi = mid
    return 100 * (lo + hi) / 2


def reserve_part(fig, truth: dict) -> list[str]:
    steep_pair.READ_AS_FLOOR = True
    reserve_held_out.SAME_FORM_ONLY = True
    try:
        evs, _ = spare_readings.weigh(fig)
        w = spare_readings.class_weights(evs)
    finally:
        steep_pair.READ_AS_FLOOR = False
        reserve_held_out.SAME_FORM_ONLY = False
    g = truth["geometry"]
    lines, thres = g["tt_lines"], g["gc_thres_lines"]
    tl = truth["levels"]
    ns_lines = tl[0.0]["span_lines"]
    out = ["  (b) READ_AS_FLOOR + SAME_FORM_ONLY: weights " + ", ".join(
        f"{r.key} {w[r]:.3g}" for r in sorted(evs, key=lambda k: -w[k]))]  # fmt: skip
    out.append(
        f"    FEMU config: {lines} lines of {g['pgs_per_line']} pages, namespace "
        f"{ns_lines:.3f} lines, gc_thres_lines {thres} (background GC while free <= it), "
        f"gc_thres_lines_high {g['gc_thres_lines_high']}"
    )
    s_cfg = (lines - thres) / ns_lines
    s_cfg1 = (lines - thres - 1) / ns_lines
    out.append(
        f"    true spare factor (lines - gc_thres_lines) / namespace = {s_cfg:.4f}; less the "
        f"open line {s_cfg1:.4f}; reserve as a fraction of the NAND {thres / lines:.4f}, of "
        f"the namespace {thres / ns_lines:.4f}; native spare rho0 {lines / ns_lines - 1:.4f}"
    )
    rows = []
    for x, lv in sorted(tl.items()):
        s_free = (lines - lv["free_lines"]) / ns_lines
        rho_truth = fitmod.rho_for_waf(lv["waf"])
        s_implied = (1 + rho_truth) * (1 - x / 100)
        rows.append(
            f"      {x:4.0f}%: truth WAF {lv['waf']:.3f}; free lines (steady mean) "
            f"{lv['free_lines']:.2f} -> s in use {s_free:.4f}; greedy curve at s_cfg "
            f"{fitmod.waf_at(s_cfg / (1 - x / 100) - 1):.3f}, at s_cfg-1line "
            f"{fitmod.waf_at(s_cfg1 / (1 - x / 100) - 1):.3f}; s the truth implies "
            f"through greedy's curve {s_implied:.4f}"
        )
    out += rows
    for r in sorted(evs, key=lambda k: -w[k]):
        if r.spare != predmod.RESERVE:
            continue
        s = r.reserve.fit(fig.points)
        sf = 1 + s.native_op
        curve = r.reserve.curve
        edge = edge_of(sf, s.waf_floor, curve) if s.waf_floor else float("nan")
        cells = ", ".join(
            f"{x:g}%: {s.waf(x):.3f} ({s.waf(x) / tl[x]['waf'] - 1:+.1%})" for x in LEVELS
        )
        out.append(
            f"    {r.key}: s={sf:.4f} (true {s_cfg:.4f}/{s_cfg1:.4f}: "
            f"{sf / s_cfg - 1:+.1%}/{sf / s_cfg1 - 1:+.1%}), floor {s.waf_floor:.3f}, "
            f"edge at {edge:.1f}% extra OP; t_page {s.t_page_us:.2f} us, t_cmd "
            f"{s.t_cmd_us:.2f} us; WAF {cells}"
        )
        if s.waf_floor:
            tru = ", ".join(
                f"{x:g}%: {min(curve(s_c / (1 - x / 100) - 1), s.waf_floor):.3f}"
                for s_c in (s_cfg1,)
                for x in LEVELS
            )
            out.append(f"      same curve and floor at the true s (less the open line): {tru}")
    return out


def main() -> None:
    for folder, cases, stem in DRIVES:
        truth_path = f"{folder}/fresh/{stem}.json"
        fig = figures(f"{folder}/{cases}/FEMU--{folder}_fresh--{stem}.json")
        truth = truth_of(truth_path)
        print(f"\n{Path(truth_path).stem}: truth WAF " + ", ".join(
            f"{x:g}%: {lv['waf']:.3f}" for x, lv in sorted(truth["levels"].items())))  # fmt: skip
        print("  points: " + "; ".join(
            f"{'FOB' if p.fresh else f'{p.extra_op_percent:g}%'} QD{p.queue_depth} iops={p.iops}"
            f" waf={p.waf}" for p in fig.points))  # fmt: skip
        print("\n".join(weigh_table(fig, "(a) today's defaults")))
        steep_pair.HULL_WHERE_AMBIGUOUS = True
        try:
            print("\n".join(weigh_table(fig, "(a') reserve readings offered beside "
                                             "(HULL_WHERE_AMBIGUOUS)")))  # fmt: skip
        finally:
            steep_pair.HULL_WHERE_AMBIGUOUS = False
        print("\n".join(reserve_part(fig, truth)))


if __name__ == "__main__":
    main()
