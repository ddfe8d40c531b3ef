"""The runs of bench/foreign/results/scoreboard/PLAN.md: each truth's plan case with today's
defaults, one at a time, each logged to runs.log with its CPU seconds (bench/cpu_clock.py).

    PYTHONPATH=python python bench/foreign/results/scoreboard/run.py all     # the plan's order
    PYTHONPATH=python python bench/foreign/results/scoreboard/run.py one FOLDER STEM FAMILY
    PYTHONPATH=python python bench/foreign/results/scoreboard/run.py table   # cases.md

Run from the worktree root. `all` skips a truth whose case file exists, so it can be resumed.
A rule's arm with calibrate flags set: SCOREBOARD_CASES=<its own folder> and
EVALUATE_FLAGS="module.NAME=value; ..." (bench/foreign/evaluate.py, `flags_prelude`).
"""

from __future__ import annotations

import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

R = "bench/foreign/results"
CASES = {c[0]: c for c in evaluate.CASES}
PLAN_QD4 = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
PLAN = "IOPS+WAF 0+40, FOB"
CAP_CPU_S = 120  # a case's calibrate run is stopped here (RLIMIT_CPU)
BUDGET_CPU_S = 780  # no new case once the cases' CPU seconds reach this
STOP_UTC = (7, 45)
#: The cases' folder: ``cases`` (the first run, 7991d666's defaults) or, from the environment
#: SCOREBOARD_CASES, another (``cases-now``: the run again after erasecheck turned the erase
#: reading off; its own budget and stop time SCOREBOARD_BUDGET_CPU_S / SCOREBOARD_STOP_UTC).
CASES_DIR = os.environ.get("SCOREBOARD_CASES", "cases")

PASS1 = [  # (family, folder, stem): the drives each family's trust-table row was judged on
    ("FlashSim", f"{R}/flashsim", "flashsim-a"), ("FlashSim", f"{R}/flashsim", "flashsim-b"),
    ("NVMeVirt", f"{R}/nvmevirt", "nvmevirt-a"), ("NVMeVirt", f"{R}/nvmevirt", "nvmevirt-b"),
    ("WiscSim", f"{R}/wiscsee", "wiscsee-a"), ("WiscSim", f"{R}/wiscsee", "wiscsee-b"),
    ("SSDsim", f"{R}/ssdsim", "ssdsim-a"), ("SSDsim", f"{R}/ssdsim", "ssdsim-b"),
    ("FEMU", R, "femu"), ("FEMU", f"{R}/femu-units", "femu-16luns"),
    ("FEMU", f"{R}/femu-units", "femu-32luns-400us"),
    ("SimpleSSD", R, "simplessd"), ("SimpleSSD", R, "simplessd-spare0125"),
    ("MQSim", R, "mqsim"), ("MQSim", f"{R}/patched", "mqsim"),
    ("DiskSim", R, "disksim-ssd"), ("EagleTree", R, "eagletree"),
]  # fmt: skip
REST = {  # pass 2, round-robin over the families in this order
    "NVMeVirt": [(f"{R}/erasecost", "nvmevirt-" + x) for x in "cde"]
    + [(f"{R}/erasecost/rule2", "nvmevirt-" + x) for x in "fgh"]
    + [(f"{R}/erasereading", "nvmevirt-" + x) for x in "jkl"]
    + [(f"{R}/erasegate", "nvmevirt-" + x) for x in "mn"]
    + [(f"{R}/erasegreedy", "nvmevirt-" + x) for x in "opqrst"],
    "WiscSim": [(f"{R}/wiscsee3", "wiscsee-" + x) for x in "cde"]
    + [(f"{R}/wiscgc", "wiscsee-" + x) for x in "fg"],
    "SSDsim": [(f"{R}/tcmd-bound", "ssdsim-" + x) for x in "cde"]
    + [(f"{R}/tcmd-bound2", "ssdsim-" + x) for x in "fg"]
    + [(f"{R}/skewftl", f"ssdsim-{x}-uniform") for x in "hi"]
    + [(f"{R}/gctrigger-skew", f"ssdsim-{x}-uniform") for x in "lm"]
    + [(f"{R}/gctrigger-skew2", f"ssdsim-{x}-uniform") for x in "no"]
    + [(f"{R}/pwrule3", f"ssdsim-{x}-uniform") for x in "pq"],
    "FEMU": [
        (f"{R}/femu-midlevel", "femu-8luns"),
        (f"{R}/byfig5/unseen", "femu-14lun-136blk-thres84-180us"),
        (f"{R}/byfig5/unseen", "femu-6lun-240blk-thres68"),
        (f"{R}/femufix", "femu-11lun-290blk-thres69-3200us-on"),
        (f"{R}/gatefix", "femu-33lun-82blk-thres56-3750us-ns81"),
    ],
    "MQSim": [(f"{R}/fresh-2chips", "mqsim"), (f"{R}/mqsim-reserve/unseen", "u1024x32-op12")]
    + [(f"{R}/mqsim-retry/unseen", u) for u in (
        "u320x32", "u384x64", "u512x32", "u640x16", "u768x32", "u1024x32-op12", "u1536x16")],
    "DiskSim": [(f"{R}/byfig-reserve/unseen", "disksim-6pkg-4pl")]
    + [(f"{R}/qd4-by-figure/unseen", s) for s in ("disksim-4pkg", "disksim-12pkg")],
    "EagleTree": [(f"{R}/iops-form", s)
                  for s in ("et-4die-r50p200", "et-8die-bus4-r10p40", "et-8die-r25p300")],
}  # fmt: skip


