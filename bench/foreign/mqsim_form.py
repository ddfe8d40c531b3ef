"""MQSim's IOPS form: the die time a host write costs, against ``1/IOPS = t_cmd + WAF·t_page``.

    python bench/foreign/mqsim_form.py commands RUN_DIR/NAME ... --out FILE.json [--table FILE]
    PYTHONPATH=python python bench/foreign/mqsim_form.py twin --out FILE.json [--table FILE]

A diagnosis (bench/foreign/results/mqsim-form/PLAN.md), not a rule. ``commands`` reads each
drive's ``mqsim.py --work`` folder (its ``op<X>-qd<Q>`` case folders, differenced by
``mqsim_commands.case``; the FOB from the ``fob`` run's report) and gives per level: the IOPS,
the WAF (NAND pages programmed per host write: a multi-plane program writes a page on each
plane), the IOPS the die's command time allows, the multi-plane shares of the program, read and
erase commands, and the time per NAND page, 1/(IOPS·WAF). Per drive: the line
``t_cmd + WAF·t_page`` through the measured 0% and 40% QD32 figures (their measured WAF) and
its errors at 10–30%, the slope of ln(1/IOPS) on ln(WAF) over 0–40% and between neighbouring
levels, and the plan's checks P1–P3 (meant for the one-plane drive; computed for every drive).
``twin`` simulates the blocking-GC reading's twin (``calibrate/gc_blocking.py``) at 0–40% in
the cells :data:`TWIN_CELLS` and gives the same time per NAND page and slopes. Nothing is
fitted here except the two-point line.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import mqsim  # noqa: E402
import mqsim_commands  # noqa: E402

LEVELS = (0, 10, 20, 30, 40)
#: The plan's bounds (bench/foreign/results/mqsim-form/PLAN.md): P1 IOPS at most this far
#: under the command-time IOPS; P2 the two-point line's error at 10–30% within this.
P1_BOUND = 0.06
P2_BOUND = 0.05
#: The blocking-GC twins simulated by ``twin``: name -> (dies, planes a die, GC domains,
#: relocations in multi-plane programs, page offsets they pair at, which domain collects).
TWIN_CELLS = {
    "8 dies, 8 domains (the reading's cell at one queue depth)": (8, 1, 8, False, 0, "victim"),
    "1 die x 2 planes, a domain a plane": (1, 2, 2, False, 0, "victim"),
    "1 die x 2 planes, GC paired at one offset of 32, the writer's plane (MQSim's layout)": (
        1,
        2,
        2,
        True,
        32,
        "writer",
    ),  # fmt: skip
}


def planes_of(folder: Path) -> int:
    """Plane_No_Per_Die of a case folder's MQSim configuration."""
    cfg = next(folder.glob("w*-ssd.xml")).read_text()
    return int(re.search(r"<Plane_No_Per_Die>(\d+)<", cfg).group(1))


def level_figures(steady: dict, planes: int) -> dict:
    """A case's figures from ``mqsim_commands.per_host_write``'s steady window."""
    p = steady["per_host_write"]
    waf = p["programs"] + planes * p["multiplane_programs"]

    def share(kind: str) -> float | None:
        total = p[kind] + p[f"multiplane_{kind}"]
        return p[f"multiplane_{kind}"] / total if total > 0 else None

    return {
        "iops": steady["iops"],
        "command_time_iops": steady["command_time_iops"],
        "under_command_time": 1 - steady["iops"] / steady["command_time_iops"],
        "waf": waf,
        "page_time_us": 1e6 / (steady["iops"] * waf),
        "multiplane_share": {k: share(k) for k in ("programs", "reads", "erases")},
        "requests_in_device": steady["requests_in_device"],
        "per_host_write": p,
    }


def fob_figures(folder: Path, planes: int) -> dict | None:
    """The FOB run's figures (its report's counters from an empty drive)."""
    xml = folder / "fob_scenario_1.xml"
    if not xml.exists():
        return None
    c = mqsim_commands.counters(xml)
    zero = {k: 0.0 for k in c}
    return level_figures(mqsim_commands.per_host_write(zero, c), planes)


def slope(a: dict, b: dict) -> float:
    """d ln(1/IOPS) / d ln(WAF) between two levels."""
    return math.log(a["iops"] / b["iops"]) / math.log(b["waf"] / a["waf"])


def line_check(levels: dict[int, dict]) -> dict:
    """The line t_cmd + WAF·t_page through 0% and 40%, its errors elsewhere, P1–P3."""
    lo, hi = levels[0], levels[40]
    t_page = (1e6 / lo["iops"] - 1e6 / hi["iops"]) / (lo["waf"] - hi["waf"])
    t_cmd = 1e6 / hi["iops"] - hi["waf"] * t_page
    errors = {x: 1e6 / (t_cmd + lv["waf"] * t_page) / lv["iops"] - 1 for x, lv in levels.items()}
    xs = sorted(levels)
    page = [levels[x]["page_time_us"] for x in xs]  # 0% first: WAF falls along xs
    return {
        "t_page_us": t_page,
        "t_cmd_us": t_cmd,
        "line_iops_error": errors,
        "slope_0_40": slope(levels[0], levels[40]),
        "slopes": {
            f"{a}-{b}": slope(levels[a], levels[b]) for a, b in zip(xs, xs[1:], strict=False)
        },
        "P1": all(lv["under_command_time"] <= P1_BOUND for lv in levels.values()),
        "P2": all(abs(errors[x]) <= P2_BOUND for x in (10, 20, 30) if x in errors),
        "P3": all(a >= b for a, b in zip(page, page[1:], strict=False)),
    }


