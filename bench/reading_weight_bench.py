"""Which reading a kept measurement's IOPS prediction follows, against its first level's
spread: the blocking-GC reading's weight as the 0% figure's relative standard error changes.

calibrate weighs the analytic reading's IOPS with the blocking-GC reading's by their evidence
(``blocking_reading.weigh``, ``evidence.py``). Where neither reproduces its fitted figures
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

``--modes likelihood,form-error,by-figure`` predicts each kept calibration once per way of
weighing readings that all fail to reproduce their figures (``evidence.REFUTED_WEIGHTS``;
``by-figure``: the likelihood among the readings that reproduce the most figures one by one,
``evidence.REPRODUCED_BY_FIGURE``) and prints
the blocking-GC weight and the predicted IOPS errors of each (the truth is simulated once per
drive and kept in DIR/DRIVE/truth.json). ``--spare`` does the same at the surrogate level for
the spare readings (``spare_readings.read_all``'s: the effective spare and, with the raw NAND,
the raw spare used k times, each with every uniform GC design), as ``bench/gc_reserve_bench.py``
weighs them: calibrate's plan (IOPS and WAF at 0% and 40%, FOB) on each foreign curve of
``--foreign`` and each level of the uniform corpus drives and foreign curves held out in turn.

    PYTHONPATH=python python bench/reading_weight_bench.py --dir DIR --drives generated-50 \
        --modes likelihood,form-error
    PYTHONPATH=python python bench/reading_weight_bench.py --spare [--foreign DIR ...] \
        [--corpus bench/corpus] [--out FILE]

docs/calibrate-validation.md, "Readings that all fail their figures: weighed by their form
error".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from overprov import measurement_file
from overprov.calibrate import answer, evidence, gc_blocking, uncertainty, validation
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.measurement_file import Measurement

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gc_reserve_bench  # noqa: E402  (bench/, beside this script)
from corpus_bench import load  # noqa: E402
from corpus_foreign import foreign_drives  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
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
    ``blocking_reading.weigh`` works them out, with the spare of the refined twin)."""
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


#: ``--modes``: the likelihood with a reading that reproduces fewer figures one by one set aside
#: (``evidence.REPRODUCED_BY_FIGURE``); the other modes are ``evidence.REFUTED_WEIGHTS``'s.
BY_FIGURE = "by-figure"


def prediction_errors(m: Measurement, truth: dict, mode: str | None = None) -> dict[str, Any]:
    """The whole prediction of ``m`` with readings that all fail weighed the ``mode`` way
    (``evidence.REFUTED_WEIGHTS``, or :data:`BY_FIGURE`; None: as set): its IOPS |errors|
    against the truth per level, the analytic and blocking-GC readings' own, the blocking-GC
    weight and the refined twin's spare."""
    kept = evidence.REFUTED_WEIGHTS, evidence.REPRODUCED_BY_FIGURE
    if mode == BY_FIGURE:
        evidence.REFUTED_WEIGHTS, evidence.REPRODUCED_BY_FIGURE = "likelihood", True
    elif mode:
        evidence.REFUTED_WEIGHTS, evidence.REPRODUCED_BY_FIGURE = mode, False
    try:
        with tempfile.TemporaryDirectory() as out:
            pred = answer.predict(_input(m)).document(Path(out))
    finally:
        evidence.REFUTED_WEIGHTS, evidence.REPRODUCED_BY_FIGURE = kept
    rows = pred["levels"]
    mech = pred["fit"].get("gc_mechanism") or {}

    def errs(key: str) -> list[float]:
        return [abs(r[key] / truth[r["extra_op_percent"]][0] - 1) for r in rows if r.get(key)]

    refuted = mech and not (mech["reproduces_fitted_figures"]
                            or mech["analytic_reproduces_fitted_figures"])  # fmt: skip
    return {"iops": errs("steady_iops"), "analytic": errs("analytic_iops"),
            "blocking": errs("blocking_gc_iops"), "weight": mech.get("weight"),
            "native_op": mech.get("native_op"), "both_fail": bool(refuted)}  # fmt: skip


def _med_worst(e: list[float]) -> str:
    return f"{100 * statistics.median(e):.1f}% / {100 * max(e):.1f}%" if e else "—"


def predicted(m: Measurement, truth: dict) -> tuple[str, float | None]:
    """The whole prediction's IOPS errors against the truth (median / worst), the analytic
    reading's alone beside; and the refined twin's spare."""
    got = prediction_errors(m, truth)
    return f"{_med_worst(got['iops'])} (analytic alone {_med_worst(got['analytic'])})", got[
        "native_op"
    ]


def kept_truth(folder: Path, spec: str) -> dict[float, tuple[float, float | None]]:
    """The drive's truth at every level (``validation.truth``), simulated once and kept in
    ``folder``/truth.json."""
    path = folder / "truth.json"
    if path.exists():
        doc = json.loads(path.read_text())
        if doc["spec"] == spec:
            return {float(x): tuple(v) for x, v in doc["levels"].items()}  # type: ignore[misc]
    true = validation.truth(spec, LEVELS)
    levels = {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in true.levels}
    path.write_text(json.dumps({"spec": spec, "levels": levels}) + "\n")
    return levels


