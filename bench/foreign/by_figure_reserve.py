"""The by-figure weighing (``evidence.REPRODUCED_BY_FIGURE``) with the reserve reading beside it,
at the surrogate level: the rule of results/byfig-reserve/RULE.md.

    python bench/foreign/by_figure_reserve.py run --truth FILE --case NAME [--case ...] --out DIR
    python bench/foreign/by_figure_reserve.py compose --dir DIR [--dir ...] --onsets FILE \
        [--onsets ...] --out composed.json
    python bench/foreign/by_figure_reserve.py check --composed composed.json --unseen STEM,...
    python bench/foreign/by_figure_reserve.py twin --truth FILE --onsets FILE --out DIR [--both]
    python bench/foreign/by_figure_reserve.py twin-check --dir DIR [--dir ...] --unseen STEM,...

``run`` keeps one calibrate run of an ``evaluate.py`` case (the rule off: calibrate as it is)
whole, as ``by_figure_rule.py run`` keeps its cases. ``compose`` predicts each kept case's levels
four ways from its prediction and its truth's figures (results/byfig-reserve/RULE.md). The spare
side (WAF, each reading's analytic IOPS) is ``bench/gc_reserve_bench.py``'s readings on the
case's figures, each a point at σ 2%, with the reserve reading fitted to the drive's plan-dated
onset where one is given. The mechanism side weighs each spare reading's analytic reading
against the blocking-GC reading calibrate fitted (its recorded χ², residuals and IOPS) by
``evidence.weights`` as ``blocking_reading.weigh`` calls it. OFF0: no reserve, rule off;
OFFR: reserve, rule off; ONR: both; ON0: the rule alone. ``check`` prints the conditions.
Nothing is fitted here that calibrate and gc_reserve_bench do not fit; the figures are theirs,
composed.

``twin`` and ``twin-check`` are the fourth rule's (results/byfig-twin/RULE.md): the twin level,
calibrate's own path. The truth's figures become the measurement calibrate's plan with the onset
step would have kept (:func:`measurement_of`), and ``overprov calibrate --from`` predicts it with
the rule on and, where it changed a blocking-GC weight (``by_figure_rule.fired``), off too (else
off's prediction is on's: the rule acts only through those weights).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))
import by_figure_rule  # noqa: E402
import evaluate  # noqa: E402
import gc_reserve_bench  # noqa: E402
from corpus_foreign import FOREIGN_REL_SD  # noqa: E402
from overprov.calibrate import closed_loop, evidence, gc_designs, gc_reserve, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate.gc_onset import ONSET_FROM_EMPTY  # noqa: E402
from overprov.measurement_file import Level, Measurement, save  # noqa: E402

VARIANTS = ("OFF0", "OFFR", "ONR", "ON0")
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)
FITTED = (0.0, 40.0)
HELD_OUT = (10.0, 20.0, 30.0)
POINT = 0.01  # "more than 1 point above the baseline's"
FIGURE_NOISE = 0.02  # a fitted figure within it is no regression (the passed onset rule)


@contextlib.contextmanager
def by_figure(on: bool) -> Iterator[None]:
    kept = evidence.REPRODUCED_BY_FIGURE
    evidence.REPRODUCED_BY_FIGURE = on
    try:
        yield
    finally:
        evidence.REPRODUCED_BY_FIGURE = kept


def run(truth: Path, case_name: str, out: Path) -> Path:
    """One calibrate run of the case with the rule off, kept whole."""
    cmd, kept = by_figure_rule.case_command(truth, case_name)
    try:
        kept["off"], kept["cpu_s"] = by_figure_rule._calibrate(cmd, False)
    except RuntimeError as exc:  # calibrate refused the case: reported, no figure
        kept["refused"] = str(exc)
    path = by_figure_rule.case_path(truth, case_name, out)
    path.write_text(json.dumps(kept, indent=1) + "\n")
    told = kept.get("refused") or f"{kept['cpu_s']:.0f} CPU s"
    print(f"{path.name}: {told}", flush=True)
    return path


def spare_points(doc: dict, case: tuple) -> list[fitmod.Point]:
    """The case's QD32 figures as ``gc_reserve_bench`` takes them: each a point, σ 2%."""
    curve = evaluate.truth_curve(doc, 32)
    _, iops_at, waf_at, fob, _ = case[:5]
    sd = FOREIGN_REL_SD
    pts = [fitmod.Point(float(x), curve[x]["steady_iops"], sd) for x in iops_at]
    pts += [fitmod.Point(float(x), None, sd, curve[x]["steady_waf"], sd) for x in waf_at]
    if fob:
        pts.append(fitmod.Point(0.0, curve[0]["fob_iops"], sd, fresh=True))
    return pts


