"""What makes the scoreboard's intervals wide where several readings carry: each unfitted level's
stored 80% interval (bench/foreign/results/scoreboard/cases-final) set beside what its parts
alone would give, from the case's own figures without simulating anything:

- **model form**: ``uncertainty.band(pred, [1, 1], sd)``, sd today's model-form relative sd at the
  level (``uncertainty.model_sd_at``);
- **one reading's own**: ``band(pred, boot, sd)``, boot the 10th/90th percentile ratios of the
  greedy surrogate's refits to redrawn figures (``uncertainty.bootstrap``, 100 samples, as
  calibrate draws them; the greedy curve stands in for each reading's own curve, an
  approximation);
- **the span**: what the stored interval has beyond that, the readings' figures and intervals
  spanned (``spare_readings.combine``: every reading with ≥ 1% of the largest weight).

Per family, per level, and by how many readings the span holds (readings at ≥ 1% of the largest
weight) and how many carry (weight ≥ 0.1). Writes widths.md. ≈ 0 CPU s (surrogate refits only).

    PYTHONPATH=python python bench/foreign/results/scorenarrow/widths.py
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import uncertainty  # noqa: E402

SPAN_SHARE = 0.01  # spare_readings.SPAN_MIN_WEIGHT
CARRY = 0.1  # the scoreboard's carry


def width(lo_hi: list[float], pred: float) -> float:
    return (lo_hi[1] - lo_hi[0]) / pred


def case_parts(doc: dict) -> dict[tuple[float, str], tuple[float, float]]:
    """(level, figure) → (model-form-only width, own-band width) of one stored case."""
    points = levels.case_points(doc["command"])
    pts = [p for p in points if p.queue_depth is None]
    fob = next((p.iops for p in pts if p.fresh), None)
    xs = [float(lv["extra_op_percent"]) for lv in doc["levels"]]
    boot = uncertainty.bootstrap(pts, xs, fob_iops=fob)
    sd = uncertainty.model_sd_at(points, xs)
    out = {}
    for lv in doc["levels"]:
        x = float(lv["extra_op_percent"])
        for f in levels.FIGURES:
            pred = lv.get(f"{f}_pred")
            if pred is None:
                continue
            model = width(uncertainty.band(pred, [1.0, 1.0], sd[x]), pred)
            own = width(uncertainty.band(pred, boot[f][x], sd[x]), pred)
            out[(x, f)] = (model, own)
    return out


def main() -> int:
    c0 = cpu_s()
    rows, _ = levels.load()
    docs = {p.stem: json.loads(p.read_text()) for p in sorted(levels.CASES.glob("*.json"))}
    parts = {s: case_parts(d) for s, d in docs.items() if "levels" in d}
    groups: dict[str, list] = defaultdict(list)
    for r in rows:
        if r.fitted:
            continue
        w = list((docs[r.case].get("readings") or {}).values()) or [1.0]
        spanned = sum(v >= SPAN_SHARE * max(w) for v in w)
        carry = sum(v >= CARRY for v in w)
        model, own = parts[r.case][(r.level, r.figure)]
        item = (r, model, own, spanned, carry)
        kind = "several span" if spanned >= 2 else "one spans"
        groups[f"{kind} | {r.figure} | all"].append(item)
        groups[f"{kind} | {r.figure} | {r.family}"].append(item)
        groups[f"{kind} | {r.figure} | level {r.level:g}%"].append(item)
        carried = f"carry {min(carry, 2)}{'+' if carry >= 2 else ''}"
        groups[f"{kind} | {r.figure} | {carried}"].append(item)
    lines = [
        "# What makes the intervals wide (stored cases, no calibrate run)",
        "",
        "Made by `PYTHONPATH=python python bench/foreign/results/scorenarrow/widths.py` from "
        "bench/foreign/results/scoreboard/cases-final, unfitted levels (10/20/30%). Widths are "
        "(high − low)/prediction, medians. *model*: the model-form term alone; *own*: one "
        "reading's band (greedy refits + model form; an approximation of each reading's own); "
        "*stored*: the interval calibrate gave; *span share*: median of (stored − own)/stored; "
        "*uses*: median |ln(truth/pred)| over the log half-width on the truth's side.",
        "",
        "| readings | figure | group | rows | inside | model | own | stored | span share | uses |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted(groups):
        items = groups[key]
        kind, fig, grp = key.split(" | ")
        n_in = sum(i[0].inside for i in items)
        med = statistics.median
        uses = med(abs(i[0].log_error) / max(i[0].half_width, 1e-12) for i in items)
        share = med((i[0].rel_width - i[2]) / i[0].rel_width for i in items)
        lines.append(
            f"| {kind} | {fig} | {grp} | {len(items)} | {n_in}/{len(items)} | "
            f"{100 * med(i[1] for i in items):.0f}% | {100 * med(i[2] for i in items):.0f}% | "
            f"{100 * med(i[0].rel_width for i in items):.0f}% | {share:.2f} | {uses:.2f} |"
        )
    lines += ["", f"CPU: {cpu_s() - c0:.1f} s (bench/cpu_clock.py)."]
    (HERE / "widths.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
