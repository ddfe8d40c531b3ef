"""Evaluate ``overprov calibrate`` on the foreign FTLs' measured curves (bench/foreign/results).

    PYTHONPATH=python python bench/foreign/evaluate.py [--results bench/foreign/results]
        [--qd 32] [--jobs 1] [--only mqsim]

For each results file (one simulator's curve), calibrate is run as a user would run it with
figures (`overprov calibrate --points ... --waf-points ... --fob-iops ... [--advertised
--physical] --extra-op 0,10,20,30,40 --json -`) in each CASE below, fitted on some levels of the
QD curve and predicting every level. Per level: the prediction's error in IOPS and WAF against
the simulator's steady figure and whether the truth lies inside calibrate's 80% interval.
Writes results/evaluation.json and results/evaluation.md (the table for bench/README.md).
A results file that says `measures: ["waf"]` (a simulator that counts page writes only:
sssl-ftlsim, ssdiq-sim) is evaluated at its own queue depth in the WAF_CASES only; one that
says `calibrate_workload` (flags such as `--hot 90/10`: a skewed truth) has them passed on.

Other queue depths: calibrate is fitted on QD32 figures (and, in a case with a sixth element,
IOPS figures at another queue depth: ``--points OP:IOPS@qdN``, as calibrate's plan measures
QD4 at its highest level); where the results hold other
queue depths at some levels, each case's prediction there is checked too. calibrate's
analytic reading has no queue depth (its figure is the same at every QD); its blocking-GC
reading (``calibrate/gc_blocking.py``, recorded in the prediction's ``fit.gc_mechanism``) is
simulated at the other queue depth with its fitted domains and program time, and the two are
weighed as calibrate weighed them (``weight``; whether each reading reproduces its fitted
figures within their noise, ``evidence.reproduces``, is recorded beside it). The analytic
reading's share of such a prediction goes through the N units of calibrate's closed-loop term
(``calibrate/closed_loop.py``, ``gc_mechanism.closed_loop``; on in the predictions only by
default, ``--closed-loop-predict-only`` says so explicitly); ``--closed-loop`` puts the term in
the evidence too (evaluated and not adopted).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

LEVELS = (0, 10, 20, 30, 40)

# (name, IOPS levels fitted, WAF levels fitted, FOB given, raw NAND given[, IOPS figures at
# another queue depth fitted: (level, queue depth) each, given as --points OP:IOPS@qdN])
CASES = (
    ("IOPS 0+40, FOB", (0, 40), (), True, False),
    ("IOPS 0+40, FOB, raw NAND", (0, 40), (), True, True),
    ("IOPS+WAF 0+40, FOB", (0, 40), (0, 40), True, False),
    ("IOPS+WAF 0+40, FOB, raw NAND", (0, 40), (0, 40), True, True),
    ("IOPS 20, FOB", (20,), (), True, False),
    ("IOPS 20, FOB, raw NAND", (20,), (), True, True),
    ("IOPS+WAF 20, FOB", (20,), (20,), True, False),
    ("WAF 0 only", (), (0,), False, False),
    ("WAF 0 only, raw NAND", (), (0,), False, True),
    # calibrate's plan with its second queue depth (plan.py): the highest level at QD4 too
    ("IOPS 0+40 QD32 + 40 QD4, FOB", (0, 40), (), True, False, ((40, 4),)),
    ("IOPS+WAF 0+40 QD32 + 40 QD4, FOB", (0, 40), (0, 40), True, False, ((40, 4),)),
    ("IOPS 0+40 QD32 + 40 QD4, FOB, raw NAND", (0, 40), (), True, True, ((40, 4),)),
    # with a second probe at the lowest level (docs/calibrate-validation.md, "A second probe
    # level"; bench/foreign/results/femu-midlevel/RULE.md)
    ("IOPS 0+40 QD32 + 0,40 QD4, FOB", (0, 40), (), True, False, ((0, 4), (40, 4))),
    ("IOPS+WAF 0+40 QD32 + 0,40 QD4, FOB", (0, 40), (0, 40), True, False, ((0, 4), (40, 4))),
    ("IOPS 0+40 QD32 + 0,40 QD4, FOB, raw NAND", (0, 40), (), True, True, ((0, 4), (40, 4))),
)
# a simulator that counts page writes only (results that say `measures: ["waf"]`, at their own
# queue depth): its WAF figures alone (docs/calibrate-validation.md, "A third FTL, WAF only")
WAF_CASES = (
    ("WAF 0+40", (), (0, 40), False, False),
    ("WAF 0+40, raw NAND", (), (0, 40), False, True),
    ("WAF 0 only", (), (0,), False, False),
    ("WAF 0 only, raw NAND", (), (0,), False, True),
)


# --closed-loop: calibrate run with its closed-loop term in the evidence too (closed_loop.py,
# WEIGH True), as `python -c` in place of `python -m overprov` (the same three leading words);
# --closed-loop-predict-only: WEIGH False, calibrate's default, set explicitly
# --closed-loop-levels N: WEIGH False, the term in the evidence when the figures at another
# queue depth lie at N levels or more (closed_loop.WEIGH_FROM_LEVELS)
CLOSED_LOOP = False
CLOSED_LOOP_WEIGH = True
CLOSED_LOOP_LEVELS: int | None = None


# --refuted-weights MODE: calibrate with evidence.REFUTED_WEIGHTS = MODE (how readings are
# weighed when none reproduces its fitted figures), the same way
REFUTED_WEIGHTS: str | None = None

# --low-mark-reading: calibrate with the low-mark GC design offered (calibrate/low_mark.py,
# low_mark.OFFERED), the same way
LOW_MARK = False

# --erase-cost: calibrate with the erase-cost form (calibrate/erase_cost.py, ENABLED: FOB read
# as the drive without its erases), the same way
ERASE_COST = False
# --erase-cost-with-waf: the same, only where a WAF figure is fitted (erase_cost.ONLY_WITH_WAF)
ERASE_COST_WITH_WAF = False
# --erase-reading: calibrate with the erase-cost form offered as a reading (erase_reading.OFFERED)
ERASE_READING = False
# --erase-when-implied-fails: with it, also where the implied design's reading fails
# (erase_reading.WHEN_IMPLIED_FAILS)
ERASE_WHEN_IMPLIED = False
# EVALUATE_FLAGS (environment): calibrate flags set in each calibrate process, for a rule's arm
# run through bench/foreign/results/scoreboard/run.py, as "module.NAME=value" items separated by
# ";" (modules of overprov.calibrate, values Python literals), e.g.
# EVALUATE_FLAGS="erase_reading.OFFERED=False; spare_near_onset.SPARE_NEAR_ONSET=True"
FLAGS_ENV = "EVALUATE_FLAGS"


def flags_prelude(text: str) -> str:
    """``EVALUATE_FLAGS``'s text as the statements that set those flags (raises ValueError naming
    the item that is not ``module.NAME=literal``)."""
    out = ""
    for item in (i.strip() for i in text.split(";")):
        if not item:
            continue
        target, eq, value = item.partition("=")
        module, dot, name = target.strip().partition(".")
        if not (eq and dot and module.isidentifier() and name.isidentifier()):
            raise ValueError(f"{FLAGS_ENV}: {item!r} is not module.NAME=value")
        ast.literal_eval(value.strip())  # a literal only: raises on anything else
        # a flag that no longer lives there (a module split) must fail, not set a new attribute
        out += (
            f"from overprov.calibrate import {module}; "
            f"getattr({module}, {name!r}); {module}.{name} = {value.strip()}; "
        )
    return out


def closed_loop_on() -> tuple[str, str]:
    loop = (
        "from overprov.calibrate import closed_loop; closed_loop.ENABLED = True; "
        f"closed_loop.WEIGH = {CLOSED_LOOP_WEIGH}; "
        f"closed_loop.WEIGH_FROM_LEVELS = {CLOSED_LOOP_LEVELS}; "
        if CLOSED_LOOP
        else ""
    )
    weights = f"evidence.REFUTED_WEIGHTS = {REFUTED_WEIGHTS!r}; "
    refuted = f"from overprov.calibrate import evidence; {weights}" if REFUTED_WEIGHTS else ""
    mark = "from overprov.calibrate import low_mark; low_mark.OFFERED = True; "
    mark = mark if LOW_MARK else ""
    erase = "from overprov.calibrate import erase_cost; erase_cost.ENABLED = True; "
    erase += f"erase_cost.ONLY_WITH_WAF = {ERASE_COST_WITH_WAF}; "
    erase = erase if ERASE_COST else ""
    if ERASE_READING:
        erase += "from overprov.calibrate import erase_reading; erase_reading.OFFERED = True; "
        erase += f"erase_reading.WHEN_IMPLIED_FAILS = {ERASE_WHEN_IMPLIED}; "
    flags = flags_prelude(os.environ.get(FLAGS_ENV, ""))
    main = "from overprov.cli import main; sys.exit(main())"
    return ("-c", f"import sys; {loop}{refuted}{mark}{erase}{flags}{main}")


def truth_curve(doc: dict, qd: int) -> dict[int, dict]:
    return {
        int(r["extra_op_percent"]): r
        for r in doc["levels"]
        if r["queue_depth"] == qd and int(r["extra_op_percent"]) in LEVELS
    }


def qd_figures(case: tuple) -> tuple:
    """The case's IOPS figures at another queue depth: ((level, queue depth), ...)."""
    return case[5] if len(case) > 5 else ()


