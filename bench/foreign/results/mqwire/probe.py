"""A probe (no rule, seen drives only): would the lockstep twin fix calibrate's MQSim misses?

Each stored MQSim retried truth's plan case (``one`` of
``bench/foreign/results/scoreboard/run.py``) is run twice:
as today, and with calibrate's blocking-GC reading (``python/overprov/calibrate/gc_blocking.py``)
given the lockstep twin form of ``bench/foreign/results/mqlockstep/twin.py`` — one die of two
planes, a GC domain a plane, relocations in multi-plane programs at one page offset of the
twin's pages per block, per-plane free pools (``ftl.plane_pools``), and
``timing.gc.relocations_at_trigger``, ``collections_first``, ``collections_in_flight = 2`` and
``paired_reads``. The change is a monkeypatch made only in the calibrate process this probe
starts for the "lockstep" case (:func:`patch`, run by ``-c`` before ``overprov.cli.main``, as
``evaluate.closed_loop_on`` wraps its flags); nothing in python/overprov changes.

    PYTHONPATH=python python bench/foreign/results/mqwire/probe.py u320x32 u384x64 u512x32
    PYTHONPATH=python python bench/foreign/results/mqwire/probe.py table   # PROBE.md's table

Writes ``probe.json`` (per drive and case: the levels' IOPS/WAF errors, the readings' weights,
the blocking-GC reading's record, CPU seconds by bench/cpu_clock.py) beside it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

TRUTHS = "bench/foreign/results/mqsim-retry/unseen"
#: The lockstep twin's cell: (dies, planes per die, GC domains), as mqlockstep's twin.
LOCKSTEP_CELL = (1, 2, 2)
LOCKSTEP_GC = {
    "relocations_at_trigger": True,
    "collections_first": True,
    "collections_in_flight": 2,
    "paired_reads": True,
}


def patch() -> None:
    """Give gc_blocking's twin the lockstep form (this process only)."""
    from overprov import engine
    from overprov.calibrate import gc_blocking as g

    base_timing, base_config = g.timing, g.config
    g.GC_MULTIPLANE = True
    g.GC_MULTIPLANE_OFFSETS = g.PAGES_PER_BLOCK

    def grid(identified: bool) -> list[tuple[int, int, int]]:
        return [LOCKSTEP_CELL]

    def timing(*args: Any, **kwargs: Any) -> dict[str, Any]:
        t = base_timing(*args, **kwargs)
        if t["nand"].get("planes_per_die", 1) > 1 and t["gc"].get("multiplane_offsets"):
            t["gc"] |= LOCKSTEP_GC
        return t

    def config(*args: Any, **kwargs: Any) -> dict[str, Any]:
        cfg = base_config(*args, **kwargs)
        planes = cfg["timing"]["nand"].get("planes_per_die", 1)
        return engine.merge(cfg, {"ftl": {"plane_pools": planes}}) if planes > 1 else cfg

    g.grid, g.timing, g.config = grid, timing, config


def wrapped_main() -> tuple[str, str]:
    """``python -c``: :func:`patch`, then calibrate's CLI."""
    return ("-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import probe; probe.patch(); "
                  "from overprov.cli import main; sys.exit(main())")  # fmt: skip


def run(stem: str, lockstep: bool) -> dict:
    """The plan case of one truth (``one`` of bench/foreign/results/scoreboard/run.py), as today
    or lockstep."""
    doc = json.loads((FOREIGN.parent.parent / TRUTHS / f"{stem}.json").read_text())
    curve = evaluate.truth_curve(doc, 32)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    has_qd4 = any(int(r["extra_op_percent"]) == 40 and r["queue_depth"] == 4 for r in others)
    cases = {c[0]: c for c in evaluate.CASES}
    case = cases["IOPS+WAF 0+40 QD32 + 40 QD4, FOB" if has_qd4 else "IOPS+WAF 0+40, FOB"]
    base_command = evaluate.command
    if lockstep:
        evaluate.command = lambda *a, **k: [sys.executable, *wrapped_main(),
                                            *base_command(*a, **k)[3:]]  # fmt: skip
    c0 = cpu_s()
    try:  # calibrate's whole answer kept for :func:`twin_side`
        res, outputs = evaluate.evaluate_case_kept(doc, curve, case, 1, others)
    finally:
        evaluate.command = base_command
    mech = res.get("gc_mechanism") or {}
    keep = (
        "domains",
        "dies",
        "planes_per_die",
        "program_us",
        "chi2",
        "residual_chi2",
        "reproduces_fitted_figures",
        "analytic_chi2",
        "analytic_residual_chi2",
        "weight",
    )
    return {
        "case": case[0],
        "levels": [
            {
                k: r.get(k)
                for k in (
                    "extra_op_percent",
                    "iops_true",
                    "iops_pred",
                    "iops_err",
                    "waf_true",
                    "waf_pred",
                    "waf_err",
                )
            }
            for r in res.get("levels", [])
        ],  # fmt: skip
        "readings": res.get("readings"),
        "blocking_gc": {k: mech.get(k) for k in keep},
        "error": res.get("error"),
        "twin_side": twin_side(json.loads(outputs[0]), curve) if "levels" in res else None,
        "cpu_s": round(cpu_s() - c0, 1),
    }


