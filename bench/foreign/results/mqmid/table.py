"""DIAGNOSIS.md's table: the queue model's programs paired, both planes collecting and IOPS error
against MQSim (means of the seeds), in MQSim's order and the three what-ifs, at QD32.

    python bench/foreign/results/mqmid/table.py
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = (
    HERE.parent / "mqpair" / "scheduler.json",
    HERE.parent / "mqpair" / "scheduler-erase-hold-lifted.json",
    HERE / "scheduler-queued-first.json",
    HERE / "scheduler-queued-first-hold-lifted.json",
)


def rows(path: Path) -> dict[tuple[str, int], dict]:
    doc = json.loads(path.read_text())
    return {(r["drive"], r["level"]): r for r in doc["rows"] if r["queue_depth"] == 32}


def cell(r: dict | None) -> str:
    if r is None:
        return "–"
    m = r["model"]
    share = statistics.mean(a["share_programs"] for a in m)
    both = statistics.mean(a["overlap"] for a in m)
    err = 100 * (statistics.mean(a["iops"] for a in m) / r["mqsim"]["iops"] - 1)
    return f"{share:.2f}, {both:.2f}, {err:+.0f}%"


def main() -> int:
    runs = [rows(p) for p in RUNS]
    print("| drive | level | MQSim paired | model (MQSim's order) | hold lifted | queued first "
          "| queued first, hold lifted |\n|---|---|---|---|---|---|---|")  # fmt: skip
    for d in ("u512x32", "u640x16"):
        for x in (0, 10, 20, 30, 40):
            mq = runs[0][(d, x)]["mqsim"]["share_programs"]
            cells = " | ".join(cell(r.get((d, x))) for r in runs)
            print(f"| {d} | {x}% | {mq:.2f} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
