"""Task 1 (a) of the cliffseries brief (bench/results/cliffseries/DIAGNOSIS.md): on the seen cases
declined for "no step in the series within 0.5 drive writes" (cliffpast's 268 at 3%, 272 at 1%
and 3%), the truth's own QD32 4 KiB random write series from purged (the core's closed loop,
``cliff.simulate_series``; what calibrate's cliff step measures through the Target protocol, in
60 intervals over three times the truth's cache at the estimated rate instead of its rounds;
calibrate's own series ran on to 0.5 drive writes without a step): the median IOPS over the host
bytes before 90% of the truth's cache and past 110% of it, the step between them, and whether
``cliff_series.find_step`` finds a step at 10% or 5%; and the same truth with its host link and
controller ceiling lifted out of the way (link 50,000 MB/s, controller times ÷ 100), to show
what caps it. Beside them the truth's ceilings from its drive file (commands a second: the
link's 4 KiB transfers, the controller's contexts ÷ its per-command time; the dies' 4 KiB
programs a second in SLC mode and in TLC mode, a third of a flash page per SLC page as the core
counts it, crates/overprov-sim/src/timing/slc.rs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffseries/truth_series.py \
        268:0.03 272:0.01 272:0.03 > bench/results/cliffseries/truth_series.json
"""

from __future__ import annotations

import copy
import statistics
import sys
from pathlib import Path
from typing import Any

from cliffplan_eval import single_cases, written_truth
from overprov.calibrate import cliff
from overprov.calibrate.cliff_series import find_step

INTERVALS = 60
CACHES = 3.0


def ceilings(d: dict[str, Any]) -> dict[str, float]:
    """The truth's rates in 4 KiB commands a second (full size: none of them scales)."""
    tm = d["config"]["timing"]
    n, c, h, s = tm["nand"], tm["controller"], tm["host"], tm["slc"]
    dies = n["channels"] * n["dies_per_channel"]
    upp = n["flash_page_bytes"] // 4096
    per_cmd = c["command_us"] + c["data_us_per_4kib"] + c["map_update_us"]
    return {
        "link": h["link_mb_s"] * 1e6 / 4096,
        "controller": c["contexts"] * 1e6 / per_cmd,
        "dies_slc": dies * max(1.0, upp / 3) / (s["program_us"] * 1e-6),
        "dies_tlc": dies * upp / (n["program_us"] * 1e-6),
        "dies": dies,
    }


def levels(d: dict[str, Any], scale: float, rate: float) -> dict[str, Any]:
    cache = d["config"]["timing"]["slc"]["max_bytes"]
    seconds = CACHES * cache / 4096 / rate
    s = cliff.simulate_series(d, scale, qd=32, seconds=seconds, interval_s=seconds / INTERVALS,
                              precondition="none")  # fmt: skip
    dt = s.times_s[0]
    written = [sum(s.iops[: i + 1]) * dt * 4096 for i in range(len(s.iops))]
    end = s.gc_started.index(True) if any(s.gc_started) else len(s.iops)
    before = [x for x, w in zip(s.iops[1:end], written[1:end], strict=True) if w < 0.9 * cache]
    after = [x for x, w in zip(s.iops[:end], written[:end], strict=True) if w > 1.1 * cache]
    b = statistics.median(before) if before else None
    a = statistics.median(after) if after else None
    steps = {str(m): find_step(s, 4096, m)[0] for m in (0.1, 0.05)}
    return {
        "seconds": seconds, "intervals_before_gc": end,
        "host_bytes_written": written[end - 1] if end else 0.0,
        "iops_before_cache_end": b, "iops_past_cache_end": a,
        "step": None if a is None or b is None else 1 - a / b,
        "find_step": {k: v.to_dict() if v else None for k, v in steps.items()},
    }  # fmt: skip


def lifted(d: dict[str, Any]) -> dict[str, Any]:
    e = copy.deepcopy(d)
    tm = e["config"]["timing"]
    tm["host"]["link_mb_s"] = 50_000.0
    for k in ("command_us", "data_us_per_4kib", "map_update_us"):
        tm["controller"][k] = tm["controller"][k] / 100
    return e


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    truth, scale, _ = written_truth(seed, share, work)
    ceil = ceilings(truth)
    rate = min(ceil["link"], ceil["controller"], ceil["dies_slc"], ceil["dies_tlc"])
    return {
        "case": f"{seed} at {100 * share:g}%", "scale": scale, "ceilings": ceil,
        "cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "truth": levels(truth, float(scale), rate),
        "truth_link_controller_lifted": levels(
            lifted(truth), float(scale), min(ceil["dies_slc"], ceil["dies_tlc"])),
    }  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
