"""The core's IOPS with the per-write GC trigger on SSDsim drives' geometry and NAND times.

    PYTHONPATH=python python bench/foreign/results/pwtiming/ssdsim_iops.py [--drives j,k,h,i]

A diagnosis (no rule, nothing adopted): for each stored SSDsim level (QD 32; QD 4 too where
stored) under zones 0.9/0.1 and uniform writes (bench/foreign/results/zonescatter/ for j and k,
bench/foreign/results/skewftl/ for h and i: seen truths), the core on that drive's geometry and
NAND times, `ftl.gc_trigger` batched and per-write, `timing.gc.blocking` none and domain, its
measured IOPS and WAF beside SSDsim's. Writes ssdsim_iops.json and .md beside this file.

The twin of an SSDsim drive (bench/foreign/README.md, "SSDsim: how it was built and run"):
SSDsim runs no advanced commands, so a chip serves one operation at a time: one core die per
SSDsim chip (`channels` x `chips_per_channel`), one plane; 4 KiB flash pages; its program,
read and erase times; its channel's 25 ns a byte (40 MB/s: a page's transfer is 102.4 us); an
erase block of its 64 pages (one victim's erase costs a chip tBERS); no write buffer, no host
link or command overhead (SSDsim models neither); a closed loop at the level's queue depth.
FTL: SSDsim's blocks and user space, greedy, GC into the host's frontier, `gc_free_blocks` its
`gc hard threshold` of the blocks (rounded); a sequential fill, 8 drive writes of warm-up, 8
measured, seed 3303. With blocking, one GC domain per die (SSDsim's uninterruptible collection
holds its chip), and on drives with more chips than channels also one per channel (it holds
the channel for its moves, so the channel's other chips receive no data meanwhile).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from overprov import engine

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS.parents[1]))
sys.path.insert(0, str(RESULTS / "gctrigger"))
from cpu_clock import cpu_s  # noqa: E402  (bench/)
from per_write_check import WORKLOADS  # noqa: E402  (its six cases' workloads)

STORED = {"j": "zonescatter", "k": "zonescatter", "h": "skewftl", "i": "skewftl"}
FILES = {"zones": "zones-0.9", "uniform": "uniform"}
#: (trigger, blocking): blocking none, a domain a die, or a domain a channel (drives with more
#: chips than channels only)
VARIANTS = (("batched", "none"), ("per-write", "none"), ("batched", "die"),
            ("per-write", "die"), ("batched", "channel"), ("per-write", "channel"))  # fmt: skip
NAMES = {"none": "not blocking", "die": "a domain a die", "channel": "a domain a channel"}


def ssdsim_doc(drive: str, pattern: str) -> dict:
    path = RESULTS / STORED[drive] / f"ssdsim-{drive}-{FILES[pattern]}.json"
    return json.loads(path.read_text())


def twin(doc: dict, level: dict, pattern: str, trigger: str, blocking: str) -> dict:
    """The core's config for SSDsim drive `doc` at its `level` (module docstring)."""
    cfg = doc["config"]
    g = cfg["geometry"]
    parts = ("channels", "chips_per_channel", "dies_per_chip", "planes_per_die",
             "blocks_per_plane")  # fmt: skip
    blocks = math.prod(g[k] for k in parts)
    ns = cfg["flash_ns"]
    page = cfg["page_bytes"]
    nand = {
        "channels": g["channels"],
        "dies_per_channel": g["chips_per_channel"],
        "planes_per_die": 1,
        "flash_page_bytes": page,
        "program_us": ns["program"] / 1e3,
        "read_us": ns["read"] / 1e3,
        "erase_us": ns["erase"] / 1e3,
        "die_block_bytes": g["pages_per_block"] * page,
        "channel_mb_s": 1e3 / 25,
    }  # fmt: skip  (25 ns a byte)
    gc = {"blocking": "none" if blocking == "none" else "domain",
          "domains": g["channels"] if blocking == "channel" else 0}  # fmt: skip
    return engine.merge(engine.default_config(), {
        "geometry": {"pages_per_block": g["pages_per_block"], "physical_blocks": blocks,
                     "advertised_bytes": doc["advertised_bytes"],
                     "extra_op_percent": float(level["extra_op_percent"])},
        "ftl": {"policy": "greedy", "gc_frontier": "shared", "host_streams": "single",
                "gc_free_blocks": round(cfg["gc_hard_threshold"] * blocks),
                "gc_trigger": trigger},
        "workload": WORKLOADS[pattern],
        "precondition": {"kind": "sequential"},
        "run": {"warmup_drive_writes": 8.0, "drive_writes": 8.0, "seed": 3303},
        "timing": {"enabled": True, "nand": nand, "buffer": {"bytes": 0}, "gc": gc,
                   "host": {"queue_depth": level["queue_depth"], "command_overhead_us": 0.0,
                            "link_mb_s": 1e9}},
    })  # fmt: skip


