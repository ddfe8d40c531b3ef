"""Conditions 1-3 of bench/foreign/results/femu0/RULE.md on its runs' folders (each judged by
bench/foreign/femu_end_to_end.py's ``judge`` against its FEMU truth; the rows' text and the cost
check are bench/foreign/results/onset-tolerant/judge.py's).

    PYTHONPATH=python python bench/foreign/results/femu0/judge.py \
        > bench/foreign/results/femu0/judged.txt
"""

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench/foreign").resolve()))
import femu_end_to_end as e2e  # noqa: E402
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")
R = S / "femu0"
TOLERANT = Path("bench/foreign/results/onset-tolerant/judge.py")
tolerant = load_script("tolerant_judge", TOLERANT)
errors, text, cost_ok = tolerant.errors, tolerant.text, tolerant.cost_ok

FRESH = ["femu-13lun-270blk-thres71-3300us", "femu-4lun-410blk-thres63-3800us"]
#: onset-tolerant's six stored cases with their truths, and its F1 and F2 (runs.sh)
STORED = tolerant.STORED | {
    "femu-11lun-290blk-thres69-3200us-on": "onset-tolerant/femu-11lun-290blk-thres69-3200us.json",
    "femu-5lun-400blk-thres86-2800us-on": "onset-tolerant/femu-5lun-400blk-thres86-2800us.json",
}
HELD_OUT = (10.0, 20.0, 30.0)
WAF_WORST = 5.0


def row_text(name: str, arm: str, row: dict) -> str:
    if "refused" in row:
        return f"{name} {arm}: refused: {row['refused']}"
    return (f"{name} {arm}: onset {row['onset']:.3f}, drive writes {row['drive_writes']:.3f}, "
            f"readings {row['readings']}; IOPS 0-40% {text(errors(row, 'iops'))}; "
            f"WAF 0-40% {text(errors(row, 'waf'))}")  # fmt: skip


def targets(on: dict) -> bool:
    """Condition 1 on a fresh drive's on arm."""
    if "refused" in on:
        print("  1. targets: refused")
        return False
    waf, iops = ([abs(errors(on, k)[x]) for x in HELD_OUT] for k in ("waf", "iops"))
    met = max(waf) <= WAF_WORST and statistics.median(iops) <= 10 and max(iops) <= 20
    print(f"  1. targets (on, 10/20/30%): WAF worst {max(waf):.1f}% (5), IOPS median "
          f"{statistics.median(iops):.1f}% worst {max(iops):.1f}% (10/20): "
          f"{'holds' if met else 'FAILS'}")  # fmt: skip
    return met


def fresh() -> bool:
    ok = True
    for name in FRESH:
        truth = json.loads((R / f"{name}.json").read_text())
        rows = {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on")}
        for arm, row in rows.items():
            print(row_text(name, arm, row))
        c1 = targets(rows["on"])
        on, off = rows["on"], rows["off"]
        c2 = ("refused" in off or "refused" not in on) and cost_ok(on)
        print(f"  2. no refusal, cost: off {'refused' if 'refused' in off else 'answers'}, "
              f"on {'refused' if 'refused' in on else 'answers'}; drive writes "
              f"{on['drive_writes']:.3f}, levels {on['levels_measured']}: "
              f"{'holds' if c2 else 'FAILS'}")  # fmt: skip
        ok = ok and c1 and c2
    return ok


def main() -> None:
    verdicts = {"1-2": fresh(), "3": tolerant.stored(STORED, R / "stored")}
    said = (f"conditions {k}: {'hold' if v else 'FAIL'}" for k, v in verdicts.items())
    print("# " + "; ".join(said))


if __name__ == "__main__":
    main()