def twin_side(pred: dict, curve: dict[int, dict]) -> dict:
    """The heaviest reading's blocking-GC twin on its own: its IOPS error at each level (what
    calibrate would answer with the twin at weight 1) and its residuals at the fitted figures
    (log errors, what the evidence weighed it by)."""
    readings = pred.get("readings") or {}
    heaviest = max(readings.values(), key=lambda r: r.get("weight", 0.0)) if readings else pred
    mech = heaviest["fit"].get("gc_mechanism") or {}
    errors = {}
    for lv in heaviest["levels"]:
        x, b = int(lv["extra_op_percent"]), lv.get("blocking_gc_iops")
        if b and curve[x].get("steady_iops"):
            errors[x] = b / curve[x]["steady_iops"] - 1
    resid = [{k: r[k] for k in ("extra_op_percent", "figure", "fresh", "log_error", "rel_sd")}
             for r in mech.get("residuals", [])]  # fmt: skip
    return {"blocking_iops_err": errors, "residuals": resid}


def table(doc: dict) -> str:
    """PROBE.md's table: per drive and case, calibrate's IOPS / WAF errors, the blocking-GC
    twin's own IOPS errors, its weight and residual χ² (the analytic one's beside it)."""
    pct = lambda v: "/".join(f"{100 * x:+.0f}" for x in v)  # noqa: E731
    lines = ["| drive | case | calibrate IOPS error at 0/10/20/30/40%, % | WAF error, % "
             "| blocking twin alone: IOPS error, % | its FOB / 0% / 40% IOPS log residual "
             "| twin weight | residual χ² twin ; analytic | readings carrying ≥ 0.1 | CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for stem, cases in doc.items():
        for name, r in cases.items():
            lv, b, side = r["levels"], r["blocking_gc"], r["twin_side"]
            res = {(x["extra_op_percent"], x["figure"], x["fresh"]): x["log_error"]
                   for x in side["residuals"]}  # fmt: skip
            fitted = [res[(0.0, "iops", True)], res[(0.0, "iops", False)],
                      res[(40.0, "iops", False)]]  # fmt: skip
            carry = "; ".join(f"{k} {w:.2f}" for k, w in r["readings"].items() if w >= 0.1)
            lines.append(
                f"| {stem} | {name} ({b['dies']} die × {b['planes_per_die']} planes, "
                f"{b['domains']} domains) | {pct(x['iops_err'] for x in lv)} "
                f"| {pct(x['waf_err'] for x in lv)} | {pct(side['blocking_iops_err'].values())} "
                f"| {' / '.join(f'{v:+.2f}' for v in fitted)} | {b['weight']:.2f} "
                f"| {b['residual_chi2']:.0f} ; {b['analytic_residual_chi2']:.1f} | {carry} "
                f"| {r['cpu_s']} |"
            )  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    out = HERE / "probe.json"
    if argv == ["table"]:
        print(table(json.loads(out.read_text())), end="")
        return 0
    doc = json.loads(out.read_text()) if out.exists() else {}
    for stem in argv:
        for name, lockstep in (("today", False), ("lockstep", True)):
            if name in doc.get(stem, {}):
                continue
            doc.setdefault(stem, {})[name] = run(stem, lockstep)
            out.write_text(json.dumps(doc, indent=1) + "\n")
            r = doc[stem][name]
            errs = " / ".join(f"{v['iops_err']:+.1%}" for v in r["levels"] if v["iops_err"])
            print(f"{stem} {name}: IOPS errors {errs}; {r['cpu_s']} CPU s; {r['error'] or ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
