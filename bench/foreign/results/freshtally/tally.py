"""The fresh tally of bench/foreign/results/freshtally/PLAN.md: runs a command with its CPU
seconds logged (bench/cpu_clock.py) and makes REPORT.md's tables from the case files
(cases/*.json, written by bench/foreign/results/scoreboard/run.py `one`).

    PYTHONPATH=python python bench/foreign/results/freshtally/tally.py timed LABEL -- CMD ...
    PYTHONPATH=python python bench/foreign/results/freshtally/tally.py case FOLDER STEM FAMILY
    PYTHONPATH=python python bench/foreign/results/freshtally/tally.py table

Run from the worktree root. With TALLY_DIR set, that folder's cases/ and runs.log are used
instead of this one's (another tally's folder). `case` is run.py `one` with SCOREBOARD_CASES
set to the folder's cases/, under `nice -n 10`; `table` prints the per-truth rows (the `row`
of bench/foreign/results/scoreboard/table.py), the per-family counts and the unfitted levels' 80%
coverage and median width (high / low - 1).
"""

from __future__ import annotations

import datetime
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

SELF = Path(__file__).resolve().parent
HERE = Path(os.environ.get("TALLY_DIR") or SELF).resolve()
SCOREBOARD = SELF.parent / "scoreboard"
sys.path.insert(0, str(SELF.parent.parent.parent))
sys.path.insert(0, str(SCOREBOARD))
from cpu_clock import cpu_s  # noqa: E402

CASES = HERE / "cases"
LOG = HERE / "runs.log"
FAMILIES = ("NVMeVirt", "MQSim", "FEMU", "WiscSim", "FlashSim", "SSDsim", "DiskSim", "EagleTree",
            "SimpleSSD")  # fmt: skip


def timed(label: str, cmd: list[str], env: dict | None = None) -> int:
    c0 = cpu_s()
    rc = subprocess.run(["nice", "-n", "10", *cmd], env=env).returncode
    used = cpu_s() - c0
    now = datetime.datetime.now(datetime.UTC)
    with LOG.open("a") as f:
        f.write(f"{now:%H:%M:%S} {label}: rc {rc}, {used:.1f} CPU s\n")
    return rc


def case(folder: str, stem: str, family: str) -> int:
    env = os.environ | {"SCOREBOARD_CASES": os.path.relpath(CASES, SCOREBOARD)}
    run = str(SCOREBOARD / "run.py")
    return timed(f"case {family} {folder}/{stem}", [sys.executable, run, "one", folder, stem,
                                                     family], env)  # fmt: skip


def unfitted(cases: list[dict]) -> dict:
    """80% coverage and median width (high / low - 1) at the levels not fitted."""
    out = {}
    for key in ("iops", "waf"):
        rows = [r for c in cases for r in c.get("levels", [])
                if r.get(f"fitted_{key}") is False and f"{key}_in_80" in r]  # fmt: skip
        out[key] = (
            len(rows),
            sum(r[f"{key}_in_80"] for r in rows),
            [r[f"{key}_high"] / r[f"{key}_low"] - 1 for r in rows],
        )
    return out


def cover_text(u: dict) -> str:
    parts = []
    for key in ("iops", "waf"):
        n, inside, widths = u[key]
        if n:
            parts.append(f"{key.upper()} {inside}/{n} ({100 * inside / n:.0f}%), width "
                         f"{100 * statistics.median(widths):.0f}%")  # fmt: skip
    n = u["iops"][0] + u["waf"][0]
    if n:
        inside = u["iops"][1] + u["waf"][1]
        width = statistics.median(u["iops"][2] + u["waf"][2])
        parts.append(f"both {inside}/{n} ({100 * inside / n:.0f}%), width {100 * width:.0f}%")
    return "; ".join(parts) or "–"


def table() -> None:
    from table import row  # bench/foreign/results/scoreboard/table.py's row

    cpu = {}
    for line in LOG.read_text().splitlines() if LOG.exists() else []:
        parts = line.split(" ")
        if len(parts) > 3 and parts[1] == "case":
            cpu[parts[3].rstrip(":")] = float(line.split(", ")[1].split(" ")[0])
    cases = [json.loads(p.read_text()) for p in sorted(CASES.glob("*.json"))]
    by_family = {f: [c for c in cases if c["family"] == f] for f in FAMILIES}
    print("| truth | case | IOPS median / worst (worst level) | WAF worst (level) | "
          "targets met | readings carrying ≥ 0.1 | erase twin | CPU s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for fam in FAMILIES:
        for c in by_family[fam]:
            print(row(c, cpu.get(c["truth"].removesuffix(".json"))))
    print("\n| family | truths | met both targets | refused | unfitted levels in the 80% "
          "interval, median width |")  # fmt: skip
    print("|---|---|---|---|---|")
    for fam in FAMILIES:
        cs = by_family[fam]
        if not cs:
            print(f"| {fam} | 0 (not made) | | | |")
            continue
        met = sum(c["summary"]["met"] for c in cs)
        refused = sum(bool(c["summary"].get("refused")) for c in cs)
        print(f"| {fam} | {len(cs)} | {met} of {len(cs)} | {refused} | "
              f"{cover_text(unfitted(cs))} |")  # fmt: skip
    new = [c for c in cases if "/freshtally/truths/" in c["truth"]]
    old = [c for c in cases if c not in new]
    for name, group in (("today's rules' fresh truths", old), ("this folder's new truths", new),
                        ("all", cases)):  # fmt: skip
        met = sum(c["summary"]["met"] for c in group)
        refused = sum(bool(c["summary"].get("refused")) for c in group)
        print(f"| {name} | {len(group)} | {met} of {len(group)} | {refused} | "
              f"{cover_text(unfitted(group))} |")  # fmt: skip
    every = [float(m) for m in re.findall(r"([\d.]+) CPU s", LOG.read_text())]
    print(
        f"\nCPU s of the cases: {sum(cpu.values()):.0f}; of every logged run (builds, truths, "
        f"cases): {sum(every):.0f}"
    )


if __name__ == "__main__":
    if sys.argv[1] == "timed":
        sys.exit(timed(sys.argv[2], sys.argv[sys.argv.index("--") + 1 :]))
    elif sys.argv[1] == "case":
        sys.exit(case(*sys.argv[2:5]))
    elif sys.argv[1] == "table":
        table()