def drive(work: Path) -> dict:
    """One drive's ``mqsim.py --work`` folder: its levels by queue depth, FOB and checks."""
    cases: dict[int, dict[int, dict]] = {}
    fob = None
    for folder in sorted(work.glob("op*-qd*")):
        planes = planes_of(folder)
        try:
            c = mqsim_commands.case(folder)
        except ValueError as e:  # a run that stopped early: fewer than 3 checkpoints
            print(f"{folder}: {e}", file=sys.stderr)
            continue
        cases.setdefault(c["queue_depth"], {})[c["extra_op_percent"]] = level_figures(
            c["steady"], planes
        )
        if c["queue_depth"] == 32 and fob is None:
            fob = fob_figures(folder, planes)
    qd32 = cases.get(32, {})
    out = {"drive": work.name, "planes_per_die": planes, "fob": fob, "levels": cases}
    if 0 in qd32 and 40 in qd32:
        out["form"] = line_check(qd32)
    return out


def twin(native_op: float) -> dict:
    """The blocking-GC twin of each cell at 0–40%: IOPS, WAF, time per NAND page, slopes."""
    from overprov.calibrate import gc_blocking

    out = {}
    for name, (dies, planes, domains, mp, offsets, trigger) in TWIN_CELLS.items():
        keys = [(dies, planes, domains, float(x), 32) for x in LEVELS]
        sims = gc_blocking.simulate_runs(native_op, keys, ftl=None, gc_multiplane=mp,
                                         multiplane_offsets=offsets, gc_trigger=trigger,
                                         jobs=1)  # fmt: skip
        levels = {}
        for k, x in zip(keys, LEVELS, strict=True):
            iops, waf = sims[k]
            levels[x] = {"iops": iops, "waf": waf, "page_time_us": 1e6 / (iops * waf),
                         "under_command_time": 0.0}  # fmt: skip
        out[name] = {"levels": {32: levels}, "form": line_check(levels)}
    return {"native_op": native_op, "program_us": gc_blocking.NOMINAL_PROGRAM_US, "cells": out}


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:+.1f}%"


def markdown(doc: dict) -> str:
    """The per-level table of every drive (or twin cell) and its form checks."""
    rows = ["| drive | level | IOPS | WAF | under command time | page time µs | multi-plane "
            "programs / reads / erases | line error |",
            "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    forms = ["| drive | t_cmd µs | t_page µs | slope 0–40% | slopes 0-10 / 10-20 / 20-30 / "
             "30-40 | P1 | P2 | P3 |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    entries = doc.get("drives") or [{"drive": k, **v} for k, v in doc["cells"].items()]
    for d in entries:
        form = d.get("form", {})
        levels = d["levels"]
        fob = [("FOB", d["fob"])] if d.get("fob") else []
        for qd, lvs in sorted(levels.items(), key=lambda kv: int(kv[0])):
            extra = fob if int(qd) == 32 else []
            for x, lv in extra + sorted(lvs.items(), key=lambda kv: -int(kv[0])):
                share = lv.get("multiplane_share") or {}
                err = form.get("line_iops_error", {}).get(x) if int(qd) == 32 else None
                rows.append(
                    f"| {d['drive']} | {x}{'' if x == 'FOB' else '%'} QD{qd} | {lv['iops']:.0f} | "
                    f"{lv['waf']:.3f} | {pct(lv['under_command_time'])} | "
                    f"{lv['page_time_us']:.0f} | "
                    + " / ".join(
                        "–" if share.get(k) is None else f"{share[k]:.2f}"
                        for k in ("programs", "reads", "erases")
                    )  # fmt: skip
                    + f" | {pct(err)} |"
                )
        if form:
            forms.append(
                f"| {d['drive']} | {form['t_cmd_us']:.0f} | {form['t_page_us']:.0f} | "
                f"{form['slope_0_40']:.2f} | "
                + " / ".join(f"{v:.2f}" for v in form["slopes"].values())
                + f" | {form['P1']} | {form['P2']} | {form['P3']} |"
            )
    return "\n".join(rows) + "\n\n" + "\n".join(forms) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("commands", help="MQSim's runs: die time, multi-plane shares, form")
    c.add_argument("work", nargs="+", type=Path, help="mqsim.py --work folders, one a drive")
    t = sub.add_parser("twin", help="the blocking-GC twin's time per NAND page")
    t.add_argument(
        "--native-op",
        type=float,
        default=1 / (1 - mqsim.NATIVE_OP_RATIO) - 1,
        help="the twin's native spare (MQSim's shipped: the host sees 93%%)",
    )
    for p in (c, t):
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--table", type=Path, help="the tables as markdown, written here")
    args = ap.parse_args(argv)
    if args.cmd == "commands":
        doc = {
            "simulator": "MQSim",
            "command": "python bench/foreign/mqsim_form.py commands "
            + " ".join(f"RUN_DIR/{w.name}" for w in args.work),
            "latency_us": mqsim_commands.LATENCY_US,
            "drives": [drive(w) for w in args.work],
        }
    else:
        doc = twin(args.native_op)
        doc["command"] = f"python bench/foreign/mqsim_form.py twin --native-op {args.native_op}"
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.table:
        args.table.write_text(markdown(doc))
    print(markdown(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