def order() -> list[tuple[str, str, str]]:
    rest = {k: list(v) for k, v in REST.items()}
    out = list(PASS1)
    while any(rest.values()):
        for fam, todo in rest.items():
            if todo:
                out.append((fam, *todo.pop(0)))
    return out


def case_path(family: str, folder: str, stem: str) -> Path:
    tag = folder.removeprefix(R).strip("/").replace("/", "_") or "top"
    return HERE / CASES_DIR / f"{family}--{tag}--{stem}.json"


def summary(res: dict) -> dict:
    """The target's figures over the QD32 levels 0–40%, fitted ones included."""
    if "levels" not in res:
        return {"refused": True, "met": False}
    iops = [abs(r["iops_err"]) for r in res["levels"] if "iops_err" in r]
    waf = [abs(r["waf_err"]) for r in res["levels"] if "waf_err" in r]
    weights = res.get("readings") or {}
    carry = sorted(((w, k) for k, w in weights.items() if w >= 0.1), reverse=True)
    mech = res.get("gc_mechanism") or {}
    s = {
        "iops_median": statistics.median(iops) if iops else None,
        "iops_worst": max(iops) if iops else None,
        "waf_worst": max(waf) if waf else None,
        "carry": [f"{k} {w:.2f}" for w, k in carry] or ["one reading"],
        "erase_twin_carries": any("+erase" in k for _, k in carry),
        "blocking_gc_weight": mech.get("weight"),
    }
    s["met"] = bool(
        iops and waf and s["iops_median"] <= 0.10 and s["iops_worst"] <= 0.20
        and s["waf_worst"] <= 0.05
    )  # fmt: skip
    return s


def one(folder: str, stem: str, family: str) -> None:
    doc = json.loads((Path(folder) / f"{stem}.json").read_text())
    curve = evaluate.truth_curve(doc, 32)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    has_qd4 = any(int(r["extra_op_percent"]) == 40 and r["queue_depth"] == 4 for r in others)
    case = CASES[PLAN_QD4 if has_qd4 else PLAN]
    res = evaluate.evaluate_case(doc, curve, case, 1, others)
    res["summary"] = summary(res)
    res |= {"family": family, "truth": f"{folder}/{stem}.json"}
    out = case_path(family, folder, stem)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")


def cap() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CAP_CPU_S, CAP_CPU_S + 10))


def run_all() -> None:
    cases = HERE / CASES_DIR  # the log beside the cases' folder (a rule's own folder too)
    log = HERE / "runs.log" if CASES_DIR == "cases" else cases.parent / f"runs-{cases.name}.log"
    spent = 0.0
    for family, folder, stem in order():
        now = datetime.datetime.now(datetime.UTC)
        budget = float(os.environ.get("SCOREBOARD_BUDGET_CPU_S", BUDGET_CPU_S))
        given = os.environ.get("SCOREBOARD_STOP_UTC")
        stop = tuple(int(x) for x in given.split(":")) if given else STOP_UTC
        if spent >= budget or (now.hour, now.minute) >= stop:
            with log.open("a") as f:
                f.write(f"{now:%H:%M:%S} stop: {spent:.0f} CPU s spent\n")
            return
        if case_path(family, folder, stem).exists():
            continue
        c0, t0 = cpu_s(), time.monotonic()
        cmd = ["nice", "-n", "10", sys.executable, __file__, "one", folder, stem, family]
        rc = subprocess.run(cmd, preexec_fn=cap, env=os.environ).returncode
        used = cpu_s() - c0
        spent += used
        if rc != 0:  # stopped by the cap (SIGXCPU) or failed: recorded as such
            path = case_path(family, folder, stem)
            path.parent.mkdir(parents=True, exist_ok=True)
            skipped = {"skipped": f"rc {rc}", "met": False}
            doc = {"family": family, "truth": f"{folder}/{stem}.json", "summary": skipped}
            path.write_text(json.dumps(doc) + "\n")
        with log.open("a") as f:
            f.write(f"{now:%H:%M:%S} {family} {folder}/{stem}: rc {rc}, {used:.1f} CPU s, "
                    f"{time.monotonic() - t0:.1f} s wall, load {os.getloadavg()[0]:.2f}, "
                    f"total {spent:.1f} CPU s\n")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1] == "all":
        run_all()
    elif sys.argv[1] == "one":
        one(*sys.argv[2:5])
