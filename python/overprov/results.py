"""results.json (versioned, schema-checked), CSV per phase, and the recommendation.

The schema is ``schemas/results.schema.json`` and is documented in
docs/results-schema.md. ``SCHEMA_VERSION`` changes when a field changes meaning or is removed;
adding an optional field does not.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from overprov.errors import ConfigError, RunError
from overprov.fio import PERCENTILES, percentile_key
from overprov.inputs import load_json
from overprov.outputs import json_text, naming, write_atomic

FORMAT = "overprov-profile-results"
#: The envelope every overprov JSON document starts with (docs/json.md).
SCHEMA = "overprov.profile/2"
SCHEMA_VERSION = 2
#: Version 1 named fields in other words; reading one renames them (``upgrade``).
RENAMED_IN_VERSION_2 = {
    "op_percent": "extra_op_percent",
    "op_percents": "extra_op_percents",
    "min_phase_writes": "min_phase_drive_writes",
    "duration_s": "duration_seconds",
    "bytes_per_s": "bytes_per_second",
}
SCHEMA_PATH = Path(__file__).parent / "schemas" / "results.schema.json"

KNEE_MIN_POINTS = 3
KNEE_MIN_GAIN = 0.10
"""Below this relative IOPS gain (largest over smallest-OP steady IOPS), OP "buys little"."""
KNEE_MIN_DISTANCE = 0.05
"""The knee must lie at least this far above the chord of the normalised curve."""


@cache
def load_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


def validate(doc: Mapping[str, Any], name: str = "results.json") -> None:
    """Raise ConfigError naming the first field that breaks the schema, after ``name`` (the
    file's path where there is one)."""
    _raise_first_error(doc, load_schema(), name)


def _raise_first_error(
    doc: Mapping[str, Any], schema: Mapping[str, Any], name: str = "results.json"
) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        raise ConfigError(f"{name}: {where}: {err.message}")


PER_FIELD_KEYWORDS = {"$schema", "$id", "title", "description", "type", "required",
                      "properties", "$defs"}  # fmt: skip
"""Top-level schema keywords that check nothing across fields."""


@cache
def _fields_schema() -> dict[str, Any] | None:
    """The schema without its top-level ``required``, for a document of some of the fields;
    None unless a document is valid exactly when it has the required fields and each field
    is valid on its own, and ``phases`` when each phase is (the schema's keywords say so)."""
    schema = load_schema()
    if not set(schema) <= PER_FIELD_KEYWORDS or set(schema["properties"]["phases"]) != {
        "type",
        "items",
    }:
        return None
    return {k: v for k, v in schema.items() if k != "required"}


def _changed_fields(
    view: dict[str, Any], valid: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The part of ``view`` whose JSON text is not the one ``valid`` holds (a text found valid
    before; a phase at a time, ``phases/N``), and every field's text now; None when the
    document lacks a required field or is not JSON (it is checked whole)."""
    if (
        _fields_schema() is None
        or any(k not in view for k in load_schema()["required"])
        or not isinstance(view["phases"], list)
    ):
        return None
    try:
        texts = {k: json.dumps(v) for k, v in view.items() if k != "phases"}
        texts.update({f"phases/{i}": json.dumps(p) for i, p in enumerate(view["phases"])})
    except (TypeError, ValueError):
        return None
    part = {k: v for k, v in view.items() if k != "phases" and valid.get(k) != texts[k]}
    part["phases"] = [
        p for i, p in enumerate(view["phases"]) if valid.get(f"phases/{i}") != texts[f"phases/{i}"]
    ]
    return part, texts


def validate_new_rounds(
    doc: Mapping[str, Any], checked: set[int], valid_fields: dict[str, str] | None = None
) -> None:
    """:func:`validate` for a document saved again and again as rounds are appended: every
    field, and of the phases' rounds those not in ``checked`` (ids of round records checked
    by an earlier call; the new ones are added). A round's record is never changed once
    appended, so each round checked once keeps every saved document valid, where checking
    all of them at every save cost O(rounds²) over a run.

    ``valid_fields`` (kept by the caller from save to save, empty at first): the JSON text of
    each top-level field and each phase (its checked rounds left out) as last found valid; a
    field or phase whose text is the same is not checked again (a save changes the time, the
    totals and the running phase; checking the rest again was most of a save's time)."""
    phases = [
        {**p, "rounds": [r for r in p.get("rounds", []) if id(r) not in checked]}
        for p in doc.get("phases", [])
    ]
    view = {**doc, "phases": phases}
    changed = None if valid_fields is None else _changed_fields(view, valid_fields)
    try:
        if changed is None:
            validate(view)
        else:
            _raise_first_error(changed[0], _fields_schema() or {})
    except ConfigError:
        validate(doc)  # the error again, naming the round's place in the whole document
        raise
    checked.update(id(r) for p in doc.get("phases", []) for r in p.get("rounds", []))
    if valid_fields is not None:
        valid_fields.clear()
        if changed is not None:
            valid_fields.update(changed[1])


def write_json_atomic(path: Path, doc: Mapping[str, Any]) -> None:
    write_atomic(path, json_text(doc))


def write_json_last(path: Path, doc: Mapping[str, Any]) -> None:
    """How a run's last document (failed, interrupted) reaches the disk even when the disk
    is full: atomically if it can be; else, when it fits, over the old file in place,
    without indentation and padded with spaces to the old length, so the blocks the old file
    holds suffice (the compact text is about half the indented one). A crash during that
    overwrite would leave the file cut, which is why it is only the fallback."""
    try:
        write_json_atomic(path, doc)
        return
    except (OSError, RunError) as exc:
        data = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        old = path.stat().st_size if path.is_file() else 0
        if len(data) > old:
            raise exc from None  # it would not fit in the old file's blocks
    with naming(path):
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            data += b" " * (old - len(data))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)


def upgrade(doc: Any) -> Any:
    """A results document of an older schema version in this version's words (a new object;
    the file is not touched). Version 1 differed only in field names (``RENAMED_IN_VERSION_2``:
    units and extra OP named as in every other overprov document, docs/json.md). Anything else
    (not a profile, a newer version) is returned as it is, for the caller to refuse."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("schema_version") != 1:
        return doc

    def renamed(item: Any) -> Any:
        if isinstance(item, dict):
            return {RENAMED_IN_VERSION_2.get(k, k): renamed(v) for k, v in item.items()}
        if isinstance(item, list):
            return [renamed(v) for v in item]
        return item

    new = renamed(doc)
    new["schema_version"] = SCHEMA_VERSION
    new["schema"] = SCHEMA
    return new


def load_results(path: Path) -> dict[str, Any]:
    if not Path(path).exists():
        raise ConfigError(f"--resume: {path} does not exist")
    try:  # bounded: a binary, huge or deeply nested file is refused naming it
        doc = load_json(path, "profile results.json")
    except ConfigError as exc:
        raise ConfigError(f"--resume: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ConfigError(f"--resume: {path} is not an overprov profile (format field)")
    doc = upgrade(doc)
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise ConfigError(
            f"--resume: {path} has schema_version {doc.get('schema_version')}; this overprov "
            f"reads version {SCHEMA_VERSION}"
        )
    validate(doc, f"--resume: {path}")  # the file's path: which folder's results.json
    return doc


# ------------------------------------------------------------------------------------- CSV

LATENCY_KEYS = ("mean", *(percentile_key(p) for p in PERCENTILES), "max")


def phase_csv_text(phase: Mapping[str, Any], member_names: Sequence[str]) -> str:
    """One row per round: figures of the whole target, then IOPS per member (RAID groups)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = [
        "extra_op_percent",
        "round",
        "started",
        "finished",
        "duration_seconds",
        "iops",
        "bytes_written",
        *(f"lat_{k}_us" for k in LATENCY_KEYS),
        "fio_ss_attained",
        "fio_ss_criterion_percent",
    ]
    if len(member_names) > 1:
        header += [f"iops_m{i}" for i in range(len(member_names))]
    w.writerow(header)

    def cell(v: Any) -> Any:
        if v is None:
            return ""
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, float):
            return f"{v:.6g}" if abs(v) < 1e15 else repr(v)
        return v

    for r in phase.get("rounds", []):
        lat = r.get("latency_us") or {}
        ss = r.get("fio_steadystate") or {}
        row = [
            phase["extra_op_percent"],
            r["index"],
            r["started"],
            r["finished"],
            r["duration_seconds"],
            r["iops"],
            r["bytes_written"],
            *(lat.get(k) for k in LATENCY_KEYS),
            ss.get("attained"),
            ss.get("criterion_percent"),
        ]
        if len(member_names) > 1:
            row += [m.get("iops") for m in r.get("members", [])]
        w.writerow([cell(v) for v in row])
    return buf.getvalue()


