"""Task 1 of the clifffall brief (bench/results/clifffall/DIAGNOSIS.md): on the seen cases kept
by bench/results/clifffall/stored.py, each side's mixed series from purged under QD8 70% reads,
as bench/results/cliffplateau/series.py tabulates them (the truth's; the twin's as its
prediction runs it, ``cliff_fastest.LIFT_TO_FASTEST`` off and on), with the measured write
series' rounds and the buffer's fill the step measured (``buffer_fill_bytes``).

    PYTHONPATH=python:bench nice -n 10 python bench/results/clifffall/series.py \
        9705:0.01 9707:0.01 9710:0.01 > bench/results/clifffall/series.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "cliffplateau"))
import diagnose  # noqa: E402 - bench/results/cliffplateau/diagnose.py
import series as plateau  # noqa: E402 - bench/results/cliffplateau/series.py
from cliffplan_eval import single_cases  # noqa: E402
from overprov.calibrate import cliff_step  # noqa: E402

diagnose.HERE = HERE


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    row = plateau.case(seed, share, work)
    doc, _, _ = diagnose.stored(seed, share)
    s = cliff_step.series(doc)
    row["measured"] = {"buffer_fill_bytes": doc.get("buffer_fill_bytes"), **plateau.table(s)}
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