def _form(key: tuple[str, str], raw_op: float | None, cv_sd: float, onset: float | None) -> Any:
    curve = gc_designs.curve(key[1]) or fitmod.waf_at
    if key[0] == "reserve":
        return gc_reserve.ReserveForm(curve, cv_sd, onset=onset)
    if key[0] == "raw":
        return evidence.ReadingForm(curve, raw_op, True)
    return evidence.ReadingForm(curve)


def heaviest(pred: dict) -> dict:
    """The heaviest reading's document (the prediction itself when it has one reading)."""
    docs = list((pred.get("readings") or {}).values())
    return max(docs, key=lambda d: d.get("weight", 1.0)) if docs else pred


def blocking_weights(
    reads: dict, pred: dict, raw_op: float | None, cv_sd: float, onset: float | None, on: bool
) -> dict:
    """Each spare reading's blocking-GC weight against calibrate's blocking reading, as
    ``blocking_reading.weigh`` weighs them (0 where calibrate fitted none)."""
    top = heaviest(pred)
    m = top["fit"].get("gc_mechanism")
    if not m:
        return {k: 0.0 for k in reads}
    pts = [fitmod.Point(**p) for p in top["fit"]["points"]]
    other = [fitmod.Point(**p) for p in top["fit"]["points_other_queue_depth"]]
    block_ev = {"residuals": m["residuals"], "n_parameters": 0}  # n_parameters: form-error only
    out = {}
    for key, r in reads.items():
        if r["weight"] <= 0:
            out[key] = 0.0
            continue
        form = _form(key, raw_op, cv_sd, onset)
        a, _ = closed_loop.assess(form, pts, cv_sd, other, m["queue_depth"])
        ok = {
            "analytic": evidence.reproduces(a["residual_chi2"], a["n_figures"], a["n_parameters"]),
            "blocking": m["reproduces_fitted_figures"],
        }
        with by_figure(on):
            out[key] = evidence.weights(
                {"analytic": a["chi2"], "blocking": m["chi2"]},
                ok,
                {"analytic": a, "blocking": block_ev},
                queue_depth=m["queue_depth"],
            )["blocking"]
    return out


def levels(reads: dict, w_block: dict, blocking_iops: dict[float, float]) -> list[dict]:
    """IOPS (each reading's analytic and blocking IOPS by its blocking weight, the readings by
    their weights, geometric means) and WAF at every level."""
    rows = []
    for x in LEVELS:
        num = den = 0.0
        for key, r in reads.items():
            if r["weight"] <= 0:
                continue
            a, w = r["fit"].iops(x), w_block[key]
            v = math.log(a) if w <= 0 else (1 - w) * math.log(a) + w * math.log(blocking_iops[x])
            num, den = num + r["weight"] * v, den + r["weight"]
        rows.append(
            {
                "extra_op_percent": x,
                "iops": math.exp(num / den),
                "waf": gc_reserve_bench.combined(reads, x, "waf"),
            }
        )
    return rows


def compose_case(
    kept: dict, onsets: dict[Path, float], cv_sd: float, reserve_needs_waf: bool = False
) -> dict:
    """The case's four compositions; ``reserve_needs_waf`` (the third rule): the reserve reading
    only where the case fits WAF figures (an onset comes from the write counters, which give
    them)."""
    truth_path = ROOT / kept["truth"]
    doc = json.loads(truth_path.read_text())
    case = next(c for c in evaluate.CASES if c[0] == kept["case"])
    raw_op = doc["physical_bytes"] / doc["advertised_bytes"] - 1 if case[4] else None
    onset = onsets.get(truth_path.resolve())
    if reserve_needs_waf and not case[2]:
        onset = None
    pts = spare_points(doc, case)
    pred = kept["off"]
    top = heaviest(pred)
    blocking_iops = {float(r["extra_op_percent"]): r.get("blocking_gc_iops") for r in top["levels"]}
    with by_figure(False):  # calibrate's spare readings are not weighed by figure
        base = gc_reserve_bench.readings(pts, raw_op, cv_sd, False)
        with_res = (
            gc_reserve_bench.readings(pts, raw_op, cv_sd, True, onset, True)
            if onset is not None
            else base
        )
    out: dict[str, Any] = {
        "onset": onset,
        "reserve_weight": gc_reserve_bench.reserve_share(with_res),
        "variants": {},
    }
    for name in VARIANTS:
        reads = with_res if name in ("OFFR", "ONR") else base
        w = blocking_weights(reads, pred, raw_op, cv_sd, onset, name.startswith("ON"))
        total = sum(r["weight"] for r in reads.values())
        out["variants"][name] = {
            "levels": levels(reads, w, blocking_iops),
            "blocking_weight": sum(r["weight"] * w[k] for k, r in reads.items()) / total,
            "readings": {
                f"{k[0]}:{k[1]}": {"weight": r["weight"], "blocking_weight": w[k]}
                for k, r in reads.items()
                if r["weight"] > 1e-6
            },
        }
    out["calibrate"] = [
        {"extra_op_percent": r["extra_op_percent"], "iops": r["steady_iops"], "waf": r.get("waf")}
        for r in pred["levels"]
    ]
    truth = evaluate.truth_curve(doc, 32)
    out["truth"] = [
        {
            "extra_op_percent": float(x),
            "iops": truth[x]["steady_iops"],
            "waf": truth[x].get("steady_waf"),
        }
        for x in sorted(truth)
    ]
    return out


