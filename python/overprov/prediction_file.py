"""``prediction.json``: what ``overprov calibrate`` predicts, as typed objects, written once
through the output contract and read back through one loader. calibrate builds them
(``calibrate/predict.py``, ``calibrate/prediction.py``); the report reads them.

A :class:`Prediction` holds what calibrate states (a :class:`PredictedLevel` per level: the
figures and their interval; the fit; the :class:`ReadingFigures` it combines, each naming its
spare reading and GC design as fields; a :class:`Recommendation`) and, when built, the twins it
rests on, in memory (:class:`TwinFile`: ``calibrate.twin.TwinParameters``). Only
:meth:`Prediction.write` puts it on disk: each twin as its drive file and ``prediction.json``
as every other document is written (``outputs.document``'s envelope, ``outputs.write_json``:
atomic, no NaN), after the document is checked against its schema
(``calibrate/prediction.schema.json``, docs/json.md): a prediction that would not validate is
refused, naming the field, and nothing of it is written.

:func:`load` reads a written ``prediction.json`` back: bounded (``inputs.load_json``), checked
against its schema, so a damaged or hand-edited file is refused naming the file and the field,
never half-used; the names in ``readings`` are parsed into spare reading and GC design there,
once; a field the reader does not know is ignored.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from overprov import inputs, json_schemas, outputs
from overprov.errors import InputError, RunError

KIND = "calibrate"
MAJOR = 1
#: The document's ``schema`` (``outputs.document``'s envelope); the schema file's ``$id``.
SCHEMA = f"overprov.{KIND}/{MAJOR}"
NAME = "prediction.json"


#: The two ways of reading the spare (``spare_readings.py``): fitted, or the raw NAND's used k
#: times as well; a reading's name in ``readings`` starts with one of them.
EFFECTIVE, RAW = "effective_spare", "raw_spare"
#: A measured target's third: the spare beyond a GC reserve with a victim floor
#: (``calibrate/reserve_reading.py``).
RESERVE = "gc_reserve"
GREEDY = "greedy"


@dataclass
class PredictedLevel:
    """One row of ``levels``: the figures at one extra-OP level, each named with its unit.

    Written in field order; a field of :data:`WRITTEN_IF_SET` only when it has a figure (it
    belongs to one way of predicting). A new figure is a new field (None: not written when
    listed in :data:`WRITTEN_IF_SET`)."""

    extra_op_percent: float
    steady_iops: float | None = None
    steady_iops_low: float | None = None
    steady_iops_high: float | None = None
    waf: float | None = None
    """None only until the surrogate's WAF fills a level the twin's run gave none for."""
    p99_latency_us: float | None = None
    surrogate_iops: float | None = None
    surrogate_waf: float | None = None
    """The fitted surrogate's WAF: the twin simulated WAF-only (typed WAF figures)."""
    twin_iops: float | None = None
    analytic_iops: float | None = None
    """The analytic reading's IOPS when the blocking-GC reading was weighed with it."""
    blocking_gc_iops: float | None = None
    """The blocking-GC reading's IOPS at this level (``gc_blocking.py``)."""
    waf_low: float | None = None
    waf_high: float | None = None
    p99_latency_us_low: float | None = None
    p99_latency_us_high: float | None = None
    """Read from documents written before the twin's write buffer was read from the figures
    (``calibrate/write_buffer.py``): the lowest and highest p99 of the parts of the 2-drive-write
    latency window the twin then ran after each level; not written any more."""

    WRITTEN_IF_SET: ClassVar[frozenset[str]] = frozenset(
        {"surrogate_waf", "analytic_iops", "blocking_gc_iops", "p99_latency_us_low",
         "p99_latency_us_high"}
    )  # fmt: skip
    ORDER: ClassVar[tuple[str, ...]] = ()
    """The order the fields are written in (empty: field order); fields not named follow."""

    def to_dict(self) -> dict[str, Any]:
        names = [f.name for f in dataclasses.fields(self)]
        order = [*self.ORDER, *(n for n in names if n not in self.ORDER)]
        return {
            n: getattr(self, n)
            for n in order
            if n not in self.WRITTEN_IF_SET or getattr(self, n) is not None
        }

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> PredictedLevel:
        return cls(**_known(cls, row))


@dataclass
class CombinedLevel(PredictedLevel):
    """A level of readings combined (``spare_readings.combine``): the central figures first,
    then their intervals, as the format has written them."""

    ORDER: ClassVar[tuple[str, ...]] = (
        "extra_op_percent", "steady_iops", "waf", "p99_latency_us", "surrogate_iops",
        "steady_iops_low", "steady_iops_high", "waf_low", "waf_high", "twin_iops",
    )  # fmt: skip


