"""What the joint arm (own_erase_residual.ON + steep_pair.HULL_WHERE_AMBIGUOUS +
bend_between.SPAN_TO_LINE) CAN reach on the 72, from counts already seen, before its clauses
are written (bench/foreign/results/jointband/RULE.md): no interval of the span is computed.

Known and seen before this rule: today's stored cases (bench/foreign/results/scoreboard/
cases-mix), formterm's composition of own_erase_residual.ON (bench/foreign/results/formterm/
judge.py, reused here) and steephull's flag-on cases of the two FEMU drives it reads
(bench/foreign/results/steephull/on). The span only widens IOPS intervals at 10-30% on the six
MQSim drives where bend_between.fires (bench/foreign/results/mqbend/fires-72.txt), so the joint
arm's count lies between formterm+steephull's and that plus the misses among those 18 figures;
its median width between formterm+steephull's and the rank shifted by 18.

    PYTHONPATH=python python bench/foreign/results/jointband/feasible.py > feasible.txt
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[1]))
import levels  # noqa: E402
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402

FT = load_script("formterm_judge", HERE.parent / "formterm" / "judge.py")
MIX = HERE.parent / "scoreboard" / "cases-mix"
STEEP_ON = HERE.parent / "steephull" / "on"
FIRES = HERE.parent / "mqbend" / "fires-72.txt"
SPAN_LEVELS = (10.0, 20.0, 30.0)


def fired() -> list[str]:
    out = []
    for line in FIRES.read_text().splitlines():
        if "fires True" in line:
            out.append(line.split(".json:")[0])
    return out


def formterm_steephull(unfitted: list[levels.Row]) -> list[levels.Row]:
    """Today's rows with formterm's composition and steephull's on cases in place."""
    runs = FT.load_runs()
    docs = {s: __import__("json").loads((MIX / f"{s}.json").read_text()) for s in runs}
    points_of = {s: levels.case_points(d["command"]) for s, d in docs.items()}
    hit = {s: FT.compose(FT.flagged(r, points_of[s])) for s, r in runs.items() if FT.touched(r)}
    rows = FT.judged_rows(unfitted, hit)
    steep, _ = levels.load(STEEP_ON)
    cases = {r.case for r in steep}
    return [r for r in rows if r.case not in cases] + [
        r for r in steep if not r.fitted and r.case in {u.case for u in unfitted}
    ]


def pct(rs: list[levels.Row]) -> str:
    k = sum(r.inside for r in rs)
    return f"{k}/{len(rs)} ({100 * k / max(len(rs), 1):.1f}%)"


def selections(rows: list[levels.Row]):
    """("all", every row), then each family, and each family × figure."""
    out = [("all", lambda r: True)]
    for fam in sorted({r.family for r in rows}):
        for f in ("", "iops", "waf"):
            name = f"{fam} {f}".strip()
            out.append((name, lambda r, fam=fam, f=f: r.family == fam and f in ("", r.figure)))
    return out


def main() -> int:
    c0 = cpu_s()
    rows, _ = levels.load(MIX)
    today = [r for r in rows if not r.fitted]
    both = formterm_steephull(today)
    span = set(fired())
    print(f"bend_between.fires on the 72: {sorted(span)}")
    in_span = [r for r in both if r.case in span and r.figure == "iops" and r.level in SPAN_LEVELS]
    miss = [r for r in in_span if not r.inside]
    named = ", ".join(f"{r.case.split('--')[-1]} {r.level:g}%" for r in miss)
    print(f"figures the span can touch: {len(in_span)}; outside with formterm+steephull: "
          f"{len(miss)} ({named})")  # fmt: skip
    for name, sel in selections(today):
        t = [r for r in today if sel(r)]
        b = [r for r in both if sel(r)]
        lo = sum(r.inside for r in b)
        hi = lo + sum(1 for r in miss if sel(r))
        print(f"{name}: today {pct(t)}; formterm+steephull {pct(b)}; joint between "
              f"{lo}/{len(b)} ({100 * lo / len(b):.1f}%) and "
              f"{hi}/{len(b)} ({100 * hi / len(b):.1f}%)")  # fmt: skip
    w_today = statistics.median(r.rel_width for r in today)
    ws = sorted(r.rel_width for r in both)
    n = len(ws)
    med = statistics.median(ws)
    # widening k' <= 18 figures moves each median rank up by at most 18 places
    up = 0.5 * (ws[min(n - 1, (n - 1) // 2 + len(in_span))] + ws[min(n - 1, n // 2 + len(in_span))])
    print(
        f"median rel width: today {100 * w_today:.2f}%; formterm+steephull {100 * med:.2f}%; "
        f"joint at most {100 * up:.2f}% (0.95 x today = {95 * w_today:.2f}%)"
    )
    print(f"CPU s: {cpu_s() - c0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
