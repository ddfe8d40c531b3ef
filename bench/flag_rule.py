"""A calibrate flag judged by a pre-registered rule: its runs on generated drives
(``validation.compare`` with the flag off and on: calibrate's IOPS errors over 0-40% against the
drive's truth, one JSON line per run), the rules' "no harm on the generated drives" condition
read back from those lines, and the verdict's closing lines.

Used by bench/results/probe40/ (``plan.PROBE_WHOLE_CYCLES``) and bench/results/burststart/
(``burst_start.LATE_START``): each folder's ``sim_runs.py`` names its flag and its key.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from cpu_clock import cpu_s
from overprov.calibrate import validation
from overprov.units import parse_size_bytes


def sim_runs(set_flag: Callable[[bool], None], key: str, seeds: Iterable[int], physical: int,
        out: Path) -> None:  # fmt: skip
    """Each seed with the flag off then on (``set_flag``), a line ``{"seed", key, "cpu_s",
    compare's figures}`` appended to ``out`` per run and a summary printed."""
    for seed in seeds:
        for on in (False, True):
            set_flag(on)
            t0 = cpu_s()
            c = validation.compare(seed, physical)
            row = {"seed": seed, key: on, "cpu_s": round(cpu_s() - t0, 2), **c.as_dict()}
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
            med, worst = 100 * c.median_abs_rel_error, 100 * c.worst_abs_rel_error
            print(f"seed {seed} {key}={on}: IOPS median {med:.1f}% worst {worst:.1f}%, "
                  f"{row['cpu_s']} CPU s", flush=True)  # fmt: skip


def sim_no_harm(path: Path, key: str, median_pts: float = 0.01, worst_pts: float = 0.03,
            seeds_wanted: int = 2) -> tuple[bool, str]:  # fmt: skip
    """Whether on each of ``seeds_wanted`` seeds the IOPS median |error| with the flag on lies at
    most ``median_pts`` above off's and the worst at most ``worst_pts`` above, and the text."""
    sims = [json.loads(x) for x in path.read_text().splitlines() if x] if path.exists() else []
    by = {(s["seed"], s[key]): s for s in sims}
    seeds = sorted({s["seed"] for s in sims})
    ok, parts = len(seeds) == seeds_wanted, []
    for seed in seeds:
        a, b = by.get((seed, True)), by.get((seed, False))
        if a is None or b is None:
            ok = False
            parts.append(f"seed {seed}: an arm missing")
            continue
        dm = a["median_abs_rel_error"] - b["median_abs_rel_error"]
        dw = a["worst_abs_rel_error"] - b["worst_abs_rel_error"]
        ok = ok and dm <= median_pts and dw <= worst_pts
        parts.append(f"seed {seed}: IOPS median off {100 * b['median_abs_rel_error']:.1f}% on "
                     f"{100 * a['median_abs_rel_error']:.1f}%, worst off "
                     f"{100 * b['worst_abs_rel_error']:.1f}% on "
                     f"{100 * a['worst_abs_rel_error']:.1f}% "
                     f"(CPU s {b['cpu_s']:.0f} + {a['cpu_s']:.0f})")  # fmt: skip
    return ok, "; ".join(parts) or "no runs"


def sim_identical(path: Path, key: str, same: float = 1e-9) -> tuple[bool, str]:
    """:func:`sim_no_harm` with no rise allowed, and on each seed the flag's IOPS median and worst
    |error| equal to off's within ``same`` (either way); its text."""
    ok, text = sim_no_harm(path, key, median_pts=same, worst_pts=same)
    sims = [json.loads(x) for x in path.read_text().splitlines() if x] if path.exists() else []
    by = {(s["seed"], s[key]): s for s in sims}
    for seed in sorted({s["seed"] for s in sims}):
        a, b = by.get((seed, True)), by.get((seed, False))
        for k in ("median_abs_rel_error", "worst_abs_rel_error"):
            ok = ok and a is not None and b is not None and abs(a[k] - b[k]) <= same
    return ok, text


def femu_and_sim_verdict(fails: list[str], sims: Path, key: str = "both",
                         same: float = 1e-9) -> bool:  # fmt: skip
    """A FEMU rule's closing (burstplain's, reservespare's): the generated drives'
    :func:`sim_identical` printed, then the verdict over the FEMU cases' clause failures
    ``fails`` (clauses 1-3, both against off) and the generated drives (clause 4)."""
    print("\n## generated drives")
    ok4, text4 = sim_identical(sims, key, same)
    print(f"  {text4}")
    return print_verdict({
        "1-3 FEMU cases (both against off)": (not fails, "; ".join(fails) or "every case holds"),
        "4 generated drives identical": (ok4, text4),
    })  # fmt: skip


def sim_main(set_flag: Callable[[bool], None], key: str, doc: str) -> int:
    """A folder's ``sim_runs.py``: ``--seeds``, ``--physical``, ``--out`` (``doc`` its help)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="comma-separated")
    ap.add_argument("--physical", default="4GiB")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    sim_runs(set_flag, key, [int(s) for s in args.seeds.split(",")],
             parse_size_bytes(args.physical, "--physical"), args.out)  # fmt: skip
    return 0


def print_verdict(verdict: dict[str, tuple[bool, str]]) -> bool:
    """Each condition met or not with its text, then the verdict; whether all were met."""
    print()
    for k, (good, text) in verdict.items():
        print(f"condition {k}: {'met' if good else 'NOT met'} — {text}")
    adopted = all(good for good, _ in verdict.values())
    print(f"\nverdict: {'ADOPTED' if adopted else 'not adopted (the flag stays off)'}")
    return adopted
