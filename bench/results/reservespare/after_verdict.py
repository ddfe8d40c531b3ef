"""Read after the verdict (judges nothing): on two cases the candidate broke (fresh P3 60 × 46
and guard 13 × 270, both arm), each uniform design's reserve reading as ``offered_form`` gives it
with both flags on: pinned or fitted near the onset, its spare against the onset, its WAF
at 0-40% and its evidence weight (``reserve_reading.weights`` over the offered readings).

    PYTHONPATH=python python bench/results/reservespare/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_start, evidence, gc_reserve, spare_near_onset, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_twin_check import onset_from_empty

CASES = {
    "P3 60 x 46": "bench/results/burstplain/femu/femu-60lun-46blk-thres54-3300us-ns80-off",
    "guard 13 x 270": "bench/foreign/results/femuwin/guard/femu-13lun-270blk-thres71-3300us-on-off",
}


def main() -> int:
    t0 = os.times()
    burst_start.LATE_START = spare_near_onset.SPARE_NEAR_ONSET = True
    for label, folder in CASES.items():
        m = measurement_file.load(Path(folder) / measurement_file.NAME)
        points, _ = fitmod.split_queue_depths(predmod.points_from(m), fitmod.WORKLOAD_QD)
        onset = onset_from_empty(m)
        cv = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, False))
        print(f"== {label}: onset {onset:.4f}")
        chi2 = {}
        for design, pinned in gc_reserve.design_forms(onset, cv):
            form = spare_near_onset.offered_form(pinned, points)
            if form is None:
                print(f"  {design}: not offered")
                continue
            s = form.fit(points)
            ev = evidence.assess(form, form.checked_points(points), cv)
            chi2[design] = ev["chi2"]
            kind = "near" if isinstance(form, spare_near_onset.NearOnsetForm) else "pinned"
            wafs = ", ".join(f"{x:g}% {s.waf(x):.3f}" for x in (0, 10, 20, 30, 40))
            print(f"  {design}: {kind}, spare {1 + s.native_op:.4f} "
                  f"({100 * ((1 + s.native_op) / onset - 1):+.1f}% vs onset), floor "
                  f"{s.waf_floor}, chi2 {ev['chi2']:.2f}; WAF {wafs}")  # fmt: skip
    t1 = os.times()
    print(f"CPU s (user + system): {t1.user - t0.user + t1.system - t0.system:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
