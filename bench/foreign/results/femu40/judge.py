"""Conditions 1-3 of bench/foreign/results/femu40/RULE.md on its runs' folders (each judged by
bench/foreign/femu_end_to_end.py's ``judge`` against its FEMU truth; the rows, the targets and
the stored cases' check are bench/foreign/results/femu0/judge.py's and onset-tolerant's).

    PYTHONPATH=python python bench/foreign/results/femu40/judge.py \
        > bench/foreign/results/femu40/judged.txt
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench/foreign").resolve()))
import femu_end_to_end as e2e  # noqa: E402
from common import load_script  # noqa: E402

femu0 = load_script("femu0_judge", "bench/foreign/results/femu0/judge.py")
tolerant = femu0.tolerant
R = Path("bench/foreign/results/femu40")
FRESH = ["femu-17lun-210blk-thres61-3400us", "femu-3lun-430blk-thres73-4200us"]
#: femu0's stored cases and its G1 and G2 (runs.sh)
STORED = femu0.STORED | {
    "femu-13lun-270blk-thres71-3300us-on": "femu0/femu-13lun-270blk-thres71-3300us.json",
    "femu-4lun-410blk-thres63-3800us-on": "femu0/femu-4lun-410blk-thres63-3800us.json",
}
#: the on arm's held-out WAF worst may exceed the off arm's by at most this (points)
WAF_NO_WORSE_POINTS = 1.0


def fresh() -> bool:
    """Conditions 1-2 as bench/foreign/results/femu0/judge.py judges them (its ``fresh`` on this
    folder's drives), then this rule's part of condition 1: no worse held-out WAF."""
    femu0.FRESH, femu0.R = FRESH, R
    ok = femu0.fresh()
    for name in FRESH:
        truth = json.loads((R / f"{name}.json").read_text())
        rows = {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on")}
        if any("refused" in r for r in rows.values()):
            continue  # condition 2 says so
        worst = {a: max(abs(tolerant.errors(r, "waf")[x]) for x in femu0.HELD_OUT)
                 for a, r in rows.items()}  # fmt: skip
        held = worst["on"] <= worst["off"] + WAF_NO_WORSE_POINTS
        print(f"{name}  1. no worse WAF: held-out worst on {worst['on']:.1f}% off "
              f"{worst['off']:.1f}% (+{WAF_NO_WORSE_POINTS:g}): "
              f"{'holds' if held else 'FAILS'}")  # fmt: skip
        ok = ok and held
    return ok


def main() -> None:
    first, stored = fresh(), tolerant.stored(STORED, R / "stored")
    print(f"# conditions 1-2: {'hold' if first else 'FAIL'}; "
          f"conditions 3: {'hold' if stored else 'FAIL'}")  # fmt: skip


if __name__ == "__main__":
    main()
