"""Task 1 of the cliffdecline brief (bench/results/cliffdecline/DIAGNOSIS.md): each seen
no-step case's truth written at QD32 from purged (``cliff.simulate_series``) at 4, 32 and
128 KiB, for twice its cache's bytes at its 4 KiB rate, in 40 intervals: the MB/s in each,
and the cache's step at 10% or 5% (``cliff_series.find_step``) where one shows.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffdecline/sizes.py \
        9724:0.01 9728:0.01 9730:0.01 9724:0.03 9685:0.01 > bench/results/cliffdecline/sizes.json
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from cliffplan_eval import written_truth
from cpu_clock import cpu_s
from overprov.calibrate import cliff
from overprov.calibrate.cliff_series import find_step

SIZES_BYTES = (4096, 32768, 131072)
INTERVALS = 40


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    cache = truth["config"]["timing"]["slc"]["max_bytes"]
    row: dict[str, Any] = {"case": f"{seed} at {100 * share:g}%", "cache_bytes": cache}
    seconds = None
    for bs in SIZES_BYTES:
        if seconds is None:  # the 4 KiB series' rate sets the length for every size
            probe = cliff.simulate_series(truth, float(scale), seconds=2.0, interval_s=0.5,
                                          precondition="none")  # fmt: skip
            seconds = 2 * cache / (max(probe.write_iops) * 4096)
        s = cliff.simulate_series(truth, float(scale), seconds=seconds,
                                  interval_s=seconds / INTERVALS, precondition="none",
                                  bs_bytes=bs)  # fmt: skip
        mb_s = [round(v * bs / 1e6, 1) for v in s.write_iops]
        step = None
        for min_drop in (0.1, 0.05):
            c, is_rise = find_step(s, bs, min_drop)
            if c is not None:
                step = {"min_drop": min_drop, "rise": is_rise, **c.to_dict()}
                break
        row[str(bs)] = {"mb_s": mb_s, "step": step}
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps({"case": row["case"], "steps": {b: row[str(b)]["step"] for b in SIZES_BYTES}}),
          file=sys.stderr, flush=True)  # fmt: skip
    return row


def main() -> int:
    t0 = cpu_s()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [case(int(a), float(b), Path(tmp)) for a, b in (c.split(":") for c in sys.argv[1:])]
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
