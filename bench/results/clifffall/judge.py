"""bench/results/clifffall/RULE.md's runs: bench/results/cliffsmall/judge.py (its cases, the
CLI's calibration with every flag at its default, the truth, the in-process arms, the verdict
and its output, all unchanged) with ``cliff_at_cache.AT_CACHE`` as the arm ``on`` (off in
``off``) in place of ``cliff_span.SPAN_FROM_MIX`` (off in both, as by default).

    PYTHONPATH=python:bench nice -n 10 python bench/results/clifffall/judge.py \
        FRESH_SEEDS:SHARE,... --harm 9601:0.01,... > bench/results/clifffall/runs.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

from overprov.calibrate import cliff_at_cache, cliff_prediction

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cliffsmall"))
import judge as small  # noqa: E402 - bench/results/cliffsmall/judge.py


def _predict(doc: dict, drive: dict, tw_scale: float, span: bool) -> dict[str, Any]:
    """The prediction from purged, the read probes on and the cliff dated at the cache (``span``
    is cliffsmall's name for the arm)."""
    at, probes = (patch.object(m, k, v) for m, k, v in (
        (cliff_at_cache, "AT_CACHE", span), (cliff_prediction, "PROBES_IN_PREDICTION", True)
    ))  # fmt: skip
    with at, probes:
        return cliff_prediction.predict(doc, drive, tw_scale)


small._predict = _predict  # noqa: SLF001 - the arm

if __name__ == "__main__":
    raise SystemExit(small.main())
