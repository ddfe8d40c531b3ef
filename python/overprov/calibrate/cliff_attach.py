"""The SLC cliff a calibration measured (``cliff_step``), predicted on the prediction's own twin
(``cliff_prediction.predict``) and attached to it: ``prediction.json``'s ``cliff`` and the fitted
cache in the twin file's notes. Apart from ``cliff_prediction`` so that module needs no twin (the
twin's module imports the plan's measurement, which runs the cliff step)."""

from __future__ import annotations

from typing import Any

from overprov.calibrate import cliff_prediction, cliff_step
from overprov.calibrate import twin as twinmod


def attach(pred: Any, doc: dict[str, Any]) -> None:
    """Predict the cliff of the step's measurement ``doc`` on ``pred``'s twin (a calibrate
    ``Prediction``) into ``pred.cliff``, and the fitted cache into the twin's notes."""
    p = pred.twins.get(pred.twin) if pred.twin else None
    if not isinstance(p, twinmod.TwinParameters):
        plan = cliff_step.CliffPlan.from_dict(doc["plan"])
        pred.cliff = {
            "workload": plan.workload.to_doc(),
            "read_probes": cliff_prediction.READ_PROBES_NOTE,
            "fit": None, "purged": None, "filled": None,
            "declined": "no twin held in memory to fit the cache on",
        }  # fmt: skip
        return
    pred.cliff = cliff_prediction.predict(doc, twinmod.drive_dict(p), twinmod.sim_scale(
        twinmod.twin_advertised_bytes(p), p.native_op))  # fmt: skip
    note = cliff_prediction.twin_note(pred.cliff)
    if note is not None:
        p.cliff = note
