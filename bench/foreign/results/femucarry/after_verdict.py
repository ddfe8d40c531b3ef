"""After the verdict (judging nothing): on the fresh drives of RULE.md, each reserve reading's
surrogate against the truth and the FEMU config's true reserve, with arm B's weighing flags
(``diagnose.reserve_part``: one implementation). Surrogates only; nothing simulated.

    PYTHONPATH=python python bench/foreign/results/femucarry/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov.calibrate import reserve_held_out, reserve_hull

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import diagnose  # noqa: E402


def main() -> None:
    reserve_held_out.WAF_TERMS_TOO = True
    reserve_hull.FLOOR_NEEDS_SELECTIVE = True
    reserve_hull.NONE_LINKS = True
    for line in (HERE / "drives.txt").read_text().splitlines():
        stem = line.split(" ")[0]
        truth = diagnose.truth_of(f"femucarry/fresh/{stem}.json")
        fig = diagnose.figures(f"femucarry/fresh-b/FEMU--femucarry_fresh--{stem}.json")
        print(f"\n{stem}: truth WAF " + ", ".join(
            f"{x:g}%: {lv['waf']:.3f}" for x, lv in sorted(truth["levels"].items())))  # fmt: skip
        print("\n".join(diagnose.reserve_part(fig, truth)))


if __name__ == "__main__":
    main()
