"""The runs of bench/foreign/results/erasegreedy/RULE.md, one step at a time, each logged to
runs.log with the CPU seconds it took (bench/cpu_clock.py: this process's waited-for children).

    PYTHONPATH=python python bench/foreign/results/erasegreedy/run.py STEP [STEP ...]

Steps: truth-X (X in o, p, q: the fresh NVMeVirt drives; r, s, t: RULE-2.md's),
fresh-{on,off}-X (the plan case with WAF; fresh2-{on,off}-X for RULE-2.md), iopsonly-STEM
(RULE-2.md: J's or N's two IOPS-only cases, on), seen-{on,off}-b (stored drive B's plan case),
check-off-a (stored A's plan case off, to check the stored off runs still hold), noharm-STEM
(on: the plan case of a stored truth, or the three plan cases of J, K, L, M, N).
Run from the worktree root.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent.parent))
from cpu_clock import cpu_s  # noqa: E402

R = "bench/foreign/results"
OUT = f"{R}/erasegreedy"
BINARY = "/work/foreign-build/nvmevirt/nvmevirt-conv-harness"
PY = [sys.executable]
NICE = ["nice", "-n", "10"]
PLAN = "IOPS+WAF 0+40 QD32 + 40 QD4"
ALL3 = "+ 40 QD4"
IOPS_ONLY = "IOPS 0+40 QD32 + 40 QD4, FOB"  # with and without the raw NAND
ON = ["--erase-reading", "--erase-when-implied-fails"]
DRIVES = {  # name: (capacity MB, harness options)
    "o": (1024, "--partitions 1 --nchs 4 --luns-per-ch 4 --blks-per-pln 128 --flash-page-kb 16 "
                "--oneshot-page-kb 16 --prog-ns 240000 --erase-ns 2400000 --op-area 0.10"),
    "p": (768, "--partitions 2 --nchs 4 --luns-per-ch 1 --blks-per-pln 384 --flash-page-kb 16 "
               "--oneshot-page-kb 32 --prog-ns 320000 --erase-ns 5200000 --op-area 0.11"),
    "q": (1024, "--partitions 1 --nchs 8 --luns-per-ch 1 --blks-per-pln 256 --flash-page-kb 16 "
                "--oneshot-page-kb 16 --prog-ns 260000 --erase-ns 4500000 --op-area 0.08"),
    # RULE-2.md's fresh drives
    "r": (1024, "--partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 256 --flash-page-kb 16 "
                "--oneshot-page-kb 32 --prog-ns 400000 --erase-ns 1280000 --op-area 0.09"),
    "s": (1280, "--partitions 2 --nchs 2 --luns-per-ch 4 --blks-per-pln 320 --flash-page-kb 16 "
                "--oneshot-page-kb 16 --prog-ns 240000 --erase-ns 6000000 --op-area 0.12"),
    "t": (512, "--partitions 1 --nchs 2 --luns-per-ch 1 --blks-per-pln 512 --flash-page-kb 16 "
               "--oneshot-page-kb 16 --prog-ns 160000 --erase-ns 7680000 --op-area 0.10"),
}  # fmt: skip
STORED = {  # the no-harm truths: stem -> (folder, cases)
    "ssdsim-a": (f"{R}/ssdsim", PLAN),
    "femu": (R, PLAN),
    "mqsim": (R, PLAN),
    "simplessd": (R, PLAN),
    "wiscsee-a": (f"{R}/wiscsee", PLAN),
    "nvmevirt-a": (f"{R}/nvmevirt", PLAN),
    "nvmevirt-j": (f"{R}/erasereading", ALL3),
    "nvmevirt-k": (f"{R}/erasereading", ALL3),
    "nvmevirt-l": (f"{R}/erasereading", ALL3),
    "nvmevirt-m": (f"{R}/erasegate", ALL3),
    "nvmevirt-n": (f"{R}/erasegate", ALL3),
}


def evaluate(folder: str, stem: str, cases: str, out: str, on: bool) -> list[str]:
    return [*NICE, *PY, "bench/foreign/evaluate.py", "--results", folder, "--only", stem,
            "--parallel", "1", "--cases", cases, *(ON if on else []), "--out", out]  # fmt: skip


def command(step: str) -> list[str]:
    kind, _, name = step.rpartition("-")
    if kind == "truth":
        mb, drive = DRIVES[name]
        return [*NICE, *PY, "bench/foreign/nvmevirt.py", "--binary", BINARY, "--work",
                f"/tmp/erasegreedy-runs/{name}", "--capacity-mb", str(mb), "--drive", drive,
                "--out", f"{OUT}/nvmevirt-{name}.json"]  # fmt: skip
    if kind in ("fresh-on", "fresh-off"):
        state = kind.split("-")[1]
        return evaluate(OUT, f"nvmevirt-{name}", PLAN, f"{OUT}/fresh-{state}/{name}", state == "on")
    if kind in ("fresh2-on", "fresh2-off"):  # RULE-2.md
        state = kind.split("-")[1]
        return evaluate(
            OUT, f"nvmevirt-{name}", PLAN, f"{OUT}/fresh2-{state}/{name}", state == "on"
        )
    if step.startswith("iopsonly-"):  # RULE-2.md: the two IOPS-only cases of J or N, on
        stem = step.removeprefix("iopsonly-")
        return evaluate(STORED[stem][0], stem, IOPS_ONLY, f"{OUT}/iopsonly-on/{stem}", True)
    if kind in ("seen-on", "seen-off"):
        state = kind.split("-")[1]
        return evaluate(f"{R}/nvmevirt", "nvmevirt-b", PLAN, f"{OUT}/seen-{state}/b", state == "on")
    if step == "check-off-a":
        return evaluate(f"{R}/nvmevirt", "nvmevirt-a", PLAN, f"{OUT}/check-off/nvmevirt-a", False)
    if step.startswith("noharm-"):
        stem = step.removeprefix("noharm-")
        folder, cases = STORED[stem]
        return evaluate(folder, stem, cases, f"{OUT}/noharm-on/{stem}", True)
    raise SystemExit(f"unknown step {step}")


def main() -> int:
    log = HERE / "runs.log"
    for step in sys.argv[1:]:
        cmd = command(step)
        before = cpu_s()
        t = time.strftime("%H:%M:%S", time.gmtime())
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        used = cpu_s() - before
        tail = [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()][-12:]
        with log.open("a") as f:
            f.write(f"## {step} ({t} UTC)\n$ {shlex.join(cmd)}\n" + "\n".join(tail) + "\n")
            f.write(f"exit {res.returncode}, {used:.1f} CPU s\n")
        print(f"{step}: exit {res.returncode}, {used:.1f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
