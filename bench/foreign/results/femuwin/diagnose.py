"""Diagnosis (DIAGNOSIS.md): what moves the 0% burst-cycle reading when one round is left out.
Stored rounds only, nothing run or predicted.

    PYTHONPATH=python python bench/foreign/results/femuwin/diagnose.py \
        > bench/foreign/results/femuwin/diagnosis.txt

Drives: femudeadline's 23 (femufix's 19 and gatefix's L1-L4), each measured twice with the
default plan: ``grown`` chunks (femufix/NAME, gatefix/NAME-on) and ``deadline`` rounds
(femudeadline/NAME); truths: their settled 30-span-write files. Part 1: per stretch, the
reading's error, the leave-one-out range, the round whose removal moves it most (where it sits,
its share of the stretch, its WAF against the reading) and the range from the ends alone (the
first, the last or both rounds dropped). Part 2: other estimates over the same rounds. Part 3:
FEMU's run-on after the 0% level (femu0/runon, femularge/runon: equal steps of 0.025 drive
writes for 3): the reading over windows of 6 to 24 steps. Part 4: the reading against the
stored prediction's 0% WAF (calibrate's defaults, the reserve gate on) under both sizings.
Part 5: how much a sinusoid of period 1/WAF explains (F) and the best period near it.
"""

from __future__ import annotations

import json
import math
import re
import statistics
import sys
from pathlib import Path

from overprov.calibrate import burst_cycle

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")


# femularge's stretch of rounds and cycle reading
zc = load_script("zero_cycle", S / "femularge" / "zero_cycle.py")
# its 23 drives, truths and folders
deadline = load_script("femudeadline_judge", S / "femudeadline" / "judge.py")
Spans = list[tuple[float, float]]


def plain(spans: Spans, wafs: list[float], lo: float = -math.inf, hi: float = math.inf) -> float:
    """Host-weighted mean WAF over the part of the rounds inside [lo, hi]."""
    num = den = 0.0
    for (a, b), w in zip(spans, wafs, strict=True):
        o = max(0.0, min(b, hi) - max(a, lo))
        num, den = num + o * w, den + o
    return num / den


def through_period(form):  # noqa: ANN001, ANN201
    """``form(spans, wafs, period)`` with the period iterated from its own WAF, as the cycle."""

    def read(spans: Spans, wafs: list[float]) -> float | None:
        waf = plain(spans, wafs)
        for _ in range(3):
            if spans[-1][1] - spans[0][0] < 1.0 / waf:
                return None
            waf = form(spans, wafs, 1.0 / waf)
        return waf

    return read


def harmonics_mean(spans: Spans, wafs: list[float], period: float, n: int = 2) -> float:
    """The constant of a host-weighted least-squares fit of a constant and ``n`` harmonics."""
    rows = []
    for a, b in spans:
        row = [1.0]
        for h in range(1, n + 1):
            k = 2 * math.pi * h / period
            row += [(math.cos(k * a) - math.cos(k * b)) / (k * (b - a)),
                    (math.sin(k * b) - math.sin(k * a)) / (k * (b - a))]  # fmt: skip
        rows.append(row)
    m = len(rows[0])
    w = [b - a for a, b in spans]
    g = [[sum(wi * r[i] * r[j] for wi, r in zip(w, rows, strict=True)) for j in range(m)]
         + [sum(wi * r[i] * v for wi, r, v in zip(w, rows, wafs, strict=True))]
         for i in range(m)]  # fmt: skip
    for c in range(m):  # Gauss-Jordan with partial pivoting
        p = max(range(c, m), key=lambda i: abs(g[i][c]))
        g[c], g[p] = g[p], g[c]
        for i in range(m):
            if i != c:
                f = g[i][c] / g[c][c]
                g[i] = [x - f * y for x, y in zip(g[i], g[c], strict=True)]
    return g[0][m] / g[0][0]


def cycle(spans: Spans, wafs: list[float]) -> float:
    return zc.cycle_waf(spans, wafs)


def loo_median(spans: Spans, wafs: list[float]) -> float:
    return statistics.median(cycle(*dropped(spans, wafs, i)) for i in range(len(spans)))


