"""Diagnosis (c): the 0% level read through the burst cycle on the seen FEMU drives (nothing run,
nothing predicted: the stored measurements, their truths and runon/'s run-ons).

    PYTHONPATH=python python bench/foreign/results/femularge/zero_cycle.py \
        > bench/foreign/results/femularge/zero_cycle.txt

Part 1, each seen drive's stretch (``burst_cycle.stretch_of``): its rounds, its length in
periods (``1 / WAF`` drive writes), the largest round's share of it, how much the sinusoid
explains (F: the fit's variance ratio against the plain mean, 2 and n - 3 degrees of freedom),
the 0% WAF error (÷ FEMU's steady 0% WAF − 1) read plain, through the cycle, and through the
cycle with each round left out in turn (the range). Part 2, FEMU's WAF run on after the plan's
0% level (runon/, every 0.025 drive writes for 3): its means and how the two readings do on
equal rounds cut from it (every 8 steps, as long as a stretch).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from overprov.calibrate import burst_cycle
from overprov.measurement_file import load

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

sys.path.insert(0, "bench/foreign/results/femu40")
# gate14's judge: its drives, femu40's stored list
gate14 = load_script("gate14_judge", "bench/foreign/results/gate14/judge.py")

S = Path("bench/foreign/results")
R = S / "femularge"
#: the seen drives: femu40's stored cases (their default folders) and H1, H2, and gate14's J1-J3
SEEN = {n: (d, t) for n, (d, t) in gate14.STORED.items()} | {
    n: (S / "gate14" / f"{n}-off", S / "gate14" / f"{n}.json") for n in gate14.FRESH
}
STEP_DW = 0.025  # runon.sh's --run-on-step
WINDOW_STEPS = 8  # 0.2 drive writes, a stretch's length


def cycle_waf(spans: list[tuple[float, float]], wafs: list[float]) -> float:
    """The stretch's WAF through the burst cycle, as ``burst_cycle.read_first_level`` reads it."""
    waf = sum(w * (b - a) for w, (a, b) in zip(wafs, spans, strict=True)) / (
        spans[-1][1] - spans[0][0]
    )
    for _ in range(burst_cycle.PERIOD_ITERATIONS):
        waf = burst_cycle.sinusoid_mean(spans, wafs, 1.0 / waf)
    return waf


def variance_ratio(spans: list[tuple[float, float]], wafs: list[float], waf: float) -> float:
    """F of the sinusoid of period ``1 / waf`` against the plain mean (span-weighted):
    ``burst_cycle.sinusoid_variance_ratio``."""
    return burst_cycle.sinusoid_variance_ratio(spans, wafs, 1.0 / waf)


def stretch_rounds(folder: Path) -> tuple[list[tuple[float, float]], list[float]] | None:
    """The first level's stretch as spans (drive writes since the purge) and WAF per round."""
    m = load(folder / "measurement.json")
    got = burst_cycle.stretch_of(m)
    if got is None:
        return None
    spans, wafs, prev = [], [], got[1]
    for r in got[0]:
        spans.append((prev.host_bytes / m.capacity_bytes, r.host_bytes / m.capacity_bytes))
        wafs.append((r.nand_bytes - prev.nand_bytes) / (r.host_bytes - prev.host_bytes))
        prev = r
    return spans, wafs


def part1() -> None:
    print(
        "| drive | rounds | periods | largest round | F | plain | cycle | cycle, a round left out |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, (folder, truth_file) in SEEN.items():
        truth = json.loads(truth_file.read_text())["levels"][0]["steady_waf"]
        got = stretch_rounds(folder)
        if got is None:
            print(f"| {name} | no stretch (onset at or above 1) |||||||")
            continue
        spans, wafs = got
        length = spans[-1][1] - spans[0][0]
        plain = sum(w * (b - a) for w, (a, b) in zip(wafs, spans, strict=True)) / length
        waf = cycle_waf(spans, wafs)
        left = [cycle_waf(spans[:i] + spans[i + 1 :], wafs[:i] + wafs[i + 1 :])
                for i in range(len(spans))]  # fmt: skip
        share = max(b - a for a, b in spans) / length
        print(f"| {name} | {len(spans)} | {length * waf:.2f} | {share:.2f} | "
              f"{variance_ratio(spans, wafs, waf):.1f} | {plain / truth - 1:+.1%} | "
              f"{waf / truth - 1:+.1%} | {min(left) / truth - 1:+.1%} .. "
              f"{max(left) / truth - 1:+.1%} |")  # fmt: skip


def part2() -> None:
    print(
        "\n| drive | FEMU steady | run-on 0-0.25 | 0.25-0.5 | 0.5-1 | 1-3 | lag-5 autocorrelation "
        "| equal rounds: plain median / worst | cycle median / worst |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in gate14.FRESH:
        truth = json.loads((S / "gate14" / f"{name}.json").read_text())["levels"][0]["steady_waf"]
        w = [r["waf"] for r in json.loads((R / "runon" / f"{name}.json").read_text())["rows"]]
        cut = [statistics.fmean(w[round(a / STEP_DW) : round(b / STEP_DW)])
               for a, b in ((0, 0.25), (0.25, 0.5), (0.5, 1), (1, 3))]  # fmt: skip
        mean = statistics.fmean(w)
        ac = sum((w[i] - mean) * (w[i + 5] - mean) for i in range(len(w) - 5)) / sum(
            (x - mean) ** 2 for x in w
        )
        plain_e, cycle_e = [], []
        for s in range(0, len(w) - WINDOW_STEPS, 2):
            ws = w[s : s + WINDOW_STEPS]
            spans = [((s + i) * STEP_DW, (s + i + 1) * STEP_DW) for i in range(WINDOW_STEPS)]
            plain_e.append(abs(statistics.fmean(ws) / truth - 1))
            cycle_e.append(abs(cycle_waf(spans, ws) / truth - 1))
        print(f"| {name} | {truth:.3f} | " + " | ".join(f"{x:.3f}" for x in cut) + f" | {ac:.2f} | "
              f"{statistics.median(plain_e):.1%} / {max(plain_e):.1%} | "
              f"{statistics.median(cycle_e):.1%} / {max(cycle_e):.1%} |")  # fmt: skip


if __name__ == "__main__":
    print("# PYTHONPATH=python python bench/foreign/results/femularge/zero_cycle.py")
    part1()
    part2()
