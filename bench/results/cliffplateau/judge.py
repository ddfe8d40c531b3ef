"""bench/results/cliffplateau/RULE.md's runs: bench/results/cliffsmall/judge.py's cases, verdict
and output unchanged, with its arm ``on`` being ``cliff_fastest.LIFT_TO_FASTEST`` instead of
``cliff_span.SPAN_FROM_MIX`` (that flag off in both arms, as by default). Each case is calibrated
once as ``bench/cliffplan_eval.py --probes-in-prediction`` runs it (the CLI, both forms off: the
flags' defaults), its truth's cliff under QD8 70% reads from purged (``truth_cliff``), and the
prediction from purged made again in this process from the run's measurement and twin.toml with
``PROBES_IN_PREDICTION`` on, the form off (``off``: it must equal the CLI's, ``off_same_as_cli``)
and on (``on``); each against the truth as ``cliffplan_eval.check_verdict`` counts; the rule's
conditions (``decision``: ``P1_P2_met_on``, ``H1_met``, ``H2_met``, ``flag_on``).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffplateau/judge.py \
        FRESH_SEEDS:SHARE,... --harm 9601:0.01,... > bench/results/cliffplateau/runs.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

from overprov.calibrate import cliff_fastest, cliff_prediction

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cliffsmall"))
import judge as small  # noqa: E402 - bench/results/cliffsmall/judge.py


def _predict(doc: dict, drive: dict, tw_scale: float, span: bool) -> dict[str, Any]:
    """The prediction from purged with the read probes, ``LIFT_TO_FASTEST`` = ``span`` (the
    name is cliffsmall's arm: off or on)."""
    with (
        patch.object(cliff_prediction, "PROBES_IN_PREDICTION", True),
        patch.object(cliff_fastest, "LIFT_TO_FASTEST", span),
    ):
        return cliff_prediction.predict(doc, drive, tw_scale)


small._predict = _predict  # noqa: SLF001 - the one arm that differs

if __name__ == "__main__":
    raise SystemExit(small.main())
