"""One skewed figure beside a drive's uniform figures: its victim selection read, its other skewed
figures predicted (the rule: bench/corpus/RULE-skewed-figure.md).

Set A, SSD-iq's Micron 7450 campaigns: each drive's uniform figures (bench/corpus/published.toml)
and one skewed IOPS figure at 0% (:data:`SKEWED_FIGURE`, bench/corpus/workload-figures.toml);
the drive's other steady skewed figures held out. Set B, SSD-iq's GC simulator
(bench/foreign/results/ssdiq-sim/): each policy's uniform WAF at 0–40% and its 90/10 zones WAF at
0%; its zones WAF at 10–40% held out. Each case carries the prediction with the skewed figure
(``victim_selection.weigh``) and without it (``victim_selection.uniform_weights``), from the
same simulations.

    PYTHONPATH=python python bench/corpus_workload_victim.py --out CASES.jsonl [--only A|B|C]
    PYTHONPATH=python python bench/corpus_workload_victim.py --judge CASES.jsonl
    PYTHONPATH=python python bench/corpus_workload_victim.py --diagnose greedy,fifo
    PYTHONPATH=python python bench/corpus_workload_victim.py --per-write --only E --out CASES.jsonl

Set C, SSDsim under skewed writes (its rule: bench/foreign/results/skewftl/RULE.md; run only
with ``--only C``): each drive's uniform IOPS at 0% and 40% and its FOB, with and without
the WAF at those levels, and its zones 0.9/0.1 figures at 0% (IOPS; WAF too in the fit with
WAF); its other skewed IOPS and WAF (zones 0.9/0.1, zones-ro 0.5, zipf 0.8 at 0, 20, 40%) held
out, judged against the foreign-FTL targets of bench/README.md (:func:`verdict_c`).

Set E, the per-host-write GC trigger's truth (``--only E``; its rule:
bench/foreign/results/gctrigger-skew/RULE.md): set C's fits on the fresh SSDsim drives l and m,
and on zonescatter's j and k (fit "iops+waf"), their zones scattered as the truth's (the results
files' workloads); drives n and o too (bench/foreign/results/gctrigger-skew2/RULE.md).
``--only C --zones-scattered``: set C with its twins' zones scattered as SSDsim wrote them (set
"C-scattered"; the rule: bench/foreign/results/gctrigger-skew2/RULE.md).
``--per-write`` lists the reading "greedy-per-write" (``victim_selection.PER_WRITE_READING``) in
every set run, and each case carries beside its prediction the one without that reading, weighed
and predicted from the same simulations (``without_per_write``), and with sets E and C-scattered
the reading's own figure (``per_write_alone``). ``--fit``, ``--drives``: sets C and E only.
``--memo FILE``: twin runs kept across processes (bench/twin_runs_memo.py).

``--diagnose`` (after the outcome, not the rule's): the named readings alone on set A's figures
(with ``--only C``: on set C's, from its fit with WAF; with ``--pages-per-block 512,64`` too: the
readings' WAF at 0% under every workload with those block sizes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overprov.calibrate import evidence, spare_readings, twin_runs, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import victim_selection as vs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, load, read_cases  # noqa: E402  (bench/)
from corpus_workloads import (  # noqa: E402
    PREDICTED,
    held_out_cases,
    uniform_prediction,
    workload_figures,
)
from twin_runs_memo import keep_runs  # noqa: E402

#: Set A's one skewed figure per drive (the rule: where the greedy and FIFO twins part most).
SKEWED_FIGURE = {"micron-7450-pro-960": "zones 0.95/0.05", "micron-7450-max-800": "zones-ro 0.8"}
SSDIQ = Path(__file__).resolve().parent / "foreign" / "results" / "ssdiq-sim"
SSDIQ_POLICIES = ("greedy", "2r-greedy", "2r-fifo")
SSDIQ_LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)
SSDIQ_FIGURE_LEVEL = 0.0
#: `--hot 90/10` (its zones pattern: 90% of the writes to 10% of the logical pages).
SSDIQ_WORKLOAD = {"pattern": "hot-cold", "hot_access_percent": 90.0, "hot_space_percent": 10.0}
SSDIQ_REL_SD = 0.03
#: Target 2: no case's |error| more than this above its uniform-only one.
WORSE_BY_AT_MOST = 0.02
#: Set C, SSDsim under skewed writes (the rule: bench/foreign/results/skewftl/RULE.md).
SKEWFTL = Path(__file__).resolve().parent / "foreign" / "results" / "skewftl"
SKEWFTL_DRIVES = ("ssdsim-h", "ssdsim-i")
SKEWFTL_FITTED_LEVELS = (0.0, 40.0)
#: The levels asked (each reading's uniform interval there widens a prediction's).
SKEWFTL_LEVELS = (0.0, 20.0, 40.0)
SKEWFTL_FIGURE = ("zones 0.9/0.1", 0.0)
SKEWFTL_FITS = ("iops+waf", "iops")
#: Every foreign figure at 2% (bench/README.md, "All held-out cases together").
SKEWFTL_REL_SD = 0.02
#: The foreign-FTL targets (bench/README.md): IOPS median and worst |error|, WAF worst |error|.
SKEWFTL_IOPS_MEDIAN, SKEWFTL_IOPS_WORST, SKEWFTL_WAF_WORST = 0.10, 0.20, 0.05
#: Set E (the rule: bench/foreign/results/gctrigger-skew/RULE.md): drive → its folder and fits.
RESULTS = Path(__file__).resolve().parent / "foreign" / "results"
SET_E = {
    "ssdsim-l": (RESULTS / "gctrigger-skew", SKEWFTL_FITS),
    "ssdsim-m": (RESULTS / "gctrigger-skew", SKEWFTL_FITS),
    "ssdsim-j": (RESULTS / "zonescatter", ("iops+waf",)),
    "ssdsim-k": (RESULTS / "zonescatter", ("iops+waf",)),
    "ssdsim-n": (RESULTS / "gctrigger-skew2", SKEWFTL_FITS),
    "ssdsim-o": (RESULTS / "gctrigger-skew2", SKEWFTL_FITS),
    "ssdsim-p": (RESULTS / "pwrule3", SKEWFTL_FITS),
    "ssdsim-q": (RESULTS / "pwrule3", SKEWFTL_FITS),
}
#: The per-host-write GC trigger's reading (``--per-write``).
PER_WRITE = "greedy-per-write"


def include_per_write() -> None:
    """List :data:`PER_WRITE` among the readings, as ``victim_selection.PER_WRITE_READING`` on at
    import lists it (the module builds ``VICTIM_SELECTIONS`` when imported)."""
    vs.PER_WRITE_READING = True
    vs.VICTIM_SELECTIONS.setdefault(PER_WRITE, vs.PER_WRITE_SELECTION)


def without_per_write(weights: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The weights of the readings less :data:`PER_WRITE`, from the same χ² (``weigh``'s or
    :func:`weigh_figures`'): what weighing them without it gives."""
    rest = {k: g for k, g in weights.items() if k != PER_WRITE}
    return evidence.weights({k: g["chi2"] for k, g in rest.items()},
                            {k: g["reproduces"] for k, g in rest.items()})  # fmt: skip


