"""calibrate's answer, end to end, on the stored scoreboard cases where
``floor_or_choices.speaks`` (fires.txt) and two where it does not: each case's stored command
(bench/foreign/results/status72/cases/, today's defaults at b1bb6e52) run again through the CLI
of this worktree, its levels' IOPS and WAF (and their 80% bounds) compared with the stored case's
to every digit, and whether the prediction's source carries ``floor_or_choices.WARNING``. CPU
seconds per case from bench/cpu_clock.py (the calibrate child's).

    PYTHONPATH=python python bench/foreign/results/femud4/endtoend.py > endtoend.txt
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from overprov.calibrate import floor_or_choices

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from cpu_clock import cpu_s  # noqa: E402

CASES = HERE.parent / "status72" / "cases"
SPEAKS = ["FEMU--top--femu", "FEMU--femu-midlevel--femu-8luns", "FEMU--femu-units--femu-16luns",
          "FEMU--femu-units--femu-32luns-400us", "MQSim--fresh-2chips--mqsim",
          "MQSim--patched--mqsim"]  # fmt: skip
SILENT = ["FEMU--byfig5_unseen--femu-14lun-136blk-thres84-180us", "MQSim--top--mqsim"]
#: (the stored case's key, the prediction level's key)
FIGURES = [("iops_pred", "steady_iops"), ("iops_low", "steady_iops_low"),
           ("iops_high", "steady_iops_high"), ("waf_pred", "waf"), ("waf_low", "waf_low"),
           ("waf_high", "waf_high")]  # fmt: skip


def run(stem: str) -> str:
    case = json.loads((CASES / f"{stem}.json").read_text())
    argv = shlex.split(case["command"])[1:]  # "overprov" dropped
    with tempfile.TemporaryDirectory() as tmp:
        c0 = cpu_s()
        res = subprocess.run([sys.executable, "-m", "overprov", *argv, "--out", tmp],
                             capture_output=True, text=True, cwd=ROOT)  # fmt: skip
        used = cpu_s() - c0
    if res.returncode != 0:
        return f"{stem}: refused ({res.stderr.strip().splitlines()[-1:]}), {used:.1f} CPU s"
    pred = json.loads(res.stdout)
    stored = {r["extra_op_percent"]: r for r in case["levels"]}
    diffs = []
    for lv in pred["levels"]:
        row = stored[int(lv["extra_op_percent"])]
        diffs += [f"{lv['extra_op_percent']:g}% {k}" for k, p in FIGURES
                  if k in row and lv.get(p) != row[k]]  # fmt: skip
    said = floor_or_choices.WARNING in pred["prediction_source"]
    same = "every level's IOPS, WAF and bounds as stored" if not diffs else f"differ: {diffs}"
    return f"{stem}: warning {said}; {same}; {used:.1f} CPU s"


def main() -> None:
    total = cpu_s()
    for stem in SPEAKS + SILENT:
        print(run(stem), flush=True)
    print(f"\n{cpu_s() - total:.1f} CPU s in all")


if __name__ == "__main__":
    main()
