"""Task 1 of the cliffplateau brief (bench/results/cliffplateau/DIAGNOSIS.md): on the seen cases
stored by bench/results/cliffplateau/stored.py, the prediction from purged remade in-process
(``cliff_prediction.predict``, ``PROBES_IN_PREDICTION`` on) with ``cliff_fastest.LIFT_TO_FASTEST``
off (it must equal the CLI's, ``off_same_as_cli``) and on, against the truth's cliff
(``cliffplan_eval.truth_cliff`` from purged); for each, the fit, the chosen twin's fit (the
cache ``cliff.predict`` is given: its size, SLC and TLC times, the controller ceiling) and the
mixed series' cliff.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffplateau/forms.py \
        9682:0.01 9686:0.01 9687:0.01 9681:0.01 9688:0.01 > bench/results/cliffplateau/forms.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cliffplan_eval import single_cases, truth_cliff, written_truth
from cpu_clock import cpu_s
from diagnose import stored
from overprov.calibrate import cliff, cliff_fastest, cliff_prediction

HERE = Path(__file__).resolve().parent


def errors(pred: dict[str, Any] | None, true: dict[str, Any] | None) -> dict[str, Any]:
    if not pred or "time_s" not in pred or true is None:
        return {"time_error": None, "lost_error": None}
    return {"time_error": pred["time_s"] / true["time_s"] - 1,
            "lost_error": pred["lost_iops"] / true["lost_iops"] - 1}  # fmt: skip


def remade(doc: dict, drive: dict, tw_scale: str, on: bool) -> dict[str, Any]:
    """The prediction with the form ``on`` or off, and the chosen twin's fit as predicted."""
    chosen: list[dict[str, Any]] = []
    plain = cliff.predict

    def spy(twin: dict[str, Any], fit: cliff.CacheFit, scale: float, **kw: Any) -> Any:
        if kw.get("read_slot_us") is not None:
            chosen.append({
                "cache_bytes": fit.cache_bytes, "slc_program_us": fit.slc_program_us,
                "tlc_program_us": fit.tlc_program_us,
                "controller_iops": cliff_prediction.controller_ceiling_iops(twin),
            })  # fmt: skip
        return plain(twin, fit, scale, **kw)

    flags = cliff_prediction.PROBES_IN_PREDICTION, cliff_fastest.LIFT_TO_FASTEST
    cliff_prediction.PROBES_IN_PREDICTION, cliff_fastest.LIFT_TO_FASTEST = True, on
    cliff.predict = spy
    try:
        p = cliff_prediction.predict(doc, drive, tw_scale)
    finally:
        cliff.predict = plain
        cliff_prediction.PROBES_IN_PREDICTION, cliff_fastest.LIFT_TO_FASTEST = flags
    return {"fit": p.get("fit"), "declined": p.get("declined"),
            "controller_lift": p.get("controller_lift"),
            "selection": p.get("read_probes_selection"), "chosen_fit": chosen[:1],
            "purged": p.get("purged")}  # fmt: skip


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    doc, drive, tw_scale = stored(seed, share)
    cli = json.loads((HERE / "stored" / f"{seed}-{share:g}" / "prediction.json").read_text())
    c = truth_cliff(truth, float(scale), "none")
    true = c.to_dict() if c is not None else None
    off = remade(doc, drive, tw_scale, False)
    on = remade(doc, drive, tw_scale, True)
    row = {
        "case": f"{seed} at {100 * share:g}%", "true": true,
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "off_same_as_cli": off["purged"] == cli.get("purged"),
        "off": {**off, **errors(off["purged"], true)},
        "on": {**on, **errors(on["purged"], true)}, "cpu_s": round(cpu_s() - t0, 1),
    }  # fmt: skip
    print(json.dumps({"case": row["case"], "off": row["off"]["time_error"],
                      "on": [row["on"]["time_error"], row["on"]["lost_error"]],
                      "on_declined": on["declined"] or (on["purged"] or {}).get("declined")}),
          file=sys.stderr, flush=True)  # fmt: skip
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
