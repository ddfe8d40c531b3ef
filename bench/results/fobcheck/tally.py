"""Tally every stored IOPS-only case (a foreign FTL's truth, fitted on IOPS figures and FOB,
no WAF figure) against statistics calibrate can compute from those figures alone.

For each case (deduplicated by its calibrate command, the most recently committed evaluation
kept) it reports the WAF miss (worst |WAF error| over the predicted levels, as recorded),
``fit_waf_worst`` (the same miss of the analytic surrogate this code fits, against the truth's
WAF, for refused cases too) and:

- ``fob_ratio``: FOB ÷ the line the steady figures alone imply at WAF 1, 1e6/(t_cmd + t_page)
  from ``fit.fit`` on the steady IOPS figures at the workload's QD without FOB (>= 2 levels);
  with two levels t_cmd is held at 0, so it is FOB ÷ (IOPS at the lowest level × the model's
  WAF there): the FOB reading of that WAF against the steady levels' ratio reading.
- ``cmd_share``: the full fit's (with FOB) t_cmd ÷ t_page; ``-0.5`` is the bound.
- ``cost``: the full fit's weighted residual (chi²).
- ``native_op``, ``waf_low``: the full fit's ρ₀ and its WAF at the lowest steady level.
- ``fob_over_low``: FOB ÷ IOPS at the lowest steady level (FOB's own reading of that WAF
  with t_cmd 0); ``span_ratio``: IOPS at the highest ÷ at the lowest steady level.

Run: PYTHONPATH=python python bench/results/fobcheck/tally.py > bench/results/fobcheck/tally.out
"""

from __future__ import annotations

import glob
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import fit  # noqa: E402

ROOTS = ["bench/foreign/results", "bench/results"]
OWN = "bench/results/fobcheck/"
MISS = 0.25


def commit_time(path: str) -> int:
    out = subprocess.run(
        ["git", "log", "-1", "--format=%ct", "--", path], capture_output=True, text=True
    ).stdout.strip()
    return int(out or 0)


def walk(node, parent=None):
    """Every dict with a calibrate ``command`` and ``levels``, with the record above it."""
    if isinstance(node, dict):
        if "command" in node and ("levels" in node or "error" in node):
            yield node, parent
        for v in node.values():
            yield from walk(v, node if "cases" in node else parent)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v, parent)


def truth_wafs(parent: dict | None) -> dict[float, float]:
    """{extra OP %: the truth's WAF}, read from any case of the truth's record that has levels
    (a refused case has none of its own)."""
    out: dict[float, float] = {}
    for c in (parent or {}).get("cases", []):
        for lv in c.get("levels", []):
            if lv.get("waf_true") is not None:
                out[float(lv["extra_op_percent"])] = lv["waf_true"]
    return out


def option(cmd: str, name: str) -> str | None:
    m = re.search(rf"--{name}[ =](\S+)", cmd)
    return m.group(1) if m else None


def steady_points(cmd: str, qd: int) -> list[fit.Point]:
    pts = []
    for tok in (option(cmd, "points") or "").split(","):
        if not tok:
            continue
        at_qd = qd
        if "@qd" in tok:
            tok, q = tok.split("@qd")
            at_qd = int(q)
        if at_qd != qd:
            continue
        x, iops = tok.split(":")[:2]
        pts.append(fit.Point(float(x), float(iops)))
    return pts


def native(cmd: str) -> float | None:
    adv, phys = option(cmd, "advertised"), option(cmd, "physical")
    if adv and phys:
        return float(phys.rstrip("B")) / float(adv.rstrip("B")) - 1.0
    return None


