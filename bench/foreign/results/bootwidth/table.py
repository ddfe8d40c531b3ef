"""DIAGNOSIS.md's table: per family and figure kind, medians over the 72 plan cases' unfitted
figures of what diagnose.py wrote (rows.json). No calibrate run; ≈ 0 CPU s.

    PYTHONPATH=python python bench/foreign/results/bootwidth/table.py \
        > bench/foreign/results/bootwidth/table.md
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
WELL = ("DiskSim", "EagleTree", "FlashSim", "SSDsim", "SimpleSSD", "NVMeVirt", "WiscSim")
ORDER = (*WELL, "FEMU", "MQSim", "seven well-predicted", "all")


def load_rows() -> list[dict]:
    return json.loads((HERE / "rows.json").read_text())["rows"]


def grouped(rows: list[dict]) -> dict[tuple[str, str], list[dict]]:
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        for g in (r["family"], "seven well-predicted" if r["family"] in WELL else None, "all"):
            if g is not None:
                out[(g, r["figure"])].append(r)
    return out


def main() -> int:
    med = statistics.median
    print("| group | kind | rows | inside | abs log error | stored | boot typed | boot measured "
          "| boot own | model term | R | truth SE at typed levels | lag-1 | inside boot typed "
          "alone | inside model term alone | needed scale (typed; measured) |")  # fmt: skip
    print("|---" * 16 + "|")
    groups = grouped(load_rows())
    for g in ORDER:
        for kind in ("iops", "waf"):
            rs = groups[(g, kind)]

            def pct(key: str, rs: list[dict] = rs) -> str:
                return f"{100 * med(r[key] for r in rs):.2f}"

            alone_boot = sum(abs(r["log_error"]) <= r["boot_typed"] for r in rs)
            alone_model = sum(abs(r["log_error"]) <= r["model_log_half"] for r in rs)
            print(f"| {g} | {kind} | {len(rs)} | {sum(r['inside'] for r in rs)} | "
                  f"{100 * med(abs(r['log_error']) for r in rs):.2f} | {pct('stored_half')} | "
                  f"{pct('boot_typed')} | {pct('boot_measured')} | {pct('boot_own')} | "
                  f"{pct('model_log_half')} | {pct('residual_sd')} | {pct('typed_se')} | "
                  f"{med(r['truth_lag1'] for r in rs):+.2f} | {alone_boot} | {alone_model} | "
                  f"{med(r['need_typed'] for r in rs):.3f}; "
                  f"{med(r['need_measured'] for r in rs):.3f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
