"""femu0's burst-cycle verdict re-measured (PLAN.md, reported): each new measurement predicted
with the first level read through the burst cycle (the default; femufix/NAME) and read plain
(``repredict --no-through-cycle``; plain/NAME), against the settled truth: the 0% WAF, the
held-out figures, and femu0's condition 3 (no figure 0-40% more than 2 points worse with the
cycle than without).

    PYTHONPATH=python python bench/foreign/results/femufix/plain.py \
        > bench/foreign/results/femufix/plain.txt
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

R = Path("bench/foreign/results/femufix")
_spec = importlib.util.spec_from_file_location("femufix_judge", R / "judge.py")
judge = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(judge)
e2e, femu0 = judge.e2e, judge.femu0
WORSE_POINTS = 2.0  # femu0's condition 3


def main() -> None:
    print("| drive | 0% WAF: cycle / plain | held-out WAF worst: cycle / plain | worse by > 2 "
          "points with the cycle |")  # fmt: skip
    print("|---|---|---|---|")
    held = True
    for name, (*_, settled, _) in judge.DRIVES.items():
        if not (R / "plain" / name / "run.json").exists():
            print(f"| {name} | not run |||")
            continue
        truth = json.loads(settled.read_text())
        cyc, plain = e2e.judge(truth, R / name), e2e.judge(truth, R / "plain" / name)
        if "refused" in cyc or "refused" in plain:
            said = ["refused" if "refused" in r else "answers" for r in (cyc, plain)]
            print(f"| {name} | {said[0]} / {said[1]} |||")
            held &= "refused" in plain or "refused" not in cyc
            continue
        worse = [f"{k}@{x:g} {femu0.errors(plain, k)[x]:+.1f}->{femu0.errors(cyc, k)[x]:+.1f}"
                 for k in ("waf", "iops") for x in femu0.errors(cyc, k)
                 if abs(femu0.errors(cyc, k)[x]) > abs(femu0.errors(plain, k)[x]) + WORSE_POINTS]
        held &= not worse
        print(f"| {name} | {femu0.errors(cyc, 'waf')[0.0]:+.1f} / "
              f"{femu0.errors(plain, 'waf')[0.0]:+.1f}% | {judge.held_out_waf(cyc):.1f} / "
              f"{judge.held_out_waf(plain):.1f}% | {', '.join(worse) or 'none'} |")  # fmt: skip
    print(f"# femu0's condition 3 on the re-measured drives: {'holds' if held else 'FAILS'}")


if __name__ == "__main__":
    main()
