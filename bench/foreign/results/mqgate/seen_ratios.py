"""What bench/foreign/results/mqgate/RULE.md saw before it was written: from stored case files
(no run), the lowest level's WAF and its IOPS over the FOB-highest line's, and at each level
between the typed ones the twin's IOPS over the line's at the predicted WAF (and the twin's
error). Run from the worktree root:

    python bench/foreign/results/mqgate/seen_ratios.py CASE.json ... > seen-ratios.txt
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

_figures = load_script("mqline_seen", HERE.parent / "mqline" / "seen_composed.py")._figures


def row(path: str) -> str:
    d = json.loads(Path(path).read_text())
    cmd = d["command"]
    pts, wafs = _figures(cmd, "--points"), _figures(cmd, "--waf-points")
    fob = float(re.search(r"--fob-iops (\S+)", cmd).group(1))
    lo_x, hi_x = min(pts), max(pts)
    per_waf_s = (1 / pts[hi_x] - 1 / fob) / (wafs[hi_x] - 1)

    def line(waf: float) -> float:
        return 1 / (1 / fob + per_waf_s * (waf - 1))

    mids = [
        f"{lv['extra_op_percent']:g}%: {lv['iops_pred'] / line(lv['waf_pred']):.3f} "
        f"(twin {100 * (lv['iops_pred'] / lv['iops_true'] - 1):+.1f}%)"
        for lv in d["levels"]
        if lo_x < lv["extra_op_percent"] < hi_x
    ]
    return (
        f"{Path(path).name} lowWAF {wafs[lo_x]:.1f} low/line {pts[lo_x] / line(wafs[lo_x]):.2f} "
        f"| twin/line {'; '.join(mids)} | median {100 * d['summary']['iops_median']:.1f}%"
    )


if __name__ == "__main__":
    for f in sys.argv[1:]:
        print(row(f))