def core_run(config: dict) -> dict:
    """Measured IOPS and WAF; with blocking domains the share of the refusing time during which
    two or more domains refused (`overlap`) and the report's `gc_blocked`."""
    start = cpu_s()
    report = engine.run(config)
    timed = report["timed"]
    row = {"iops": timed["measured"]["iops"], "waf": report["measured"]["waf"],
           "cpu_s": round(cpu_s() - start, 2)}  # fmt: skip
    if blocked := timed.get("gc_blocked"):
        k = blocked["seconds_with_k_blocked"]
        row["overlap"] = sum(k[2:]) / sum(k[1:]) if sum(k[1:]) else None
        row["gc_blocked"] = blocked
    return row


def level_row(drive: str, pattern: str, doc: dict, level: dict) -> dict:
    g = doc["config"]["geometry"]
    row = {"drive": drive, "workload": pattern, "qd": level["queue_depth"],
           "extra_op_percent": level["extra_op_percent"],
           "ssdsim_iops": level["steady_iops"], "ssdsim_waf": level["steady_waf"]}  # fmt: skip
    for trigger, blocking in VARIANTS:
        if blocking != "channel" or g["chips_per_channel"] > 1:
            row[f"{trigger}/{blocking}"] = core_run(twin(doc, level, pattern, trigger, blocking))
    return row


def table(rows: list[dict]) -> str:
    head = "| drive | workload | QD | extra OP | SSDsim IOPS (WAF) |"
    head += "".join(f" {t}, {NAMES[b]} |" for t, b in VARIANTS)
    lines = [head, "|---" * (5 + len(VARIANTS)) + "|"]
    for r in rows:
        line = (f"| {r['drive']} | {r['workload']} | {r['qd']} | {r['extra_op_percent']}% "
                f"| {r['ssdsim_iops']:,.0f} ({r['ssdsim_waf']:.3f}) |")  # fmt: skip
        for t, b in VARIANTS:
            v = r.get(f"{t}/{b}")
            if v is None:
                line += " — |"
                continue
            diff = v["iops"] / r["ssdsim_iops"] - 1
            line += f" {v['iops']:,.0f} ({diff:+.0%}; {v['waf']:.3f}) |"
        lines.append(line)
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drives", default="j,k,h,i")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args()
    rows = []
    for drive in args.drives.split(","):
        for pattern in FILES:
            doc = ssdsim_doc(drive, pattern)
            for level in doc["levels"]:
                rows.append(level_row(drive, pattern, doc, level))
                brief = {k: round(v["iops"]) for k, v in rows[-1].items() if isinstance(v, dict)}
                print(drive, pattern, level["queue_depth"], level["extra_op_percent"],
                      round(level["steady_iops"]), brief, flush=True)  # fmt: skip
    (args.out / "ssdsim_iops.json").write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    (args.out / "ssdsim_iops.md").write_text(table(rows))


if __name__ == "__main__":
    main()
