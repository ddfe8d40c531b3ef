"""Where ``floor_or_choices.speaks`` speaks over the scoreboard's 72 stored truths (today's
defaults: bench/foreign/results/status72/cases/), each case's command read as calibrate reads
typed figures (bench/foreign/results/steephull/fires.py's ``read_cases``) and its stored
answer's reading weights (``readings``, summed per GC design as ``floor_or_choices.
design_weights`` sums a prediction's): the answer's part (``answer_links``), the figures'
(``choices_link``, ``floor_reproduces``), the test, and ``steep_pair.gentlest_alone`` beside it
(disjoint by construction). Surrogate fits only; nothing simulated. A message: the figures are
unchanged.

    PYTHONPATH=python python bench/foreign/results/femud4/fires.py > fires.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov.calibrate import floor_or_choices, steep_pair

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "steephull"))
from fires import read_cases  # noqa: E402  (steephull's)

CASES = HERE.parent / "status72" / "cases"


def stored_weights(case: dict) -> dict[str, float]:
    """The stored answer's weights per GC design (a reading's name: its spare reading, then
    ``:design`` unless greedy, ``prediction_file.reading_key``); {} for a refused case."""
    out: dict[str, float] = {}
    for name, w in (case.get("readings") or {}).items():
        design = name.partition(":")[2] or "greedy"
        out[design] = out.get(design, 0.0) + w
    return out


def main(paths: list[Path]) -> None:
    n, spoken = 0, []
    for path, case, fig, cv_sd in read_cases(paths):
        n += 1
        weights = stored_weights(case)
        answer = floor_or_choices.answer_links(weights)
        link = floor_or_choices.choices_link(fig.points, cv_sd)
        floor = floor_or_choices.floor_reproduces(fig.points, cv_sd)
        speaks = floor_or_choices.speaks(fig, weights)
        gentle = steep_pair.gentlest_alone(fig.points, cv_sd)
        print(f"{path.stem}: answer_links={answer} choices_link={link} floor_reproduces={floor} "
              f"speaks={speaks} (gentlest_alone={gentle})")  # fmt: skip
        if speaks:
            spoken.append(path.stem)
    print(f"\nspeaks on {len(spoken)} of {n} cases: {', '.join(spoken) or '-'}")


if __name__ == "__main__":
    given = [Path(a) for a in sys.argv[1:]]
    main(given or sorted(CASES.glob("*.json")))