def true_line_ratio(pts: list[fit.Point], fob: float, waf_true: dict[float, float]) -> float | None:
    """FOB ÷ the line through the lowest and highest steady levels' (truth WAF, 1e6/IOPS) at
    WAF 1: what bench/foreign/results/erasecost/DIAGNOSIS.md tabulates. It needs the truth's
    WAF, so calibrate cannot compute it from IOPS figures: shown as the oracle the IOPS-only
    statistics stand in for."""
    lo = min(p.extra_op_percent for p in pts)
    hi = max(p.extra_op_percent for p in pts)
    if lo == hi or lo not in waf_true or hi not in waf_true:
        return None
    y_lo = 1e6 / max(p.iops for p in pts if p.extra_op_percent == lo)
    y_hi = 1e6 / max(p.iops for p in pts if p.extra_op_percent == hi)
    slope = (y_lo - y_hi) / (waf_true[lo] - waf_true[hi])
    return fob * (y_hi + (1.0 - waf_true[hi]) * slope) / 1e6


def statistics(cmd: str, qd: int, waf_true: dict[float, float]) -> dict:
    pts = steady_points(cmd, qd)
    fob = float(option(cmd, "fob-iops"))
    rho = native(cmd)
    out: dict = {"levels": len({p.extra_op_percent for p in pts}), "raw_nand": rho is not None}
    full = fit.fit([*pts, fit.Point(0, fob, fresh=True)], fob_iops=fob, native_op=rho)
    out["cmd_share"] = full.t_cmd_us / full.t_page_us if full.t_page_us else None
    out["cost"] = full.cost
    out["native_op"] = full.native_op
    lo = min(p.extra_op_percent for p in pts)
    out["waf_low"] = full.waf(lo)
    iops_lo = max(p.iops for p in pts if p.extra_op_percent == lo)
    out["fob_over_low"] = fob / iops_lo
    hi = max(p.extra_op_percent for p in pts)
    errs = [abs(full.waf(x) / w - 1.0) for x, w in waf_true.items()]
    out["true_fob_ratio"] = true_line_ratio(pts, fob, waf_true)
    out["fit_waf_worst"] = max(errs) if errs else None
    out["span_ratio"] = max(p.iops for p in pts if p.extra_op_percent == hi) / iops_lo
    if out["levels"] >= 2:
        steady = fit.fit(pts, native_op=rho)
        line = 1e6 / (steady.t_cmd_us + steady.t_page_us)
        out["fob_ratio"] = fob / line
    else:
        out["fob_ratio"] = None
    return out


def main() -> None:
    t0 = cpu_s()
    cases: dict[str, dict] = {}
    found = {f for r in ROOTS for f in glob.glob(f"{r}/**/*.json", recursive=True)}
    files = sorted(f for f in found if not f.startswith(OWN))  # not this tally's own files
    for f in files:
        try:
            with open(f) as fh:
                data = json.load(fh)
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        when = None
        for case, parent in walk(data):
            cmd = case["command"]
            if isinstance(cmd, list):  # a refused case stores its argv
                cmd = " ".join(a for a in cmd if not a.startswith("/tmp/"))
            if not isinstance(cmd, str) or "calibrate" not in cmd or "--extra-op" not in cmd:
                continue
            if "--fob-iops" not in cmd or "--waf-points" in cmd or "--points" not in cmd:
                continue
            errs = [
                abs(lv["waf_err"]) for lv in case.get("levels", []) if lv.get("waf_err") is not None
            ]
            refused = not errs
            when = commit_time(f) if when is None else when
            key = cmd.split("--extra-op")[1]
            prev = cases.get(key)
            if prev and prev["when"] >= when:
                continue
            qd = (parent or {}).get("qd", 32)
            cases[key] = {
                "file": f,
                "when": when,
                "label": (parent or {}).get("label") or (parent or {}).get("results") or "",
                "case": case.get("case", ""),
                "command": cmd,
                "qd": qd,
                "waf_worst": max(errs) if errs else None,
                "refused": refused,
                "waf_true": truth_wafs(parent),
            }
    rows = []
    for c in cases.values():
        try:
            c.update(statistics(c["command"], c["qd"], c.pop("waf_true")))
        except Exception as e:  # a case calibrate itself would refuse
            c["error"] = str(e)
        rows.append(c)
    json.dump(rows, sys.stdout, indent=1, default=str)
    print(f"\n{len(rows)} cases; CPU {cpu_s() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
