"""status.md's per-drive table from judge.py's rows: held-out (10/20/30%) WAF worst and IOPS
median / worst |error|, old (overrunning rounds, the truth it was judged on), new (the fixed
harness, the settled truth), and the two changes apart.

    PYTHONPATH=python python bench/foreign/results/femufix/table.py \
        > bench/foreign/results/femufix/table.md
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

R = Path("bench/foreign/results/femufix")
_spec = importlib.util.spec_from_file_location("femufix_judge", R / "judge.py")
judge = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(judge)
e2e, femularge = judge.e2e, judge.femularge


def cell(row: dict) -> str:
    if "refused" in row:
        return "refused"
    waf, median, worst = femularge.held_out(row)
    return f"{waf:.1f}%, {median:.1f} / {worst:.1f}%" + ("" if judge.met(row)[0] else " **miss**")


def main() -> None:
    print("| drive | old: WAF worst, IOPS median / worst | new | old measurement, settled "
          "truth | new measurement, 4-12 window |")  # fmt: skip
    print("|---|---|---|---|---|")
    for name, (old, old_truth, settled, _) in judge.DRIVES.items():
        t_old, t_new = (json.loads(p.read_text()) for p in (old_truth, settled))
        rows = (e2e.judge(t_old, old), e2e.judge(t_new, R / name), e2e.judge(t_new, old),
                e2e.judge(judge.early(t_new), R / name))  # fmt: skip
        print(f"| {name} | " + " | ".join(cell(r) for r in rows) + " |")


if __name__ == "__main__":
    main()
