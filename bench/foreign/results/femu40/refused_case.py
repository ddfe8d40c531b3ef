"""Diagnosis (b): the stored case 14 LUNs × 224 (80% namespace,
bench/foreign/results/femu-end-to-end/) and the plain fit's input check that refuses it
(``plausibility.surrogate_misses_its_points`` on ``fit.fit`` of the measured points, run by
``calibrate.cli`` before any reading is tried). Nothing is simulated: the greedy fit and the
reserve reading's WAF at the onset (greedy curve at the onset's spare), on the case's points as
calibrate takes them, on FEMU's steady truth at the same levels, and on the other seen
reserve-bound drives for comparison.

    PYTHONPATH=python python bench/foreign/results/femu40/refused_case.py \
        > bench/foreign/results/femu40/refused_case.txt
"""

import dataclasses
import json
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import fit as fitmod
from overprov.calibrate import plausibility
from overprov.calibrate import predict as predmod

S = Path("bench/foreign/results")
CASES = {
    "14x224 (ns 80%)": "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80",
    "9x250": "settle40/femu-9lun-250blk-thres64-4ms",
    "G2 4x410": "femu0/femu-4lun-410blk-thres63-3800us",
    "6x372": "femu-end-to-end/femu-6lun-372blk-thres68-3ms",
}
"""each case's folder is NAME-on, its truth NAME.json"""


def show(label: str, points: list[fitmod.Point], onset: float) -> None:
    main = [p for p in points if p.queue_depth is None]
    s = fitmod.fit(main)
    misses = []
    for p in main:
        if p.iops:
            misses.append(
                f"IOPS@{p.extra_op_percent:g} {s.iops(p.extra_op_percent) / p.iops - 1:+.1%}"
            )
        if p.waf is not None:
            misses.append(
                f"WAF@{p.extra_op_percent:g} {s.waf(p.extra_op_percent) / p.waf - 1:+.1%}"
            )
    why = plausibility.surrogate_misses_its_points(s, main)
    reading = ", ".join(
        f"{x:g}%: {fitmod.waf_at(fitmod.rho_eff(onset - 1.0, x)):.3f}"
        for x in sorted({p.extra_op_percent for p in main if p.extra_op_percent > 0})
    )
    print(f"  {label}: plain fit native OP {s.native_op:.4f}, t_page {s.t_page_us:.0f} us, "
          f"t_cmd {s.t_cmd_us:.0f} us; misses {', '.join(misses)}; "
          f"check: {'REFUSES' if why else 'passes'}; the onset's greedy WAF (the reserve "
          f"reading's, above its floor) {reading}")  # fmt: skip


def main() -> None:
    for name, stem in CASES.items():
        case, truth_file = f"{stem}-on", f"{stem}.json"
        m = measurement_file.load(S / case / measurement_file.NAME)
        truth = {
            lv["extra_op_percent"]: lv for lv in json.loads((S / truth_file).read_text())["levels"]
        }
        onset = m.onset_spare_factor
        points = predmod.points_from(m)
        print(f"{name}: onset {onset:.4f}; points " + "; ".join(
            f"{p.extra_op_percent:g}%{'' if p.queue_depth is None else f' QD{p.queue_depth}'} "
            f"IOPS {p.iops:.0f} WAF {p.waf:.3f}" for p in points))  # fmt: skip
        said = (f"{x:g}% IOPS {t['steady_iops']:.0f} WAF {t['steady_waf']:.3f}"
                for x, t in sorted(truth.items()))  # fmt: skip
        print("  truth: " + "; ".join(said))
        show("as measured", points, onset)
        steady = [dataclasses.replace(p, iops=truth[p.extra_op_percent]["steady_iops"],
                                      waf=truth[p.extra_op_percent]["steady_waf"])
                  if p.queue_depth is None else p for p in points]  # fmt: skip
        show("FEMU's steady truth at the same levels", steady, onset)


if __name__ == "__main__":
    main()