def compose(
    folders: list[Path], onset_files: list[Path], out: Path, reserve_needs_waf: bool = False
) -> None:
    onsets = gc_reserve_bench.load_onsets(onset_files)
    mf = uncertainty.recorded_model_form(False)
    cv_sd = mf.rel_sd if mf is not None else 0.0
    cases = []
    for f in sorted(f for folder in folders for f in folder.glob("*--*.json")):
        kept = json.loads(f.read_text())
        row = {
            "file": str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f),
            "truth_stem": f.name.split("--")[0],
            "case": kept["case"],
            "truth": kept["truth"],
        }
        if "refused" in kept:
            cases.append({**row, "refused": kept["refused"]})
            continue
        kept.setdefault("off", kept.get("on"))
        cases.append({**row, **compose_case(kept, onsets, cv_sd, reserve_needs_waf)})
        print(f"{f.name}: reserve weight {cases[-1]['reserve_weight']:.2f}", flush=True)
    doc = {
        "model_rel_sd": cv_sd,
        "onsets": [str(p) for p in onset_files],
        "reserve_needs_waf": reserve_needs_waf,
        "by_figure_needs_waf": evidence.BY_FIGURE_NEEDS_WAF,
        "cases": cases,
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")


def errors(case: dict, rows: list[dict]) -> dict[tuple[float, str], float]:
    """{(level, "iops"/"waf"): prediction ÷ truth − 1}."""
    truth = {r["extra_op_percent"]: r for r in case["truth"]}
    out = {}
    for r in rows:
        t = truth.get(r["extra_op_percent"])
        for what in ("iops", "waf"):
            if t and t.get(what) and r.get(what):
                out[(r["extra_op_percent"], what)] = r[what] / t[what] - 1
    return out


def worse(e: float, base: float, level: float, noise: float = FIGURE_NOISE) -> bool:
    """Worse than the baseline: more than 1 point above it, and a fitted figure above
    ``noise`` (the second rule: 2%; the third: 4%, twice the surrogate points' σ)."""
    if abs(e) <= abs(base) + POINT:
        return False
    return not (level in FITTED and abs(e) <= noise)


def summary(errs: dict[tuple[float, str], float], what: str) -> tuple[float, float, float]:
    """(held-out median, median, worst) of |error| of figure ``what``."""
    e = {x: abs(v) for (x, w), v in errs.items() if w == what}
    held = [e[x] for x in HELD_OUT if x in e]
    return (
        statistics.median(held) if held else math.nan,
        statistics.median(e.values()),
        max(e.values()),
    )


def _cell(s: tuple[float, float, float]) -> str:
    return f"{100 * s[0]:.1f} / {100 * s[1]:.1f} / {100 * s[2]:.1f}"


def check(
    composed: Path, unseen: list[str], with_waf_only: bool = False, noise: float = FIGURE_NOISE
) -> bool:
    """The rule's conditions over the composed cases; ``with_waf_only``: over the cases that fit
    WAF figures alone (a diagnosis after the verdict, not the rule's)."""
    doc = json.loads(composed.read_text())
    cases = [c for c in doc["cases"] if "refused" not in c]
    if with_waf_only:
        cases = [c for c in cases if "IOPS+WAF" in c["case"]]
        print("diagnosis, not the rule: the cases that fit WAF figures only")
    for c in doc["cases"]:
        if "refused" in c:
            print(f"refused: {c['truth_stem']}, {c['case']}: {c['refused']}")
    print(
        "| truth | case | reserve weight | blocking weight OFF0 / OFFR / ONR / ON0 | QD32 IOPS "
        "held-out median / median / worst: OFF0 → OFFR → ONR (ON0) | WAF the same, OFF0 → "
        "OFFR |"
    )
    print("|---|---|---|---|---|---|")
    errs = {}
    for c in cases:
        e = {v: errors(c, c["variants"][v]["levels"]) for v in VARIANTS}
        errs[(c["truth_stem"], c["case"])] = e
        bw = " / ".join(f"{c['variants'][v]['blocking_weight']:.2f}" for v in VARIANTS)
        iops = " → ".join(_cell(summary(e[v], "iops")) for v in ("OFF0", "OFFR", "ONR"))
        waf = (
            " → ".join(_cell(summary(e[v], "waf")) for v in ("OFF0", "OFFR"))
            if any(w == "waf" for _, w in e["OFF0"])
            else "–"
        )
        print(
            f"| {c['truth_stem']} | {c['case']} | {c['reserve_weight']:.2f} | {bw} | {iops} "
            f"({_cell(summary(e['ON0'], 'iops'))}) | {waf} |"
        )
    verdict = []
    for stem in unseen:
        meds = [summary(e["ONR"], "iops")[1] for (t, _), e in errs.items() if t == stem]
        ok = bool(meds) and statistics.median(meds) <= 0.10
        verdict.append(ok)
        print(
            f"C1 {stem}: ONR QD32 IOPS medians {[f'{100 * m:.1f}%' for m in meds]}: "
            f"{'holds' if ok else 'FAILS'}"
        )
    for name, base in (("C2", "OFFR"), ("C3", "OFF0")):
        bad = [
            (t, c, k, e["ONR"][k], e[base][k])
            for (t, c), e in errs.items()
            for k in e["ONR"]
            if k in e[base] and worse(e["ONR"][k], e[base][k], k[0], noise)
        ]
        n = sum(len(e["ONR"]) for e in errs.values())
        verdict.append(not bad)
        print(
            f"{name} ONR against {base}: {len(bad)} of {n} figures worse: "
            f"{'holds' if not bad else 'FAILS'}"
        )
        for t, c, (x, what), a, b in bad:
            print(f"   {t}, {c}: {x:g}% {what} {100 * b:+.1f}% → {100 * a:+.1f}%")
    gaps = [
        abs(r["iops"] / k["iops"] - 1)
        for c in cases
        for r, k in zip(c["variants"]["OFF0"]["levels"], c["calibrate"], strict=True)
    ]
    print(
        f"the surrogate level's cost: OFF0's QD32 IOPS against calibrate's own prediction "
        f"(rule off), median {100 * statistics.median(gaps):.1f}%, worst "
        f"{100 * max(gaps):.1f}% over {len(gaps)} levels"
    )
    ok = bool(verdict) and all(verdict)
    print(f"the rule: {'PASSES' if ok else 'FAILS'} ({sum(verdict)} of {len(verdict)} hold)")
    return ok


def measurement_of(doc: dict, onset: float, span_writes: float = 20.0) -> Measurement:
    """The truth's figures as calibrate's plan with the onset step keeps them: QD32 0% and 40%
    (IOPS at σ ``FOREIGN_REL_SD``, WAF from the write counters), QD4 at 40% (IOPS), the FOB
    IOPS, and the onset of garbage collection from empty."""
    curve = evaluate.truth_curve(doc, 32)
    qd4 = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 4}

    def level(x: int, r: dict, qd: int | None, waf: float | None) -> Level:
        return Level(float(x), r["steady_iops"], FOREIGN_REL_SD, waf, None, True, 5,
                     span_writes / 2, span_writes, qd)  # fmt: skip

    levels = [level(x, curve[x], None, curve[x]["steady_waf"]) for x in (0, 40)]
    levels.append(level(40, qd4[40], 4, None))
    return Measurement(
        target=doc.get("drive", "FEMU"), capacity_bytes=int(doc["advertised_bytes"]),
        scale_factor=1.0, bs_bytes=4096, qd=32, fob_iops=curve[0]["fob_iops"], levels=levels,
        counters=True, kind="block", onset_spare_factor=onset, onset_source=ONSET_FROM_EMPTY,
    )  # fmt: skip


