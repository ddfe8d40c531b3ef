"""Read profile folders and simulate JSON files into one shape the report draws from.

Two inputs, one model:

* a **profile** folder (``results.json`` of ``overprov profile``, docs/results-schema.md, with
  fio's json+ output per round in ``fio/``) becomes one :class:`Source` whose phases are the
  profile's OP levels;
* a **simulate** file (``overprov simulate --json``, schema ``overprov.simulate/1``) becomes
  one :class:`Source` per series of runs that differ only in their OP (a sweep of
  ``--extra-op`` is one series; a file holding two GC policies gives two).

A calibrate folder (``load_calibrate.py``) and a qualify folder or JSON file
(``load_qualify.py``: verdicts, no OP levels) and a plan file (``load_plan.py``: endurance
per extra-OP level) each become one :class:`Source` of their kind.

A simulate run that carries ``timed`` (the timed simulator: per-interval IOPS, latency and a
state fob/transition/steady) gives the same IOPS and latency figures as a profile phase.
Nothing here invents a figure: a field that is missing stays ``None`` and the report says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from overprov import engine, prediction_file
from overprov.errors import InputError
from overprov.inputs import load_json
from overprov.report.load_calibrate import load_calibrate
from overprov.report.load_plan import PLAN_SCHEMA, load_plan
from overprov.report.load_profile import load_profile
from overprov.report.load_qualify import QUALIFY_FILE, QUALIFY_SCHEMA, load_qualify
from overprov.report.load_simulate import load_simulate
from overprov.report.model import (
    PROFILE_FORMAT,
    ReportInputError,
    Source,
)

__all__ = ["load_inputs", "load_profile", "load_simulate"]


# ------------------------------------------------------------------------------------- inputs


def load_inputs(inputs: Sequence[Path]) -> list[Source]:
    """Each input: a profile folder (or its results.json), or a simulate JSON file (or a
    folder holding such files)."""
    if not inputs:
        raise ReportInputError("give at least one profile folder or simulate JSON file")
    sources: list[Source] = []
    for raw in inputs:
        path = Path(raw)
        if not path.exists():
            raise ReportInputError.missing(path)
        if path.is_dir():
            if (path / "results.json").is_file():
                sources.append(load_profile(path))
                continue
            if (path / prediction_file.NAME).is_file():
                # a calibrate folder: a prediction.json its schema refuses is an error naming
                # the file and the field, not a folder of another kind
                sources.append(load_calibrate(path))
                continue
            if (path / QUALIFY_FILE).is_file():
                sources.append(load_qualify(path))
                continue
            sims = sorted(path.glob("*.json"))
            found = []
            for f in sims:
                if engine.is_simulate_file(f):
                    found.extend(load_simulate(f))
            if not found:
                raise ReportInputError(
                    f"{path}: neither a profile folder (no results.json), a calibrate folder "
                    "(no prediction.json), a qualify folder (no qualify.json) nor a folder of "
                    "`overprov simulate --json` files"
                )
            sources.extend(found)
            continue
        try:
            head = load_json(path, "report input")
        except InputError as exc:
            raise ReportInputError(str(exc)) from None
        if isinstance(head, Mapping) and head.get("format") == PROFILE_FORMAT:
            sources.append(load_profile(path.parent))
        elif isinstance(head, Mapping) and head.get("schema") == prediction_file.SCHEMA:
            sources.append(load_calibrate(path))
        elif isinstance(head, Mapping) and head.get("schema") == QUALIFY_SCHEMA:
            sources.append(load_qualify(path))
        elif isinstance(head, Mapping) and head.get("schema") == PLAN_SCHEMA:
            sources.append(load_plan(path))
        else:
            sources.extend(load_simulate(path))
    _unique_labels(sources)
    return sources


def _unique_labels(sources: list[Source]) -> None:
    seen: dict[str, int] = {}
    for s in sources:
        seen[s.label] = seen.get(s.label, 0) + 1
    for s in sources:
        if seen[s.label] > 1:
            s.label = f"{s.label} ({s.path.name})"
    counts: dict[str, int] = {}
    for s in sources:
        counts[s.label] = counts.get(s.label, 0) + 1
        if counts[s.label] > 1:
            s.label = f"{s.label} #{counts[s.label]}"
