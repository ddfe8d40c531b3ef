"""The fresh MQSim drives of bench/foreign/results/eraseall/RULE.md: mqskip's ``run_fresh.py``
(one ``mqsim.py`` run a level under ``nice -n 15``, merged by ``merge.py``, a line a run with its
CPU seconds in ``fresh/runs.log``) writing into this folder's ``fresh/``.

    python bench/foreign/results/eraseall/run_fresh.py --binary PATCHED/MQSim --work DIR u960x16
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "mqskip_run_fresh", HERE.parent / "mqskip" / "run_fresh.py"
)
mqskip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mqskip)
mqskip.HERE = HERE  # its runs land in this folder's fresh/

if __name__ == "__main__":
    raise SystemExit(mqskip.main())