def _case(
    base: dict[str, Any], readings: list[vs.VictimReading], weights: dict[str, dict[str, Any]],
    workload: dict[str, Any], level: float, value: float, kind: str, jobs: int | None,
    memo: dict,
) -> dict[str, Any]:  # fmt: skip
    t0 = time.process_time()
    w_fig = {k: g["weight"] for k, g in weights.items()}
    w_uni = vs.uniform_weights(readings)
    (got,) = vs.predict(readings, w_fig, workload, [level], kind, jobs, memo)
    (uni,) = vs.predict(readings, w_uni, workload, [level], kind, jobs, memo)
    case = {
        **base, "extra_op_percent": level, "measured": value, "kind": kind,
        "predicted": got["value"], "low": got["low"], "high": got["high"],
        "rel_error": got["value"] / value - 1.0, "inside": got["low"] <= value <= got["high"],
        "uniform_only": uni["value"], "uniform_only_rel_error": uni["value"] / value - 1.0,
        "readings": got["readings"], "uniform_only_readings": uni["readings"],
        "cpu_s": time.process_time() - t0,
    }  # fmt: skip
    if PER_WRITE in weights:  # the same simulations, the reading left out
        w_off = without_per_write(weights)
        rest = [r for r in readings if r.name != PER_WRITE]
        (off,) = vs.predict(rest, w_off, workload, [level], kind, jobs, memo)
        case.update({"without_per_write": off["value"], "without_per_write_low": off["low"],
                     "without_per_write_high": off["high"],
                     "without_per_write_rel_error": off["value"] / value - 1.0,
                     "without_per_write_readings": off["readings"],
                     "without_per_write_weights": w_off,
                     "cpu_s": time.process_time() - t0})  # fmt: skip
    say = f"{base['drive']} {base['workload']} {level:g}%: {got['value']:.4g} vs {value:.4g}"
    say += f" ({100 * case['rel_error']:+.1f}%; uniform-only"
    say += f" {100 * case['uniform_only_rel_error']:+.1f}%)"
    print(say, file=sys.stderr, flush=True)
    return case