@dataclass
class Recommendation:
    """The smallest extra OP predicted to sustain ``target_iops`` (:func:`recommendation`)."""

    target_iops: float | None
    extra_op_percent: float | None
    safe_extra_op_percent: float | None
    """The smallest reaching it at the interval's low end."""
    text: str


@dataclass
class ReadingFigures:
    """One reading a combined prediction rests on (``readings``): its spare reading (``spare``:
    :data:`EFFECTIVE` or :data:`RAW`) and GC design (``design``) as fields, its levels, fit,
    twin (a file name) and weight. Its name in ``readings`` is :attr:`key`."""

    spare: str
    design: str
    levels: list[PredictedLevel]
    fit: dict[str, Any]
    twin: str | None
    prediction_source: str
    gc: str
    """The garbage collection of its twin, in words."""
    weight: float | None = None
    evidence: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        """The reading's name in ``prediction.json``'s ``readings``."""
        return reading_key(self.spare, self.design)

    def to_dict(self, twin: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "levels": [lv.to_dict() for lv in self.levels],
            "fit": self.fit,
            "twin": twin,
            "prediction_source": self.prediction_source,
            "gc": self.gc,
        }
        if self.weight is not None:
            body["weight"] = self.weight
        if self.evidence is not None:
            body["evidence"] = self.evidence
        return body


@dataclass
class SetAsideReading:
    """A reading left without a twin (``readings_set_aside``): by its weight, or because the
    simulator cannot run its twin at a level asked for (``reason``)."""

    spare: str
    design: str
    gc: str
    weight: float
    evidence: dict[str, Any]
    reason: str | None = None

    @property
    def key(self) -> str:
        return reading_key(self.spare, self.design)

    def to_dict(self) -> dict[str, Any]:
        body = {"gc": self.gc, "weight": self.weight, "evidence": self.evidence}
        return body if self.reason is None else {**body, "reason": self.reason}


def reading_key(spare: str, design: str) -> str:
    """A reading's name: its spare reading, and its GC design unless greedy."""
    return spare if design == GREEDY else f"{spare}:{design}"


def _parse_key(key: str) -> tuple[str, str]:
    """(spare, design) of a reading's name in a written prediction (:func:`reading_key`)."""
    spare, _, design = key.partition(":")
    return spare, design or GREEDY


class TwinFile(Protocol):
    """A twin held in memory (``calibrate.twin.TwinParameters``), written as a drive file."""

    def write(self, path: Path, named: Path | None = None) -> Path:
        """Write it to ``path`` (atomically); its header names ``named``, the file a copy
        stands for (default: ``path``)."""
        ...


@dataclass
class Prediction:
    """What calibrate predicts (the body of ``prediction.json``) and the twins behind it.

    ``levels``, ``fit``, ``readings``: as docs/calibrate.md and the schema describe them; a
    twin is named by its file name (``twin``, each reading's ``twin``), a path only once the
    prediction is written into a folder (:meth:`document`), and as that path when read back."""

    interval: str
    prediction_source: str
    workload: str
    workload_flags: str
    waf_curve: dict[str, Any] | None
    levels: list[PredictedLevel]
    recommendation: Recommendation | None
    fit: dict[str, Any]
    twin: str | None
    measurement: dict[str, Any] | None
    readings: list[ReadingFigures] | None = None
    """The readings the levels combine, the heaviest first (None: one reading)."""
    readings_set_aside: list[SetAsideReading] | None = None
    """Readings whose weight left them without a twin (``spare_readings.read_all``)."""
    twins: dict[str, TwinFile] = field(default_factory=dict)
    """Every twin file the prediction writes, by file name (``twin`` among them); none when
    read back (:func:`load`)."""
    copies: dict[str, str] = field(default_factory=dict)
    """Twin files written as a copy of another, byte for byte (:meth:`also_as`)."""
    cliff: dict[str, Any] | None = None
    """The SLC cache's write cliff (``calibrate --cliff``, ``calibrate/cliff_prediction.py``);
    None: not asked for, and then not in the document."""
    overprov_version: str | None = None
    """The overprov that wrote the document (:func:`load`; None: not written yet). A document
    is always written with the running overprov's version."""

    def also_as(self, name: str) -> None:
        """Write the prediction's twin under ``name`` too, as a copy (first, then the twin):
        ``twin.toml`` when the raw-spare reading is the only one."""
        self.copies[name] = self.twin
        self.twins = {name: self.twins[self.twin], **self.twins}

    def document(self, folder: Path | None) -> dict[str, Any]:
        """``prediction.json``'s document; twins named as files in ``folder`` (None: nothing
        kept, no path)."""

        def path(name: str | None) -> str | None:
            return str(folder / name) if folder is not None and name is not None else None

        body: dict[str, Any] = {
            "interval": self.interval,
            "prediction_source": self.prediction_source,
            "workload": self.workload,
            "workload_flags": self.workload_flags,
            "waf_curve": self.waf_curve,
            "levels": [lv.to_dict() for lv in self.levels],
            "recommendation": (
                dataclasses.asdict(self.recommendation) if self.recommendation else None
            ),
            "fit": self.fit,
            "twin": path(self.twin),
            "measurement": self.measurement,
        }
        if self.readings is not None:
            body["readings"] = {r.key: r.to_dict(path(r.twin)) for r in self.readings}
        if self.readings_set_aside:
            body["readings_set_aside"] = {r.key: r.to_dict() for r in self.readings_set_aside}
        if self.cliff is not None:
            body["cliff"] = self.cliff
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
            self.twins[name].write(folder / name, folder / self.copies.get(name, name))
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
    bad = not_finite(doc)
    if bad is not None:
        raise RunError(
            f"{where}: {bad[0]}: {bad[1]} is not a figure; the prediction is not written"
        )
    try:
        json_schemas.validate_document(doc, SCHEMA, where)
    except InputError as exc:
        raise RunError(f"{exc}; the prediction is not written") from None


