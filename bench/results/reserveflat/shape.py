"""Diagnosis only: the curve FEMU's truth follows on the deep-onset drives (the stored truths at
0-40% and this folder's extra levels, truth/), against the reserve reading's hard corner
min(greedy(s/(1 − x) − 1), floor): with s the measured onset from empty, and with s read from
the truth's first level off the floor (the spare the truth itself places). Also FEMU's own
trigger as a spare: GC starts when free lines fall to int((1 − gc_thres_pcent) · lines), so the
data may fill the other lines, s = their share · physical ÷ advertised.

    PYTHONPATH=python python bench/results/reserveflat/shape.py > shape.txt
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import fit as fitmod

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
cf = load_script("counterfactual", HERE / "counterfactual.py")


def main() -> int:
    t0 = os.times()
    for name, folder, truth_path in cf.diagnose.CASES:
        base = Path(folder).name.removesuffix("-off")
        truth = cf.truth_all(truth_path, base)
        past = HERE / "truth" / f"{base}-past.json"
        if past.exists():
            for r in json.loads(past.read_text())["levels"]:
                truth[float(r["extra_op_percent"])] = r["steady_waf"]
        truth = dict(sorted(truth.items()))
        doc = json.loads((ROOT / truth_path).read_text())
        cfg = doc["config"]
        lines = cfg["geometry"]["blks_per_pl"]  # a line: one block of every LUN
        held = int((1 - cfg["gc_thresholds"]["gc_thres_pcent"] / 100) * lines)  # ftl.c's int
        m = measurement_file.load(ROOT / folder / measurement_file.NAME)
        onset = m.onset_spare_factor
        floor = truth[0.0]
        off = [x for x, w in truth.items() if w < 0.99 * floor]
        s_truth = cf.diagnose.spare_through(truth[off[0]], off[0]) if off else None
        s_trig = (lines - held) / lines * doc["physical_bytes"] / doc["advertised_bytes"]
        print(
            f"== {name}: onset {onset:.4f}; FEMU's trigger as a spare "
            f"{s_trig:.4f} ({lines - held} of {lines} lines); spare through the truth's first "
            f"level off the floor ({off[0] if off else '-'}%): "
            f"{f'{s_truth:.4f}' if s_truth else 'n/a'}"
        )
        edge = {
            k: 100 * (1 - s / (1 + fitmod.rho_for_waf(floor)))
            for k, s in (("onset", onset), ("truth", s_truth))
            if s
        }
        print(
            "  edge (greedy meets the floor): "
            + ", ".join(f"from the {k} {v:.1f}%" for k, v in edge.items())
        )
        print(
            f"  {'level':>6} {'truth':>7} {'corner(onset)':>14} {'err':>7} "
            f"{'corner(truth s)':>16} {'err':>7}"
        )
        for x, w in truth.items():
            a = cf.diagnose.edge_form(onset, floor, x)
            row = f"  {x:>5g}% {w:>7.3f} {a:>14.3f} {100 * (a / w - 1):>+6.1f}%"
            if s_truth:
                b = cf.diagnose.edge_form(s_truth, floor, x)
                row += f" {b:>16.3f} {100 * (b / w - 1):>+6.1f}%"
            print(row)
    t1 = os.times()
    print(f"CPU s (user + system): {t1.user - t0.user + t1.system - t0.system:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
