"""Which term sets the width of today's 80% intervals on the 72 (bench/foreign/results/narrowband/
today.py), per family and figure, at the unfitted levels (10/20/30%), from each case's own
figures without simulating anything (bench/foreign/results/scorenarrow/widths.py's
``case_parts`` and its bootstrap, 100 greedy refits):

- *boot*: the bootstrap band alone (``uncertainty.band(pred, boot, None)``);
- *model*: the model-form term alone (``uncertainty.model_sd_at``: for typed figures that leave
  the fit something to miss, rule 3's ``scale · hypot(floor, R)``; the distance slope otherwise);
- *own*: the two in quadrature (one reading's band, the greedy curve standing in for each
  reading's own);
- *stored*: the interval calibrate gave; *mix share*: median (stored − own)/stored, what the
  mixture of readings (and any hull) adds or takes;
- *model share*: median (Z80 · model sd)² / (log half-width of own)², the model-form term's
  part of one reading's variance; *R-set*: rows whose model-form term is rule 3's (set by the
  fit's residual) rather than the distance slope's;
- *uses*: median |ln(truth/pred)| over the stored log half-width on the truth's side.

Writes widths.md. ≈ 15 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowband/widths.py
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import uncertainty  # noqa: E402

SCORENARROW = load_script("scorenarrow_widths", HERE.parent / "scorenarrow" / "widths.py")
WELL = ("DiskSim", "EagleTree", "FlashSim", "SSDsim", "SimpleSSD", "NVMeVirt", "WiscSim")


def main() -> int:
    c0 = cpu_s()
    docs = today.docs()
    rows = [r for d in docs.values() for r in levels.case_rows(d) if not r.fitted]
    parts, boots = {}, {}
    for stem, d in docs.items():
        if "levels" not in d:
            continue
        parts[stem] = SCORENARROW.case_parts(d)
        pts = [p for p in levels.case_points(d["command"]) if p.queue_depth is None]
        fob = next((p.iops for p in pts if p.fresh), None)
        xs = [float(lv["extra_op_percent"]) for lv in d["levels"]]
        boots[stem] = uncertainty.bootstrap(pts, xs, fob_iops=fob)
    groups: dict[str, list] = defaultdict(list)
    for r in rows:
        model, own = parts[r.case][(r.level, r.figure)]
        b = boots[r.case][r.figure][r.level]
        boot = SCORENARROW.width(uncertainty.band(r.pred, b, None), r.pred)
        m_log = uncertainty.Z80 * (r.model_sd or 0.0)
        own_log = max(math.log(1 + own / 2), 1e-12)
        share = min(1.0, (m_log / own_log) ** 2) if own_log else 0.0
        item = (r, boot, model, own, share)
        for g in (r.family, "seven well-predicted" if r.family in WELL else "FEMU + MQSim", "all"):
            groups[f"{g} | {r.figure}"].append(item)
            groups[f"{g} | both"].append(item)
    med = statistics.median
    lines = [
        "# Which term sets the width (today's 72, unfitted levels; no calibrate run)",
        "",
        "Made by `PYTHONPATH=python python bench/foreign/results/narrowband/widths.py` from "
        "today's cases (bench/foreign/results/narrowband/today.py). Widths (high − low)/"
        "prediction, medians over the rows. *boot*: bootstrap band alone; *model*: model-form "
        "term alone; *own*: both in quadrature; *stored*: calibrate's interval; *mix*: median "
        "(stored − own)/stored; *model share*: median share of the model-form term in one "
        "reading's log variance (own's half-width taken as log(1 + own/2)); *uses*: median "
        "|ln(truth/pred)| / stored log half-width on the truth's side.",
        "",
        "| group | figure | rows | inside | boot | model | own | stored | mix | model share "
        "| uses |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = [*WELL, "seven well-predicted", "FEMU", "MQSim", "FEMU + MQSim", "all"]
    for g in order:
        for fig in ("iops", "waf", "both"):
            items = groups.get(f"{g} | {fig}", [])
            if not items:
                continue
            rs = [i[0] for i in items]
            uses = med(abs(r.log_error) / max(r.half_width, 1e-12) for r in rs)
            mix = med((r.rel_width - i[3]) / r.rel_width for r, i in zip(rs, items, strict=True))
            lines.append(
                f"| {g} | {fig} | {len(rs)} | {sum(r.inside for r in rs)}/{len(rs)} | "
                f"{100 * med(i[1] for i in items):.1f}% | {100 * med(i[2] for i in items):.1f}% | "
                f"{100 * med(i[3] for i in items):.1f}% | "
                f"{100 * med(r.rel_width for r in rs):.1f}% | {mix:+.2f} | "
                f"{med(i[4] for i in items):.2f} | {uses:.2f} |"
            )
    text = "\n".join([*lines, "", f"CPU: {cpu_s() - c0:.1f} s (bench/cpu_clock.py)."]) + "\n"
    (HERE / "widths.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