def not_finite(value: Any, where: str = "") -> tuple[str, float] | None:
    """The first number in ``value`` that is NaN or infinite, with its field path
    (``levels[1].waf``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return where.lstrip(".") or "the document", value
    if isinstance(value, dict):
        items: Any = ((f"{where}.{k}", v) for k, v in value.items())
    elif isinstance(value, list | tuple):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for path, v in items:
        found = not_finite(v, path)
        if found is not None:
            return found
    return None


def _known(cls: type, row: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``row`` that ``cls`` has (a field the reader does not know is ignored)."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in row.items() if k in names}


def load(path: Path, what: str = "calibrate prediction") -> Prediction:
    """A written ``prediction.json`` (or a calibrate folder holding one) read back: bounded
    (``inputs.load_json``), checked against its schema, as the object calibrate wrote. Twins
    are named by the paths written (none held in memory). Raises InputError naming the file
    and the field (a document of another kind: naming its ``schema``)."""
    file = path / NAME if path.is_dir() else path
    doc = inputs.load_json(file, what)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InputError(f"{file}: not a calibrate prediction (schema {SCHEMA})")
    json_schemas.validate_document(doc, SCHEMA, str(file))
    return from_document(doc)


def from_document(doc: dict[str, Any]) -> Prediction:
    """The object of a prediction document that validates (:func:`schema`)."""
    rec = doc.get("recommendation")
    readings = doc.get("readings")
    aside = doc.get("readings_set_aside")
    combined = readings is not None
    level = CombinedLevel if combined else PredictedLevel
    return Prediction(
        interval=doc["interval"],
        prediction_source=doc["prediction_source"],
        workload=doc["workload"],
        workload_flags=doc.get("workload_flags", ""),
        waf_curve=doc.get("waf_curve"),
        levels=[level.from_dict(row) for row in doc["levels"]],
        recommendation=None if rec is None else Recommendation(**_known(Recommendation, rec)),
        fit=doc["fit"],
        twin=doc["twin"],
        measurement=doc["measurement"],
        readings=None
        if readings is None
        else [
            ReadingFigures(
                *_parse_key(key),
                levels=[PredictedLevel.from_dict(row) for row in r["levels"]],
                fit=r["fit"],
                twin=r["twin"],
                prediction_source=r["prediction_source"],
                gc=r["gc"],
                weight=r.get("weight"),
                evidence=r.get("evidence"),
            )
            for key, r in readings.items()
        ],
        readings_set_aside=None
        if aside is None
        else [
            SetAsideReading(
                *_parse_key(key),
                gc=r["gc"],
                weight=r["weight"],
                evidence=r["evidence"],
                reason=r.get("reason"),
            )  # fmt: skip
            for key, r in aside.items()
        ],
        cliff=doc.get("cliff"),
        overprov_version=doc["overprov_version"],
    )
