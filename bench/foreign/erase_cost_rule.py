"""No harm from the erase-cost form (calibrate/erase_cost.py): bench/foreign/results/erasecost/
bench/foreign/results/erasecost/RULE.md's clause on every case run with the form off and on.

    python bench/foreign/erase_cost_rule.py --off DIR [--off DIR ...] --on DIR [--on DIR ...]
        [--out FILE]

Each DIR holds an `evaluation.json` (evaluate.py, with `--erase-cost` for on). For every
(truth, case) in both, every held-out figure (IOPS and WAF at the QD32 levels the case does not
fit, IOPS at the other queue depth's unfitted levels) is compared: on is worse when its |error|
is more than MAX_WORSE (2 points) above off's. A case refused on but answered off is harm; one
refused off and answered on is not. Prints one row per case (the largest change, its figure)
and the verdict: no harm when no figure is worse.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

MAX_WORSE = 0.02


def held_out(case: dict) -> dict[str, float]:
    """{figure name: |error|} over the case's held-out figures; {} for a refusal."""
    out: dict[str, float] = {}
    for r in case.get("levels", []):
        x = r["extra_op_percent"]
        if not r.get("fitted_iops") and "iops_err" in r:
            out[f"IOPS {x}%"] = abs(r["iops_err"])
        if not r.get("fitted_waf") and "waf_err" in r:
            out[f"WAF {x}%"] = abs(r["waf_err"])
    for r in case.get("other_qd", []):
        if not r.get("fitted") and "iops_err" in r:
            out[f"IOPS {r['extra_op_percent']}% QD{r['queue_depth']}"] = abs(r["iops_err"])
    return out


def _cases(dirs: list[Path]) -> dict[tuple[str, str], dict]:
    got = {}
    for d in dirs:
        for ev in json.loads((d / "evaluation.json").read_text()):
            for c in ev["cases"]:
                got[(ev["results"], c["case"])] = c
    return got


def compare(off: dict[tuple[str, str], dict], on: dict[tuple[str, str], dict]):
    """(rows, harmed): one row per (truth, case) in both."""
    rows, harmed = [], False
    for key in sorted(set(off) & set(on)):
        a, b = off[key], on[key]
        if "levels" not in b and "levels" in a:
            rows.append((*key, "refused on, answered off", True))
            harmed = True
            continue
        if "levels" not in b or "levels" not in a:
            rows.append((*key, "refused off" + (" and on" if "levels" not in b else ""), False))
            continue
        ea, eb = held_out(a), held_out(b)
        deltas = {k: eb[k] - ea[k] for k in ea.keys() & eb.keys()}
        if not deltas:
            rows.append((*key, "no held-out figure", False))
            continue
        worst = max(deltas, key=lambda k: deltas[k])
        best = min(deltas, key=lambda k: deltas[k])
        bad = deltas[worst] > MAX_WORSE
        harmed |= bad
        text = (
            f"largest rise {100 * deltas[worst]:+.1f} pts ({worst}: {ea[worst]:.1%} → "
            f"{eb[worst]:.1%}); largest fall {100 * deltas[best]:+.1f} pts ({best}: "
            f"{ea[best]:.1%} → {eb[best]:.1%})"
        )
        rows.append((*key, text, bad))
    return rows, harmed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--off", type=Path, action="append", required=True)
    ap.add_argument("--on", type=Path, action="append", required=True)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rows, harmed = compare(_cases(args.off), _cases(args.on))
    lines = ["| truth | case | held-out figures, on against off | worse by > 2 pts |"]
    lines.append("|---|---|---|---|")
    lines += [f"| {t} | {c} | {text} | {'yes' if bad else 'no'} |" for t, c, text, bad in rows]
    lines.append("")
    lines.append(
        f"no-harm: {'missed' if harmed else 'held'} over {len(rows)} cases "
        f"(a held-out figure worse by more than {100 * MAX_WORSE:g} points, or a new refusal)"
    )
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:  # the table kept beside the runs
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
