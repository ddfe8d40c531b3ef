"""What bench/foreign/results/mqline/RULE.md saw before it was written: from stored case files
(no run), each level's IOPS error with the twin's centre and with the FOB-highest line's IOPS at
the predicted WAF, the widths of the two interval forms and how many unfitted IOPS figures each
holds. Run from the worktree root:

    python bench/foreign/results/mqline/seen_composed.py CASE.json ... > seen-composed.txt
"""

import json
import re
import statistics
import sys
from pathlib import Path


def _figures(cmd: str, flag: str) -> dict[float, float]:
    text = re.search(rf"{flag} (\S+)", cmd).group(1)
    return dict(tuple(map(float, s.split(":"))) for s in text.split(","))


def row(path: str) -> str:
    d = json.loads(Path(path).read_text())
    pts, wafs = _figures(d["command"], "--points"), _figures(d["command"], "--waf-points")
    fob = float(re.search(r"--fob-iops (\S+)", d["command"]).group(1))
    lo_x, hi_x = min(pts), max(pts)
    per = (1 / pts[hi_x] - 1 / fob) / (wafs[hi_x] - 1)

    def line(w: float) -> float:
        return 1 / (1 / fob + per * (w - 1))

    ratio = pts[lo_x] / line(wafs[lo_x])
    out, off_err, on_err = [], [], []
    cov = {"off": 0, "span": 0, "rel": 0, "n": 0}
    for lv in d["levels"]:
        x, t, p = lv["extra_op_percent"], lv["iops_true"], lv["iops_pred"]
        off_err.append(abs(p / t - 1))
        if not lo_x < x < hi_x:
            on_err.append(abs(p / t - 1))
            continue
        li = line(lv["waf_pred"])
        on_err.append(abs(li / t - 1))
        s_lo, s_hi = min(lv["iops_low"], li), max(lv["iops_high"], li)
        r_lo, r_hi = li * lv["iops_low"] / p, li * lv["iops_high"] / p
        cov["n"] += 1
        cov["off"] += lv["iops_low"] <= t <= lv["iops_high"]
        cov["span"] += s_lo <= t <= s_hi
        cov["rel"] += r_lo <= t <= r_hi
        out.append(
            f"{x:g}%: twin {100 * (p / t - 1):+.1f} line {100 * (li / t - 1):+.1f} "
            f"rel-width {100 * (r_hi - r_lo) / li:.0f}% span-width {100 * (s_hi - s_lo) / li:.0f}%"
        )
    return (
        f"{Path(path).name} lowWAF {wafs[lo_x]:.1f} ratio {ratio:.2f} {'; '.join(out)} | median "
        f"off {100 * statistics.median(off_err):.1f} on {100 * statistics.median(on_err):.1f} "
        f"worst on {100 * max(on_err):.1f} | cov {cov}"
    )


if __name__ == "__main__":
    for f in sys.argv[1:]:
        print(row(f))
