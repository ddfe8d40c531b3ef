"""bench/foreign/results/dhara10/'s cases: metafactor's "WAF 0+40" with the truth's FOB WAF
typed (bench/foreign/results/metafactor/case.py, reused) under one arm, and the tables.

    PYTHONPATH=python python bench/foreign/results/dhara10/case.py run ARM TRUTH.json [seen]
    PYTHONPATH=python python bench/foreign/results/dhara10/case.py table [seen]
    PYTHONPATH=python python bench/foreign/results/dhara10/case.py groups

ARM "today" (the defaults: the FOB WAF typed, not applied), "floor" (dharafloor's flags,
``metadata_factor.ENABLED`` and ``reserve_hull.FACTOR_READS_FLOOR``, under today's defaults)
or "paced" (``metadata_factor.ENABLED`` and ``paced_journal.ON``:
python/overprov/calibrate/paced_journal.py).
`run` writes ARM/STEM.json (with ``seen``: seen/ARM/STEM.json, the diagnosis on the 21 seen
drives, which no clause reads); `table` prints the arms per truth and the pooled counts
(metafactor's ``table``); `groups` the rule's counts (fresh Dhara, sssl-ftlsim, the sample).
Run from the worktree root.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

os.environ["TALLY_DIR"] = str(HERE)
metafactor = load_script("dhara10_metafactor_case", HERE.parent / "metafactor" / "case.py")
FLOOR = "metadata_factor.ENABLED=True;reserve_hull.FACTOR_READS_FLOOR=True"
metafactor.ARMS.clear()
PACED = "metadata_factor.ENABLED=True;paced_journal.ON=True"
metafactor.ARMS.update({"today": "", "floor": FLOOR, "paced": PACED})


def groups() -> None:
    """The rule's counts: per arm, the fresh Dhara drives and the sssl-ftlsim truths apart (met,
    80% coverage of the unfitted levels), and the sample of the 72 (sample-ARM/: both targets
    met per case, run.py's ``summary``)."""
    tally = metafactor.tally
    print("| group | arm | truths | met | unfitted levels in the 80% interval, median width |")
    print("|---|---|---|---|---|")
    for group, pick in (("Dhara V-Y", "dhara-"), ("sssl-ftlsim", "sssl-")):
        for arm in ("today", "paced"):
            cs = [
                json.loads(p.read_text())["result"] for p in sorted((HERE / arm).glob(pick + "*"))
            ]
            met = sum(c["summary"]["met"] for c in cs)
            cover = tally.cover_text(tally.unfitted(cs))
            print(f"| {group} | {arm} | {len(cs)} | {met} of {len(cs)} | {cover} |")
    print("\n| sample case | today: met (IOPS median / worst, WAF worst) | paced: the same |")
    print("|---|---|---|")
    cell = lambda d: (  # noqa: E731
        f"{'**met**' if d['summary']['met'] else 'not met'} "
        + "/".join("-" if d["summary"].get(k) is None else f"{100 * d['summary'][k]:.1f}%"
                   for k in ("iops_median", "iops_worst", "waf_worst"))
    )  # fmt: skip
    for p in sorted((HERE / "sample-today").glob("*.json")):
        other = HERE / "sample-paced" / p.name
        today = json.loads(p.read_text())
        paced = cell(json.loads(other.read_text())) if other.exists() else "-"
        print(f"| {p.stem} | {cell(today)} | {paced} |")


if __name__ == "__main__":
    ARGS = sys.argv[1:]
    ROOT = HERE / "seen" if ARGS[-1:] == ["seen"] else HERE
    ARGS = ARGS[:-1] if ROOT != HERE else ARGS
    if ARGS == ["groups"]:
        groups()
    elif len(ARGS) == 1 and ARGS[0] == "table":
        metafactor.table(ROOT)
    elif len(ARGS) == 3 and ARGS[0] == "run" and ARGS[1] in metafactor.ARMS:
        metafactor.run(ARGS[1], Path(ARGS[2]), ROOT)
    else:
        raise SystemExit(__doc__)
