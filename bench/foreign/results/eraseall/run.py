"""The runs of bench/foreign/results/eraseall/RULE.md, one step at a time, each logged to runs.log
with its CPU seconds (bench/cpu_clock.py: this process's waited-for children).

    PYTHONPATH=python python bench/foreign/results/eraseall/run.py STEP [STEP ...]

Steps (run from the worktree root):
- ``check-off``: three cases of bench/foreign/results/scoreboard/cases-final/ again with today's
  defaults, into ``check-off/``;
- ``on72``: the scoreboard's 72 truths with the flag on (:data:`ON_FLAGS`), into ``cases-on/``
  (the scoreboard's ``run_all``, its per-case lines in ``runs-cases-on.log``);
- ``truth-w``, ``truth-x``: the fresh NVMeVirt drives (bench/foreign/nvmevirt.py);
- ``mqsim-NAME``: a fresh MQSim drive (bench/foreign/results/mqskip/run_fresh.py's driver,
  into ``fresh/``; the runs logged were made through a two-line loader script of the same
  driver, ``run_fresh.py``, removed after as a duplicate of mqlockstep's);
- ``fresh-ARM-NAME`` (ARM off/on; NAME nvmevirt-w, nvmevirt-x or a fresh MQSim drive): its plan
  case by the scoreboard's ``one``, into ``fresh-ARM/``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN.parent))
from cpu_clock import cpu_s  # noqa: E402

sys.path.append(str(FOREIGN))  # common.py
from common import load_script  # noqa: E402

R = "bench/foreign/results"
OUT = f"{R}/eraseall"
SCOREBOARD = FOREIGN / "results" / "scoreboard" / "run.py"
NICE = ["nice", "-n", "10"]
ON_FLAGS = "erase_reading.WITHOUT_HIGH_WAF=True"
NVMEVIRT_BINARY = "/work/foreign-build/nvmevirt/nvmevirt-conv-harness"
MQSIM_BINARY = "/work/foreign-build/mqsim/patched/MQSim"
MQSIM_WORK = "/tmp/eraseall-mqsim"
#: RULE.md's fresh NVMeVirt drives: name -> (capacity MB, harness options)
DRIVES = {
    "w": (1024, "--partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 256 --flash-page-kb 16 "
                "--oneshot-page-kb 16 --prog-ns 280000 --erase-ns 4000000 --op-area 0.10"),
    "x": (768, "--partitions 2 --nchs 2 --luns-per-ch 2 --blks-per-pln 384 --flash-page-kb 16 "
               "--oneshot-page-kb 32 --prog-ns 350000 --erase-ns 7000000 --op-area 0.09"),
}  # fmt: skip
#: RULE.md's three cases of the stored off arm run again: (folder, stem, family)
CHECKS = [
    (f"{R}/mqsim-retry/unseen", "u640x16", "MQSim"),
    (f"{R}/nvmevirt", "nvmevirt-b", "NVMeVirt"),
    (f"{R}/flashsim", "flashsim-b", "FlashSim"),
]
STOP_UTC = "10:15"


def _env(cases_dir: str, flags: str | None) -> dict[str, str]:
    env = dict(os.environ, SCOREBOARD_CASES=f"../eraseall/{cases_dir}")
    env.pop("EVALUATE_FLAGS", None)
    if flags:
        env["EVALUATE_FLAGS"] = flags
    return env


def _one(folder: str, stem: str, family: str, cases_dir: str, flags: str | None) -> int:
    cmd = [*NICE, sys.executable, str(SCOREBOARD), "one", folder, stem, family]
    return subprocess.run(cmd, env=_env(cases_dir, flags)).returncode


def on72() -> int:
    """The scoreboard's ``run_all`` with the flag on: its children write into ``cases-on/``
    (SCOREBOARD_CASES relative to the scoreboard's folder), this process's copy of it reads and
    logs here."""
    sb = load_script("scoreboard_run", SCOREBOARD)
    os.environ.update(_env("cases-on", ON_FLAGS))
    os.environ["SCOREBOARD_BUDGET_CPU_S"] = "900"
    os.environ["SCOREBOARD_STOP_UTC"] = STOP_UTC
    sb.HERE, sb.CASES_DIR = HERE, "cases-on"
    sb.run_all()
    return 0


def step(name: str) -> int:
    kind, _, rest = name.partition("-")
    if kind == "check" and rest == "off":
        return max(_one(*c, "check-off", None) for c in CHECKS)
    if kind == "on72":
        return on72()
    if kind == "truth":
        mb, drive = DRIVES[rest]
        cmd = [*NICE, sys.executable, str(FOREIGN / "nvmevirt.py"), "--binary", NVMEVIRT_BINARY,
               "--work", f"/tmp/eraseall-runs/{rest}", "--capacity-mb", str(mb), "--drive", drive,
               "--out", f"{OUT}/nvmevirt-{rest}.json"]  # fmt: skip
        return subprocess.run(cmd).returncode
    if kind == "mqsim":  # mqskip's driver, its runs landing in this folder's fresh/
        mqskip = load_script("mqskip_run_fresh", HERE.parent / "mqskip" / "run_fresh.py")
        mqskip.HERE = HERE
        return mqskip.main(["--binary", MQSIM_BINARY, "--work", MQSIM_WORK, rest])
    if kind == "fresh":
        arm, _, stem = rest.partition("-")
        if stem.startswith("nvmevirt-"):
            folder, family = OUT, "NVMeVirt"
        else:
            folder, family = f"{OUT}/fresh", "MQSim"
        return _one(folder, stem, family, f"fresh-{arm}", ON_FLAGS if arm == "on" else None)
    raise SystemExit(f"unknown step {name}")


def main() -> int:
    rc = 0
    for name in sys.argv[1:]:
        c0, t0 = cpu_s(), time.monotonic()
        with (HERE / "runs.log").open("a") as f:
            f.write(f"## {name} ({time.strftime('%H:%M:%S', time.gmtime())} UTC)\n")
        r = step(name)
        with (HERE / "runs.log").open("a") as f:
            cpu, wall, load = cpu_s() - c0, time.monotonic() - t0, os.getloadavg()[0]
            f.write(f"{name}: rc {r}, {cpu:.1f} CPU s, {wall:.1f} s wall, load {load:.2f}\n")
        rc = rc or r
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
