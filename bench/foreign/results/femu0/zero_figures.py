"""The fresh drives' 0% figures as the plan read them and through the burst cycle, against
FEMU's steady 0% figures (reported by bench/foreign/results/femu0/RULE.md, not judged).

    PYTHONPATH=python python bench/foreign/results/femu0/zero_figures.py > .../zero_figures.txt
"""

import json
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_cycle

R = Path("bench/foreign/results/femu0")
FRESH = ["femu-13lun-270blk-thres71-3300us", "femu-4lun-410blk-thres63-3800us"]


def main() -> None:
    burst_cycle.READ_THROUGH_CYCLE = True
    print("# PYTHONPATH=python python bench/foreign/results/femu0/zero_figures.py")
    print("| drive | plain WAF | plain IOPS | through the cycle WAF | IOPS | FEMU WAF | IOPS |")
    print("|---|---|---|---|---|---|---|")
    for name in FRESH:
        m = measurement_file.load(R / f"{name}-on" / measurement_file.NAME)
        truth = json.loads((R / f"{name}.json").read_text())
        t = next(lv for lv in truth["levels"]
                 if lv["extra_op_percent"] == 0 and lv["queue_depth"] == 32)  # fmt: skip
        tw, ti = t["steady_waf"], t["steady_iops"]
        w, i = m.levels[0].waf, m.levels[0].steady_iops
        burst_cycle.read_first_level(m)
        cw, ci = m.levels[0].waf, m.levels[0].steady_iops
        print(f"| {name} | {w:.2f} ({100 * (w / tw - 1):+.1f}%) "
              f"| {i:.0f} ({100 * (i / ti - 1):+.1f}%) "
              f"| {cw:.2f} ({100 * (cw / tw - 1):+.1f}%) | {ci:.0f} ({100 * (ci / ti - 1):+.1f}%) "
              f"| {tw:.2f} | {ti:.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
