"""The stored half B's measurements repredicted by bench/results/burststart/RULE.md (condition 4):
for each half-B truth file (``tabulate.halves``), the first measurement in
bench/results/probe40/diagnose.json's order whose 40% level is read over bursts
(``burst_start.later_stretch`` finds its stretch); one ``CASE TRUTH NAME`` line each.

    PYTHONPATH=python python bench/results/burststart/stored_half.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_start

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
tabulate = load_script("tabulate", HERE / "tabulate.py")


def chosen() -> list[tuple[str, str]]:
    diag = json.loads(tabulate.DIAGNOSE.read_text())
    half = tabulate.halves(diag)
    out: dict[str, str] = {}
    for d in diag:
        t = d["truth_path"]
        if not t or half[t] != "B" or t in out:
            continue
        m = measurement_file.load(Path(d["case"]) / measurement_file.NAME)
        later = [lv for lv in m.levels if lv.queue_depth is None and lv is not m.levels[0]]
        if later and burst_start.later_stretch(m, later[-1]) is not None:
            out[t] = d["case"]
    return [(case, t) for t, case in sorted(out.items())]


def main() -> int:
    for case, truth in chosen():
        print(case, truth, Path(case).name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
