"""bench/foreign/results/dharafloor/RULE.md's cases: metafactor's "WAF 0+40" with the truth's
FOB WAF typed (bench/foreign/results/metafactor/case.py, reused) under arm "today" or "floor",
and the verdict's table.

    PYTHONPATH=python python bench/foreign/results/dharafloor/case.py run ARM TRUTH.json
    PYTHONPATH=python python bench/foreign/results/dharafloor/case.py table

ARM "today" (the defaults) or "floor" (``metadata_factor.ENABLED`` and
``reserve_hull.FACTOR_READS_FLOOR`` on). `run` writes ARM/STEM.json; `table` prints both arms
per truth and the pooled counts (metafactor's ``table``). Run from the worktree root.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

os.environ["TALLY_DIR"] = str(HERE)
metafactor = load_script("dharafloor_metafactor_case", HERE.parent / "metafactor" / "case.py")
metafactor.ARMS.clear()
metafactor.ARMS.update({
    "today": "",
    "floor": "metadata_factor.ENABLED=True;reserve_hull.FACTOR_READS_FLOOR=True",
})  # fmt: skip

if __name__ == "__main__":
    ARGS = sys.argv[1:]
    if ARGS == ["table"]:
        metafactor.table(HERE)
    elif len(ARGS) == 3 and ARGS[0] == "run" and ARGS[1] in metafactor.ARMS:
        metafactor.run(ARGS[1], Path(ARGS[2]), HERE)
    else:
        raise SystemExit(__doc__)
