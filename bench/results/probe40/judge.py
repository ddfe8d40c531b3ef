"""The verdict of bench/results/probe40/RULE.md from its runs (runs.sh): every figure the rule
names, per run and arm, and each condition's outcome.

    PYTHONPATH=python python bench/results/probe40/judge.py > bench/results/probe40/judged.txt
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, "bench")
import flag_rule  # noqa: E402

HERE = Path("bench/results/probe40")
DRIVES = ("femu-54lun-62blk-thres72-3300us", "femu-58lun-66blk-thres60-3900us")
SEEDS = (31, 32, 33)
HELD_OUT = (10.0, 20.0, 30.0)
SIM = HERE / "sim.jsonl"


def truth_levels(doc: dict, qd: int) -> dict[float, dict]:
    return {float(t["extra_op_percent"]): t for t in doc["levels"] if t["queue_depth"] == qd}


def femu_row(name: str, seed: int, arm: str) -> dict | None:
    """The rule's figures of one run, None where it left no probe or no prediction."""
    folder = HERE / "femu" / f"{name}-s{seed}-{arm}"
    truth = json.loads((HERE / "femu" / f"{name}.json").read_text())
    t32, t4 = truth_levels(truth, 32), truth_levels(truth, 4)
    try:
        m = json.loads((folder / "measurement.json").read_text())
        pred = json.loads((folder / "prediction.json").read_text())
    except (OSError, ValueError):
        return None
    probes = [lv for lv in m["levels"] if lv.get("queue_depth") == 4]
    if not probes or probes[-1].get("waf") is None:
        return None
    p = probes[-1]
    plv = {float(x["extra_op_percent"]): x for x in pred.get("levels", [])}
    if not set(HELD_OUT) <= set(plv):
        return None
    waf_e = [abs(plv[x]["waf"] / t32[x]["steady_waf"] - 1) for x in HELD_OUT]
    iops_e = [abs(plv[x]["steady_iops"] / t32[x]["steady_iops"] - 1) for x in HELD_OUT]
    return {
        "run": f"{name} s{seed}", "arm": arm,
        "probe_waf": p["waf"], "probe_iops": p["steady_iops"],
        "probe_drive_writes": p["drive_writes"], "probe_window_rounds": p["window_rounds"],
        "truth_waf32": t32[40.0]["steady_waf"], "truth_waf4": t4[40.0]["steady_waf"],
        "truth_iops4": t4[40.0]["steady_iops"],
        "eW": p["waf"] / t32[40.0]["steady_waf"] - 1,
        "eI": p["steady_iops"] / t4[40.0]["steady_iops"] - 1,
        "held_waf_worst": max(waf_e), "held_iops_median": statistics.median(iops_e),
        "measured_drive_writes": m.get("drive_writes"),
    }  # fmt: skip


def main() -> int:
    rows: dict[tuple[str, str], dict | None] = {}
    for name in DRIVES:
        if not (HERE / "femu" / f"{name}.json").exists():
            print(f"{name}: no truth")
            continue
        t = json.loads((HERE / "femu" / f"{name}.json").read_text())
        t32, t4 = truth_levels(t, 32), truth_levels(t, 4)
        print(f"truth {name}: 40% QD32 WAF {t32[40.0]['steady_waf']:.3f} IOPS "
              f"{t32[40.0]['steady_iops']:.0f}; QD4 WAF {t4[40.0]['steady_waf']:.3f} IOPS "
              f"{t4[40.0]['steady_iops']:.0f}")  # fmt: skip
        for seed in SEEDS:
            for arm in ("off", "on"):
                rows[(f"{name} s{seed}", arm)] = femu_row(name, seed, arm)
    print("run | arm | probe WAF (eW) | probe IOPS (eI) | probe dw, rounds | held-out WAF worst,"
          " IOPS median | measured dw")  # fmt: skip
    for (run, arm), r in rows.items():
        if r is None:
            print(f"{run} | {arm} | FAILED (no probe or prediction)")
            continue
        print(f"{run} | {arm} | {r['probe_waf']:.3f} ({100 * r['eW']:+.1f}%) | "
              f"{r['probe_iops']:.0f} ({100 * r['eI']:+.1f}%) | {r['probe_drive_writes']:.3f}, "
              f"{r['probe_window_rounds']} | {100 * r['held_waf_worst']:.1f}%, "
              f"{100 * r['held_iops_median']:.1f}% | {r['measured_drive_writes']:.2f}")  # fmt: skip
    runs = sorted({run for run, _ in rows})
    ok = bool(runs) and all(rows[(run, a)] is not None for run in runs for a in ("off", "on"))
    verdict = {}
    if ok:
        off = [rows[(run, "off")] for run in runs]
        on = [rows[(run, "on")] for run in runs]

        def med(rs: list, k: str) -> float:
            return statistics.median(abs(r[k]) for r in rs)

        def worst(rs: list, k: str) -> float:
            return max(abs(r[k]) for r in rs)

        c1 = med(on, "eW") <= 2 / 3 * med(off, "eW") and worst(on, "eW") <= worst(off, "eW")
        verdict["1 probe WAF"] = (c1, f"median |eW| off {100 * med(off, 'eW'):.1f}% on "
                                  f"{100 * med(on, 'eW'):.1f}%; worst off "
                                  f"{100 * worst(off, 'eW'):.1f}% on "
                                  f"{100 * worst(on, 'eW'):.1f}%")  # fmt: skip
        c2 = med(on, "eI") <= med(off, "eI") + 0.01
        verdict["2 probe IOPS"] = (c2, f"median |eI| off {100 * med(off, 'eI'):.1f}% on "
                                   f"{100 * med(on, 'eI'):.1f}%")  # fmt: skip
        parts, c3 = [], True
        for k in ("held_waf_worst", "held_iops_median"):
            d_med = med(on, k) - med(off, k)
            d_run = max(a[k] - b[k] for a, b in zip(on, off, strict=True))
            c3 = c3 and d_med <= 0.01 and d_run <= 0.05
            parts.append(f"{k}: median off {100 * med(off, k):.1f}% on {100 * med(on, k):.1f}%, "
                         f"largest rise {100 * d_run:+.1f} points")  # fmt: skip
        verdict["3 no harm FEMU"] = (c3, "; ".join(parts))
    else:
        verdict["1-3 FEMU"] = (False, "a run failed or is missing")
    verdict["4 no harm sim"] = flag_rule.sim_no_harm(SIM, "whole_cycles")
    flag_rule.print_verdict(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