# ---------------------------------------------------------------------------- recommendation


def knee(points: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """The knee of an IOPS-vs-OP curve (docs/profile.md, "The knee").

    ``points`` are (op_percent, steady IOPS), OP ascending. Normalise OP to x ∈ [0, 1]
    (smallest → 0, largest → 1) and IOPS to y = (iops − iops at the smallest OP) /
    (largest IOPS − iops at the smallest OP); the knee is the point furthest above the chord
    y = x (largest y − x, the smaller OP on a tie): past it, each extra percent of OP buys less
    IOPS than the average over the range. This is Kneedle (Satopää et al., 2011) without
    smoothing. Special cases: fewer than 3 points → no knee; a gain under 10% over the whole
    range → the smallest OP (OP buys little); no point at least 0.05 above the chord → no
    knee (IOPS still rise as fast or faster at the largest OP tested).
    """
    pts = sorted((float(op), float(v)) for op, v in points)
    result: dict[str, Any] = {
        "extra_op_percent": None,
        "distance": None,
        "gain": None,
    }
    if len(pts) < KNEE_MIN_POINTS:
        result["reason"] = (
            f"the knee needs at least {KNEE_MIN_POINTS} steady phases; there "
            f"{'is' if len(pts) == 1 else 'are'} {len(pts)}"
        )
        return result
    op0, y0 = pts[0]
    op_n = pts[-1][0]
    y_hi = max(v for _, v in pts)
    gain = (y_hi - y0) / y0 if y0 > 0 else math.inf
    result["gain"] = gain if math.isfinite(gain) else None
    if y_hi <= y0 or gain < KNEE_MIN_GAIN:
        result["extra_op_percent"] = op0
        result["distance"] = 0.0
        result["reason"] = (
            f"steady IOPS gain only {max(gain, 0.0):.0%} from OP {op0:g}% to the best level "
            f"(under {KNEE_MIN_GAIN:.0%}): extra OP buys little here, so the smallest OP tested"
        )
        return result
    best_d, best_op = -math.inf, op0
    for op, v in pts:
        x = (op - op0) / (op_n - op0)
        y = (v - y0) / (y_hi - y0)
        d = y - x
        if d > best_d + 1e-12:
            best_d, best_op = d, op
    result["distance"] = best_d
    if best_d < KNEE_MIN_DISTANCE:
        result["reason"] = (
            f"no knee: steady IOPS keep rising about as fast or faster with OP up to "
            f"{op_n:g}% (no point {KNEE_MIN_DISTANCE} above the chord); test larger OP levels "
            "or give --target-iops"
        )
        return result
    result["extra_op_percent"] = best_op
    result["reason"] = (
        "the knee: the point furthest above the chord of the normalised IOPS-vs-OP curve "
        f"(distance {best_d:.2f}); beyond it extra OP buys less than average"
    )
    return result


def iops_text(iops: float) -> str:
    """IOPS as the profile's summary writes them: thousands separators, whole numbers unless
    the value has a fraction below 1,000 (a --target-iops of 0.5 stays 0.5)."""
    return f"{iops:,.0f}" if abs(iops) >= 1000 or float(iops).is_integer() else f"{iops:,g}"


def recommendation_text(rec: Mapping[str, Any]) -> str:
    """One line for a recommendation: 'OP 20% — <reason>' or 'none — <reason>'; the reason
    does not repeat the OP level."""
    op = rec["extra_op_percent"]
    return f"{'none' if op is None else f'OP {op:g}%'} — {rec['reason']}"


def _unsteady_below(
    phases: Sequence[Mapping[str, Any]], op: float, iops: float, target_iops: float
) -> str:
    """The smaller OP levels that met the target in their last window without reaching steady
    state, in words ("" when none): the recommended level may buy nothing over them."""
    said = []
    for p in phases:
        mean = p.get("window_iops_mean")
        if p.get("steady") or mean is None or float(p["extra_op_percent"]) >= op:
            continue
        if float(mean) >= target_iops:
            faster = " (no slower than the recommended level)" if float(mean) >= iops else ""
            said.append(
                f"OP {float(p['extra_op_percent']):g}% met the target too, "
                f"{iops_text(float(mean))} IOPS in its last window{faster}, but was not steady"
            )
    if not said:
        return ""
    return "; " + "; ".join(said) + " — rerun with more --max-rounds to confirm the smaller level"


def recommend(phases: Sequence[Mapping[str, Any]], target_iops: float | None) -> dict[str, Any]:
    """The smallest OP whose steady IOPS meets ``target_iops``, or the knee without a target.
    Only phases that reached steady state count."""
    steady = sorted(
        (
            (float(p["extra_op_percent"]), float(p["steady_iops"]))
            for p in phases
            if p.get("steady")
        ),
        key=lambda t: t[0],
    )
    iops_at = dict(steady)
    if target_iops is not None:
        for op, iops in steady:
            if iops >= target_iops:
                return {
                    "method": "target",
                    "extra_op_percent": op,
                    "steady_iops": iops,
                    "target_iops": target_iops,
                    "reason": (
                        f"the smallest steady phase meeting {iops_text(target_iops)} IOPS "
                        f"({iops_text(iops)} IOPS)"
                    )
                    + _unsteady_below(phases, op, iops, target_iops),
                }
        unsteady_hits = [
            float(p["extra_op_percent"])
            for p in phases
            if not p.get("steady")
            and p.get("window_iops_mean") is not None
            and float(p["window_iops_mean"]) >= target_iops
        ]
        why = f"no steady phase reached {iops_text(target_iops)} IOPS"
        if steady:
            best_op, best = max(steady, key=lambda t: t[1])
            why += f" (best: {iops_text(best)} IOPS at OP {best_op:g}%)"
        if unsteady_hits:
            why += (
                "; phases that were not steady reached it at OP "
                + ", ".join(f"{op:g}%" for op in unsteady_hits)
                + " — rerun with more rounds to confirm"
            )
        return {
            "method": "target",
            "extra_op_percent": None,
            "steady_iops": None,
            "target_iops": target_iops,
            "reason": why,
        }
    k = knee(steady)
    op = k["extra_op_percent"]
    return {
        "method": "knee",
        "extra_op_percent": op,
        "steady_iops": iops_at.get(op) if op is not None else None,
        "target_iops": None,
        "reason": k["reason"],
        "knee": {"distance": k["distance"], "gain": k["gain"]},
    }
