"""Task 1 of the cliffplateau brief (bench/results/cliffplateau/DIAGNOSIS.md): on the seen cases
stored by bench/results/cliffplateau/stored.py, each side's mixed series from purged under QD8
70% reads: the truth's as ``cliffplan_eval.truth_cliff`` runs it (bench/cliff_bench.py's
``_seconds``, 60 intervals) and the twin's as its prediction runs it (the first series
``cliff.read_slot_series`` makes in ``cliff_prediction.predict``, ``PROBES_IN_PREDICTION`` on) with
``cliff_fastest.LIFT_TO_FASTEST`` off and on; each interval's end (s), IOPS, write IOPS and host
bytes written by its end (GB, full size), and the cliff ``find_cliff`` reads.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffplateau/series.py \
        9681:0.01 9688:0.01 9682:0.01 > bench/results/cliffplateau/series.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cliff_bench import MIX, _seconds
from cliffplan_eval import single_cases, written_truth
from diagnose import stored
from forms import remade
from overprov.calibrate import cliff


def table(s: cliff.Series) -> dict[str, Any]:
    dt, acc, rows = s.times_s[0], 0.0, []
    for t, x, w in zip(s.times_s, s.iops, s.write_iops, strict=True):
        acc += w * dt * 4096
        rows.append([round(t), round(x), round(w), round(acc / 1e9, 2)])
    c = cliff.find_cliff(s)
    return {"cliff": c.to_dict() if c else None, "end_s_iops_write_iops_gb": rows}


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    truth, scale, _ = written_truth(seed, share, work)
    t = _seconds(truth, float(scale), MIX["qd"], MIX["read_percent"], "none")
    s = cliff.simulate_series(
        truth, float(scale), **MIX, seconds=t, interval_s=t / 60, precondition="none"
    )
    doc, drive, tw_scale = stored(seed, share)
    got: list[cliff.Series] = []
    plain = cliff.read_slot_series

    def spy(d: dict[str, Any], sc: float, **kw: Any) -> cliff.Series:
        out = plain(d, sc, **kw)
        got.append(out)
        return out

    row: dict[str, Any] = {"case": f"{seed} at {100 * share:g}%", "truth": table(s)}
    cliff.read_slot_series = spy
    try:
        for arm, on in (("twin_off", False), ("twin_on", True)):
            got.clear()
            p = remade(doc, drive, tw_scale, on)
            row[arm] = {"chosen_fit": p["chosen_fit"], **(table(got[0]) if got else {})}
    finally:
        cliff.read_slot_series = plain
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
