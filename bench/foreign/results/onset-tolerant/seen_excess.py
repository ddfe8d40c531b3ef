"""How far above the reserve reading's curve at the onset (the spare taken from the onset of
garbage collection from empty, ``discard_transient.SPARE_FROM_ONSET``) the plan's WAF figures
read after a discard lie, on every stored FEMU case measured by calibrate's own plan with the
onset dated (seen cases): what fixes ``discard_transient.TRANSIENT_ALLOWANCE``
(bench/foreign/results/onset-tolerant/RULE.md). Nothing is predicted; no truth is read.

    PYTHONPATH=python python bench/foreign/results/onset-tolerant/seen_excess.py \
        > bench/foreign/results/onset-tolerant/seen_excess.txt
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench").resolve()))
from cpu_clock import cpu_s  # noqa: E402
from overprov import measurement_file  # noqa: E402
from overprov.calibrate import discard_transient, gc_reserve  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.calibrate.uncertainty import recorded_model_form  # noqa: E402

R = Path("bench/foreign/results")


def cases() -> list[Path]:
    """Every stored FEMU measurement with the onset dated from empty (not a refit or rerun)."""
    out = []
    for f in sorted(R.glob("**/measurement.json")):
        if any(k in str(f) for k in ("refit", "run-on", "iops-form", "iops-only", "no-waf")):
            continue
        m = measurement_file.load(f)
        if "femu" in str(f) and m.onset_source == "garbage-collection onset from empty":
            out.append(f)
    return out


def main() -> None:
    c0 = cpu_s()
    discard_transient.SPARE_FROM_ONSET = True
    mf = recorded_model_form(False)
    excesses = []
    for f in cases():
        m = measurement_file.load(f)
        points, _ = fitmod.split_queue_depths(predmod.points_from(m), m.qd)
        form = gc_reserve.ReserveForm(fitmod.waf_at, mf.rel_sd, onset=m.onset_spare_factor)
        s = form.fit(points)
        later = discard_transient.after_discard(p.extra_op_percent for p in points if not p.fresh)
        rows = {
            f"{p.extra_op_percent:g}": round(100 * (p.waf / s.waf(p.extra_op_percent) - 1), 2)
            for p in points
            if p.waf is not None and not p.fresh and p.extra_op_percent in later
        }
        binding = m.onset_spare_factor < gc_reserve.ONSET_RESERVE_BELOW
        if binding:
            excesses += list(rows.values())
        print(json.dumps({"case": str(f.parent.relative_to(R)),
                          "onset": round(m.onset_spare_factor, 4), "reserve_binds": binding,
                          "floor": s.waf_floor, "excess_over_onset_curve_pct": rows}))  # fmt: skip
    print(f"# binding cases' excesses: min {min(excesses):.2f}%, max {max(excesses):.2f}% "
          f"over {len(excesses)} figures; {cpu_s() - c0:.1f} CPU s")  # fmt: skip


if __name__ == "__main__":
    main()
