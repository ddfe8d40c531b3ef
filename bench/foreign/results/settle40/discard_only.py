"""A diagnosis after bench/foreign/results/settle40/RULE.md's verdict, on cases already seen
(not a case of any rule, nothing adopted): the rule's candidate with the drift read only at
levels that follow a discard (extra OP above 0%), the 0% level keeping the nominal sd, since its
rounds swing with the collector's bursts at the floor rather than settle.

    PYTHONPATH=python python bench/foreign/results/settle40/discard_only.py OUT_DIR \
        CASE_FOLDER=TRUTH_FILE ...

(as bench/foreign/results/settle40/predict_again.py, whose cases and output it shares).
Output: bench/foreign/results/settle40/discard-only.txt.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import predict_again  # noqa: E402
from overprov.calibrate import waf_drift  # noqa: E402

_waf_rel_sd = waf_drift.waf_rel_sd


def after_a_discard(m, level):  # type: ignore[no-untyped-def]
    """``waf_drift.waf_rel_sd``, nominal at 0%."""
    return waf_drift.NOMINAL_WAF_REL_SD if level.extra_op_percent <= 0 else _waf_rel_sd(m, level)


if __name__ == "__main__":
    waf_drift.waf_rel_sd = after_a_discard
    predict_again.main()
