"""The skew path's 80% intervals with calibrate's model-form error, judged by
bench/intervals/RULE-skew.md on the stored skew cases of SSDsim.

Each judged case (skewftl's, zonescatter's "P2") has one kept reading, so its stored interval is
that reading's figure times its uniform reading's relative interval (no model-form term). The
uniform readings are read again as the bench reads them (``corpus_workload_victim.
skewftl_readings``: no skewed workload simulated) to check that the stored interval is theirs;
the interval with the flag on is the stored one widened by ``victim_selection._relative_interval``
with ``SKEWED_FORM_ERROR`` on and the model-form sd of the drive's uniform figures
(``uncertainty.model_sd_at``). Then the rule's two criteria, the pooled one over
``bench/intervals/tally.py``'s current cases with these in place of the stored skew ones.

    PYTHONPATH=python python bench/intervals/skew_intervals.py [--out bench/intervals/skew]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import corpus_workload_victim as cwv  # noqa: E402  (bench/)
import tally  # noqa: E402  (bench/intervals/)
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import uncertainty  # noqa: E402
from overprov.calibrate import victim_selection as vs  # noqa: E402

ZONESCATTER = tally.RESULTS / "zonescatter"
#: the stored ends must be reproduced this closely (relative) by the readings read again
REPRODUCE_TOL = 0.005
COVER = (0.70, 0.90)
VERDICT = {True: "met, adopted", False: "not met, the flag stays off"}


def judged_cases() -> list[dict[str, Any]]:
    """The rule's cases: every skewftl case, every zonescatter "P2" case with an interval."""
    out = []
    for line in (cwv.SKEWFTL / "cases.jsonl").read_text().splitlines():
        c = json.loads(line)
        (name,) = c["readings"]
        out.append({**c, "source": "skewftl", "folder": cwv.SKEWFTL, "kept": name})
    for line in (ZONESCATTER / "cases.jsonl").read_text().splitlines():
        c = json.loads(line)
        if c["prediction"] == "P2" and c["low"] is not None:
            folder = ZONESCATTER if c["part"] == "judged" else cwv.SKEWFTL
            out.append({**c, "fit": "iops+waf", "source": f"zonescatter {c['part']}",
                        "folder": folder, "kept": None})  # fmt: skip
    return out


def uniform_points(drive: str, fit: str, folder: Path) -> list[fitmod.Point]:
    """The drive's uniform figures as set C fits them (``cwv.skewftl_readings``)."""
    u = cwv.skewftl_truths(drive, folder)["uniform"]
    sd = cwv.SKEWFTL_REL_SD
    pts = [fitmod.Point(x, u["levels"][x]["steady_iops"], sd,
                        u["levels"][x]["steady_waf"] if fit == "iops+waf" else None, sd)
           for x in cwv.SKEWFTL_FITTED_LEVELS]  # fmt: skip
    return pts + [fitmod.Point(0.0, u["fob_iops"], sd, fresh=True)]


def widen(c: dict[str, Any], sd: float | None, on: bool) -> tuple[float, float]:
    """The case's interval from its stored one (one reading: figure × relative interval), with
    the flag as given."""
    v = c["predicted"]
    key = ("steady_iops", "steady_iops_low", "steady_iops_high") if c["kind"] == "iops" else (
        "waf", "waf_low", "waf_high")  # fmt: skip
    level = SimpleNamespace(**dict(zip(key, (v, c["low"], c["high"]), strict=True)))
    saved = vs.SKEWED_FORM_ERROR
    vs.SKEWED_FORM_ERROR = on
    try:
        lo, hi = vs._relative_interval(level, c["kind"], sd)
    finally:
        vs.SKEWED_FORM_ERROR = saved
    return v * lo, v * hi


