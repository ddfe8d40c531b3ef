"""What a later start of a graded level's reading over bursts would give at 40% (and at 0%), from
stored rounds only (nothing is run): bench/results/burststart/RULE.md.

    PYTHONPATH=python python bench/results/burststart/tabulate.py --half A > tabulate-A.txt
    PYTHONPATH=python python bench/results/burststart/tabulate.py --half B > tabulate-B.txt

The measurements are bench/results/probe40/diagnose.json's (every distinct stored FEMU
measurement with a probe, and the truth of its drive: ``tally.femu_truths``). **The halves**,
named before any figure was read: the truth files sorted by path, half A those at even
positions (0, 2, ...), half B those at odd ones; a measurement goes with its drive's truth.

Per measurement whose 40% level ``measure.over_bursts`` reads over its rounds from the discard
on (graded plan, onset from empty below 1), the 40% WAF figure / the truth's steady 40% WAF − 1:

* ``read``: as calibrate reads it (the level's stored WAF: every round from the discard on);
* ``late``: ``burst_start.read_later_levels`` (its first round left out);
* ``rand``: the random rounds only (after the graded rounds, which write the freed space);
* ``tail``: the last 8 rounds;
* ``drift``: from the earliest round after which the rest (at least 8 rounds) has no drift (its
  host-weighted halves' WAF within 5% of each other), else the last 8 rounds;

and the first round's host and NAND writes (drive writes) and the 40% IOPS (``read``, ``late``)
against the truth's. At 0% (the first level, reached by a fill, no discard before it): the
figure as read (through the burst cycle, ``burst_cycle.read_first_level``), its stretch read
plain, and plain less its first round.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_cycle, burst_start
from overprov.calibrate.counter_waf import stretch_wafs
from overprov.calibrate.graded_run import is_graded_round

DIAGNOSE = Path("bench/results/probe40/diagnose.json")
TAIL_ROUNDS = 8
DRIFT_TOL = 0.05


def halves(rows: list[dict]) -> dict[str, str]:
    """{truth path: "A" or "B"} (module docstring)."""
    paths = sorted({r["truth_path"] for r in rows if r["truth_path"]})
    return {p: "AB"[i % 2] for i, p in enumerate(paths)}


def waf_over(before, rounds) -> float | None:
    got = stretch_wafs(before, rounds)
    if got is None:
        return None
    return sum(w.nand_written_bytes for w in got) / sum(w.host_written_bytes for w in got)


def drift_start(before, rounds) -> int:
    """The earliest index whose rest (at least TAIL_ROUNDS rounds) has no drift, else the last
    TAIL_ROUNDS."""
    for i in range(len(rounds) - TAIL_ROUNDS + 1):
        rest = rounds[i:]
        half = len(rest) // 2
        b = before if i == 0 else rounds[i - 1]
        a, z = waf_over(b, rest[:half]), waf_over(rest[half - 1], rest[half:])
        w = waf_over(b, rest)
        if a and z and w and abs(z - a) <= DRIFT_TOL * w:
            return i
    return max(0, len(rounds) - TAIL_ROUNDS)


def truth_at(doc: dict, x: float) -> dict:
    return next(
        t for t in doc["levels"] if float(t["extra_op_percent"]) == x and t.get("queue_depth") == 32
    )


def one(case: str, truth_path: str) -> dict | None:
    m = measurement_file.load(Path(case) / measurement_file.NAME)
    later = [lv for lv in m.levels if lv.queue_depth is None and lv is not m.levels[0]]
    if not later:
        return None
    lv = later[-1]
    got = burst_start.later_stretch(m, lv)
    if got is None:
        return None  # not read over bursts (or too few rounds): the flag changes nothing
    first, rest = got
    stretch = [first, *rest]
    cap = m.capacity_bytes
    before = m.rounds[m.rounds.index(first) - 1]
    truth = json.loads(Path(truth_path).read_text())
    t40, t0 = truth_at(truth, lv.extra_op_percent), truth_at(truth, 0.0)
    tw = t40["steady_waf"]
    late_m = copy.deepcopy(m)
    burst_start.read_later_levels(late_m, on=True)
    late = next(x for x in late_m.levels if x.extra_op_percent == lv.extra_op_percent
                and x.queue_depth is None)  # fmt: skip
    rand = [r for r in stretch if not is_graded_round(r.label)]
    i = drift_start(before, stretch)
    row = {
        "case": case,
        "truth": truth_path,
        "luns": None,
        "first_host_dw": (first.host_bytes - before.host_bytes) / cap,
        "first_nand_dw": (first.nand_bytes - before.nand_bytes) / cap,
        "read": lv.waf / tw - 1,
        "late": late.waf / tw - 1,
        "rand": (waf_over(stretch[stretch.index(rand[0]) - 1], rand) or 0) / tw - 1
        if rand and stretch.index(rand[0]) > 0
        else None,
        "tail": waf_over(stretch[-TAIL_ROUNDS - 1], stretch[-TAIL_ROUNDS:]) / tw - 1,
        "drift": waf_over(before if i == 0 else stretch[i - 1], stretch[i:]) / tw - 1,
        "iops_read": lv.steady_iops / t40["steady_iops"] - 1,
        "iops_late": late.steady_iops / t40["steady_iops"] - 1,
    }
    # 0%: as read (through the cycle), plain, plain less its first round
    s0 = burst_cycle.stretch_of(m)
    if s0 is not None and m.levels[0].waf:
        plain0 = waf_over(s0[1], s0[0])
        cyc_m = copy.deepcopy(m)
        burst_cycle.read_first_level(cyc_m)
        row |= {
            "zero_read": cyc_m.levels[0].waf / t0["steady_waf"] - 1,
            "zero_plain": plain0 / t0["steady_waf"] - 1 if plain0 else None,
            "zero_plain_late": (waf_over(s0[0][0], s0[0][1:]) or 0) / t0["steady_waf"] - 1
            if len(s0[0]) > 1
            else None,
        }
    return row


def summary(rows: list[dict], key: str) -> str:
    v = [r[key] for r in rows if r.get(key) is not None]
    if not v:
        return f"{key}: none"
    return (
        f"{key:16s} n {len(v):3d}  mean {100 * statistics.fmean(v):+5.1f}%  median |e| "
        f"{100 * statistics.median(abs(x) for x in v):4.1f}%  worst |e| "
        f"{100 * max(abs(x) for x in v):4.1f}%"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("A", "B"), required=True)
    args = ap.parse_args()
    diag = json.loads(DIAGNOSE.read_text())
    half = halves(diag)
    seen, rows = set(), []
    for d in diag:
        if not d["truth_path"] or half[d["truth_path"]] != args.half or d["case"] in seen:
            continue
        seen.add(d["case"])
        r = one(d["case"], d["truth_path"])
        if r is not None:
            r["luns"], r["truth_waf"] = d["luns"], d["truth_waf"]
            rows.append(r)
    drives = sorted({d["truth_path"] for d in diag if half.get(d["truth_path"]) == args.half})
    print(f"# half {args.half}: {len(drives)} truth files, {len(seen)} measurements, "
          f"{len(rows)} with a 40% level read over bursts")  # fmt: skip
    print("# 40% WAF / truth - 1 (%): read late rand tail drift | first round host, NAND (dw) |"
          " 40% IOPS / truth - 1: read late | 0% WAF: read plain plain-late | case")  # fmt: skip

    def p(v: float | None) -> str:
        return "   -  " if v is None else f"{100 * v:+6.1f}"

    for r in rows:
        print(f"{r['luns']:3d} {r['truth_waf']:5.2f} |{p(r['read'])}{p(r['late'])}{p(r['rand'])}"
              f"{p(r['tail'])}{p(r['drift'])} | {r['first_host_dw']:.4f} {r['first_nand_dw']:.4f}"
              f" |{p(r['iops_read'])}{p(r['iops_late'])} |{p(r.get('zero_read'))}"
              f"{p(r.get('zero_plain'))}{p(r.get('zero_plain_late'))} | {r['case']}")  # fmt: skip
    print()
    for k in ("read", "late", "rand", "tail", "drift", "iops_read", "iops_late", "zero_read",
              "zero_plain", "zero_plain_late"):  # fmt: skip
        print(summary(rows, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
