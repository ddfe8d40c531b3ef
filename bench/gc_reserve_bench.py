"""The GC-reserve reading (``calibrate/gc_reserve.py``) against calibrate's readings as they are,
at the surrogate level, on the foreign FTLs' curves and the published corpus.

    PYTHONPATH=python python bench/gc_reserve_bench.py [--foreign DIR ...] [--corpus DIR] \
        [--out FILE] [--markdown]

Two kinds of case, each predicted twice: by calibrate's readings as they are (the baseline:
the effective spare, and with the raw NAND the raw spare used k times, each with every uniform
GC design, ``gc_designs.UNIFORM_DESIGNS``) and by the same readings with the reserve reading
added for each design where it is offered (``ReserveForm.called_for``: the figures call for its
floor and its capped fit reproduces them):

- **plan**: each foreign curve (``results/*.json`` of each ``--foreign`` folder, QD32, or a
  WAF-only curve at its own queue depth) fitted as calibrate's plan measures it — WAF at 0% and
  40%, with the IOPS there and the FOB figure when the curve has IOPS — with and without the
  raw NAND, and every level 0–40% predicted;
- **loo**: each level of each uniform drive of the corpus (``bench/corpus/*.toml``) and of the
  foreign curves held out in turn and predicted from the others, as ``bench/corpus_bench.py``
  holds them out (drives under a skewed workload are left out: the reading is offered for
  uniform figures only, so their predictions do not change).

A prediction is the readings' weighted geometric mean of their surrogates' figures, each reading
weighed as ``spare_readings.read_all`` weighs it (``evidence.assess`` with the recorded
model-form error, ``evidence.weights``): the figures calibrate's twins are refined to reproduce,
not the twins' simulations (a case costs milliseconds, not minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from overprov.calibrate import evidence, gc_designs, gc_reserve, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import load, point  # noqa: E402  (bench/, beside this script)
from corpus_foreign import foreign_drives  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PLAN_LEVELS = (0.0, 40.0)
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def readings(
    points: list[fitmod.Point],
    raw_op: float | None,
    cv_sd: float,
    with_reserve: bool,
    onset: float | None = None,
    fit_onset: bool = False,
) -> dict[tuple[str, str], dict[str, Any]]:
    """Each reading's surrogate and weight: ``{(spare, design): {"fit", "weight"}}``;
    ``onset``: the measured onset of garbage collection from empty, a figure every reading is
    weighed on too (``gc_reserve.with_onset``); ``fit_onset``: the reserve reading's spare is
    fitted to it as well (``ReserveForm.onset``: a candidate, not the rule's form)."""
    forms: dict[tuple[str, str], Any] = {}
    for design in gc_designs.UNIFORM_DESIGNS:
        curve = gc_designs.curve(design) or fitmod.waf_at
        forms[("effective", design)] = evidence.ReadingForm(curve)
        if raw_op is not None:
            forms[("raw", design)] = evidence.ReadingForm(curve, raw_op, True)
        if with_reserve:
            form = gc_reserve.ReserveForm(curve, cv_sd, onset=onset if fit_onset else None)
            if form.called_for(points):
                forms[("reserve", design)] = form
    evs: dict[tuple[str, str], dict[str, Any]] = {}
    fits = {}
    for key, form in forms.items():
        try:
            evs[key] = evidence.assess(form, points, cv_sd)
            fits[key] = form.fit(points)
            if onset is not None:
                evs[key] = gc_reserve.with_onset(evs[key], fits[key], onset)
        except ConfigError:  # one IOPS figure: no effective spare (read_all does the same)
            continue
    if not evs:  # corpus_bench.py records such a case as not predicted; so does this
        raise ConfigError("no reading can be fitted to these figures")
    w = evidence.weights(
        {k: e["chi2"] for k, e in evs.items()},
        {k: evidence.reproduces(e["residual_chi2"], e["n_figures"], e["n_parameters"])
         for k, e in evs.items()},
        evs,  # weighed the evidence.REFUTED_WEIGHTS way when every reading fails
    )  # fmt: skip
    return {k: {"fit": fits[k], "weight": w[k]} for k in evs}


def combined(reads: dict[tuple[str, str], dict[str, Any]], x: float, what: str) -> float:
    """The weighted geometric mean of the readings' figure ``what`` ("waf", "iops") at x."""
    num = den = 0.0
    for r in reads.values():
        v = r["fit"].waf(x) if what == "waf" else r["fit"].iops(x)
        if r["weight"] > 0 and math.isfinite(v) and v > 0:
            num += r["weight"] * math.log(v)
            den += r["weight"]
    return math.exp(num / den) if den else math.nan


def reserve_share(reads: dict[tuple[str, str], dict[str, Any]]) -> float:
    return sum(r["weight"] for k, r in reads.items() if k[0] == "reserve")


def _predict_both(points, raw_op, cv_sd, targets, onset=None, fit_onset=False) -> dict[str, Any]:
    """Baseline and with-reserve predictions of ``targets`` [(x, what, truth)]; ``onset``
    (the onset of garbage collection from empty, when measured) weighs the with-reserve
    readings, not the baseline's (calibrate as it is)."""
    out: dict[str, Any] = {"rows": [], "onset": onset}
    base = readings(points, raw_op, cv_sd, False)
    both = readings(points, raw_op, cv_sd, True, onset, fit_onset)
    out["reserve_weight"] = reserve_share(both)
    out["reserve_readings"] = sorted(k[1] for k in both if k[0] == "reserve")
    for x, what, truth in targets:
        b, r = combined(base, x, what), combined(both, x, what)
        out["rows"].append({"extra_op_percent": x, "figure": what, "truth": truth,
                            "baseline": b, "with_reserve": r, "baseline_error": b / truth - 1,
                            "with_reserve_error": r / truth - 1})  # fmt: skip
    return out


def onset_of(d: dict[str, Any], onsets: dict[Path, float]) -> float | None:
    """The drive's measured onset (``bench/foreign/femu_onset.py``), or None."""
    return onsets.get((ROOT / d["file"]).resolve()) if d.get("file") else None


def load_onsets(paths: list[Path]) -> dict[Path, float]:
    """``femu_onset.py``'s files: {results file (resolved): onset spare factor}."""
    out: dict[Path, float] = {}
    for p in paths:
        for row in json.loads(p.read_text()):
            out[(ROOT / row["file"]).resolve()] = float(row["onset_spare_factor"])
    return out


def plan_cases(
    folders: list[Path],
    cv_sd: float,
    onsets: dict[Path, float] | None = None,
    fit_onset: bool = False,
) -> list[dict[str, Any]]:
    out = []
    for folder in folders:
        for d in foreign_drives(folder):
            figs = d["figure"]
            raw = d.get("raw_nand_bytes")
            raw_op = raw / d["advertised_bytes"] - 1 if raw else None
            fitted = [f for f in figs if float(f["extra_op_percent"]) in PLAN_LEVELS]
            if not any(f["kind"] == "waf" for f in fitted):
                continue
            targets = [(float(f["extra_op_percent"]), f["kind"], float(f["value"]))
                       for f in figs if f["kind"] in ("waf", "iops")]  # fmt: skip
            for given in (False, True) if raw_op is not None else (False,):
                onset = onset_of(d, onsets or {})
                case = _predict_both([point(f) for f in fitted], raw_op if given else None,
                                     cv_sd, targets, onset, fit_onset)  # fmt: skip
                out.append({"kind": "plan", "folder": str(folder), "drive": d["id"],
                            "name": d["name"], "raw_nand_given": given, **case})  # fmt: skip
    return out


def loo_cases(
    drives: list[dict[str, Any]],
    cv_sd: float,
    onsets: dict[Path, float] | None = None,
    fit_onset: bool = False,
) -> list[dict[str, Any]]:
    out = []
    for d in drives:
        if d["workload"] != "uniform":
            continue
        steady = [f for f in d["figure"] if f["kind"] in ("iops", "waf")]
        fob = [f for f in d["figure"] if f["kind"] == "fob_iops"]
        raw = d.get("raw_nand_bytes")
        raw_op = raw / d["advertised_bytes"] - 1 if raw else None
        for x in sorted({float(f["extra_op_percent"]) for f in steady}):
            held = [f for f in steady if float(f["extra_op_percent"]) == x]
            rest = [f for f in steady if float(f["extra_op_percent"]) != x] + fob
            if not any(f["kind"] != "fob_iops" for f in rest):
                continue
            targets = [(x, f["kind"], float(f["value"])) for f in held]
            for given in (True, False) if raw_op is not None else (False,):
                try:
                    onset = onset_of(d, onsets or {})
                    case = _predict_both([point(f) for f in rest], raw_op if given else None,
                                         cv_sd, targets, onset, fit_onset)  # fmt: skip
                except ConfigError as e:
                    print(f"{d['id']} hold {x:g}%: cannot fit ({e})", file=sys.stderr)
                    continue
                out.append({"kind": "loo", "drive": d["id"], "name": d["name"],
                            "foreign": d.get("foreign", False), "raw_nand_given": given,
                            **case})  # fmt: skip
    return out


def markdown(cases: list[dict[str, Any]]) -> str:
    head = "| case | drive | raw NAND | reserve weight | level: figure truth → baseline / with reserve |"  # noqa: E501
    lines = [head, "|---|---|---|---|---|"]
    for c in cases:
        cells = "; ".join(
            f"{r['extra_op_percent']:g}% {r['figure']} {r['truth']:.4g} → "
            f"{100 * r['baseline_error']:+.1f}% / {100 * r['with_reserve_error']:+.1f}%"
            for r in c["rows"]
        )
        lines.append(f"| {c['kind']} | {c['drive']} | {'yes' if c['raw_nand_given'] else 'no'} "
                     f"| {c['reserve_weight']:.2f} | {cells} |")  # fmt: skip
    return "\n".join(lines)


def summary(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kind: cases changed by the reading, and |error| median and worst before and after."""
    out: dict[str, Any] = {}
    for kind in ("plan", "loo"):
        rows = [r for c in cases if c["kind"] == kind for r in c["rows"]]
        if not rows:
            continue
        b = [abs(r["baseline_error"]) for r in rows]
        a = [abs(r["with_reserve_error"]) for r in rows]
        out[kind] = {
            "figures": len(rows),
            "changed": sum(abs(x - y) > 1e-9 for x, y in zip(a, b, strict=True)),
            "worse_by_more_than_1pt": sum(x > y + 0.01 for x, y in zip(a, b, strict=True)),
            "baseline_median": statistics.median(b), "baseline_worst": max(b),
            "with_reserve_median": statistics.median(a), "with_reserve_worst": max(a),
        }  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--foreign", type=Path, action="append", default=None,
                    help="a folder of results files (default bench/foreign/results)")  # fmt: skip
    ap.add_argument("--corpus", type=Path, default=ROOT / "bench" / "corpus",
                    help="the published corpus's folder ('' for none)")  # fmt: skip
    ap.add_argument("--no-loo", action="store_true", help="plan cases only")
    ap.add_argument("--out", type=Path, default=ROOT / "target" / "bench" / "gc_reserve.json")
    ap.add_argument("--markdown", action="store_true", help="print every case's table")
    ap.add_argument("--onsets", type=Path, action="append", default=[],
                    help="bench/foreign/femu_onset.py's output: the drives' onsets of GC from "
                    "empty, weighing the with-reserve readings")  # fmt: skip
    ap.add_argument("--fit-onset", action="store_true",
                    help="fit the reserve reading's spare to the onset as well (a candidate "
                    "after bench/foreign/results/gc-onset/RULE.md, not its form)")  # fmt: skip
    args = ap.parse_args(argv)
    folders = args.foreign or [ROOT / "bench" / "foreign" / "results"]
    mf = uncertainty.recorded_model_form(False)
    cv_sd = mf.rel_sd if mf is not None else 0.0
    onsets = load_onsets(args.onsets)
    cases = plan_cases(folders, cv_sd, onsets, args.fit_onset)
    if not args.no_loo:
        drives = load(args.corpus) if str(args.corpus) else []
        for folder in folders:
            drives += foreign_drives(folder)
        cases += loo_cases(drives, cv_sd, onsets, args.fit_onset)
    doc = {"model_rel_sd": cv_sd, "onsets": [str(p) for p in args.onsets],
           "fit_onset": args.fit_onset,
           "summary": summary(cases), "cases": cases}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.markdown:
        print(markdown(cases))
    print(json.dumps(doc["summary"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
