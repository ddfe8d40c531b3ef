"""Task 1 of the cliffdecline brief (bench/results/cliffdecline/DIAGNOSIS.md): each seen
no-step case's truth's write rates from its configuration (no simulation): the host link's
MB/s, the controller's 4 KiB ceiling (its contexts ÷ its command, data and map times per
4 KiB command), the dies' TLC rate (dies × page ÷ program time) and SLC rate (a third of the
page per SLC program, as the core programs it), beside the step's measured 4 KiB level
(bench/results/cliffdecline/stored/SEED-SHARE/cliff.json).

    PYTHONPATH=python:bench python bench/results/cliffdecline/ceilings.py \
        9724:0.01 9728:0.01 9730:0.01 9724:0.03 9685:0.01 > bench/results/cliffdecline/ceilings.json
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

from cliffplan_eval import written_truth

HERE = Path(__file__).resolve().parent


def rates(seed: int, share: float, work: Path) -> dict:
    truth, _, _ = written_truth(seed, share, work)
    t = truth["config"]["timing"]
    nand, ctl = t["nand"], t["controller"]
    dies = nand["channels"] * nand["dies_per_channel"]
    per_cmd_us = ctl["command_us"] + ctl["data_us_per_4kib"] + ctl["map_update_us"]
    doc = json.loads((HERE / "stored" / f"{seed}-{share:g}" / "cliff.json").read_text())
    measured = statistics.median(r["iops"] for r in doc["rounds"]) * 4096 / 1e6
    row = {
        "case": f"{seed} at {100 * share:g}%",
        "cache_bytes": t["slc"]["max_bytes"],
        "link_mb_s": t["host"]["link_mb_s"],
        "controller_4k_mb_s": ctl["contexts"] / per_cmd_us * 1e6 * 4096 / 1e6,
        "tlc_mb_s": dies * nand["flash_page_bytes"] / nand["program_us"],
        "slc_mb_s": dies * nand["flash_page_bytes"] / 3 / t["slc"]["program_us"],
        "measured_4k_mb_s": measured,
    }
    cap = min(row["link_mb_s"], row["controller_4k_mb_s"])
    row["cap"] = "link" if row["link_mb_s"] <= row["controller_4k_mb_s"] else "controller"
    row["cap_under_tlc"] = cap < row["tlc_mb_s"]
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in row.items()}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        cases = [c.split(":") for c in sys.argv[1:]]
        rows = [rates(int(s), float(f), Path(tmp)) for s, f in cases]
    print(json.dumps({"rows": rows}, indent=1))
