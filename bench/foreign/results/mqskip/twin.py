"""The twin of MQSim at QD32 with both timing options of mqmid (``relocations_at_trigger``,
``collections_first``), without and with ``ftl.gc_skip_full_victim`` (a check whose victim has
no invalid page starts no collection, as MQSim's RGA), on one drive: IOPS, WAF, time per NAND
page and the line errors at 0–40%, as ``mqsim_pairing.twin`` writes them.

    PYTHONPATH=python python bench/foreign/results/mqskip/twin.py --drive 512x32 \\
        --out bench/foreign/results/mqskip/twin-u512x32.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

POOLS = "two planes, one offset, plane pools"
#: mqmid's "on": both timing options (bench/foreign/results/mqmid/RULE.md).
BOTH = f"{POOLS}, relocations at trigger, collections first"
SKIP = f"{BOTH}, full victims skipped"


def case(blocks: int, pages: int, skip: bool) -> dict:
    """One case's curve at QD32: the twin config of ``mqsim_pairing.twin_config`` with per-plane
    pools and both options, ``ftl.gc_skip_full_victim`` set when ``skip``."""
    from overprov import engine

    pts = []
    for x in m.LEVELS:
        cfg = m.twin_config(blocks, pages, x, 32, 2, -1, "victim", False, True, True, True)
        if skip:
            cfg = engine.merge(cfg, {"ftl": {"gc_skip_full_victim": True}})
        r = engine.run(cfg)
        pts.append((r["timed"]["measured"]["iops"], r["measured"]["waf"]))
    return {
        "iops": [p[0] for p in pts],
        "waf": [p[1] for p in pts],
        "page_time_us": [1e6 / (i * w) for i, w in pts],
        "line_iops_error": m.line_errors(pts),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drive", required=True, help="BLOCKSxPAGES")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    blocks, pages = (int(v) for v in args.drive.split("x"))
    cpu0 = cpu_s()
    cases = {f"{name}, QD32": case(blocks, pages, skip) for name, skip in ((BOTH, False),
                                                                         (SKIP, True))}  # fmt: skip
    command = f"python bench/foreign/results/mqskip/twin.py --drive {args.drive}"
    doc = {"blocks_per_plane": blocks, "pages_per_block": pages, "levels": list(m.LEVELS),
           "cases": cases, "cpu_s": round(cpu_s() - cpu0, 1), "command": command}  # fmt: skip
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(m.twin_table(doc), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
