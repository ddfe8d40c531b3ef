"""What a command's --out folder holds: each command's run documents (:data:`RUN_DOCUMENTS`),
the refusal of a folder holding another command's run, and of a --json file that is a run's
document in its folder (``outputs.check_json_output`` asks)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from overprov.errors import OutputError

#: The documents each command keeps in its --out folder, by command, and what they are.
RUN_DOCUMENTS = {
    "profile": (("results.json",), "a profile"),
    "calibrate": (("measurement.json", "prediction.json"), "a calibration"),
    "qualify": (("qualify.json",), "a qualification"),
    "simulate": (("simulate.json",), "a simulation"),
}


#: The page of an output folder.
REPORT_PAGE = "report.html"

#: What a run's --out folder holds beside its document (RUN_DOCUMENTS): its report, its log.
RUN_FOLDER_MARKERS = (REPORT_PAGE, "report-files", "profile.log")

#: The ``--out`` value in a document's recorded command (``"--out", "DIR"`` or ``"--out=DIR"``).
_RECORDED_OUT = re.compile(rb'"--out(?:"\s*,\s*"|=)((?:[^"\\]|\\.)*)"')


def _recorded_out_is(head: bytes, folder: Path) -> bool:
    """Whether a ``--out`` of the command recorded in ``head`` (a document's first bytes) names
    ``folder``: resolved from here, or, relative, as its last components (a run from another
    folder)."""
    real = Path(os.path.realpath(folder))
    for raw in _RECORDED_OUT.findall(head):
        try:
            out = Path(json.loads(b'"' + raw + b'"'))
        except ValueError:
            continue
        if Path(os.path.realpath(out)) == real:
            return True
        if not out.is_absolute() and out.parts and real.parts[-len(out.parts) :] == out.parts:
            return True
    return False


def check_not_a_run_document(path: Path, option: str) -> None:
    """Refuse (OutputError) an existing file that is a run's document in its --out folder
    (:data:`RUN_DOCUMENTS`, e.g. ``ws/simulate.json`` of ``simulate --out ws``): --json would
    replace that run's results, which ``--out`` itself refuses to do. A run folder is told by
    its report or log beside the document (:data:`RUN_FOLDER_MARKERS`) or by the ``--out`` in
    the command the document records naming its folder (``simulate --out ws1 --json
    simulate.json`` names ws1, not the folder of simulate.json); a ``simulate.json`` written by
    ``--json`` alone is
    overwritten as any --json document is. Choosing another file, or removing this one first,
    is how the user says so."""
    for command, (names, what) in RUN_DOCUMENTS.items():
        if path.name not in names:
            continue
        with path.open("rb") as fh:
            head = fh.read(4096)
        in_run_folder = any((path.parent / m).exists() for m in RUN_FOLDER_MARKERS)
        if in_run_folder or _recorded_out_is(head, path.parent):
            raise OutputError(
                f"{path} is {what}'s results ({path.name} in the run folder {path.parent}, "
                f"written by {command} --out): {option} would replace them; choose another "
                f"file, or remove this one first ({option} {path})"
            )


def check_no_other_run(path: str | os.PathLike[str] | None, command: str) -> None:
    """Refuse (OutputError) an --out folder that holds another command's run
    (:data:`RUN_DOCUMENTS`): a report of a folder reads one run of it, and a command's
    report.html would replace the other's, so one of the two would be in no report. Its own
    documents are each command's to refuse or continue (``--resume``). None passes."""
    if path is None:
        return
    for other, (names, what) in RUN_DOCUMENTS.items():
        found = [n for n in names if (Path(path) / n).is_file()]
        if other != command and found:
            raise OutputError(
                f"{path} holds {what} ({found[0]}): a folder holds one run (a report of it reads "
                "one, and a report.html written there replaces the other's); choose another "
                f"folder (--out {path})"
            )