FORMS = {
    "cycle (the default: constant + one sinusoid of period 1/WAF)": cycle,
    "plain (host-weighted mean)": plain,
    "the last whole period, plain": through_period(lambda s, w, p: plain(s, w, lo=s[-1][1] - p)),
    "the first and last whole periods, plain, averaged": through_period(
        lambda s, w, p: (plain(s, w, lo=s[-1][1] - p) + plain(s, w, hi=s[0][0] + p)) / 2
    ),
    "constant + two harmonics of period 1/WAF": through_period(harmonics_mean),
    "median of the leave-one-out cycle readings": loo_median,
}


def dropped(spans: Spans, wafs: list[float], *out: int) -> tuple[Spans, list[float]]:
    keep = [i for i in range(len(spans)) if i not in {j % len(spans) for j in out}]
    return [spans[i] for i in keep], [wafs[i] for i in keep]


def stretches() -> list[tuple[str, str, Spans, list[float], float]]:
    """(drive, sizing, spans, per-round WAF, settled 0% WAF) of every stored stretch."""
    out = []
    for name, (_, truth, grown, _) in deadline.DRIVES.items():
        t = json.loads(Path(truth).read_text())["levels"][0]["steady_waf"]
        for sizing, folder in (("grown", grown), ("deadline", deadline.R / name)):
            got = zc.stretch_rounds(Path(folder))
            if got is not None:
                out.append((name, sizing, *got, t))
    return out


def spread(xs: list[float | None], t: float) -> float:
    got = [x for x in xs if x is not None]
    return (max(got) - min(got)) / t


def budget_line() -> None:
    """How much the plan's 0% segment and the whole measurement wrote against their caps."""
    seg, total, extra = [], [], []
    for name, (_, _, grown, _) in deadline.DRIVES.items():
        for folder in (Path(grown), deadline.R / name):
            m = json.loads((folder / "measurement.json").read_text())
            cap, rounds, zero_seg = m["capacity_bytes"], m["rounds"], m["plan"]["segments"][0]
            wrote = sum(r["bytes_written"] for r in rounds if r["label"].startswith("op0-r")) / cap
            seg.append(wrote / zero_seg["max_drive_writes"])
            total.append(rounds[-1]["host_bytes"] / cap)
            # drive writes a stretch of two periods (1 / WAF each) would add past this one
            extra.append(2 / m["levels"][0]["waf"] - (wrote - zero_seg["min_drive_writes"]))
    print(
        f"# the 0% level's random rounds wrote {min(seg):.2f}-{max(seg):.2f} x its segment's "
        f"maximum (median {statistics.median(seg):.2f}); the measurements "
        f"{min(total):.2f}-{max(total):.2f} drive writes of their 2.00 (median "
        f"{statistics.median(total):.2f}); a stretch of two periods would add "
        f"{min(extra):.3f}-{max(extra):.3f} drive writes (median {statistics.median(extra):.3f})"
    )