def modes_table(folder: Path, drives: list[str], plans: list[str], modes: list[str]) -> str:
    """Per kept calibration and mode: the blocking-GC weight and the predicted IOPS errors
    (median / worst), each reading's own beside."""
    out = [
        "| drive | plan | " + " | ".join(f"{m}: blocking-GC weight | {m}: predicted IOPS "
                                         "median / worst" for m in modes)
        + " | analytic reading alone | blocking-GC reading alone | both fail their figures |",
        "|---|---|" + "---|---|" * len(modes) + "---|---|---|",
    ]  # fmt: skip
    for drive in drives:
        for plan in plans:
            m = measurement_file.load(folder / drive / f"cal-{plan}" / measurement_file.NAME)
            truth = kept_truth(folder / drive, m.target)
            cells, got = [], {}
            for mode in modes:
                got = prediction_errors(m, truth, mode)
                w = got["weight"]
                cells += ["—" if w is None else f"{w:.2g}", _med_worst(got["iops"])]
            alone = (f" | {_med_worst(got['analytic'])} | {_med_worst(got['blocking'])} | "
                     f"{'yes' if got['both_fail'] else 'no'} |")  # fmt: skip
            out.append(f"| {drive} | {plan} | " + " | ".join(cells) + alone)
            print(out[-1], file=sys.stderr, flush=True)
    return "\n".join(out)


def spare_cases(folders: list[Path], corpus: Path | None, cv_sd: float) -> list[dict[str, Any]]:
    """The cases of ``bench/gc_reserve_bench.py`` (calibrate's plan on each foreign curve, ± the
    raw NAND; each level of the uniform corpus drives and foreign curves held out in turn), its
    baseline (``baseline``) the spare readings weighed as calibrate weighs them and its second
    prediction (``with_reserve``, there the reserve reading added) the same readings weighed the
    "form-error" way; ``reserve_weight`` is 0 throughout."""

    spare_only = gc_reserve_bench.readings

    def two_ways(points, raw_op, cv_sd, second):  # type: ignore[no-untyped-def]
        kept = evidence.REFUTED_WEIGHTS
        evidence.REFUTED_WEIGHTS = "form-error" if second else "likelihood"
        try:  # the spare readings alone (no reserve reading), weighed that way
            return spare_only(points, raw_op, cv_sd, False)
        finally:
            evidence.REFUTED_WEIGHTS = kept

    gc_reserve_bench.readings = two_ways  # type: ignore[assignment]
    try:
        cases = gc_reserve_bench.plan_cases(folders, cv_sd)
        drives = load(corpus) if corpus else []
        for folder in folders:
            drives += foreign_drives(folder)
        cases += gc_reserve_bench.loo_cases(drives, cv_sd)
    finally:
        gc_reserve_bench.readings = spare_only
    return cases


def better_by_more_than_1pt(cases: list[dict[str, Any]], kind: str) -> int:
    """Figures the second way predicts better than the baseline by more than 1 point (what
    ``gc_reserve_bench.summary`` does not count)."""
    rows = [r for c in cases if c["kind"] == kind for r in c["rows"]]
    return sum(abs(r["with_reserve_error"]) < abs(r["baseline_error"]) - 0.01 for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, help="cheap_plan_bench.py --dir")
    ap.add_argument("--drives", default="generated-50", help="folders in --dir")
    ap.add_argument("--plans", default="graded,random")
    ap.add_argument("--sd", default="0.01,0.011,0.012,0.015,0.02,0.03")
    ap.add_argument("--predict", action="store_true", help="each variant's whole prediction")
    ap.add_argument("--modes", default=None,
                    help="likelihood,form-error,by-figure: predict each way")  # fmt: skip
    ap.add_argument("--spare", action="store_true", help="the spare readings, surrogate level")
    ap.add_argument("--foreign", type=Path, action="append", default=None,
                    help="--spare: a results folder (default bench/foreign/results)")  # fmt: skip
    ap.add_argument("--corpus", type=Path, default=ROOT / "bench" / "corpus",
                    help="--spare: the published corpus's folder ('' for none)")  # fmt: skip
    ap.add_argument("--out", type=Path, default=ROOT / "target" / "bench" / "reading_weight.json")
    args = ap.parse_args()
    if args.spare:
        mf = uncertainty.recorded_model_form(False)
        cv_sd = mf.rel_sd if mf is not None else 0.0
        folders = args.foreign or [ROOT / "bench" / "foreign" / "results"]
        cases = spare_cases(folders, args.corpus if str(args.corpus) else None, cv_sd)
        summary = gc_reserve_bench.summary(cases)
        for kind, got in summary.items():
            got["better_by_more_than_1pt"] = better_by_more_than_1pt(cases, kind)
        labels = {"baseline": "likelihood", "with_reserve": "form-error (REFUTED_WEIGHTS)"}
        doc = {"model_rel_sd": cv_sd, "labels": labels, "summary": summary, "cases": cases}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
        print(json.dumps(doc["summary"], indent=1))
        return 0
    if args.dir is None:
        ap.error("--dir: give cheap_plan_bench.py's --dir (or --spare)")
    drives = [d for d in args.drives.split(",") if d]
    plans = [p for p in args.plans.split(",") if p]
    _kept_runs()
    if args.modes:
        print(modes_table(args.dir, drives, plans, [m for m in args.modes.split(",") if m]))
        return 0
    sds = [float(s) for s in args.sd.split(",") if s]
    print("| drive | plan | 0% figures | 0% IOPS spread | chi2 analytic | chi2 blocking-GC | "
          "blocking-GC miss at 0% | blocking-GC weight |"
          + (" predicted IOPS median / worst |" if args.predict else ""))  # fmt: skip
    print("|---|---|---|---|---|---|---|---|" + ("---|" if args.predict else ""))
    for drive in drives:
        for plan in plans:
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
