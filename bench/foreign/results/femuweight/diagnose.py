"""Which term of the weighing puts the d-choices-8 reserve reading at 1e-22 (a diagnosis; judging
nothing). Each FEMU drive whose typed figures ``steep_pair.READ_AS_FLOOR`` reads (the fresh
drives of femutyped, femunext and steephull, and the seen ones the flag changes) weighed as
``spare_readings.weigh`` weighs them with the flag on; for each reserve reading, its χ² split
into every term ``evidence.assess`` adds (the residual at each fitted figure, and each held-out
figure's error with the surrogate fitted to the rest, with whether that held-out fit kept a
floor) and its surrogate WAF at 10-30% against the truth. Surrogates only; nothing simulated.

    PYTHONPATH=python python bench/foreign/results/femuweight/diagnose.py > diagnosis.txt
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from pathlib import Path

from overprov.calibrate import (
    evidence,
    reserve_held_out,
    reserve_hull,
    spare_readings,
    steep_pair,
    uncertainty,
)
from overprov.calibrate import predict as predmod

HERE = Path(__file__).resolve().parent
RES = HERE.parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402

#: (truth JSON, the off case whose command typed its figures), under bench/foreign/results/.
DRIVES = [
    ("byfig5/unseen/femu-6lun-240blk-thres68.json",
     "scoreboard/cases-mix/FEMU--byfig5_unseen--femu-6lun-240blk-thres68.json"),
    ("femufix/femu-11lun-290blk-thres69-3200us-on.json",
     "scoreboard/cases-mix/FEMU--femufix--femu-11lun-290blk-thres69-3200us-on.json"),
    ("gatefix/femu-33lun-82blk-thres56-3750us-ns81.json",
     "scoreboard/cases-mix/FEMU--gatefix--femu-33lun-82blk-thres56-3750us-ns81.json"),
] + [
    (f"{folder}/fresh/{stem}.json", f"{folder}/fresh-off/FEMU--{folder}_fresh--{stem}.json")
    for folder, stems in (
        ("femutyped", ("femu-39lun-40blk-thres66", "femu-45lun-36blk-thres71",
                       "femu-49lun-34blk-thres62")),
        ("femunext", ("femu-40lun-41blk-thres65", "femu-57lun-35blk-thres68",
                      "femu-63lun-33blk-thres63")),
    )
    for stem in stems
] + [
    (f"steephull/fresh/{stem}.json", f"steephull/off/FEMU--steephull_fresh--{stem}.json")
    for stem in ("femu-51lun-38blk-thres67", "femu-55lun-37blk-thres61")
]  # fmt: skip


def truth_waf(path: Path) -> dict[float, float]:
    doc = json.loads(path.read_text())
    return {float(lv["extra_op_percent"]): lv["steady_waf"] for lv in doc["levels"]
            if lv["queue_depth"] == 32 and "steady_waf" in lv}  # fmt: skip


def held_out_fits(form, points: list, cv_sd: float) -> list[str]:
    """Each held-out steady level: the surrogate fitted to the rest (floor or none), and the
    χ² term of each of the level's figures (as ``evidence.assess`` adds it)."""
    out = []
    for i, p in enumerate(points):
        if p.fresh:
            continue
        rest = [q for j, q in enumerate(points) if j != i]
        s = form.fit(rest)
        floor = getattr(s, "waf_floor", None)
        terms = []
        for what, e in evidence.log_errors(s, p):
            sd = math.hypot(evidence._sd(p, what), cv_sd)
            terms.append(f"{what} ln {e:+.3f} / sd {sd:.3f} -> {(e / sd) ** 2:.1f}")
        x = p.extra_op_percent
        out.append(f"    held out {x:g}% (QD {p.queue_depth}): fitted to the rest "
                   f"rho0={s.native_op:+.3f} floor={floor} WAF there {s.waf(x):.2f}"
                   f" for {p.waf}: " + "; ".join(terms))  # fmt: skip
    return out