def part1(all_: list) -> None:
    print("## Part 1: the default reading's leave-one-out moves, per stretch\n")
    print(
        "| drive | sizing | rounds | periods | F | error | one left out: range | most moving "
        "round: at (of n) | position in stretch | share | WAF ÷ reading | move | "
        "ends only: range |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    tally: dict[str, list[float]] = {k: [] for k in ("range", "ends", "pos", "share", "rel",
                                                     "share_rest", "mid")}  # fmt: skip
    end_top, low_share, high_share = 0, [], []
    for name, sizing, spans, wafs, t in all_:
        c = cycle(spans, wafs)
        x0, length = spans[0][0], spans[-1][1] - spans[0][0]
        moves = [(cycle(*dropped(spans, wafs, i)) - c) / t for i in range(len(spans))]
        top = max(range(len(spans)), key=lambda i: abs(moves[i]))
        ends = [c] + [cycle(*dropped(spans, wafs, *o)) for o in ((0,), (-1,), (0, -1))]
        share = [(b - a) / length for a, b in spans]
        pos = ((spans[top][0] + spans[top][1]) / 2 - x0) / length
        tally["range"].append(max(moves) - min(moves))
        tally["ends"].append(spread(ends, t))
        tally["pos"].append(pos)
        tally["share"].append(share[top])
        tally["share_rest"] += [s for i, s in enumerate(share) if i != top]
        tally["rel"].append(wafs[top] / c)
        # the part of the range from rounds in the middle third (the phases covered once)
        mid = [m for (a, b), m in zip(spans, moves, strict=True)
               if 1 / 3 <= ((a + b) / 2 - x0) / length <= 2 / 3]  # fmt: skip
        tally["mid"].append(max(abs(m) for m in mid) / max(abs(m) for m in moves) if mid else 0)
        end_top += top in (0, len(spans) - 1)
        for sh, w in zip(share, wafs, strict=True):
            (low_share if w < c else high_share).append(sh)
        print(f"| {name} | {sizing} | {len(spans)} | {length * c:.2f} | "
              f"{zc.variance_ratio(spans, wafs, c):.1f} | {c / t - 1:+.1%} | "
              f"{max(moves) - min(moves):.1%} | {top + 1} of {len(spans)} | {pos:.2f} | "
              f"{share[top]:.2f} | {wafs[top] / c:.2f} | {moves[top]:+.1%} | "
              f"{tally['ends'][-1]:.1%} |")  # fmt: skip
    med = {k: statistics.median(v) for k, v in tally.items()}
    print(f"\n# {len(all_)} stretches: leave-one-out range median {med['range']:.1%}, widest "
          f"{max(tally['range']):.1%}; the ends alone (first, last or both dropped) median "
          f"{med['ends']:.1%}, widest {max(tally['ends']):.1%}")  # fmt: skip
    print(f"# the most moving round: an end round in {end_top} of {len(all_)}; its position in "
          f"the stretch median {med['pos']:.2f} (middle third in "
          f"{sum(1 / 3 <= p <= 2 / 3 for p in tally['pos'])} of {len(all_)}); its share median "
          f"{med['share']:.2f} (the other rounds {med['share_rest']:.3f}); its WAF ÷ the reading "
          f"median {med['rel']:.2f} (below 1 in {sum(r < 1 for r in tally['rel'])} of "
          f"{len(all_)}); largest move from a middle-third round ÷ largest move, median "
          f"{med['mid']:.2f}")  # fmt: skip
    print(f"# a round's share of its stretch: WAF below the reading median "
          f"{statistics.median(low_share):.3f} ({len(low_share)} rounds), above "
          f"{statistics.median(high_share):.3f} ({len(high_share)}): timed rounds write more "
          f"host bytes where the collector copies less")  # fmt: skip


def part2(all_: list) -> None:
    print("\n## Part 2: other estimates over the same rounds (22 drives x 2 sizings)\n")
    print("| estimate | leave-one-out range: median / widest | grown vs deadline: median / "
          "worst | error: median / worst |")  # fmt: skip
    print("|---|---|---|---|")
    for label, form in FORMS.items():
        ranges, errors, by_drive = [], [], {}
        for name, _, spans, wafs, t in all_:
            v = form(spans, wafs)
            left = [form(*dropped(spans, wafs, i)) for i in range(len(spans))]
            ranges.append(spread(left, t))
            errors.append(abs(v / t - 1))
            by_drive.setdefault(name, []).append(v / t)
        diff = [abs(a - b) for a, b in (v for v in by_drive.values() if len(v) == 2)]
        print(f"| {label} | {statistics.median(ranges):.1%} / {max(ranges):.1%} | "
              f"{statistics.median(diff):.1%} / {max(diff):.1%} | "
              f"{statistics.median(errors):.1%} / {max(errors):.1%} |")  # fmt: skip


