"""The onset of garbage collection from empty on the MQSim drives results files describe.

    python bench/foreign/mqsim_onset.py --binary PATH/MQSim --work DIR RESULTS.json ... \
        [--resolution 512] [--out FILE]

For each results file written by ``mqsim.py`` (its ``config.geometry`` and GC threshold), MQSim
is run as that file's 0% level at QD32 (the plan's lowest level: uniform random 4 KiB writes
over the whole user space, ``mqsim.py``'s seeds, from an empty drive) for n host writes, and n
is bisected to the first count at which MQSim reports a garbage collection started
(``Total_GC_Executions`` above 0). MQSim reports totals only at the end of a run and is
deterministic for a seed, and a closed-loop run of n writes is the first n writes of a longer
one, so "GC has started by the n-th write" is monotone in n; the bisection stops when the
bracket is at most the user capacity ÷ ``--resolution``, and the onset is its middle. The figure
is those host writes ÷ the user capacity (MQSim's logical pages), the spare factor every
reading of the spare predicts (``calibrate/gc_reserve.py``, ``onset_spare_factor``), as
``femu_onset.py`` writes it for FEMU; ``gc_reserve_bench.py --onsets`` reads either.

What it dates on MQSim: a plane checks for GC only when one of its write frontiers takes a new
block (``Flash_Block_Manager.cpp``, ``Allocate_block_and_page_in_plane_for_user_write``) and
starts a collection while its free pool is below ``GC_Exec_Threshold`` of its blocks
(``GC_and_WL_Unit_Page_Level::Check_gc_required``), so from empty the first collection starts
when the first plane's pool falls below that threshold: the reserve the collector holds while
its checks are all served (docs/calibrate-validation.md, "MQSim's WAF at 10% extra OP").
The first collection's relocations follow it at once (its victim holds valid pages).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mqsim  # noqa: E402

ONSET_QD = 32
RESOLUTION = 512  # the bracket ends at user capacity / RESOLUTION host writes


def gc_threshold_of(doc: dict) -> float:
    """The GC_Exec_Threshold the results file was run with (its ``config.gc`` text)."""
    text = doc["config"]["gc"]
    marker = "GC_Exec_Threshold "
    if marker not in text:
        raise ValueError("results file does not state its GC_Exec_Threshold")
    return float(text.split(marker, 1)[1].split()[0])


def cpu_seconds() -> float:
    t = os.times()
    return t.children_user + t.children_system


def onset(binary: Path, work: Path, doc: dict, resolution: int = RESOLUTION) -> dict:
    """Bisect the host writes at which the drive of ``doc`` starts its first collection."""
    mqsim.GEOMETRY.update(doc["config"]["geometry"])
    mqsim.NATIVE_OP_RATIO = doc["config"]["Overprovisioning_Ratio"]
    threshold = gc_threshold_of(doc)
    user = mqsim.logical_pages()
    if user * mqsim.GEOMETRY["Page_Capacity"] != doc["advertised_bytes"]:
        raise ValueError("the results file's geometry does not give its advertised_bytes")
    runs: list[dict] = []
    cpu0 = cpu_seconds()

    def started(n: int) -> bool:
        r = mqsim.run(binary, work, f"onset-{n}", 0, ONSET_QD, n, threshold)
        runs.append({"host_writes": n, "gc_runs": r["gc_runs"], "nand_pages": r["nand_pages"]})
        return r["gc_runs"] > 0

    lo, hi = int(0.5 * user), mqsim.physical_pages()
    if started(lo) or not started(hi):
        raise RuntimeError("GC already at half the user capacity, or not by the NAND's pages")
    step = max(1, user // resolution)
    while hi - lo > step:
        mid = (lo + hi) // 2
        if started(mid):
            hi = mid
        else:
            lo = mid
    return {
        "onset_spare_factor": (lo + hi) / 2 / user,
        "resolution": (hi - lo) / user,
        "host_writes_bracket": [lo, hi],
        "user_pages": user,
        "physical_pages": mqsim.physical_pages(),
        "gc_threshold": threshold,
        "queue_depth": ONSET_QD,
        "runs": runs,
        "cpu_s": round(cpu_seconds() - cpu0, 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path, nargs="+", help="mqsim.py results files")
    ap.add_argument("--binary", type=Path, required=True, help="the MQSim binary")
    ap.add_argument("--work", type=Path, required=True, help="a folder for MQSim's files")
    ap.add_argument("--resolution", type=int, default=RESOLUTION)
    ap.add_argument("--out", type=Path, default=None, help="JSON output (default: stdout)")
    args = ap.parse_args(argv)
    rows = []
    root = Path(__file__).resolve().parents[2]
    for path in args.results:
        doc = json.loads(path.read_text())
        resolved = path.resolve()
        name = str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(path)
        g = doc["config"]["geometry"]
        drive = (
            f"MQSim, {g['Chip_No_Per_Channel']} chip(s) x {g['Plane_No_Per_Die']} planes x "
            f"{g['Block_No_Per_Plane']} blocks x {g['Page_No_Per_Block']} pages"
        )
        row = {"file": name, "drive": drive, "commit": doc.get("commit"), "patch": doc.get("patch")}
        row |= onset(args.binary, args.work / path.stem, doc, args.resolution)
        rows.append(row)
        print(f"{name}: onset {row['onset_spare_factor']:.4f} ({row['cpu_s']} CPU s)")
    text = json.dumps(rows, indent=1) + "\n"
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