def main() -> None:
    steep_pair.READ_AS_FLOOR = True
    for truth, case in DRIVES:
        doc = json.loads((RES / case).read_text())
        cmd = doc["command"]
        cmd = shlex.join(cmd) if isinstance(cmd, list) else cmd
        fig = fig_of("x " + cmd.split(" calibrate ", 1)[1])
        fig.jobs, fig.progress = 1, False
        cv_sd = uncertainty.weighing_rel_sd(fig.model_form)
        waf = truth_waf(RES / truth)
        evs, _ = spare_readings.weigh(fig)
        w = spare_readings.class_weights(evs)
        print(
            f"\n{Path(truth).stem}: truth WAF "
            + ", ".join(f"{x:g}%: {v:.3f}" for x, v in waf.items())
        )
        print("  points: " + "; ".join(
            f"{'FOB' if p.fresh else f'{p.extra_op_percent:g}%'} QD{p.queue_depth} "
            f"iops={p.iops} waf={p.waf} sd={p.iops_rel_sd:.3f}/{p.waf_rel_sd:.3f}"
            for p in fig.points))  # fmt: skip
        print(
            f"  cv_sd (model-form sd widening a held-out figure) = {cv_sd:.4f}; fires: "
            f"{reserve_hull.replaces_plain(fig, cv_sd)}"
        )
        for r in sorted(evs, key=lambda k: -w[k]):
            ev = evs[r]
            if r.spare != predmod.RESERVE:
                print(f"  {r.key:26s} w={w[r]:.3g} chi2={ev['chi2']:.1f}")
                continue
            s = r.reserve.fit(fig.points)
            errs = ", ".join(f"{x:g}%: {s.waf(x) / waf[x] - 1:+.1%}" for x in (10, 20, 30))
            print(
                f"  {r.key:26s} w={w[r]:.3g} chi2={ev['chi2']:.1f} = residual "
                f"{ev['residual_chi2']:.2f} ({ev['n_figures']} figures, {ev['n_parameters']} "
                f"parameters) + leave-one-out {spare_readings.loo_chi2(ev):.1f}; rho0="
                f"{s.native_op:+.3f} floor={s.waf_floor:.3f}; surrogate WAF {errs}"
            )
            for x in ev["residuals"]:
                print(
                    f"    residual {'FOB' if x['fresh'] else str(x['extra_op_percent']) + '%'} "
                    f"{x['figure']}{' QD' + str(x['queue_depth']) if 'queue_depth' in x else ''}"
                    f": ln {x['log_error']:+.4f} / {x['rel_sd']:.3f} -> "
                    f"{(x['log_error'] / x['rel_sd']) ** 2:.2f}"
                )
            print("\n".join(held_out_fits(r.reserve, fig.points, cv_sd)))
        print(" with reserve_held_out.SAME_FORM_ONLY:\n" + like_for_like(fig, waf))


def like_for_like(fig, waf: dict[float, float]) -> str:
    """The reserve readings' weights with ``reserve_held_out.SAME_FORM_ONLY`` on, and their
    surrogates' WAF mixed by those weights (the geometric mean, as a sketch of the centre)."""
    reserve_held_out.SAME_FORM_ONLY = True
    try:
        evs, _ = spare_readings.weigh(fig)
    finally:
        reserve_held_out.SAME_FORM_ONLY = False
    w = spare_readings.class_weights(evs)
    out = []
    mix = {x: 0.0 for x in (10, 20, 30)}
    for r in sorted(evs, key=lambda k: -w[k]):
        s = r.reserve.fit(fig.points)
        for x in mix:
            mix[x] += w[r] * math.log(s.waf(x))
        out.append(f"  {r.key:26s} w={w[r]:.3g} chi2={evs[r]['chi2']:.2f} (held-out terms "
                   f"left {len(evs[r]['held_out'])}, taken out "
                   f"{len(evs[r].get('held_out_without_floor', []))})")  # fmt: skip
    said = ", ".join(f"{x:g}%: {math.exp(v) / waf[x] - 1:+.1%}" for x, v in mix.items())
    return "\n".join(out) + f"\n  weighted surrogate WAF (geometric) {said}"


if __name__ == "__main__":
    main()