def part3() -> None:
    print("\n## Part 3: FEMU's run-on after the 0% level, windows of equal steps (0.025 dw)\n")
    print(
        "| steps | drive writes | periods (x 8) | cycle: error median / 90th | one left out "
        "range median | plain: error median / 90th | one left out range median |"
    )
    print("|---|---|---|---|---|---|---|")
    files = sorted((S / "femu0" / "runon").glob("*.json")) + sorted(
        p for p in (S / "femularge" / "runon").glob("femu-*.json") if "measurement" not in p.name
    )
    series = []
    for p in files:
        m = re.search(r"(\d+)x(\d+)", p.stem)
        key = f"femu-{m.group(1)}lun-{m.group(2)}blk-" if m else p.stem
        name = next(n for n in deadline.DRIVES if n.startswith(key) or n == p.stem)
        t = json.loads(Path(deadline.DRIVES[name][1]).read_text())["levels"][0]["steady_waf"]
        series.append(([r["waf"] for r in json.loads(p.read_text())["rows"]], t))
    step = 0.025
    for n in (6, 8, 10, 12, 16, 24):
        got: dict[str, tuple[list[float], list[float]]] = {"cycle": ([], []), "plain": ([], [])}
        for w, t in series:
            for s0 in range(0, len(w) - n, 3):
                spans = [((s0 + i) * step, (s0 + i + 1) * step) for i in range(n)]
                ws = w[s0 : s0 + n]
                for k, f in (("cycle", cycle), ("plain", plain)):
                    got[k][0].append(abs(f(spans, ws) / t - 1))
                    got[k][1].append(spread([f(*dropped(spans, ws, i)) for i in range(n)], t))
        cells = []
        for e, r in got.values():
            e = sorted(e)
            cells.append(f"{statistics.median(e):.1%} / {e[int(0.9 * len(e))]:.1%} | "
                         f"{statistics.median(r):.1%}")  # fmt: skip
        print(f"| {n} | {n * step:.3f} | {n * step * 8:.1f} | " + " | ".join(cells) + " |")
    print(f"\n# {len(series)} drives' run-ons, windows every 3 steps")


def part5(all_: list) -> None:
    print("\n## Part 5: is there a cycle of period 1/WAF? F at 1/WAF and the best period "
          "within 0.9-1.2 x 1/WAF (steps of 0.05)\n")  # fmt: skip
    print("| drive | sizing | F at 1/WAF | best multiple | its F | reading there |")
    print("|---|---|---|---|---|---|")
    for name, sizing, spans, wafs, t in all_:
        c = cycle(spans, wafs)
        f0 = zc.variance_ratio(spans, wafs, c)
        best = max((zc.variance_ratio(spans, wafs, c / x), x)
                   for x in (0.9, 0.95, 1.0, 1.05, 1.1, 1.15, 1.2))  # fmt: skip
        at = burst_cycle.sinusoid_mean(spans, wafs, best[1] / c)
        print(f"| {name} | {sizing} | {f0:.1f} | {best[1]:.2f} | {best[0]:.1f} | "
              f"{at / t - 1:+.1%} |")  # fmt: skip


def part4(all_: list) -> None:
    print("\n## Part 4: the 0% reading and the predicted 0% WAF, grown vs deadline\n")
    print("| drive | reading: grown / deadline | predicted 0% WAF: grown / deadline | "
          "reading's move | prediction's move |")  # fmt: skip
    print("|---|---|---|---|---|")
    got: dict[str, dict[str, float]] = {}
    for name, sizing, spans, wafs, t in all_:
        got.setdefault(name, {})[sizing] = cycle(spans, wafs) / t - 1
    moves = []
    for name, r in got.items():
        if len(r) < 2:
            continue
        _, truth, _, before = deadline.DRIVES[name]
        t = json.loads(Path(truth).read_text())["levels"][0]["steady_waf"]
        p = [json.loads((Path(f) / "prediction.json").read_text())["levels"][0]["waf"] / t - 1
             for f in (before, deadline.R / name)]  # fmt: skip
        moves.append((abs(r["deadline"] - r["grown"]), abs(p[1] - p[0])))
        print(f"| {name} | {r['grown']:+.1%} / {r['deadline']:+.1%} | {p[0]:+.1%} / {p[1]:+.1%} "
              f"| {r['deadline'] - r['grown']:+.1%} | {p[1] - p[0]:+.1%} |")  # fmt: skip
    print(f"\n# {len(moves)} drives: |reading's move| median "
          f"{statistics.median(m[0] for m in moves):.1%}, |prediction's move| median "
          f"{statistics.median(m[1] for m in moves):.1%}")  # fmt: skip


if __name__ == "__main__":
    print("# PYTHONPATH=python python bench/foreign/results/femuwin/diagnose.py\n")
    every = stretches()
    part1(every)
    part2(every)
    part3()
    budget_line()
    part4(every)
    part5(every)
