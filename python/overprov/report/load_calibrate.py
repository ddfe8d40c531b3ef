"""A calibrate folder (``overprov calibrate --out DIR``: ``prediction.json``, schema
``overprov.calibrate/1``, docs/calibrate.md) as one :class:`Source` of kind "calibrate", read
through ``prediction_file.load`` (bounded, schema checked) into the objects calibrate wrote.

A calibration is a prediction, not a measurement: its levels are kept apart (``prediction``)
and never mixed with measured or simulated phases; the report draws them in a section of their
own — the measured points, the predicted curve and its band.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov import inputs, measurement_file, prediction_file
from overprov.errors import InputError
from overprov.prediction_file import Prediction
from overprov.report.model import ReportInputError, Source, kv, number, scale_text
from overprov.units import human_bytes, human_seconds


def load_calibrate(path: Path) -> Source:
    """``path``: a calibrate folder or its prediction.json. Raises ReportInputError for a file
    of another schema or one its schema refuses, naming the file and the field."""
    file = path / prediction_file.NAME if path.is_dir() else path
    try:
        pred = prediction_file.load(file)
    except InputError as exc:
        raise ReportInputError(str(exc)) from None
    twin_source, twin_desc = _twin(pred.twin, file.parent)
    measured_on = twin_source.removeprefix("calibrated on ") if twin_source else ""
    sim_drive = (
        measured_on.removeprefix("sim:").split("@")[0] if measured_on.startswith("sim:") else None
    )
    fit = pred.fit
    m = pred.measurement or {}
    cost = None
    if m:
        cost = (
            f"{number(m.get('drive_writes')) or 0:.2f} drive writes, "
            f"{human_bytes(number(m.get('bytes_written')))}, "
            f"{human_seconds(number(m.get('io_seconds')))} of I/O"
        )
    mtime = datetime.fromtimestamp(os.stat(file).st_mtime, tz=UTC)
    label = f"calibration {file.parent.name}"
    source = Source(
        kind="calibrate",
        path=file,
        label=label,
        title=f"prediction of overprov calibrate ({file.parent.name})",
        status="complete",
        date=f"file written {mtime:%Y-%m-%d %H:%M} UTC",
        phases=[],
        identity=kv(
            [
                ("calibrated on", measured_on or twin_source or None),
                ("twin", pred.twin),
                ("twin description", twin_desc),
                (
                    "fit",
                    f"native OP {100 * fit['native_op']:.1f}%"
                    if number(fit.get("native_op")) is not None
                    else None,
                ),
            ]
        ),
        settings=kv(
            [
                ("workload", pred.workload),
                ("predicted from", pred.prediction_source),
                ("interval", pred.interval),
                ("measurement cost", cost),
            ]
        ),
        software={"overprov": str(pred.overprov_version)},
        simulated=sim_drive is not None,
        sim_drive=sim_drive,
        sim_scale=scale_text(sim_drive, measured_on.split("@", 1)[1])
        if sim_drive and "@" in measured_on
        else None,
        sim_basis="illustrative" if sim_drive else None,
        comparison_keys={"method": "calibrate (prediction)"},
    )
    source.prediction = pred
    source.measured_levels = _measured_levels(pred, file.parent, source.notes)
    return source


MEASURED_KEYS = ("extra_op_percent", "steady_iops", "waf", "p99_latency_us")


def _measured_levels(pred: Prediction, folder: Path, notes: list[str]) -> list[dict[str, Any]]:
    """The levels calibrate measured: from ``measurement.json`` beside the prediction (steady
    IOPS, WAF and p99 latency over each level's window), else the fit's own record of them
    (``fit.twin_check``: IOPS and WAF, no latency)."""
    path = folder / measurement_file.NAME
    if path.is_file():
        try:
            m = measurement_file.load(path)
        except InputError as exc:
            notes.append(f"its measurement could not be read, no measured figure is shown: {exc}")
        else:
            return [  # at the plan's queue depth: the QD4 probe is not a point of this curve
                {k: getattr(lv, k) for k in MEASURED_KEYS} for lv in m.levels if not lv.queue_depth
            ]
    checks = pred.fit.get("twin_check") or []
    return [
        {
            "extra_op_percent": float(c["extra_op_percent"]),
            "steady_iops": number(c.get("measured_iops")),
            "waf": number(c.get("measured_waf")),
            "p99_latency_us": None,
        }
        for c in checks
        if isinstance(c, dict) and number(c.get("extra_op_percent")) is not None
    ]


def _twin(path: Any, folder: Path) -> tuple[str, str]:
    """The twin drive file's ``source`` and ``description`` ("" when it cannot be read)."""
    if not isinstance(path, str) or not path:
        return "", ""
    twin = Path(path)
    if not twin.is_absolute() and not twin.exists():
        twin = folder / twin.name
    try:
        doc = inputs.load_toml(twin, "drive file")
    except InputError:
        return "", ""
    return str(doc.get("source") or ""), str(doc.get("description") or "")
