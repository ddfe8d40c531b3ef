"""No harm from offering the erase-cost twins where the implied design's reading fails
(bench/foreign/results/erasegreedy/RULE.md): every case run in both states, on against off.

    python bench/foreign/results/erasegreedy/noharm.py --off DIR [--off DIR ...] \
        --on DIR [--on DIR ...] [--out FILE]

Each DIR holds evaluate.py's `evaluation.json`. For every (truth, case) in both: harm when a
target the off state met (ssdsim_rule.judge_case: IOPS 10% median and 20% worst over the QD32
levels, WAF 5% at every level) is missed on, when a held-out figure's |error| grows by more
than MAX_WORSE (1 point; erase_cost_rule.held_out: IOPS and WAF at the QD32 levels the case does
not fit, IOPS at the other queue depth's unfitted levels), or when a case answered off is
refused on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
import erase_cost_rule  # noqa: E402
import ssdsim_rule  # noqa: E402

MAX_WORSE = 0.01


def judge(off: dict, on: dict) -> tuple[str, bool]:
    """(what changed, harm) for one case in both states."""
    if "levels" not in on:
        return ("refused on and off", False) if "levels" not in off else ("refused on", True)
    if "levels" not in off:
        return "refused off, answered on", False
    a, b = ssdsim_rule.judge_case(off), ssdsim_rule.judge_case(on)
    lost = [t for t in ("iops_ok", "waf_ok") if a[t] and not b[t]]
    ea, eb = erase_cost_rule.held_out(off), erase_cost_rule.held_out(on)
    deltas = {k: eb[k] - ea[k] for k in sorted(ea.keys() & eb.keys())}  # ties: the same row
    if not deltas:
        return "no held-out figure", bool(lost)
    worst = max(deltas, key=lambda k: deltas[k])
    best = min(deltas, key=lambda k: deltas[k])
    text = (
        f"targets met off/on: IOPS {a['iops_ok']}/{b['iops_ok']}, WAF {a['waf_ok']}/{b['waf_ok']}"
        f"; largest rise {100 * deltas[worst]:+.1f} pts ({worst}: {ea[worst]:.1%} → "
        f"{eb[worst]:.1%}); largest fall {100 * deltas[best]:+.1f} pts ({best}: "
        f"{ea[best]:.1%} → {eb[best]:.1%})"
    )
    return text, bool(lost) or deltas[worst] > MAX_WORSE


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for state in ("--off", "--on"):  # evaluation folders, each state's
        ap.add_argument(state, type=Path, action="append", required=True)
    ap.add_argument("--out", type=Path, help="the table kept beside the runs")
    args = ap.parse_args(argv)
    off, on = erase_cost_rule._cases(args.off), erase_cost_rule._cases(args.on)
    lines = ["| truth | case | on against off | harm |", "|---|---|---|---|"]
    harmed = False
    for key in sorted(off.keys() & on.keys()):
        text, bad = judge(off[key], on[key])
        harmed |= bad
        lines.append(f"| {key[0]} | {key[1]} | {text} | {'yes' if bad else 'no'} |")
    n = len(off.keys() & on.keys())
    missing = sorted(off.keys() ^ on.keys())
    lines += ["", f"cases in one state only: {missing or 'none'}"]
    lines.append(f"no-harm: {'missed' if harmed else 'held'} over {n} cases")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