def twin(truth: Path, onset_files: list[Path], out: Path, both: bool = False) -> Path:
    """calibrate's prediction of the truth's measurement (:func:`measurement_of`), the rule on,
    and off where it fired (``both``: always, the fifth rule's), kept whole beside the CPU
    seconds."""
    onset = gc_reserve_bench.load_onsets(onset_files)[truth.resolve()]
    doc = json.loads(truth.read_text())
    kept: dict[str, Any] = {"truth": str(truth.resolve().relative_to(ROOT)), "onset": onset}
    with tempfile.TemporaryDirectory() as folder:
        save(measurement_of(doc, onset), Path(folder) / "measurement.json")
        cmd = [sys.executable, "-m", "overprov", "calibrate", "--from", folder, "--json", "-",
               "--jobs", "1", "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]  # fmt: skip
        kept["command"] = "overprov " + " ".join(cmd[3:])
        kept["cpu_s"] = 0.0
        for on in (True, False):  # off only where on fired, or refused the case
            if not on and kept.get("fired") is False and not both:
                break
            name = "on" if on else "off"
            before = os.times()
            try:
                kept[name], _ = by_figure_rule._calibrate(cmd, on)
            except RuntimeError as exc:  # calibrate refused the case: reported, no figure
                kept[f"refused_{name}"] = str(exc)
            after = os.times()
            kept["cpu_s"] += sum(after[2:4]) - sum(before[2:4])
            if on:
                kept["fired"] = by_figure_rule.fired(kept["on"]) if "on" in kept else None
    path = out / f"{truth.stem}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    told = "; ".join(kept[k] for k in ("refused_on", "refused_off") if k in kept)
    print(f"{path.name}: fired {kept['fired']}, {kept['cpu_s']:.0f} CPU s {told}", flush=True)
    return path


def twin_errors(kept: dict, which: str) -> dict[tuple[float, str], float]:
    """{(level, "iops"/"waf"): calibrate's QD32 figure ÷ truth − 1}, rule ``which``."""
    doc = json.loads((ROOT / kept["truth"]).read_text())
    truth = [{"extra_op_percent": float(x), "iops": r["steady_iops"], "waf": r.get("steady_waf")}
             for x, r in sorted(evaluate.truth_curve(doc, 32).items())]  # fmt: skip
    pred = kept.get(which) or kept["on"]
    rows = [{"extra_op_percent": r["extra_op_percent"], "iops": r["steady_iops"],
             "waf": r.get("waf")} for r in pred["levels"]]  # fmt: skip
    return errors({"truth": truth}, rows)


def reserve_share(pred: dict) -> str:
    """The reserve readings' share of the weight in calibrate's prediction ("–": none)."""
    docs = pred.get("readings") or {}
    w = sum(d.get("weight", 0.0) for key, d in docs.items() if "reserve" in key)
    return f"{w / sum(d.get('weight', 0.0) for d in docs.values()):.2f}" if w else "–"


def twin_check(folders: list[Path], unseen: list[str], noise: float = 0.04) -> bool:
    """The fourth rule's C1 and C2 over the kept cases (C3 is the test suite's); ``noise``
    0: the fifth rule's C1 and C2 (no exemption at the fitted levels), with the unseen truths
    whose QD32 IOPS differ on against off named (its "exercised")."""
    kept = {f.stem: json.loads(f.read_text()) for d in folders for f in sorted(d.glob("*.json"))}
    print("| truth | onset | reserve share | fired | QD32 IOPS median / worst: off → on "
          "| WAF median / worst: off → on |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    errs, refused = {}, []
    for stem, k in kept.items():
        if "on" not in k or "off" not in k and k["fired"] is not False:
            told = "; ".join(f"{w}: {k.get(f'refused_{w}', 'answered')}" for w in ("on", "off"))
            print(f"| {stem} | {k['onset']:.3f} | refused | {told} |")
            refused.append((stem, "on" not in k and "off" in k))
            continue
        e = {w: twin_errors(k, w) for w in ("off", "on")}
        errs[stem] = e
        share = reserve_share(k["on"])
        cells = [" → ".join(f"{100 * s[1]:.1f} / {100 * s[2]:.1f}"
                            for s in (summary(e[w], what) for w in ("off", "on")))
                 for what in ("iops", "waf")]  # fmt: skip
        print(f"| {stem} | {k['onset']:.3f} | {share} | {k['fired']} | {cells[0]} | {cells[1]} |")
    verdict = []
    for stem in unseen:
        med = summary(errs[stem]["on"], "iops")[1] if stem in errs else math.nan
        verdict.append(med <= 0.10)
        print(f"C1 {stem}: on's QD32 IOPS median {100 * med:.1f}%: "
              f"{'holds' if verdict[-1] else 'FAILS'}")  # fmt: skip
    bad = [(s, k, e["on"][k], e["off"][k]) for s, e in errs.items() for k in e["on"]
           if k in e["off"] and worse(e["on"][k], e["off"][k], k[0], noise)]  # fmt: skip
    n = sum(len(e["on"]) for e in errs.values())
    lost = [stem for stem, off_answered in refused if off_answered]  # a figure lost is worse
    for stem in lost:
        print(f"   {stem}: refused with the rule on, answered with it off: every figure lost")
    verdict.append(not bad and not lost)
    print(f"C2 on against off: {len(bad)} of {n} figures worse, {len(lost)} cases lost: "
          f"{'holds' if verdict[-1] else 'FAILS'}")  # fmt: skip
    for s, (x, what), a, b in bad:
        print(f"   {s}: {x:g}% {what} {100 * b:+.1f}% → {100 * a:+.1f}%")
    moved = [s for s in unseen if s in errs
             and any(abs(v - errs[s]["off"].get(x, v)) > 1e-9
                     for x, v in errs[s]["on"].items() if x[1] == "iops")]  # fmt: skip
    print(f"unseen truths whose QD32 IOPS differ on against off: {', '.join(moved) or 'none'}")
    fired = sum(bool(k["fired"]) for k in kept.values())
    exercised = fired > 0
    ok = all(verdict) and exercised
    print(f"the flag changed a blocking-GC weight in {fired} "
          f"of {len(kept)} cases; C1-C2: {'PASS' if all(verdict) else 'FAIL'}"
          f"{'' if exercised else ' (not exercised: the flag stays off)'}")  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    by_figure_rule.add_run_parser(sub)
    c = sub.add_parser("compose")
    c.add_argument("--dir", type=Path, action="append", required=True)
    c.add_argument("--onsets", type=Path, action="append", default=[])
    c.add_argument("--out", type=Path, required=True)
    c.add_argument(
        "--reserve-needs-waf",
        action="store_true",
        help="the third rule: the reserve reading only where the case fits WAF",
    )
    c.add_argument(
        "--by-figure-anywhere",
        action="store_true",
        help="the second rule's gate: count figures without a shared WAF figure too",
    )
    k = sub.add_parser("check")
    k.add_argument("--composed", type=Path, required=True)
    k.add_argument("--unseen", default="", help="truth stems that are unseen (C1)")
    k.add_argument(
        "--fitted-noise",
        type=float,
        default=FIGURE_NOISE,
        help="a fitted figure within it is no regression (the second rule: 0.02)",
    )
    k.add_argument(
        "--with-waf-only",
        action="store_true",
        help="diagnosis: the cases that fit WAF figures only",
    )
    t = sub.add_parser("twin", help="the fourth rule: one truth through calibrate --from")
    t.add_argument("--truth", type=Path, action="append", required=True)
    t.add_argument("--onsets", type=Path, action="append", required=True)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--both", action="store_true", help="run off as well wherever on ran")
    tc = sub.add_parser("twin-check", help="the fourth rule's C1 and C2")
    tc.add_argument("--dir", type=Path, action="append", required=True)
    tc.add_argument("--unseen", default="")
    tc.add_argument(
        "--fitted-noise",
        type=float,
        default=0.04,
        help="a fitted figure within it is no regression (the fifth rule: 0)",
    )
    args = ap.parse_args(argv)
    if args.what == "twin":
        args.out.mkdir(parents=True, exist_ok=True)
        for truth in args.truth:
            twin(truth, args.onsets, args.out, args.both)
    elif args.what == "twin-check":
        twin_check(args.dir, [s for s in args.unseen.split(",") if s], args.fitted_noise)
    elif args.what == "run":
        args.out.mkdir(parents=True, exist_ok=True)
        for name in args.case:
            run(args.truth, name, args.out)
    elif args.what == "compose":
        evidence.BY_FIGURE_NEEDS_WAF = not args.by_figure_anywhere
        compose(args.dir, args.onsets, args.out, args.reserve_needs_waf)
    else:
        unseen = [s for s in args.unseen.split(",") if s]
        check(args.composed, unseen, args.with_waf_only, args.fitted_noise)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