def command(
    doc: dict, curve: dict[int, dict], case: tuple, jobs: int, others: list[dict] | None = None
) -> list[str]:
    _, iops_at, waf_at, fob, raw = case[:5]
    wrapped = CLOSED_LOOP or REFUTED_WEIGHTS or LOW_MARK or ERASE_COST or ERASE_READING
    wrapped = wrapped or bool(os.environ.get(FLAGS_ENV, "").strip())
    cmd = [sys.executable, *(closed_loop_on() if wrapped else ("-m", "overprov"))]
    cmd += ["calibrate", "--json", "-", "--jobs", str(jobs)]
    cmd += ["--extra-op", ",".join(str(x) for x in LEVELS)]
    # a truth under a skewed workload says how calibrate is told it (ssdiq_sim.py: --hot A/S)
    cmd += doc.get("calibrate_workload", [])
    at_qd = {(int(t["extra_op_percent"]), int(t["queue_depth"])): t for t in others or []}
    if iops_at:
        figures = [f"{x}:{curve[x]['steady_iops']:.0f}" for x in iops_at]
        figures += [f"{x}:{at_qd[(x, qd)]['steady_iops']:.0f}@qd{qd}" for x, qd in qd_figures(case)]
        cmd += ["--points", ",".join(figures)]
    if waf_at:
        cmd += ["--waf-points", ",".join(f"{x}:{curve[x]['steady_waf']:.3f}" for x in waf_at)]
    if fob:
        # the FOB of the whole drive: the 0% level's run from empty
        cmd += ["--fob-iops", f"{curve[0]['fob_iops']:.0f}"]
    if raw:
        # calibrate refuses a drive below 1 GB (a size typed without its unit); the foreign
        # drives are smaller, so both sizes are stated k times larger: the raw spare, the one
        # thing calibrate reads from them, is their ratio and does not change
        k = -(-(10**9) // doc["advertised_bytes"])
        cmd += [
            "--advertised",
            f"{doc['advertised_bytes'] * k}B",
            "--physical",
            f"{doc['physical_bytes'] * k}B",
        ]
    return cmd


def evaluate_case(
    doc: dict, curve: dict[int, dict], case: tuple, jobs: int, others: list[dict] | None = None
) -> dict:
    cmd = command(doc, curve, case, jobs, others)
    with tempfile.TemporaryDirectory() as tmp:
        res = run_case(cmd, curve, case, Path(tmp))
    if "levels" in res and others:
        res["qd"] = curve[0]["queue_depth"]
        res["other_qd"] = other_queue_depths(res, others, jobs)
        for r in res["other_qd"]:
            r["fitted"] = (r["extra_op_percent"], r["queue_depth"]) in qd_figures(case)
    return res


def evaluate_case_kept(
    doc: dict, curve: dict[int, dict], case: tuple, jobs: int, others: list[dict] | None = None
) -> tuple[dict, list[str]]:
    """:func:`evaluate_case`, and the standard output of each process it ran: calibrate's whole
    answer (its prediction's source, readings, twins), of which :func:`run_case` keeps the
    figures only."""
    outputs: list[str] = []
    base_run = subprocess.run

    def kept(*a, **k):
        got = base_run(*a, **k)
        outputs.append(got.stdout)
        return got

    subprocess.run = kept
    try:
        return evaluate_case(doc, curve, case, jobs, others), outputs
    finally:
        subprocess.run = base_run


def other_queue_depths(res: dict, others: list[dict], jobs: int) -> list[dict]:
    """The case's prediction at the truth's other queue depths (see the module's text): its
    QD32 figure times (blocking-GC twin at that QD / at QD32) to the reading's weight."""
    by_level = {r["extra_op_percent"]: r for r in res["levels"]}
    mech = res.get("gc_mechanism")
    rows = []
    for t in others:
        x, qd = int(t["extra_op_percent"]), int(t["queue_depth"])
        own = by_level.get(x)
        if own is None or "iops_pred" not in own:
            continue
        pred = own["iops_pred"]
        if mech is not None:
            sys.path.insert(0, str(ROOT / "python"))
            from overprov.calibrate import gc_blocking

            r = gc_blocking.BlockingReading(
                mech["domains"], mech["program_us"], mech["chi2"], qd, mech["native_op"],
                dies=mech.get("dies", gc_blocking.DIES),
                ftl=mech.get("ftl"), planes=mech.get("planes_per_die", 1),
                gc_multiplane=mech.get("gc_multiplane", False),
                multiplane_offsets=mech.get("multiplane_offsets", 0),
                gc_trigger=mech.get("gc_trigger", "victim"),
            )  # fmt: skip
            at_qd = gc_blocking.predict(r, [float(x)], jobs=jobs)[float(x)][0]
            at_32 = gc_blocking.predict(r, [float(x)], queue_depth=res["qd"], jobs=jobs)
            pred *= (at_qd / at_32[float(x)][0]) ** mech["weight"]
            if mech.get("closed_loop"):  # the analytic reading's share through its N units
                from overprov.calibrate import closed_loop

                cl, a = mech["closed_loop"], own.get("analytic_iops") or own["iops_pred"]
                at = closed_loop.iops_at(a, cl["units"], cl["fob_us"], cl["queue_depth"], qd)
                pred *= (at / a) ** (1 - mech["weight"])
        rows.append({
            "extra_op_percent": x,
            "queue_depth": qd,
            "iops_true": t["steady_iops"],
            "iops_pred": pred,
            "iops_err": pred / t["steady_iops"] - 1,
        })  # fmt: skip
    return rows


def run_case(cmd: list[str], curve: dict[int, dict], case: tuple, out: Path) -> dict:
    cmd = [*cmd, "--out", str(out)]
    t0 = time.monotonic()
    env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if res.returncode != 0:
        return {"case": case[0], "error": res.stderr.strip().splitlines()[-1:], "command": cmd[2:]}
    pred = json.loads(res.stdout)
    rows = []
    for lv in pred["levels"]:
        x = int(lv["extra_op_percent"])
        t = curve[x]
        row = {"extra_op_percent": x, "fitted_iops": x in case[1], "fitted_waf": x in case[2]}
        if lv.get("steady_iops") and t.get("steady_iops"):
            if lv.get("analytic_iops"):
                row["analytic_iops"] = lv["analytic_iops"]
            row |= {
                "iops_true": t["steady_iops"],
                "iops_pred": lv["steady_iops"],
                "iops_err": lv["steady_iops"] / t["steady_iops"] - 1,
                "iops_in_80": lv["steady_iops_low"] <= t["steady_iops"] <= lv["steady_iops_high"],
                "iops_low": lv["steady_iops_low"],
                "iops_high": lv["steady_iops_high"],
            }
        row |= {
            "waf_true": t["steady_waf"],
            "waf_pred": lv["waf"],
            "waf_err": lv["waf"] / t["steady_waf"] - 1,
        }
        if "waf_low" in lv:
            row |= {
                "waf_in_80": lv["waf_low"] <= t["steady_waf"] <= lv["waf_high"],
                "waf_low": lv["waf_low"],
                "waf_high": lv["waf_high"],
            }
        rows.append(row)
    fit = pred["fit"]
    return {
        "case": case[0],
        "command": "overprov " + " ".join(cmd[3:-2]),
        "fit": {k: fit.get(k) for k in ("native_op", "t_page_us", "t_cmd_us", "spare_efficiency")},
        "gc_mechanism": _mechanism(pred),
        "readings": _weights(pred),
        "levels": rows,
        "wall_s": time.monotonic() - t0,
    }


def _weights(pred: dict) -> dict[str, float]:
    """Each reading's weight (the GC designs and spare readings calibrate combined), the
    readings set aside by the evidence at 0."""
    got = {k: r.get("weight", 1.0) for k, r in (pred.get("readings") or {}).items()}
    return got | {k: 0.0 for k in pred.get("readings_set_aside") or {}}


def label(doc: dict) -> str:
    """The simulator, and its native spare when it states one (two SimpleSSD drives), or the
    drive it names (sssl-ftlsim: its policy and spare factor)."""
    if doc.get("drive"):
        return f"{doc['simulator']}, {doc['drive']}"
    spare = next(
        (v for k, v in doc.get("config", {}).items() if "overprovisioning" in k.lower()), None
    )
    return doc["simulator"] + (f", native spare {spare:g}" if spare is not None else "")


def _chosen(c: dict) -> str:
    """The readings that carry the prediction (weight ≥ 0.1), heaviest first; a case run
    before the readings were recorded says so."""
    if "readings" not in c:
        return "not recorded"
    ws = sorted(((w, k) for k, w in (c.get("readings") or {}).items() if w >= 0.1), reverse=True)
    return "; ".join(f"{k} {w:.2f}" for w, k in ws) or "one reading"


def _mechanism(pred: dict) -> dict | None:
    """The blocking-GC reading's fit and weight (one reading's, or the heaviest reading's
    when calibrate combined several)."""
    docs = [pred, *(pred.get("readings") or {}).values()]
    found = [d["fit"]["gc_mechanism"] for d in docs if d.get("fit", {}).get("gc_mechanism")]
    if not found:
        return None
    if len(docs) > 1 and pred.get("readings"):
        weights = {id(d["fit"].get("gc_mechanism")): d.get("weight", 1.0) for d in docs[1:]}
        m = max(found, key=lambda f: weights.get(id(f), 0.0))
    else:
        m = found[0]
    keys = ("domains", "program_us", "chi2", "native_op", "weight", "analytic_chi2")
    keys += tuple(
        k
        for k in (
            "dies",
            "dies_identified",
            "planes_per_die",
            "gc_multiplane",
            "multiplane_offsets",
            "gc_trigger",
        )
        if k in m
    )
    extra = ("residual_chi2", "reproduces_fitted_figures", "analytic_residual_chi2",
             "analytic_reproduces_fitted_figures", "closed_loop")  # fmt: skip
    return {k: m[k] for k in keys} | {k: m[k] for k in extra if k in m}


def summary(rows: list[dict], key: str, held_out_only: bool) -> dict | None:
    fitted = "fitted_iops" if key == "iops" else "fitted_waf"
    errs = [
        abs(r[f"{key}_err"])
        for r in rows
        if f"{key}_err" in r and not (held_out_only and r[fitted])
    ]
    cover = [
        r[f"{key}_in_80"] for r in rows if f"{key}_in_80" in r and not (held_out_only and r[fitted])
    ]
    widths = [
        (r[f"{key}_high"] - r[f"{key}_low"]) / r[f"{key}_pred"]
        for r in rows
        if f"{key}_high" in r and not (held_out_only and r[fitted])
    ]
    if not errs:
        return None
    return {
        "median_abs_err": statistics.median(errs),
        "worst_abs_err": max(errs),
        "n": len(errs),
        "in_80": sum(cover),
        "n_interval": len(cover),
        "median_rel_width": statistics.median(widths) if widths else None,
    }


def summarise(ev: dict, results: Path, jobs: int) -> None:
    """Each case's summaries; the other queue depths of a case kept from an earlier file that
    has none and no blocking-GC reading (its figure is the QD32 one: nothing to simulate)."""
    doc = json.loads((results / ev["results"]).read_text())
    others = [r for r in doc["levels"] if r["queue_depth"] != ev["qd"]]
    for c in ev["cases"]:
        if "levels" not in c:
            continue
        c.setdefault("qd", ev["qd"])
        if "other_qd" not in c and not c.get("gc_mechanism"):
            c["other_qd"] = other_queue_depths(c, others, jobs)
        c["summary"] = {
            "iops": summary(c["levels"], "iops", False),
            "waf": summary(c["levels"], "waf", False),
            "iops_held_out": summary(c["levels"], "iops", True),
            "waf_held_out": summary(c["levels"], "waf", True),
            "iops_other_qd": other_qd_summary(c.get("other_qd") or []),
        }


def other_qd_summary(rows: list[dict]) -> dict | None:
    """Over the other-QD figures not fitted (a case may fit some: ``qd_figures``)."""
    errs = [abs(r["iops_err"]) for r in rows if not r.get("fitted")]
    if not errs:
        return None
    return {"median_abs_err": statistics.median(errs), "worst_abs_err": max(errs), "n": len(errs)}


def pct(v: float) -> str:
    return f"{100 * v:+.0f}%"


def markdown(evals: list[dict]) -> str:
    out = []
    for ev in evals:
        out.append(
            f"\n**{ev.get('label', ev['simulator'])}** (QD{ev['qd']}; truth: {ev['truth']})\n"
        )
        out.append(
            "| fitted on | IOPS error at 0 / 10 / 20 / 30 / 40% "
            "| WAF error at 0 / 10 / 20 / 30 / 40%"
            " | IOPS median / worst | WAF median / worst | fit |"
        )
        out.append("|---|---|---|---|---|---|")
        for c in ev["cases"]:
            if "error" in c:
                out.append(f"| {c['case']} | refused: {' '.join(c['error'])} | | | | |")
                continue
            cells_i, cells_w = [], []
            for r in c["levels"]:
                mark = "*" if r["fitted_iops"] else ""
                cells_i.append(
                    f"{mark}{pct(r['iops_err'])}{'' if r.get('iops_in_80') else ' (out)'}"
                    if "iops_err" in r
                    else "–"
                )
                markw = "*" if r["fitted_waf"] else ""
                cells_w.append(
                    f"{markw}{pct(r['waf_err'])}{'' if r.get('waf_in_80', True) else ' (out)'}"
                )
            si, sw = c["summary"]["iops"], c["summary"]["waf"]
            f = c["fit"]
            fit = (
                f"ρ₀ {100 * f['native_op']:.1f}%, t_page {f['t_page_us']:.0f} µs, "
                f"t_cmd {f['t_cmd_us']:.0f} µs"
            )
            if f.get("spare_efficiency") not in (None, 1, 1.0):
                fit += f", k {f['spare_efficiency']:.2f}"
            out.append(
                f"| {c['case']} | {' / '.join(cells_i)} | {' / '.join(cells_w)} | "
                + (
                    f"{100 * si['median_abs_err']:.0f}% / {100 * si['worst_abs_err']:.0f}%"
                    if si
                    else "–"
                )
                + " | "
                + f"{100 * sw['median_abs_err']:.0f}% / {100 * sw['worst_abs_err']:.0f}% | {fit} |"
            )
        out.append(
            "\n| fitted on | held out: IOPS median / worst | WAF median / worst "
            "| in the 80% interval (IOPS, WAF) | median width (IOPS, WAF) "
            "| other QDs not fitted: IOPS median / worst | blocking-GC reading "
            "| readings (weight) |"
        )
        out.append("|---|---|---|---|---|---|---|---|")
        for c in ev["cases"]:
            if "error" in c:
                continue
            sm = c["summary"]
            hi, hw, oq = sm["iops_held_out"], sm["waf_held_out"], sm.get("iops_other_qd")
            m = c.get("gc_mechanism")
            mech = (
                f"weight {m['weight']:.2f}, {m['domains']} domains of {m.get('dies', 8)} dies"
                + (f" × {m['planes_per_die']} planes" if m.get("planes_per_die", 1) > 1 else "")
                + (" (GC in multi-plane programs)" if m.get("gc_multiplane") else "")
                + (
                    f" at one page offset of {m['multiplane_offsets']}"
                    if m.get("multiplane_offsets")
                    else ""
                )
                + (
                    " (collections on the triggering write's domain)"
                    if m.get("gc_trigger", "victim") != "victim"
                    else ""
                )
                + (" (dies fitted)" if m.get("dies_identified") else "")
                if m
                else "–"
            )
            if m and "reproduces_fitted_figures" in m:
                mech += ", reproduces its fitted figures: " + (
                    f"{_yes(m['reproduces_fitted_figures'])} (analytic: "
                    f"{_yes(m['analytic_reproduces_fitted_figures'])})"
                )
            out.append(
                f"| {c['case']} | {_mw(hi)} | {_mw(hw)} | {_cov(hi)}, {_cov(hw)} | "
                f"{_wid(hi)}, {_wid(hw)} | {_mw(oq)} | {mech} | {_chosen(c)} |"
            )
    return "\n".join(out) + "\n"


def _yes(b: bool) -> str:
    return "yes" if b else "no"


def _mw(x: dict | None) -> str:
    return f"{100 * x['median_abs_err']:.0f}% / {100 * x['worst_abs_err']:.0f}%" if x else "–"


def _cov(x: dict | None) -> str:
    return f"{x['in_80']}/{x['n_interval']}" if x and x["n_interval"] else "–"


def _wid(x: dict | None) -> str:
    return f"{100 * x['median_rel_width']:.0f}%" if x and x.get("median_rel_width") else "–"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=HERE / "results")
    ap.add_argument("--qd", type=int, default=32)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="one results file's stem")
    ap.add_argument("--parallel", type=int, default=1, help="calibrate runs at once")
    ap.add_argument("--cases", default=None, help="only the cases whose name holds this text")
    ap.add_argument(
        "--closed-loop",
        action="store_true",
        help="calibrate with its closed-loop term in the evidence too (closed_loop.WEIGH)",
    )
    ap.add_argument(
        "--closed-loop-predict-only",
        action="store_true",
        help="the term in the predictions at other QDs only (calibrate's default, explicit)",
    )
    ap.add_argument(
        "--closed-loop-levels",
        type=int,
        default=None,
        metavar="N",
        help="the term in the evidence when the other-QD figures lie at N levels or more "
        "(closed_loop.WEIGH_FROM_LEVELS), else in the predictions only",
    )
    ap.add_argument(
        "--refuted-weights",
        default=None,
        metavar="MODE",
        help="calibrate with evidence.REFUTED_WEIGHTS = MODE (likelihood, form-error)",
    )
    ap.add_argument(
        "--low-mark-reading",
        action="store_true",
        help="calibrate with the low-mark GC design offered (calibrate/low_mark.py)",
    )
    ap.add_argument(
        "--erase-cost",
        action="store_true",
        help="calibrate with the erase-cost form (calibrate/erase_cost.py, ENABLED)",
    )
    ap.add_argument(
        "--erase-cost-with-waf",
        action="store_true",
        help="the same, only where a WAF figure is fitted (erase_cost.ONLY_WITH_WAF)",
    )
    ap.add_argument(
        "--erase-reading",
        action="store_true",
        help="calibrate with the erase-cost form offered as a reading (erase_reading.OFFERED)",
    )
    ap.add_argument(
        "--erase-when-implied-fails",
        action="store_true",
        help="with --erase-reading: also where the implied design's reading fails",
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="evaluation.json's folder (default: --results)"
    )
    args = ap.parse_args(argv)
    if args.out is not None:  # made before the cases run, not found missing after them
        args.out.mkdir(parents=True, exist_ok=True)
    global CLOSED_LOOP, CLOSED_LOOP_WEIGH, CLOSED_LOOP_LEVELS, REFUTED_WEIGHTS, LOW_MARK
    global ERASE_COST, ERASE_COST_WITH_WAF, ERASE_READING, ERASE_WHEN_IMPLIED
    REFUTED_WEIGHTS = args.refuted_weights
    LOW_MARK = args.low_mark_reading
    ERASE_COST = args.erase_cost or args.erase_cost_with_waf
    ERASE_COST_WITH_WAF = args.erase_cost_with_waf
    ERASE_READING = args.erase_reading
    ERASE_WHEN_IMPLIED = args.erase_when_implied_fails
    CLOSED_LOOP = (
        args.closed_loop or args.closed_loop_predict_only or args.closed_loop_levels is not None
    )
    CLOSED_LOOP_WEIGH = args.closed_loop and not args.closed_loop_predict_only
    CLOSED_LOOP_LEVELS = args.closed_loop_levels

    def wanted(pool: tuple) -> list[tuple]:
        return [c for c in pool if args.cases is None or args.cases in c[0]]

    evals = []
    for path in sorted(args.results.glob("*.json")):
        if path.stem == "evaluation" or (args.only and path.stem != args.only):
            continue
        doc = json.loads(path.read_text())
        waf_only = doc.get("measures") == ["waf"]
        qd = doc["levels"][0]["queue_depth"] if waf_only else args.qd
        cases = wanted(WAF_CASES if waf_only else CASES)
        curve = truth_curve(doc, qd)
        others = [r for r in doc["levels"] if r["queue_depth"] != qd]
        if set(curve) != set(LEVELS):
            print(f"{path.name}: levels {sorted(curve)} at QD{qd}, skipped", file=sys.stderr)
            continue
        ev = {
            "simulator": doc["simulator"],
            "label": label(doc),
            "results": path.name,
            "qd": qd,
            "truth": f"{doc['repository']} @ {str(doc.get('commit'))[:10]}, {doc['date'][:10]}",
            "cases": [],
        }
        at_qd = {(int(t["extra_op_percent"]), int(t["queue_depth"])) for t in others}
        doc_cases = [c for c in cases if set(qd_figures(c)) <= at_qd]  # the truth has them
        with ThreadPoolExecutor(max_workers=args.parallel) as pool:
            # the one-level fits are the slow ones (a twin near zero native spare): first
            futs = {
                case: pool.submit(evaluate_case, doc, curve, case, args.jobs, others)
                for case in sorted(doc_cases, key=lambda c: len(c[1]) + len(c[2]))
            }
            for case in doc_cases:
                c = futs[case].result()
                ev["cases"].append(c)
                print(f"{doc['simulator']}: {case[0]} done", file=sys.stderr, flush=True)
        evals.append(ev)
    prev = (args.out or args.results) / "evaluation.json"
    kept = []
    if args.only and prev.exists():
        kept = [e for e in json.loads(prev.read_text()) if e["results"] != f"{args.only}.json"]
    if args.cases and prev.exists():  # the other cases from the file before
        old = {e["results"]: e for e in json.loads(prev.read_text())}
        for ev in evals:
            new = {c["case"]: c for c in ev["cases"]}
            before = old.get(ev["results"], {"cases": []})["cases"]
            names = {c["case"] for c in before}
            ev["cases"] = [new.get(c["case"], c) for c in before] + [
                c for c in ev["cases"] if c["case"] not in names
            ]
    evals = kept + evals
    for ev in evals:
        summarise(ev, args.results, args.jobs)
    prev.write_text(json.dumps(evals, indent=1) + "\n")
    md = markdown(evals)
    prev.with_suffix(".md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
