"""Task 1 of the cliffbuffer brief (bench/results/cliffbuffer/DIAGNOSIS.md): on the seen cases
whose QD32 write series stopped at the write buffer's step (264 at 3%: bench/results/cliffseries/
DIAGNOSIS.md; 9606 at 3%: bench/results/cliffseries/verdict.md), what tells that step from the
SLC cache's in what the series measures.

264 at 3% is read from bench/results/cliffseries/stored/; any other case is calibrated again as
``bench/cliffplan_eval.py --probes-in-prediction`` runs it (``calibrated_again``) and its step's
measurement kept in ``stored/SEED-SHARE/cliff.json`` beside this script. For each: the rounds'
IOPS and host bytes (full size), the step ``cliff_series.cache_step`` finds (10%, the buffer's
fill passed over as calibrate does), the buffer's fill as ``cache_step`` tests it (the level
before as a median) and as the series' first level gives it, the bytes written above the level
after the step up to the interval that fell (a buffer fed at the level before and drained at the
level after holds exactly these), against the buffer's full-size bytes, and the truth's ceilings
from its drive file (truth_series.py's ``ceilings``), with its cache.

    PYTHONPATH=python:bench:bench/results/cliffseries nice -n 10 python \
        bench/results/cliffbuffer/buffer_steps.py 264:0.03 9606:0.03 \
        > bench/results/cliffbuffer/buffer_steps.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from cliffplan_eval import calibrated_again, single_cases, written_truth
from overprov.calibrate.cliff_series import buffer_fill_bytes, cache_step, excess_bytes
from overprov.calibrate.cliff_step import series
from truth_series import ceilings

HERE = Path(__file__).resolve().parent
SEEN = HERE.parent / "cliffseries" / "stored"


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    truth, _, _ = written_truth(seed, share, work)
    name = f"{seed}-{share:g}"
    stored = SEEN / name / "cliff.json"
    if not stored.exists():
        stored = HERE / "stored" / name / "cliff.json"
    if not stored.exists():
        doc = calibrated_again(seed, share, work)[0]
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(json.dumps(doc, indent=1) + "\n")
    doc = json.loads(stored.read_text())
    s, bs, fill = series(doc), int(doc["bs_bytes"]), float(doc["buffer_fill_bytes"])
    dt = [t - (s.times_s[i - 1] if i else 0.0) for i, t in enumerate(s.times_s)]
    written, rounds = 0.0, []
    for i, x in enumerate(s.iops):
        written += x * dt[i] * bs
        rounds.append({"iops": x, "host_bytes_after": written})
    step = cache_step(s, bs_bytes=bs, buffer_bytes=fill)[0]
    row: dict[str, Any] = {"case": name, "rounds": rounds, "round_s": dt[0],
                           "buffer_full_size_bytes": fill,
                           "truth_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
                           "truth_ceilings": ceilings(truth), "status": doc["status"]}  # fmt: skip
    if step is None:
        return row
    k = next(i for i, t in enumerate(s.times_s) if t >= step.time_s)
    after = statistics.median(s.iops[k + 1 : k + 4])
    row["step"] = {**step.to_dict(), "interval": k, "level_after_next3": after,
                   "fill_from_median_level": buffer_fill_bytes(step.iops_before, after, fill),
                   "fill_from_first_level": buffer_fill_bytes(s.iops[0], after, fill),
                   "excess_bytes": excess_bytes(s, k, after, bs)}  # fmt: skip
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
