"""Task 1's check on seen drives (bench/results/cliffmix/RULE.md, "Disclosed"): is the twin's
mix before the cliff above what the truth's link and controller allow, and does a read holding
its measured slot bypass them? For each case: calibrate run as
``bench/cliffplan_eval.py --probes-in-prediction`` runs it (its measurement kept), then

- the truth's ceilings: its link (``host.link_mb_s`` ÷ 4 KiB) and its controller
  (``cliff_prediction.controller_ceiling_iops``), commands a second;
- the truth's cliff under QD8 70% reads from purged (``cliffplan_eval.truth_cliff``) and the
  twin's predicted one (prediction.json; bench/results/clifflift/RULE.md's form, with
  ``cliff_mix.MIX_CAPPED`` off), levels before;
- the probe before the cliff (measurement.json): its ``iops``, its reads' time;
- the bypass: the truth drive itself run with its reads of written pages holding the probe's
  slot until its cache is written (``cliff.predict``'s ``read_slot_us`` form), and besides its
  reads of pages never written holding the probe of trimmed space's (``unwritten_read_us``, as
  the twin's prediction has them), against the truth as simulated: the same drive, so a faster
  mix is what the slots add (mean IOPS of intervals 4 to the last but one, over half the time
  to the truth's cliff);
- the series' plateau (``cliff_prediction.measured_plateau``: QD32 writes before the step).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffmix/check_seen.py \
        245:0.01 246:0.01 247:0.01 > bench/results/cliffmix/check_seen.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cliffplan_eval import calibrate, single_cases, truth_cliff, written_truth
from overprov import measurement_file
from overprov.calibrate import cliff, cliff_mix, cliff_prediction, cliff_step


def case(seed: int, share: float, work: Path) -> dict:
    truth, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    pred = calibrate(path, scale, out, probes=True, mix_capped=False)
    probes = (measurement_file.load(out / "measurement.json").cliff or {}).get("probes") or {}
    before = probes.get("before") or {}
    unwritten = (probes.get("unwritten") or {}).get("read_us")
    doc = measurement_file.load(out / "measurement.json").cliff or {}
    plateau = cliff_prediction.measured_plateau(
        cliff_step.series(doc), 4096, float(doc.get("buffer_fill_bytes") or 0.0)
    )
    true = truth_cliff(truth, float(scale), "none")
    link = truth["config"]["timing"].get("host", {}).get("link_mb_s")
    row = {
        "case": f"{seed} at {100 * share:g}%",
        "truth_link_iops": None if link is None else link * 1e6 / 4096,
        "truth_controller_iops": cliff_prediction.controller_ceiling_iops(truth),
        "truth_mix_iops_before": true.iops_before if true else None,
        "twin_mix_iops_before": (pred.get("purged") or {}).get("iops_before"),
        "series_plateau_iops": plateau,
        "probe_unwritten_read_us": unwritten,
        "probe_unwritten_command_iops": None if not unwritten else 8 * 1e6 / unwritten,
        "probe_before": {k: before.get(k) for k in ("iops", "read_us", "read_percent", "qd",
                                                     "duration_s", "bytes_written")},
    }  # fmt: skip
    if before.get("read_us") and true is not None:
        slot = cliff.read_slot_series(
            truth, float(scale), qd=8, read_percent=70, seconds=true.time_s * 0.5,
            interval_s=true.time_s / 60, read_slot_us=before["read_us"],
            read_slot_until_bytes=truth["config"]["timing"]["slc"]["max_bytes"],
        )  # fmt: skip
        both = cliff.read_slot_series(
            truth, float(scale), qd=8, read_percent=70, seconds=true.time_s * 0.5,
            interval_s=true.time_s / 60, read_slot_us=before["read_us"],
            read_slot_until_bytes=truth["config"]["timing"]["slc"]["max_bytes"],
            unwritten_read_us=unwritten,
        )  # fmt: skip
        plain = cliff.simulate_series(
            truth, float(scale), qd=8, read_percent=70, seconds=true.time_s * 0.5,
            interval_s=true.time_s / 60, precondition="none",
        )  # fmt: skip
        mid = slice(3, len(slot.iops) - 1)
        row["truth_with_slot_iops"] = sum(slot.iops[mid]) / len(slot.iops[mid])
        row["truth_with_both_slots_iops"] = sum(both.iops[mid]) / len(both.iops[mid])
        row["truth_plain_iops"] = sum(plain.iops[mid]) / len(plain.iops[mid])
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> int:
    cliff_mix.MIX_CAPPED = False  # clifflift's form, in the calibrate process too (above)
    return single_cases(case, sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
