"""Task 1 of the cliffsmall brief (bench/results/cliffsmall/DIAGNOSIS.md): on seen 1% drives
whose IOPS lost was predicted too small, where each side's level past the cliff is read.

For each case the truth is drawn and calibrated as ``bench/cliffplan_eval.py
--probes-in-prediction`` does (``written_truth``, ``calibrate``), then:

- the truth's series as the rule judges it (``truth_cliff``'s: the core's closed loop, its
  length from bench/cliff_bench.py's ``_seconds``), its cliff, the series' end, and the level
  past the cliff read over the first and second half of the intervals after it;
- the twin's prediction from purged made again in this process (``cliff_prediction.predict``,
  ``PROBES_IN_PREDICTION`` on) with its series' length as now (``cliff_span.SPAN_FROM_MIX``
  off) and from the mix as predicted (on): each series captured (``cliff.read_slot_series``'s
  first run of the prediction), the same figures;
- the truth's level after read over the intervals up to the twin's end in proportion to its
  own cliff (end ÷ cliff time as the twin's, flag off): how much the window alone moves it;
- the form with the series' intervals kept as long as before (``INTERVALS_IN_PROPORTION``
  off: more of them) rather than lengthened with it.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffsmall/diagnose.py \
        269:0.01 252:0.01 9605:0.01 > bench/results/cliffsmall/diagnose.json
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

from cliff_bench import MIX, _seconds
from cliffplan_eval import calibrated_again, single_cases, written_truth
from cpu_clock import cpu_s
from overprov.calibrate import cliff, cliff_prediction, cliff_span
from overprov.calibrate.cliff_series import find_cliff


def profile(s: cliff.Series, end_share: float | None = None) -> dict[str, Any]:
    """``s``'s cliff (``find_cliff``), its end, and the level past the cliff: the median of
    every interval after it (the rule's level after), of their first and second half; with
    ``end_share``, ``s`` cut at ``end_share`` × its cliff time first."""
    if end_share is not None:
        c0 = find_cliff(s)
        if c0 is None:
            return {"cliff": None}
        n = sum(1 for t in s.times_s if t <= end_share * c0.time_s)
        s = cliff.Series(s.times_s[:n], s.iops[:n], s.write_iops[:n], s.gc_started[:n])
    c = find_cliff(s)
    if c is None:
        return {"cliff": None, "end_s": s.times_s[-1]}
    gc = s.gc_started.index(True) if any(s.gc_started) else len(s.iops)
    past = [v for t, v in zip(s.times_s[:gc], s.iops[:gc], strict=True) if t > c.time_s]
    half = len(past) // 2
    return {
        "cliff": c.to_dict(), "end_s": s.times_s[-1], "gc_start_s": s.times_s[gc - 1],
        "end_over_cliff": s.times_s[gc - 1] / c.time_s, "past_intervals": len(past),
        "level_past_first_half": statistics.median(past[:half]) if half else None,
        "level_past_second_half": statistics.median(past[half:]) if past else None,
    }  # fmt: skip


def twin_series(
    doc: dict, drive: dict, tw_scale: float, span: bool, in_proportion: bool = True
) -> dict[str, Any]:
    """The twin's prediction from purged (the flag on; ``cliff_span.SPAN_FROM_MIX`` = ``span``,
    ``INTERVALS_IN_PROPORTION`` = ``in_proportion``) and its first mixed series' profile."""
    got: list[cliff.Series] = []
    plain = cliff.read_slot_series

    def spy(d: dict[str, Any], scale: float, **kw: Any) -> cliff.Series:
        s = plain(d, scale, **kw)
        if kw["seconds"] != cliff_span.PROBE_S / scale:  # not the span's probe
            got.append(s)
        return s

    flags = (
        cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX,
        cliff_span.INTERVALS_IN_PROPORTION,
    )  # fmt: skip
    (
        cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX,
        cliff_span.INTERVALS_IN_PROPORTION,
    ) = (True, span, in_proportion)  # fmt: skip
    cliff.read_slot_series = spy
    t0 = cpu_s()
    try:
        pred = cliff_prediction.predict(doc, drive, tw_scale)
    finally:
        cliff.read_slot_series = plain
        (
            cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX,
            cliff_span.INTERVALS_IN_PROPORTION,
        ) = flags  # fmt: skip
    return {
        "purged": pred.get("purged"), "cpu_s": round(cpu_s() - t0, 1),
        "series": profile(got[0]) if got else None,
    }  # fmt: skip


def case(seed: int, share: float, work: Path) -> dict:
    truth, scale, _ = written_truth(seed, share, work)
    doc, drive, tw_scale, _ = calibrated_again(seed, share, work)
    t = _seconds(truth, float(scale), MIX["qd"], MIX["read_percent"], "none")
    s = cliff.simulate_series(
        truth, float(scale), **MIX, seconds=t, interval_s=t / 60, precondition="none"
    )
    now = twin_series(doc, drive, tw_scale, span=False)
    row = {
        "case": f"{seed} at {100 * share:g}%",
        "truth": profile(s),
        "twin_now": now,
        "twin_span_from_mix": twin_series(doc, drive, tw_scale, span=True),
        "twin_span_same_intervals": twin_series(doc, drive, tw_scale, True, False),
    }
    if now["series"] and now["series"].get("cliff"):
        row["truth_cut_at_twin_end"] = profile(s, now["series"]["end_over_cliff"])
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
