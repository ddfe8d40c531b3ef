"""The on arm of bench/foreign/results/wiscbatch/RULE.md on the 72 scoreboard truths: run.py's
`all` (its order, its CPU cap per case), its log here (run.py's own would name a path inside its
folder), stopping when this arm's CPU seconds reach ARM_BUDGET_CPU_S or at ARM_STOP_UTC.

    SCOREBOARD_CASES=../wiscbatch/on EVALUATE_FLAGS="batch_gc.OFFERED=True" \
        PYTHONPATH=python python bench/foreign/results/wiscbatch/arm.py
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scoreboard"))
import run  # noqa: E402
from run import cpu_s  # noqa: E402

LOG = HERE / "runs-on.log"
BUDGET = float(os.environ.get("ARM_BUDGET_CPU_S", "900"))
STOP = tuple(int(x) for x in os.environ.get("ARM_STOP_UTC", "10:05").split(":"))


def main() -> None:
    spent = 0.0
    for family, folder, stem in run.order():
        now = datetime.datetime.now(datetime.UTC)
        if spent >= BUDGET or (now.hour, now.minute) >= STOP:
            with LOG.open("a") as f:
                f.write(f"{now:%H:%M:%S} stop: {spent:.0f} CPU s spent\n")
            return
        path = run.case_path(family, folder, stem)
        if path.exists():
            continue
        c0, t0 = cpu_s(), time.monotonic()
        cmd = ["nice", "-n", "10", sys.executable, run.__file__, "one", folder, stem, family]
        rc = subprocess.run(cmd, preexec_fn=run.cap, env=os.environ).returncode
        used = cpu_s() - c0
        spent += used
        if rc != 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            skipped = {"skipped": f"rc {rc}", "met": False}
            doc = {"family": family, "truth": f"{folder}/{stem}.json", "summary": skipped}
            path.write_text(json.dumps(doc) + "\n")
        with LOG.open("a") as f:
            f.write(f"{now:%H:%M:%S} {family} {folder}/{stem}: rc {rc}, {used:.1f} CPU s, "
                    f"{time.monotonic() - t0:.1f} s wall, total {spent:.1f} CPU s\n")  # fmt: skip
    with LOG.open("a") as f:
        f.write(f"done: {spent:.0f} CPU s\n")


if __name__ == "__main__":
    main()
