"""The six reserve flags (femucarry's, on since bench/foreign/results/femumedian/verdict.md) on
and pinned off, on the generated drives with a truth whose answers the failing tests pinned
(bench/foreign/results/flipsix/CHANGED.md): calibrate's plan case
(``hullres_judge.PLAN_CASE``, as ``hullres_judge.run_one`` builds it) in its own process, each
held-out QD32 figure against the truth, the foreign-FTL targets (``hullres_judge.on_targets``).

    PYTHONPATH=python nice -n 10 python bench/foreign/results/flipsix/changed.py run \
        TRUTH[::CASE]...
    PYTHONPATH=python python bench/foreign/results/flipsix/changed.py table
"""

from __future__ import annotations

import json
import math
import shlex
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "intervals"))
import hullres_judge as hj  # noqa: E402  (bench/intervals/)

RUNS = HERE / "runs"
#: the six flags as (module, name); "off" pins each False in calibrate's process
FLAGS = {
    "steep_pair": ("READ_AS_FLOOR",),
    "reserve_held_out": ("SAME_FORM_ONLY", "WAF_TERMS_TOO"),
    "reserve_plateau": ("ON",),
    "reserve_hull": ("FLOOR_NEEDS_SELECTIVE", "NONE_LINKS"),
}
SIX = [(m, n) for m, names in FLAGS.items() for n in names]
MAIN = (
    "import sys; from overprov.calibrate import {mods}; {sets}"
    "from overprov.cli import main; sys.exit(main(sys.argv[1:]))"
)


def flag_main(on: bool) -> str:
    mods = ", ".join(sorted({m for m, _ in SIX}))
    sets = "".join(f"{m}.{n} = {on}; " for m, n in SIX)
    return MAIN.format(mods=mods, sets=sets)


def run_one(truth: Path, arm: str, case_name: str = hj.PLAN_CASE) -> None:
    doc = json.loads(truth.read_text())
    curve = hj.evaluate.truth_curve(doc, 32)
    case = next(c for c in hj.evaluate.CASES if c[0] == case_name)
    cmd = hj.evaluate.command(
        doc, curve, case, 1, [r for r in doc["levels"] if r["queue_depth"] != 32]
    )
    at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res, cpu = hj.run_case([sys.executable, "-c", flag_main(arm == "on"), *cmd[3:]], curve, case)
    RUNS.mkdir(parents=True, exist_ok=True)
    tag = (
        "" if case_name == hj.PLAN_CASE else "--" + "".join(ch for ch in case_name if ch.isalnum())
    )
    path = RUNS / f"{truth.stem}{tag}--{arm}.json"
    kept = {"truth": str(truth.resolve().relative_to(hj.ROOT)), "case": case_name,
            "six_flags": arm, "date": at, "cpu_s": cpu, "result": res}  # fmt: skip
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {cpu:.1f} CPU s", flush=True)


def warning(command: str | list[str], on: bool) -> str:
    """``reserve_hull.ambiguity_warning`` on the command's figures, weighed in this process with
    the six flags as in the arm (surrogate level: evaluate.run_case keeps no prediction source);
    "alone" or "beside" for ``steep_pair.WARNING_ALONE`` or ``WARNING``."""
    import importlib

    from overprov.calibrate import cli, reserve_hull, spare_readings, steep_pair, uncertainty
    from overprov.calibrate import fit as fitmod
    from overprov.calibrate import predict as predmod

    if isinstance(command, str):
        command = shlex.split(command)
    opt = {command[i]: command[i + 1] for i in range(len(command) - 1)
           if command[i].startswith("--")}  # fmt: skip
    fob = float(opt["--fob-iops"])
    pts = [*cli.user_points(opt["--points"], opt.get("--waf-points")),
           fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True)]  # fmt: skip
    kept = {(m, n): getattr(importlib.import_module(f"overprov.calibrate.{m}"), n) for m, n in SIX}
    try:
        for m, n in SIX:
            setattr(importlib.import_module(f"overprov.calibrate.{m}"), n, on)
        fig = predmod.PredictionInput(
            pts, [0.0, 10.0, 20.0, 30.0, 40.0], typed=True, fob_iops=fob,
            model_form=uncertainty.model_form_for(pts, False),
        )  # fmt: skip
        said = reserve_hull.ambiguity_warning(fig, spare_readings.weigh(fig)[0])
    finally:
        for (m, n), v in kept.items():
            setattr(importlib.import_module(f"overprov.calibrate.{m}"), n, v)
    if not said:
        return ""
    return "alone" if steep_pair.WARNING_ALONE in said else "beside"


def summary(path: Path) -> str:
    doc = json.loads(path.read_text())
    res = doc["result"]
    if "levels" not in res:
        return f"refused ({str(res.get('error'))[:80]})"
    held = [lv for lv in res["levels"] if lv["extra_op_percent"] in (10, 20, 30)]
    errs = " ".join(
        f"{lv['extra_op_percent']}%: IOPS {lv['iops_err']:+.1%} WAF {lv['waf_err']:+.1%}"
        for lv in held
    )
    rows = hj.tally.evaluate_rows(res, doc["truth"], str(path), None)
    rows = list(rows)
    inside = sum(r["inside"] for r in rows)
    mle = sorted(abs(math.log(r["predicted"] / r["true"])) for r in rows)
    ok, said = hj.on_targets(res)
    warned = warning(res["command"], doc["six_flags"] == "on")
    top = max(res.get("readings", {}).items(), key=lambda kv: kv[1], default=("-", 0))
    return (
        f"targets {'met' if ok else 'not met'} ({said}); inside 80% {inside}/{len(rows)}; "
        f"median |log err| {mle[len(mle) // 2]:.3f}; heaviest reading {top[0]} {top[1]:.2f}; "
        f"ambiguity warning {warned or 'none'}; {doc['cpu_s']:.1f} CPU s\n    {errs}"
    )


def table() -> None:
    for on in sorted(RUNS.glob("*--on.json")):
        stem = on.name.removesuffix("--on.json")
        print(f"{stem} ({json.loads(on.read_text())['case']})")
        for arm in ("off", "on"):
            p = RUNS / f"{stem}--{arm}.json"
            print(f"  six {arm}: {summary(p) if p.exists() else 'not run'}")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        for spec in sys.argv[2:]:
            truth, _, case = spec.partition("::")
            for arm in ("off", "on"):
                run_one(Path(truth), arm, case or hj.PLAN_CASE)
    else:
        table()
