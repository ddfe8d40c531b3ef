"""After the verdict (bench/results/cliffmix/verdict.md; not part of the rule): the held-out
cases the gate left declined ("no cliff under the mix") or off, calibrated again with
``cliff_mix.MIX_CAPPED`` off (bench/results/clifflift/RULE.md's form), to see whether the gate
is what declined them. Each case's truth and its cliff as ``bench/cliffplan_eval.py`` has them.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffmix/uncapped_after.py \
        257:0.01 257:0.03 258:0.01 259:0.01 > bench/results/cliffmix/uncapped_after.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cliffplan_eval import calibrate, single_cases, truth_cliff, written_truth
from overprov.calibrate import cliff


def uncapped(seed: int, share: float, work: Path) -> dict:
    truth, scale, path = written_truth(seed, share, work)
    pred = calibrate(path, scale, work / f"out-{seed}-{share:g}", probes=True, mix_capped=False)
    got = pred.get("purged") or {}
    true = truth_cliff(truth, float(scale), "none")
    fields = cliff.Cliff.__dataclass_fields__
    p = cliff.Cliff(**{k: got[k] for k in fields}) if "time_s" in got else None
    row = {"case": f"{seed} at {100 * share:g}%", "purged": got or pred.get("declined"),
           "true": true.to_dict() if true else None, **cliff.errors(p, true)}  # fmt: skip
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> int:
    return single_cases(uncapped, sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
