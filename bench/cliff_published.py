"""The published consumer write cliff against a drive file, with each program granularity.

A 1 TB consumer SATA drive under a QD8 70:30 4 KiB random mix is reported to lose about 10,000
IOPS at its write cliff after about 2 minutes (docs/calibrate-cliff.md, "The consumer preset and the
published consumer figure"). This runs the drive file under that mix with
``cliff.simulate_series`` exactly as the table there was made (1/64 scale, 100 intervals;
filled: 600 s, ``find_cliff(min_drop=0.05)``; purged: 1,800 s, the default 10%), once per
``timing.nand.program_granularity`` ("unit": die time per 4 KiB unit; "page": whole-page
programs, reads waiting for them, docs/simulator.md), and prints each cliff against the
published figures (bench/corpus/cliff-published.toml). Nothing is fitted.

    PYTHONPATH=python python bench/cliff_published.py [--drive FILE] [--states filled,purged]
        [--granularities unit,page] [--tlc-program-us 700,1000,1388] [--out FILE]

``--tlc-program-us``: what-ifs, the drive's TLC program time (µs per flash page) set to each
value in turn (docs/calibrate-cliff.md, "Why the −46%"); without it, the drive file's own.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tomllib
from pathlib import Path

from overprov import presets
from overprov.calibrate import cliff

ROOT = Path(__file__).resolve().parent.parent
#: the published cliff figures, with where each was read
CORPUS = ROOT / "bench/corpus/cliff-published.toml"


def published(path: Path = CORPUS) -> dict[str, float]:
    """The seed's figure (the corpus's figures this script predicts): time to the cliff, IOPS
    lost."""
    figs = [
        f
        for f in tomllib.loads(path.read_text())["figure"]
        if f["relation"] == "the figure bench/cliff_published.py predicts"
    ]
    value = {f["figure"]: f["value"] for f in figs}
    return {
        "time_s": value["time to the write cliff"],
        "lost_iops": value["IOPS lost at the write cliff"],
    }


PUBLISHED = published()
SCALE = 1 / 64
#: state → (precondition, seconds, find_cliff's min_drop)
STATES = {"filled": ("sequential", 600.0, 0.05), "purged": ("none", 1800.0, 0.1)}


def with_granularity(drive: dict, granularity: str) -> dict:
    d = copy.deepcopy(drive)
    d["config"]["timing"].setdefault("nand", {})["program_granularity"] = granularity
    return d


def run_case(drive: dict, state: str) -> dict:
    precondition, seconds, min_drop = STATES[state]
    s = cliff.simulate_series(
        drive, SCALE, qd=8, read_percent=70, seconds=seconds, interval_s=seconds / 100,
        precondition=precondition,
    )  # fmt: skip
    c = cliff.find_cliff(s, min_drop=min_drop)
    row: dict = {"state": state, "cliff": c.to_dict() if c else None}
    if c:
        row["time_error"] = c.time_s / PUBLISHED["time_s"] - 1
        row["lost_error"] = c.lost_iops / PUBLISHED["lost_iops"] - 1
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drive", default=str(ROOT / "docs/drives/consumer-1tb-sata-turbowrite.toml"))
    ap.add_argument("--states", default="filled,purged")
    ap.add_argument("--granularities", default="unit,page")
    ap.add_argument("--tlc-program-us", default="", help="what-if TLC program times, µs")
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    base = presets.get(a.drive)
    tlcs = [float(x) for x in a.tlc_program_us.split(",") if x] or [None]
    rows = []
    for g, tlc, state in (
        (g, t, st) for g in a.granularities.split(",") for t in tlcs for st in a.states.split(",")
    ):
        drive = with_granularity(base, g)
        if tlc is not None:
            drive["config"]["timing"]["nand"]["program_us"] = tlc
        row = {"granularity": g, "tlc_program_us": tlc, **run_case(drive, state)}
        rows.append(row)
        c = row["cliff"]
        label = f"{g:5} {'' if tlc is None else f'TLC {tlc:g} us '}{state:7}"
        if c is None:
            print(f"{label} no cliff", flush=True)
            continue
        print(
            f"{label} cliff at {c['time_s']:.0f} s "
            f"({c['host_write_bytes_before'] / 1e9:.1f} GB) "
            f"{c['iops_before']:,.0f} -> {c['iops_after']:,.0f} (lost {c['lost_iops']:,.0f}) "
            f"time error {row['time_error']:+.0%} lost error {row['lost_error']:+.0%}",
            flush=True,
        )
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
