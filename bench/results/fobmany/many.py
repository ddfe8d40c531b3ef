"""Many-unit drives through the queue-depth check (``fob_check``): bench/results/fobmany/RULE.md.

    PYTHONPATH=python python bench/results/fobmany/many.py gen --dies 16 --out T.json
    PYTHONPATH=python python bench/results/fobmany/many.py cases T.json ... --out DIR
    PYTHONPATH=python python bench/results/fobmany/many.py judge DIR
    PYTHONPATH=python python bench/results/fobmany/many.py confirm T.json ...

``gen``: an overprov-generated drive of ``--dies`` dies with no write buffer and no controller
cost (the NAND alone sets its timing: 4 KiB flash pages, read 25 µs, program 200 µs, erase
1.5 ms, native spare 7%, greedy GC) as a truth file in femu.py's form: QD32 steady IOPS and WAF
at 0-40% simulated (``twin_runs.simulate_levels``), the FOB and the QD4 figure at 40% from
calibrate's own ``measure`` (iops_only_guard.py's ``generate``, on this drive).

``cases``: each truth's "IOPS 0+40 QD32 + 40 QD4, FOB" and "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
(evaluate.py's commands) predicted with ``fob_check.ENABLED`` off, judged against the truth's
QD32 curve (evaluate.py's ``run_case``), and beside each its queue-depth elasticity and whether
the check, on, refuses it (``fob_check.gc_cost_unidentified`` on the points the command gives).

``judge``: the rule's table and verdict. ``confirm``: the IOPS-only case run through calibrate as
shipped (the check on): its exit status and last line.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
sys.path.insert(0, str(ROOT / "bench" / "results" / "fobcheck"))
import by_figure_rule  # noqa: E402
import evaluate  # noqa: E402
import iops_only_guard  # noqa: E402
import judge as fobcheck_judge  # noqa: E402
from overprov.calibrate import fob_check  # noqa: E402

CASES = ("IOPS 0+40 QD32 + 40 QD4, FOB", "IOPS+WAF 0+40 QD32 + 40 QD4, FOB")
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)
#: the drives' NAND (RULE.md): µs per 4 KiB flash page
READ_US, PROGRAM_US, ERASE_US = 25.0, 200.0, 1500.0
NATIVE_OP = 0.07
#: the targets (docs/calibrate.md): IOPS median and worst |error| over 0-40%, WAF worst
IOPS_MEDIAN, IOPS_WORST, WAF_WORST = 0.10, 0.20, 0.05
#: the line of bench/results/fobcheck/RULE.md: a WAF miss beyond it is a miss
WAF_MISS = 0.25
#: calibrate run with the check off (``python -c`` in place of ``-m overprov``)
OFF = (
    "-c",
    "import sys; from overprov.calibrate import fob_check; fob_check.ENABLED = False; "
    "from overprov.cli import main; sys.exit(main())",
)


def nand(dies: int) -> dict:
    """The drive's ``timing.nand``: ``dies`` dies on their own channels, one 4 KiB mapping unit
    a flash page (a queue of 4 keeps at most 4 dies busy), an FTL block's erase one tBERS on
    each die."""
    from overprov.calibrate import fit as fitmod
    from overprov.calibrate import twin

    return {
        "channels": dies,
        "dies_per_channel": 1,
        "flash_page_bytes": twin.PAGE_BYTES,
        "read_us": READ_US,
        "program_us": PROGRAM_US,
        "erase_us": ERASE_US,
        "die_block_bytes": twin.PAGE_BYTES * fitmod.PAGES_PER_BLOCK // dies,
        "channel_mb_s": 100_000.0,
    }


def generate(dies: int) -> dict:
    """The generated drive of ``dies`` dies as a truth file."""
    from overprov.calibrate import twin, twin_runs
    from overprov.calibrate.measure import measure
    from overprov.calibrate.plan import design, parse_budget
    from overprov.profile.sim_target import SimTarget

    p = twin.TwinParameters(
        advertised_bytes=2**31, native_op=NATIVE_OP, t_page_us=PROGRAM_US, t_cmd_us=0.0,
        uncertainty={}, source="truth", buffer_bytes=0,
    )  # fmt: skip
    over = {"timing": {"nand": nand(dies), "buffer": {"bytes": 0}}}
    drive = copy.deepcopy(twin.drive_dict(p))
    drive["config"]["timing"]["nand"] = nand(dies)
    drive["config"]["timing"]["buffer"] = {"bytes": 0, "power_loss_protected": False}
    drive["notes"] = {"fobmany": "bench/results/fobmany/RULE.md"}
    t0 = os.times()
    steady = twin_runs.simulate_levels(p, list(LEVELS), {"pattern": "uniform"}, jobs=1,
                                       overrides=over)  # fmt: skip
    with SimTarget(f"sim:many{dies}@1", drive=drive) as t:
        m = measure(t, design([0, 40], parse_budget("2dw")))
    t1 = os.times()
    qd32 = next(lv for lv in m.levels if lv.queue_depth in (None, 32)
                and lv.extra_op_percent == 40)  # fmt: skip
    levels = iops_only_guard.truth_levels(steady, m)
    return {
        "simulator": "overprov",
        "drive": f"generated: {dies} dies, no write buffer, NAND-bound (bench/results/fobmany)",
        "nand": nand(dies),
        "native_op": NATIVE_OP,
        "advertised_bytes": 2**31,
        "physical_bytes": int(2**31 * (1 + NATIVE_OP)),
        "levels": levels,
        "measure_qd32_at_40": {"steady_iops": qd32.steady_iops, "steady_waf": qd32.waf},
        "fob_from": "calibrate's measure with design([0, 40], parse_budget('2dw'))",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpu_s": (t1.children_user - t0.children_user) + (t1.user - t0.user),
    }


def elasticity(command: str) -> float | None:
    got = fob_check.queue_depth_elasticity(fobcheck_judge.points(command))
    return None if got is None else got[0]


def refused_on(command: str) -> str | None:
    """The check's reason to refuse, on, given the command's figures (None: it answers)."""
    pts = fobcheck_judge.points(command)
    if "--waf-points" in command:
        for p in pts:
            p["waf"] = 1.0  # any WAF figure: the check does not apply
    saved, fob_check.ENABLED = fob_check.ENABLED, True
    try:
        return fob_check.gc_cost_unidentified(SimpleNamespace(fit={"points": pts}))  # type: ignore[arg-type]
    finally:
        fob_check.ENABLED = saved


#: a probe beside the rule (``cases --weigh-closed-loop``): calibrate with its closed-loop term
#: weighed in the evidence too (``closed_loop.WEIGH``, off by default)
WEIGH = "from overprov.calibrate import closed_loop; closed_loop.WEIGH = True; "


def run_cases(truth: Path, out: Path, weigh: bool = False) -> Path:
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    rows = []
    for name in CASES:
        cmd, _ = by_figure_rule.case_command(truth, name)
        off = (OFF[0], OFF[1].replace("import sys; ", "import sys; " + WEIGH)) if weigh else OFF
        cmd = [cmd[0], *off, *cmd[3:]]
        before = os.times()
        case = next(c for c in evaluate.CASES if c[0] == name)
        with __import__("tempfile").TemporaryDirectory() as tmp:
            got = evaluate.run_case(cmd, curve, case, Path(tmp))
        after = os.times()
        got["cpu_s"] = (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )
        text = " ".join(cmd[3:])
        got["elasticity"] = elasticity(text)
        got["refused_on"] = refused_on(text)
        rows.append(got)
        print(f"{truth.stem}: {name}: e {got['elasticity']:.2f}, {got['cpu_s']:.0f} CPU s",
              flush=True)  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{truth.stem}.json"
    path.write_text(json.dumps({"truth": str(truth), "label": evaluate.label(doc),
                                "cases": rows}, indent=1) + "\n")  # fmt: skip
    return path


def outcome(case: dict) -> dict:
    """Median and worst |IOPS error| and worst |WAF error| over 0-40%, and whether the targets
    are met; an error (calibrate refused with the check off) as such."""
    if "error" in case:
        return {"refused_off": case["error"]}
    lv = case["levels"]
    iops = [abs(x["iops_err"]) for x in lv]
    waf = [abs(x["waf_err"]) for x in lv]
    med, worst, wworst = statistics.median(iops), max(iops), max(waf)
    meets = med <= IOPS_MEDIAN and worst <= IOPS_WORST and wworst <= WAF_WORST
    return {"iops_median": med, "iops_worst": worst, "waf_worst": wworst, "meets": meets}


def judge(folder: Path) -> list[str]:
    out = ["| drive | case | e | check on | IOPS median / worst | WAF worst | targets |",
           "|---|---|---|---|---|---|---|"]  # fmt: skip
    false_refusals, within_25 = [], []
    for f in sorted(folder.glob("*.json")):
        rec = json.loads(f.read_text())
        for c in rec["cases"]:
            o = outcome(c)
            e = c["elasticity"]
            on = "refuses" if c["refused_on"] else "answers"
            if "refused_off" in o:
                out.append(f"| {f.stem} | {c['case']} | {e:.2f} | {on} | refused with it off | | |")
                continue
            out.append(
                f"| {f.stem} | {c['case']} | {e:.2f} | {on} | {100 * o['iops_median']:.1f}% / "
                f"{100 * o['iops_worst']:.1f}% | {100 * o['waf_worst']:.1f}% | "
                f"{'met' if o['meets'] else 'not met'} |"
            )
            if c["refused_on"] and o["meets"]:
                false_refusals.append(f"{f.stem}: {c['case']}")
            if c["refused_on"] and o["waf_worst"] <= WAF_MISS:
                within_25.append(f"{f.stem}: {c['case']}")
    out.append("")
    out.append(f"False refusals (refused on, the targets met off): {len(false_refusals)}"
               + "".join(f"\n  {x}" for x in false_refusals))  # fmt: skip
    out.append(f"Refused on with the WAF within 25% off (the fobcheck rule's line): "
               f"{len(within_25)}" + "".join(f"\n  {x}" for x in within_25))  # fmt: skip
    return out


def confirm(truth: Path) -> str:
    """The IOPS-only case through calibrate as shipped: exit status, CPU s, last line."""
    import subprocess
    import tempfile

    cmd, _ = by_figure_rule.case_command(truth, CASES[0])
    env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = os.times()
        res = subprocess.run([*cmd, "--out", tmp], capture_output=True, text=True, env=env,
                             cwd=ROOT)  # fmt: skip
        t1 = os.times()
    cpu = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    last = (res.stderr.strip().splitlines() or [""])[-1]
    return f"{truth.stem}: calibrate as shipped exit {res.returncode}, {cpu:.1f} CPU s: {last}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--dies", type=int, required=True)
    g.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("cases")
    c.add_argument("truth", type=Path, nargs="+")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--weigh-closed-loop", action="store_true", help="the probe (WEIGH)")
    j = sub.add_parser("judge")
    j.add_argument("folder", type=Path)
    k = sub.add_parser("confirm")
    k.add_argument("truth", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.what == "gen":
        doc = generate(args.dies)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"{args.out.name}: {doc['cpu_s']:.1f} CPU s")
    elif args.what == "cases":
        for t in args.truth:
            run_cases(t, args.out, args.weigh_closed_loop)
    elif args.what == "confirm":
        for t in args.truth:
            print(confirm(t), flush=True)
    else:
        print("\n".join(judge(args.folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
