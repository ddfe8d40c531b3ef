"""The fresh MQSim drives of bench/foreign/results/mqlockstep/RULE.md: mqskip's ``run_fresh.py``
(one ``mqsim.py`` run a level under ``nice -n 15``, merged by ``merge.py``, a line a run with its
CPU seconds in ``fresh/runs.log``) writing into this folder's ``fresh/``.

    python bench/foreign/results/mqlockstep/run_fresh.py --binary PATCHED/MQSim --work DIR \\
        u832x32 u1408x16
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
mqskip = load_script("mqskip_run_fresh", HERE.parent / "mqskip" / "run_fresh.py")
mqskip.HERE = HERE  # its runs land in this folder's fresh/

if __name__ == "__main__":
    raise SystemExit(mqskip.main())
