"""runs.json (run.py, the last span write of each run traced) as a table.

python bench/foreign/results/mqstatic/table.py runs.json > runs.md
"""

import json
import sys
from pathlib import Path


def main(path: str) -> str:
    runs = json.loads(Path(path).read_text())["runs"]
    out = ["| drive | level | what-if | seed | programs / reads / erases paired | µs a NAND page | "
           "IOPS, WAF | programs gc+gc / gc+host / gc alone | both collecting | lone "
           "relocation: other plane's host writes queued (mean) | starts: other pool − "
           "threshold | checks below threshold: started / at 10 in flight / RGA pick without "
           "invalid page (redrawn) | static WL moves | barrier-parked writes | postponed |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in sorted(runs, key=lambda r: (r["drive"], r["level"], r["whatif"], r["seed"])):
        if "error" in r:
            out.append(f"| {r['drive']} | {r['level']}% | {r['whatif']} | {r['seed']} | failed |")
            continue
        c, p, g, lone = r["counters"], r["paired"], r["programs"], r["lone_relocations"]
        if r.get("window_host_writes"):
            a, b = r["window_host_writes"]
            r = r | {"whatif": f"{r['whatif']}, host writes {a}–{b}"}
        empty = c["check_abort_free_block"] + c["check_abort_no_invalid"]
        out.append(
            f"| {r['drive']} | {r['level']}% | {r['whatif']} | {r['seed']} | "
            f"{p['p']:.3f} / {p['r']:.2f} / {p['e']:.2f} | {r['us_per_nand_page']:.1f} | "
            f"{r['iops']:.0f}, {r['waf']:.2f} | {g['gc+gc']:.2f} / {g['gc+host']:.2f} / "
            f"{g['gc alone']:.2f} | {r['time_share']['both_collecting']:.2f} | "
            f"{lone['other_plane_host_writes_queued']:.2f} "
            f"({lone['other_plane_host_writes_queued_mean']:.1f}) | "
            f"{r['starts']['other_free_minus_threshold_mean']:+.1f} | {c['gc_started']} / "
            f"{c['check_at_max_ongoing']} / {empty} ({c['rga_resampled']}) | "
            f"{c['swl_started']} | {c['barrier_parked']} | {c['check_postponed']} |"
        )
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(main(sys.argv[1]), end="")