def append_cases(path: Path | None, cases: list[dict[str, Any]]) -> None:
    """Add ``cases`` to the JSON lines at ``path`` (none: nowhere)."""
    if path is not None:
        with path.open("a") as f:
            for c in cases:
                f.write(json.dumps(c, default=str) + "\n")


def _weights_text(weights: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {k: {"predicted": g["predicted"], "weight": g["weight"], "chi2": g["chi2"]}
            for k, g in weights.items()}  # fmt: skip


def set_a(drive: str, jobs: int | None) -> list[dict[str, Any]]:
    """Set A for one 7450: the skewed figure weighs the readings, the others are predicted."""
    t0 = time.process_time()
    figures = workload_figures()
    d = {x["id"]: x for x in load(CORPUS)}[drive]
    readings = vs.readings_of(uniform_prediction(d, jobs))
    mine = held_out_cases(figures, drive)
    (f,) = [h for h in mine if h["workload"] == SKEWED_FIGURE[drive]]
    memo: dict = {}
    fig = vs.SkewedFigure(f["overprov_workload"], 0.0, float(f["value"]), "iops", f["rel_sd"])
    weights = vs.weigh(readings, fig, 0.0, jobs, memo)
    fit_cpu = time.process_time() - t0
    print(f"{drive}: {f['workload']} weighs {_weights_text(weights)} ({fit_cpu:.0f} CPU s)",
          file=sys.stderr, flush=True)  # fmt: skip
    out = []
    for h in mine:
        if h is f or not h["steady_state"]:
            continue
        base = {"set": "A", "drive": drive, "workload": h["workload"],
                "workload_kind": h["kind"], "figure": f["workload"],
                "figure_weights": _weights_text(weights), "fit_cpu_s": fit_cpu}  # fmt: skip
        out.append(_case(base, readings, weights, h["overprov_workload"], 0.0,
                         float(h["value"]), "iops", jobs, memo))  # fmt: skip
    return out


def ssdiq_wafs(name: str) -> dict[float, float]:
    """A truth of SSD-iq's GC simulator (bench/foreign/results/ssdiq-sim/NAME.json): steady WAF
    by extra OP."""
    doc = json.loads((SSDIQ / f"{name}.json").read_text())
    return {float(lv["extra_op_percent"]): float(lv["steady_waf"]) for lv in doc["levels"]}


def ssdiq_readings(policy: str, jobs: int | None) -> list[vs.VictimReading]:
    """The victim-selection readings of one policy's uniform WAF at :data:`SSDIQ_LEVELS`."""
    uniform = ssdiq_wafs(policy)
    points = [fitmod.Point(x, None, SSDIQ_REL_SD, uniform[x], SSDIQ_REL_SD) for x in SSDIQ_LEVELS]
    fig_in = predmod.PredictionInput(
        points, list(SSDIQ_LEVELS), typed=True, source=f"ssdiq-sim {policy}", jobs=jobs,
        model_form=uncertainty.NO_MODEL_FORM,
    )  # fmt: skip
    return vs.readings_of(spare_readings.read_all(fig_in))


def set_b(policy: str, jobs: int | None) -> list[dict[str, Any]]:
    """Set B for one policy of SSD-iq's GC simulator."""
    t0 = time.process_time()
    zones = ssdiq_wafs(f"{policy}-zones")
    readings = ssdiq_readings(policy, jobs)
    memo: dict = {}
    fig = vs.SkewedFigure(SSDIQ_WORKLOAD, SSDIQ_FIGURE_LEVEL, zones[SSDIQ_FIGURE_LEVEL], "waf",
                          SSDIQ_REL_SD)  # fmt: skip
    weights = vs.weigh(readings, fig, 0.0, jobs, memo)
    fit_cpu = time.process_time() - t0
    print(f"ssdiq {policy}: zones 0% weighs {_weights_text(weights)} ({fit_cpu:.0f} CPU s)",
          file=sys.stderr, flush=True)  # fmt: skip
    base = {"set": "B", "drive": f"ssdiq-sim {policy}", "workload": "zones 90/10",
            "workload_kind": "zones", "figure": "zones 90/10 at 0%",
            "figure_weights": _weights_text(weights), "fit_cpu_s": fit_cpu}  # fmt: skip
    return [_case(base, readings, weights, SSDIQ_WORKLOAD, x, zones[x], "waf", jobs, memo)
            for x in SSDIQ_LEVELS if x != SSDIQ_FIGURE_LEVEL]  # fmt: skip


def skewftl_truths(
    drive: str, folder: Path = SKEWFTL, scattered: bool = False
) -> dict[str, dict[str, Any]]:
    """A drive of set C (bench/foreign/results/skewftl/DRIVE-*.json, bench/foreign/ssdsim.py's
    files; or of ``folder``): by workload label, its ``overprov_workload`` (``scattered``: every
    zones workload ``zones_scattered``, as SSDsim wrote them) and its QD32 levels' steady figures
    (``settled`` as the driver's window rule found it)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob(f"{drive}-*.json")):
        doc = json.loads(path.read_text())
        levels = {float(lv["extra_op_percent"]): lv for lv in doc["levels"]
                  if lv["queue_depth"] == 32}  # fmt: skip
        wl = doc["overprov_workload"]
        out[doc["workload_label"]] = {
            "workload": {**wl, "zones_scattered": True} if scattered and "zones" in wl else wl,
            "levels": levels,
            "fob_iops": levels[0.0]["fob_iops"],
            "file": path.name,
        }
    return out


def skewftl_readings(
    drive: str, fit: str, jobs: int | None, folder: Path = SKEWFTL
) -> list[vs.VictimReading]:
    """The victim-selection readings of a set C drive's uniform figures at
    :data:`SKEWFTL_FITTED_LEVELS` and its FOB (``fit`` "iops": IOPS only; "iops+waf": WAF too)."""
    uniform = skewftl_truths(drive, folder)["uniform"]
    sd = SKEWFTL_REL_SD
    points = [fitmod.Point(x, uniform["levels"][x]["steady_iops"], sd,
                           uniform["levels"][x]["steady_waf"] if fit == "iops+waf" else None, sd)
              for x in SKEWFTL_FITTED_LEVELS]  # fmt: skip
    points.append(fitmod.Point(0.0, uniform["fob_iops"], sd, fresh=True))
    fig_in = predmod.PredictionInput(
        points, list(SKEWFTL_LEVELS), typed=True, source=f"{drive} {fit}", jobs=jobs,
        model_form=uncertainty.NO_MODEL_FORM,
    )  # fmt: skip
    return vs.readings_of(spare_readings.read_all(fig_in))


def weigh_figures(
    readings: list[vs.VictimReading], figures: list[vs.SkewedFigure], jobs: int | None, memo: dict
) -> dict[str, dict[str, Any]]:
    """``vs.weigh`` with several figures of one workload and level (IOPS and WAF): each
    reading's χ² its uniform one plus every figure's term, weighed by ``evidence.weights``."""
    each = [vs.weigh(readings, f, 0.0, jobs, memo) for f in figures]
    got = {}
    for r in readings:
        terms = [w[r.name]["skewed_chi2"] for w in each]
        got[r.name] = {"predicted": each[0][r.name]["predicted"], "chi2": r.uniform_chi2
                       + sum(terms), "reproduces": r.reproduces,
                       "figures": {f.kind: w[r.name]["predicted"] for f, w in
                                   zip(figures, each, strict=True)}}  # fmt: skip
    w = evidence.weights({k: g["chi2"] for k, g in got.items()},
                         {k: g["reproduces"] for k, g in got.items()})  # fmt: skip
    for k, g in got.items():
        g["weight"] = w[k]
    return got


def set_c(
    drive: str, fit: str, jobs: int | None, folder: Path = SKEWFTL, name: str = "C",
    scattered: bool = False,
) -> list[dict[str, Any]]:  # fmt: skip
    """Set C for one SSDsim drive and one fit: the zones 0.9/0.1 figure at 0% (IOPS; and WAF
    with ``fit`` "iops+waf") weighs the readings, every other skewed figure is predicted (set
    ``name`` E: a drive of :data:`SET_E` from its ``folder``, with :data:`PER_WRITE`'s own figure
    beside when it is read; every set but C's; ``scattered``: :func:`skewftl_truths`')."""
    t0 = time.process_time()
    truths = skewftl_truths(drive, folder, scattered)
    readings = skewftl_readings(drive, fit, jobs, folder)
    memo: dict = {}
    label, at = SKEWFTL_FIGURE
    level = truths[label]["levels"][at]
    kinds = ("iops", "waf") if fit == "iops+waf" else ("iops",)
    figs = [vs.SkewedFigure(truths[label]["workload"], at, float(level[f"steady_{k}"]), k,
                            SKEWFTL_REL_SD) for k in kinds]  # fmt: skip
    weights = weigh_figures(readings, figs, jobs, memo)
    fit_cpu = time.process_time() - t0
    print(f"{drive} {fit}: {label} at {at:g}% weighs {_weights_text(weights)} "
          f"({fit_cpu:.0f} CPU s)", file=sys.stderr, flush=True)  # fmt: skip
    out = []
    alone = {r.name: r for r in readings}.get(PER_WRITE) if name != "C" else None
    for wl_name, t in truths.items():
        if wl_name == "uniform":
            continue
        base = {"set": name, "drive": f"{drive} ({fit})", "fit": fit, "workload": wl_name,
                "workload_kind": wl_name.split()[0], "figure": f"{label} at {at:g}%",
                "figure_weights": _weights_text(weights), "fit_cpu_s": fit_cpu,
                "truth_file": t["file"], "readings_read": [r.name for r in readings]}  # fmt: skip
        for x, lv in sorted(t["levels"].items()):
            if (wl_name, x) == (label, at):
                continue
            for kind in ("iops", "waf"):
                case = _case({**base, "settled": lv["steady_window"]["settled"]}, readings,
                             weights, t["workload"], x, float(lv[f"steady_{kind}"]), kind, jobs,
                             memo)  # fmt: skip
                if alone is not None:
                    (v,) = vs.simulate(alone, t["workload"], [x], kind, jobs, memo)
                    case["per_write_alone"] = v
                    case["per_write_alone_rel_error"] = v / case["measured"] - 1.0
                out.append(case)
    return out


def verdict_c(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Set C's targets (bench/foreign/results/skewftl/RULE.md) on one fit's cases: IOPS median
    and worst, WAF worst, the 80% intervals' share inside; beside them, the same without the
    skewed figure (uniform figures alone)."""

    def errs(key: str, kind: str) -> list[float]:
        return [abs(c[key]) for c in cases if c["kind"] == kind]

    out: dict[str, Any] = {"cases": len(cases)}
    for key, tag in (("rel_error", ""), ("uniform_only_rel_error", "uniform_only_")):
        iops, waf = errs(key, "iops"), errs(key, "waf")
        out[f"{tag}iops_median"], out[f"{tag}iops_worst"] = statistics.median(iops), max(iops)
        out[f"{tag}waf_median"], out[f"{tag}waf_worst"] = statistics.median(waf), max(waf)
        out[f"{tag}met"] = (out[f"{tag}iops_median"] <= SKEWFTL_IOPS_MEDIAN
                            and out[f"{tag}iops_worst"] <= SKEWFTL_IOPS_WORST
                            and out[f"{tag}waf_worst"] <= SKEWFTL_WAF_WORST)  # fmt: skip
    out["inside"] = sum(c["inside"] for c in cases) / len(cases)
    return out


def judge_c(cases: list[dict[str, Any]]) -> str:
    """Set C's table, one row per fit (both drives), then every case."""
    lines = ["| fit | cases | IOPS median / worst | WAF median / worst | inside 80% | verdict | "
             "uniform figures alone: IOPS median / worst, WAF median / worst | verdict |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for fit in SKEWFTL_FITS:
        mine = [c for c in cases if c.get("fit") == fit]
        if not mine:
            lines.append(f"| {fit} | not run |" + " |" * 6)
            continue
        v = verdict_c(mine)

        def pair(tag: str, v: dict[str, Any] = v) -> str:
            return (
                f"{100 * v[tag + 'iops_median']:.1f}% / {100 * v[tag + 'iops_worst']:.1f}%"
                f", {100 * v[tag + 'waf_median']:.1f}% / {100 * v[tag + 'waf_worst']:.1f}%"
            )

        lines.append(
            f"| {fit} | {v['cases']} | {pair('').replace(', ', ' | ')} | "
            f"{100 * v['inside']:.0f}% | **{'met' if v['met'] else 'not met'}** | "
            f"{pair('uniform_only_')} | {'met' if v['uniform_only_met'] else 'not met'} |"
        )
    return "\n".join(lines)


def diagnose(drive: str, names: tuple[str, ...], jobs: int | None) -> str:
    """After the outcome, not the rule's: each named reading alone at every steady skewed
    figure of a 7450 (error of its figure against the measured one), the fit as in set A."""
    d = {x["id"]: x for x in load(CORPUS)}[drive]
    readings = {r.name: r for r in vs.readings_of(uniform_prediction(d, jobs))}
    memo: dict = {}
    lines = [f"| {drive} workload | measured | " + " | ".join(names) + " |",
             "|---|---|" + "---|" * len(names)]  # fmt: skip
    for h in held_out_cases(workload_figures(), drive):
        if not h["steady_state"]:
            continue
        cells = []
        for n in names:
            (v,) = vs.simulate(readings[n], h["overprov_workload"], [0.0], "iops", jobs, memo)
            cells.append(f"{v:,.0f} ({100 * (v / h['value'] - 1):+.1f}%)")
        lines.append(f"| {h['workload']} | {h['value']:,} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def diagnose_c(drive: str, names: tuple[str, ...], jobs: int | None) -> str:
    """After the outcome, not the rule's: set C's fit with WAF, each named reading alone at every
    skewed figure of the drive (IOPS, with the timed run's own WAF, steady test and drive writes,
    and the untimed run's WAF), beside SSDsim's."""
    truths = skewftl_truths(drive)
    readings = {r.name: r for r in skewftl_readings(drive, "iops+waf", jobs)}
    lines = [f"| {drive} figure | SSDsim IOPS / WAF | "
             + " | ".join(f"{n}: IOPS (timed run's WAF, steady, drive writes) / WAF" for n in names)
             + " |", "|---|---|" + "---|" * len(names)]  # fmt: skip
    for label, t in truths.items():
        if label == "uniform":
            continue
        for x, lv in sorted(t["levels"].items()):
            cells = []
            for n in names:
                r = readings[n]
                timed = twin_runs.simulate_levels(
                    r.twin, [x], t["workload"], jobs=jobs,
                    warmup_drive_writes=vs.WARMUP_DRIVE_WRITES,
                ).levels[0]  # fmt: skip
                (waf,) = vs.simulate(r, t["workload"], [x], "waf", jobs)
                e_iops = 100 * (timed.steady_iops / lv["steady_iops"] - 1)
                e_waf = 100 * (waf / lv["steady_waf"] - 1)
                cells.append(
                    f"{timed.steady_iops:,.0f} ({e_iops:+.1f}%; {timed.waf:.2f}, "
                    f"{'yes' if timed.settled else 'no'}, {timed.drive_writes:.1f}) / "
                    f"{waf:.3f} ({e_waf:+.1f}%)"
                )
            lines.append(f"| {label} {x:g}% | {lv['steady_iops']:,.0f} / {lv['steady_waf']:.3f} | "
                         + " | ".join(cells) + " |")  # fmt: skip
            print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def block_size_check(drive: str, names: tuple[str, ...], pages: tuple[int, ...],
                     jobs: int | None) -> str:  # fmt: skip
    """After the outcome, not the rule's: each named reading of set C's fit with WAF, its twin
    with ``geometry.pages_per_block`` each of ``pages`` (the twin's own is 512, SSDsim's 64), its
    WAF at 0% under every workload of the drive (untimed), beside SSDsim's."""
    truths = skewftl_truths(drive)
    readings = {r.name: r for r in skewftl_readings(drive, "iops+waf", jobs)}
    lines = [f"| {drive} reading | pages a block | " + " | ".join(truths) + " |",
             "|---|---|" + "---|" * len(truths)]  # fmt: skip
    lines.append("| SSDsim | 64 | " + " | ".join(
        f"{t['levels'][0.0]['steady_waf']:.3f}" for t in truths.values()) + " |")  # fmt: skip
    for n in names:
        for ppb in pages:
            wafs = [twin_runs.simulate_levels(
                readings[n].twin, [0.0], t["workload"], timed=False, jobs=jobs,
                warmup_drive_writes=vs.WARMUP_DRIVE_WRITES,
                overrides={"geometry": {"pages_per_block": ppb}},
            ).levels[0].waf for t in truths.values()]  # fmt: skip
            lines.append(f"| {n} | {ppb} | " + " | ".join(f"{w:.3f}" for w in wafs) + " |")
            print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def verdict(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The rule's two targets on one set's cases."""
    err = [abs(c["rel_error"]) for c in cases]
    uni = [abs(c["uniform_only_rel_error"]) for c in cases]
    worse = [c for c, e, u in zip(cases, err, uni, strict=True) if e > u + WORSE_BY_AT_MOST]
    median, worst = statistics.median(err), max(err)
    accuracy = median <= 0.10 and worst <= 0.25
    not_worse = statistics.median(err) <= statistics.median(uni) and not worse
    return {
        "cases": len(cases), "median": median, "worst": worst,
        "uniform_only_median": statistics.median(uni), "uniform_only_worst": max(uni),
        "worse": [f"{c['drive']} {c['workload']} {c['extra_op_percent']:g}%" for c in worse],
        "inside": sum(c["inside"] for c in cases) / len(cases),
        "accuracy": accuracy, "not_worse": not_worse, "met": accuracy and not_worse,
    }  # fmt: skip


def set_lines(
    cases: list[dict[str, Any]], sets: tuple[str, ...], verdict: Callable[..., dict[str, Any]],
    middle: Callable[[str, dict[str, Any]], str], columns: int,
) -> list[str]:  # fmt: skip
    """A rule's table, a row per set: its cases, ``middle(set, verdict)``'s cells, the targets
    (``verdict``'s ``accuracy``, ``not_worse``, ``met``); ``columns`` cells in all."""
    lines = []
    for s in sets:
        mine = [c for c in cases if c["set"] == s]
        if not mine:
            lines.append(f"| {s} | not run |" + " |" * (columns - 2))
            continue
        v = verdict(mine)
        lines.append(
            f"| {s} | {v['cases']} | {middle(s, v)} | "
            f"{'met' if v['accuracy'] else 'missed'} | {'met' if v['not_worse'] else 'missed'} | "
            f"**{'met' if v['met'] else 'not met'}** |"
        )
    return lines


def judge(cases: list[dict[str, Any]]) -> str:
    ab = [c for c in cases if c["set"] in ("A", "B")]
    c_cases = [c for c in cases if c["set"] == "C"]
    lines = []
    if ab:
        lines += ["| set | cases | median error | worst | uniform-only median / worst | cases "
                  "worse (> 2 points) | inside 80% | target 1 | target 2 | verdict |",
                  "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
        lines += set_lines(ab, ("B", "A"), verdict, lambda _s, v: (
            f"{100 * v['median']:.1f}% | {100 * v['worst']:.1f}% | "
            f"{100 * v['uniform_only_median']:.1f}% / {100 * v['uniform_only_worst']:.1f}% | "
            f"{len(v['worse'])} | {100 * v['inside']:.0f}%"), 10)  # fmt: skip
        lines.append("")
    if c_cases:
        lines += [judge_c(c_cases), ""]
    lines += ["| case | figure | measured | predicted (80%) | error | uniform-only | "
              "readings kept (weight) |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for c in cases:
        kept = "; ".join(f"{k} {r['weight']:.2f}" for k, r in c["readings"].items())
        kind = f" {c['kind']}" if c["set"] == "C" else ""
        lines.append(
            f"| {c['drive']} {c['workload']} {c['extra_op_percent']:g}%{kind} | {c['figure']} | "
            f"{c['measured']:.4g} | {c['predicted']:.4g} ({c['low']:.4g}–{c['high']:.4g}) | "
            f"{100 * c['rel_error']:+.1f}% | {100 * c['uniform_only_rel_error']:+.1f}% | {kept} |"
        )
    lines += ["", "| drive | skewed figure | each reading: predicted figure (weight) |",
              "|---|---|---|"]  # fmt: skip
    for d in dict.fromkeys(c["drive"] for c in cases):
        c = next(c for c in cases if c["drive"] == d)
        ws = "; ".join(f"{k} {g['predicted']:.4g} ({g['weight']:.2f})"
                       for k, g in c["figure_weights"].items())  # fmt: skip
        lines.append(f"| {d} | {c['figure']} | {ws} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="JSON lines the cases go to")
    ap.add_argument("--only", choices=("A", "B", "C", "E"), default=None,
                    help="one set (default A, B; C and E, SSDsim's, only if named)")  # fmt: skip
    ap.add_argument("--per-write", action="store_true",
                    help=f"list the reading {PER_WRITE} (module doc)")  # fmt: skip
    ap.add_argument("--fit", default=None, help="sets C, E: only this fit")
    ap.add_argument("--drives", default=None, help="sets C, E: only these drives (a,b)")
    ap.add_argument("--zones-scattered", action="store_true",
                    help="set C's twins' zones scattered (set C-scattered)")  # fmt: skip
    ap.add_argument("--memo", type=Path, default=None,
                    help="twin runs kept in a file (bench/twin_runs_memo.py)")  # fmt: skip
    ap.add_argument("--judge", type=Path, default=None, help="judge these cases (JSON lines)")
    ap.add_argument("--diagnose", default=None, help="after the outcome: readings alone on set A")
    ap.add_argument(
        "--pages-per-block",
        default="",
        help="with --only C --diagnose: the readings' WAF at 0%% with these blocks (512,64)",
    )
    args = ap.parse_args()
    if args.per_write:
        include_per_write()
    if args.memo is not None:
        keep_runs(args.memo)
    if args.diagnose and args.only == "C" and args.pages_per_block:
        names = tuple(args.diagnose.split(","))
        pages = tuple(int(p) for p in args.pages_per_block.split(","))
        print("\n\n".join(block_size_check(d, names, pages, args.jobs) for d in SKEWFTL_DRIVES))
        return 0
    if args.diagnose and args.only == "C":
        names = tuple(args.diagnose.split(","))
        print("\n\n".join(diagnose_c(d, names, args.jobs) for d in SKEWFTL_DRIVES))
        return 0
    if args.diagnose:
        names = tuple(args.diagnose.split(","))
        print("\n\n".join(diagnose(d, names, args.jobs) for d in PREDICTED))
        return 0
    if args.judge is not None:
        print(judge(read_cases(args.judge)))
        return 0
    done = set()
    if args.out is not None and args.out.exists():
        done = {f"{c['set']} {c['drive']}" for c in read_cases(args.out)}
    runs = []
    if args.only in (None, "B"):
        runs += [(f"B ssdiq-sim {p}", set_b, p) for p in SSDIQ_POLICIES]
    if args.only in (None, "A"):
        runs += [(f"A {d}", set_a, d) for d in PREDICTED]
    drives = args.drives.split(",") if args.drives else None
    if args.only == "C":
        c = "C-scattered" if args.zones_scattered else "C"
        runs += [(f"{c} {d} ({fit})", lambda a, jobs: set_c(*a, jobs, SKEWFTL, c,
                  args.zones_scattered), (d, fit))
                 for d in drives or SKEWFTL_DRIVES for fit in SKEWFTL_FITS]  # fmt: skip
    if args.only == "E":
        runs += [(f"E {d} ({fit})", lambda a, jobs: set_c(a[0], a[1], jobs, SET_E[a[0]][0], "E"),
                  (d, fit)) for d in drives or SET_E for fit in SET_E[d][1]]  # fmt: skip
    if args.fit:
        runs = [r for r in runs if not r[0].endswith(")") or r[0].endswith(f"({args.fit})")]
    for name, run, arg in runs:
        if name in done:
            continue
        append_cases(args.out, run(arg, args.jobs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
