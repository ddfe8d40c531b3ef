"""Which reading a kept measurement's IOPS prediction follows, against its first level's
spread: the blocking-GC reading's weight as the 0% figure's relative standard error changes.

calibrate weighs the analytic reading's IOPS with the blocking-GC reading's by their evidence
(``predict._blocking_reading``, ``evidence.py``). Where neither reproduces its fitted figures
the weights are plain likelihoods, exp(−χ²/2), and a difference of χ² in the hundreds gives
one reading all the weight. This bench refits a measurement kept by ``bench/cheap_plan_bench.py
--dir`` (DIR/DRIVE/cal-PLAN/measurement.json) with its 0% level's ``iops_rel_sd`` set to each
of ``--sd`` (and once with the 0% IOPS and WAF replaced by the drive's truth, its spread kept),
and prints each reading's χ² and the weight (the blocking-GC twins' runs are kept between the
variants: their figures do not depend on the spread). ``--predict`` also runs the whole
prediction of each variant and gives its IOPS errors against the truth (the analytic reading
alone beside).

    PYTHONPATH=python python bench/reading_weight_bench.py --dir DIR [--drives generated-50]
        [--plans graded,random] [--sd 0.01,0.02,0.03] [--predict]

docs/calibrate-graded-plan.md, "Why a 4% misreading became a 30-40% miss".
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import answer, evidence, gc_blocking, uncertainty, validation
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.measurement_file import Measurement

LEVELS = validation.TRUTH_LEVELS


def _kept_runs() -> None:
    """Keep the blocking-GC twins' runs in this process, by spare, run and every other argument
    (the program time of a prediction's runs among them): each variant's fit asks for the same."""
    runs: dict = {}
    simulate = gc_blocking.simulate_runs

    def kept(native_op: float, keys: list, **kw: object) -> dict:
        how = (native_op, tuple(sorted((k, repr(v)) for k, v in kw.items() if k != "progress")))
        new = [k for k in dict.fromkeys(keys) if (how, k) not in runs]
        if new:
            for k, v in simulate(native_op, new, **kw).items():  # type: ignore[arg-type]
                runs[(how, k)] = v
        return {k: runs[(how, k)] for k in keys}

    gc_blocking.simulate_runs = kept  # type: ignore[assignment]


def variant(m: Measurement, sd: float | None, truth: dict | None = None) -> Measurement:
    """``m`` with its 0% level's IOPS spread ``sd`` (None: as kept) and, given ``truth``, that
    level's IOPS and WAF the truth's."""
    v = dataclasses.replace(m, levels=[dataclasses.replace(lv) for lv in m.levels])
    for lv in v.levels:
        if lv.extra_op_percent == 0 and not lv.queue_depth:
            if sd is not None:
                lv.iops_rel_sd = sd
            if truth is not None:
                lv.steady_iops, lv.waf = truth[0.0]
    return v


def _input(m: Measurement) -> predmod.PredictionInput:
    return predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops,
        advertised_bytes=int(m.capacity_bytes / m.scale_factor), measurement=m, source=m.target,
    )  # fmt: skip


def weighed(m: Measurement, native_op: float) -> dict:
    """Both readings' χ² at ``m``'s figures and the blocking-GC reading's weight (as
    ``predict._blocking_reading`` works them out, with the spare of the refined twin)."""
    fig = _input(m)
    mfe = uncertainty.recorded_model_form(m.kind == "sim")
    cv = mfe.rel_sd if mfe is not None else 0.0
    a = evidence.assess(evidence.ReadingForm(fitmod.waf_at), fig.points, cv, fig.other_qd_points)
    b = gc_blocking.fit(fig.points + fig.other_qd_points, native_op, queue_depth=m.qd,
                        model_rel_sd=cv)  # fmt: skip
    if b is None:
        return {}
    reproduced = {
        "analytic": evidence.reproduces(a["residual_chi2"], a["n_figures"], a["n_parameters"]),
        "blocking": b.reproduces(),
    }
    w = evidence.weights({"analytic": a["chi2"], "blocking": b.chi2}, reproduced)["blocking"]
    miss = next(r["log_error"] for r in b.residuals
                if r["extra_op_percent"] == 0 and r["figure"] == "iops")  # fmt: skip
    return {"analytic": a["chi2"], "blocking": b.chi2, "weight": w, "miss": math.expm1(miss),
            "reproduced": reproduced}  # fmt: skip


def predicted(m: Measurement, truth: dict) -> tuple[str, float | None]:
    """The whole prediction's IOPS errors against the truth (median / worst), the analytic
    reading's alone beside; and the refined twin's spare."""
    pred = answer.predict(_input(m)).document(Path("."))
    rows = pred["levels"]

    def errs(key: str) -> str:
        e = [abs(r[key] / truth[r["extra_op_percent"]][0] - 1) for r in rows if r.get(key)]
        return f"{100 * statistics.median(e):.1f}% / {100 * max(e):.1f}%" if e else "—"

    native = (pred["fit"].get("gc_mechanism") or {}).get("native_op")
    return f"{errs('steady_iops')} (analytic alone {errs('analytic_iops')})", native


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, required=True, help="cheap_plan_bench.py --dir")
    ap.add_argument("--drives", default="generated-50", help="folders in --dir")
    ap.add_argument("--plans", default="graded,random")
    ap.add_argument("--sd", default="0.01,0.011,0.012,0.015,0.02,0.03")
    ap.add_argument("--predict", action="store_true", help="each variant's whole prediction")
    args = ap.parse_args()
    sds = [float(s) for s in args.sd.split(",") if s]
    _kept_runs()
    print("| drive | plan | 0% figures | 0% IOPS spread | chi2 analytic | chi2 blocking-GC | "
          "blocking-GC miss at 0% | blocking-GC weight |"
          + (" predicted IOPS median / worst |" if args.predict else ""))  # fmt: skip
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.predict else ""))
    for drive in filter(None, args.drives.split(",")):
        for plan in filter(None, args.plans.split(",")):
            m = measurement_file.load(args.dir / drive / f"cal-{plan}" / measurement_file.NAME)
            true = validation.truth(m.target, LEVELS)
            truth = {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in true.levels}
            kept_sd = next(lv.iops_rel_sd for lv in m.levels
                           if lv.extra_op_percent == 0 and not lv.queue_depth)  # fmt: skip
            said, native = predicted(m, truth)
            cases = [("measured", None, None)] + [("measured", s, None) for s in sds]
            cases.append(("the truth's", None, truth))
            for what, sd, tr in cases:
                v = variant(m, sd, tr)
                if args.predict and (sd is not None or tr is not None):
                    said, _ = predicted(v, truth)
                got = weighed(v, native) if native is not None else {}
                if not got:
                    print(f"| {drive} | {plan} | {what} | — | no blocking-GC reading |")
                    continue
                print(
                    f"| {drive} | {plan} | {what} | {100 * (sd or kept_sd):.1f}%"
                    f"{'' if sd is not None else ' (kept)'} | {got['analytic']:.0f} | "
                    f"{got['blocking']:.0f} | {100 * got['miss']:+.1f}% | {got['weight']:.2g} |"
                    + (f" {said} |" if args.predict else ""),
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
