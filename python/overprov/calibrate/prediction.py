"""calibrate's answer as one object: a :class:`~overprov.prediction_file.Prediction`, written
once through the output contract.

The prediction's types, its document, its writer and its loader are ``overprov.prediction_file``'s
(below calibrate, so the report reads them too; named here for calibrate's modules). Here, what
only calibrate does to build one: the ``measurement`` it records and the recommendation it
draws from the levels. Its readers (``summary.py``, ``plausibility.py``, ``chart.py``) take the
object, built or read back (``prediction_file.load``).
"""

from __future__ import annotations

from typing import Any

from overprov.calibrate import stopped_early
from overprov.measurement_file import Measurement
from overprov.prediction_file import (
    EFFECTIVE,
    GREEDY,
    NAME,
    RAW,
    RESERVE,
    SCHEMA,
    CombinedLevel,
    PredictedLevel,
    Prediction,
    ReadingFigures,
    Recommendation,
    SetAsideReading,
    check,
    load,
    reading_key,
    schema,
)

#: What calibrate's modules take from here, ``prediction_file``'s among them.
__all__ = [
    "EFFECTIVE", "GREEDY", "NAME", "RAW", "RESERVE", "SCHEMA", "CombinedLevel", "PredictedLevel",
    "Prediction", "ReadingFigures", "Recommendation", "SetAsideReading", "check", "load",
    "measurement_summary", "reading_key", "recommendation", "schema",
]  # fmt: skip


def measurement_summary(m: Measurement | None) -> dict[str, Any] | None:
    """The measurement behind a prediction, as ``prediction.json``'s ``measurement``."""
    if m is None:
        return None
    return {
        "target": m.target,
        "capacity_bytes": m.capacity_bytes,
        "scale_factor": m.scale_factor,
        "drive_writes": m.drive_writes,
        "bytes_written": m.bytes_written,
        "io_seconds": m.io_seconds / m.scale_factor,
        "io_seconds_note": (
            "device I/O time of the full-size drive (the scaled simulation's time ÷ its scale "
            "factor: same drive writes at the same IOPS)"
            if m.scale_factor < 1
            else "device I/O time of the measurement"
        ),
        "fob_iops": m.fob_iops,
        "write_counters": m.counters,
        "levels": [
            {
                "extra_op_percent": lv.extra_op_percent,
                "steady_iops": lv.steady_iops,
                "waf": lv.waf,
                "p99_latency_us": lv.p99_latency_us,
                "settled": lv.settled,
                "drive_writes": lv.drive_writes,
                "queue_depth": lv.queue_depth or m.qd,
            }
            for lv in m.levels
        ],
        "stop_reason": m.stop_reason,
        "warning": stopped_early.warning(m),
    }


def recommendation(levels: list[PredictedLevel], target_iops: float | None) -> Recommendation:
    """The smallest extra OP predicted to sustain ``target_iops`` (and at the interval's low
    end)."""
    if target_iops is None:
        return Recommendation(None, None, None, "no --target-iops given")
    expected = next(
        (lv.extra_op_percent for lv in levels if (lv.steady_iops or 0) >= target_iops), None
    )
    safe = next(
        (lv.extra_op_percent for lv in levels if (lv.steady_iops_low or 0) >= target_iops), None
    )
    if expected is None:
        text = f"no level up to {levels[-1].extra_op_percent:g}% is predicted to reach it"
    else:
        text = f"{expected:g}% extra OP is predicted to reach {target_iops:,.0f} IOPS"
        text += (
            f"; {safe:g}% reaches it even at the interval's low end"
            if safe is not None
            else "; no level reaches it at the interval's low end"
        )
    return Recommendation(target_iops, expected, safe, text)