def evaluate(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each case with its reproduction check, its model-form sd and both intervals."""
    groups: dict[tuple[str, str, Path], list[dict[str, Any]]] = {}
    for c in cases:
        drive = c["drive"].split(" ")[0]
        groups.setdefault((drive, c["fit"], c["folder"]), []).append(c)
    for (drive, fit, folder), cs in groups.items():
        t0 = time.process_time()
        readings = {r.name: r for r in cwv.skewftl_readings(drive, fit, 1, folder)}
        w = vs.uniform_weights(list(readings.values()))
        top = max(w, key=lambda k: w[k])
        pts = uniform_points(drive, fit, folder)
        sds = uncertainty.model_sd_at(pts, list(cwv.SKEWFTL_LEVELS))
        form = uncertainty.model_form_for(pts, simulated=False)
        cpu = time.process_time() - t0
        print(f"{drive} {fit}: readings read again in {cpu:.1f} CPU s; {form.describe()}",
              file=sys.stderr, flush=True)  # fmt: skip
        for c in cs:
            name = c["kept"] or top
            x = c["extra_op_percent"]
            lo_r, hi_r = vs._relative_interval(readings[name].uniform_levels.get(x), c["kind"])
            v = c["predicted"]
            c["reproduced"] = (abs(v * lo_r / c["low"] - 1) <= REPRODUCE_TOL
                               and abs(v * hi_r / c["high"] - 1) <= REPRODUCE_TOL)  # fmt: skip
            c["kept"] = name
            c["model_rel_sd"] = sds[x]
            c["off"] = widen(c, sds[x], on=False)
            c["on"] = widen(c, sds[x], on=True)
            c["readings_cpu_s"] = cpu
    return cases


def stats(cases: list[dict[str, Any]], key: str) -> dict[str, Any]:
    if not cases:
        return {"n": 0}
    inside = [c[key][0] <= c["measured"] <= c[key][1] for c in cases]
    return {
        "n": len(cases),
        "inside": sum(inside) / len(cases),
        "median_width": statistics.median(c[key][1] / c[key][0] - 1 for c in cases),
    }


def pooled(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """tally.py's current cases (none of the skew block) with the judged skew cases flag on."""
    rows = [r for r in tally.all_rows() if not r["stale"] and r["block"] != "skew"]
    skew = [tally.row(low=c["on"][0], high=c["on"][1], true=c["measured"],
                      predicted=c["predicted"]) for c in cases]  # fmt: skip
    return {"without skew": tally.stats(rows), "with skew, flag on": tally.stats(rows + skew)}


def verdict(cases: list[dict[str, Any]]) -> dict[str, Any]:
    on = stats(cases, "on")
    pool = pooled(cases)
    repro = [c for c in cases if c["reproduced"]]
    crit = {
        "1 skew cases 70-90% inside (flag on)": COVER[0] <= on["inside"] <= COVER[1],
        "2 pooled 70-90% inside": COVER[0] <= pool["with skew, flag on"]["inside"] <= COVER[1],
    }
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        for g in (f"fit {c['fit']}", f"drive {c['drive'].split(' ')[0]}", f"{c['kind']}",
                  c["source"]):  # fmt: skip
            groups.setdefault(g, []).append(c)
    return {
        "criteria": crit,
        "adopted": all(crit.values()),
        "cases": {"off": stats(cases, "off"), "on": on},
        "reproduced": {"n": len(repro), "off": stats(repro, "off"), "on": stats(repro, "on")},
        "not_reproduced": sorted(
            f"{c['source']}: {c['drive']} {c['workload']} {c['extra_op_percent']:g}% {c['kind']}"
            for c in cases
            if not c["reproduced"]
        ),
        "pooled": pool,
        "groups": {g: {"off": stats(cs, "off"), "on": stats(cs, "on")} for g, cs in groups.items()},
    }


def markdown(v: dict[str, Any]) -> str:
    def cell(s: dict[str, Any]) -> str:
        return f"{s['n']}: {tally.pct(s.get('inside'))} at {tally.pct(s.get('median_width'))}"

    lines = ["| cases | flag off: n: inside at median width | flag on |", "|---|---|---|",
             f"| **judged** | {cell(v['cases']['off'])} | {cell(v['cases']['on'])} |",
             f"| reproduced by the readings read again | {cell(v['reproduced']['off'])} | "
             f"{cell(v['reproduced']['on'])} |"]  # fmt: skip
    lines += [f"| {g} | {cell(s['off'])} | {cell(s['on'])} |" for g, s in v["groups"].items()]
    p = v["pooled"]
    lines += ["", f"Pooled (tally.py's current cases): without the skew cases "
              f"{cell(p['without skew'])}; with them, flag on, {cell(p['with skew, flag on'])}.",
              "", "| criterion | met |", "|---|---|"]  # fmt: skip
    lines += [f"| {k} | {'yes' if ok else 'no'} |" for k, ok in v["criteria"].items()]
    lines += ["", f"Not reproduced ({len(v['not_reproduced'])}): "
              + ("; ".join(v["not_reproduced"]) or "none"),
              "", f"**Verdict: {VERDICT[v['adopted']]}.**"]  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a folder for the verdict and its rows")
    args = ap.parse_args(argv)
    cases = evaluate(judged_cases())
    v = verdict(cases)
    text = markdown(v)
    print(text)
    if args.out:
        tally.write(args.out, "verdict", text, v, cases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
