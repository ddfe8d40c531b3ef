"""calibrate's answer as one object: a :class:`Prediction`, written once through the output
contract.

A prediction holds what calibrate states (the figures at every level, their interval, the fit,
the readings it combines) and the twins it rests on, in memory (``twin.TwinParameters``). Only
:meth:`Prediction.write` puts it on disk: each twin as its drive file (``twin.write``) and
``prediction.json`` as every other document is written (``outputs.document``'s envelope,
``outputs.write_json``: atomic, no NaN), after the document is checked against its schema
(``calibrate/prediction.schema.json``, docs/json.md): a prediction that would not validate is
refused, naming the field, and nothing of it is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overprov import json_schemas, outputs
from overprov.calibrate import twin as twinmod
from overprov.errors import InputError, RunError
from overprov.measurement_file import Measurement

KIND = "calibrate"
MAJOR = 1
#: The document's ``schema`` (``outputs.document``'s envelope); the schema file's ``$id``.
SCHEMA = f"overprov.{KIND}/{MAJOR}"
NAME = "prediction.json"


@dataclass
class Prediction:
    """What calibrate predicts (the body of ``prediction.json``) and the twins behind it.

    ``levels``, ``fit``, ``readings``: as docs/calibrate.md and the schema describe them; a
    twin is named by its file name (``twin``, each reading's ``twin``), a path only once the
    prediction is written into a folder (:meth:`document`)."""

    interval: str
    prediction_source: str
    workload: str
    workload_flags: str
    waf_curve: dict[str, Any] | None
    levels: list[dict[str, Any]]
    recommendation: dict[str, Any] | None
    fit: dict[str, Any]
    twin: str
    measurement: dict[str, Any] | None
    readings: dict[str, dict[str, Any]] | None = None
    readings_set_aside: dict[str, dict[str, Any]] | None = None
    """Readings whose weight left them without a twin (``spare_readings.read_all``)."""
    twins: dict[str, twinmod.TwinParameters] = field(default_factory=dict)
    """Every twin file the prediction writes, by file name (``twin`` among them)."""
    copies: dict[str, str] = field(default_factory=dict)
    """Twin files written as a copy of another, byte for byte (:meth:`also_as`)."""

    def also_as(self, name: str) -> None:
        """Write the prediction's twin under ``name`` too, as a copy (first, then the twin):
        ``twin.toml`` when the raw-spare reading is the only one."""
        self.copies[name] = self.twin
        self.twins = {name: self.twins[self.twin], **self.twins}

    def document(self, folder: Path | None) -> dict[str, Any]:
        """``prediction.json``'s document; twins named as files in ``folder`` (None: nothing
        kept, no path)."""

        def path(name: str) -> str | None:
            return str(folder / name) if folder is not None else None

        body: dict[str, Any] = {
            "interval": self.interval,
            "prediction_source": self.prediction_source,
            "workload": self.workload,
            "workload_flags": self.workload_flags,
            "waf_curve": self.waf_curve,
            "levels": self.levels,
            "recommendation": self.recommendation,
            "fit": self.fit,
            "twin": path(self.twin),
            "measurement": self.measurement,
        }
        if self.readings is not None:
            body["readings"] = {
                key: {**r, "twin": path(r["twin"])} for key, r in self.readings.items()
            }
        if self.readings_set_aside:
            body["readings_set_aside"] = self.readings_set_aside
        return outputs.document(KIND, body, MAJOR)

    def twin_files(self) -> list[str]:
        """The twin files :meth:`write` writes (``twin`` among them)."""
        return list(self.twins)

    def write(self, folder: Path) -> list[Path]:
        """Write the twins and ``prediction.json`` into ``folder`` (the document checked first:
        nothing is written when it fails); returns the files written, in order."""
        doc = self.document(folder)
        check(doc, str(folder / NAME))
        written = [
            twinmod.write(folder / name, self.twins[name], folder / self.copies.get(name, name))
            for name in self.twin_files()
        ]
        outputs.write_json(doc, folder / NAME)
        return [*written, folder / NAME]

    def write_json(self, path: str, folder: Path | None) -> None:
        """``--json FILE|-``: the document (twins named in ``folder``), checked, then written."""
        doc = self.document(folder)
        check(doc, "--json -" if path == outputs.STDOUT else path)
        outputs.write_json(doc, path)


def schema() -> dict[str, Any]:
    """The JSON Schema of ``prediction.json`` (``calibrate/prediction.schema.json``)."""
    return json_schemas.schema(SCHEMA)


def check(doc: dict[str, Any], where: str) -> None:
    """Refuse (RunError) a prediction document that is not one: a number that is not finite,
    or a field its schema refuses (missing, of the wrong kind), naming the field."""
    bad = _not_finite(doc, "")
    if bad is not None:
        raise RunError(
            f"{where}: {bad[0]}: {bad[1]} is not a figure; the prediction is not written"
        )
    try:
        json_schemas.validate_document(doc, SCHEMA, where)
    except InputError as exc:
        raise RunError(f"{exc}; the prediction is not written") from None


def _not_finite(value: Any, where: str) -> tuple[str, float] | None:
    """The first number in ``value`` that is NaN or infinite, with its field path."""
    if isinstance(value, float) and not math.isfinite(value):
        return where.lstrip(".") or "the document", value
    if isinstance(value, dict):
        items: Any = ((f"{where}.{k}", v) for k, v in value.items())
    elif isinstance(value, list | tuple):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for path, v in items:
        found = _not_finite(v, path)
        if found is not None:
            return found
    return None


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
    }


def recommendation(levels: list[dict[str, Any]], target_iops: float | None) -> dict[str, Any]:
    """The smallest extra OP predicted to sustain ``target_iops`` (and at the interval's low
    end)."""
    if target_iops is None:
        return {"target_iops": None, "extra_op_percent": None, "safe_extra_op_percent": None,
                "text": "no --target-iops given"}  # fmt: skip
    expected = next(
        (lv["extra_op_percent"] for lv in levels if (lv["steady_iops"] or 0) >= target_iops), None
    )
    safe = next(
        (lv["extra_op_percent"] for lv in levels if (lv["steady_iops_low"] or 0) >= target_iops),
        None,
    )
    if expected is None:
        text = f"no level up to {levels[-1]['extra_op_percent']:g}% is predicted to reach it"
    else:
        text = f"{expected:g}% extra OP is predicted to reach {target_iops:,.0f} IOPS"
        text += (
            f"; {safe:g}% reaches it even at the interval's low end"
            if safe is not None
            else "; no level reaches it at the interval's low end"
        )
    return {
        "target_iops": target_iops,
        "extra_op_percent": expected,
        "safe_extra_op_percent": safe,
        "text": text,
    }
