"""bench/results/cliff3level/RULE.md's runs: bench/results/cliffslot/judge.py's (each case
calibrated once through the CLI with the defaults, ``off``; ``on`` the prediction from purged
made again in this process with ``PROBES_IN_PREDICTION`` and ``cliff_slot.SLOT_FROM_LOAD`` on),
here with ``cliff_slot.BEFORE_FROM_LOAD`` set in this process too, so that ``on`` is the joint
arm (the CLI's process, ``off``, keeps every flag at its default); a seen case kept under
bench/results/cliff3level/stored/ read from there too. The clauses are
bench/results/cliffloss/judge.py's ``decide`` (F, N, S and the pooled target with the flags).
Run by bench/results/cliff3level/run.sh (its three commands, as cliffslot's).
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov.calibrate import cliff_slot

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
slot = load_script("cliffslot_judge", HERE.parent / "cliffslot" / "judge.py")
kept = slot._stored  # noqa: SLF001 - cliffslot's and cliffloss's kept calibrations


def _stored(seed: int, share: float) -> Path | None:
    keep = HERE / "stored" / f"{seed}-{share:g}"
    return keep if (keep / "prediction.json").exists() else kept(seed, share)


if __name__ == "__main__":
    cliff_slot.BEFORE_FROM_LOAD = True  # acts only where SLOT_FROM_LOAD is set: the ``on`` arm
    slot._stored = _stored  # noqa: SLF001
    raise SystemExit(slot.main())
