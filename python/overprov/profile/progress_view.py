"""What ``overprov profile`` shows on stderr while it runs: each step's log line, and its
overall progress through :class:`overprov.progress.ProgressBar` — a bar redrawn in place below
the log lines on a terminal, one plain line every ~10 s otherwise.

Progress is counted in the estimate's seconds of I/O (``results.json`` ``estimate``): the FOB
test, the precondition (by parts written), and each phase's rounds up to the estimate's most
rounds for that phase (a phase that reaches steady state early counts as whole). For ``sim:``
targets these are simulated seconds, which only set the shares of the steps.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from overprov.profile.phase import DONE_PHASE
from overprov.profile.precondition import PRECONDITION_PART_MAX_BYTES
from overprov.profile.settings import ProfileSettings
from overprov.progress import ProgressBar

#: ANSI: carriage return and erase the line (the bar), before a log line is printed over it.
_CLEAR_LINE = "\r\x1b[K"


def work_seconds(doc: dict[str, Any], settings: ProfileSettings) -> tuple[float, float]:
    """(done, planned) seconds of I/O of the profile ``doc`` (its results.json document), as
    its estimate plans them; (0, 0) before there is an estimate."""
    est = doc.get("estimate_after_fob") or doc.get("estimate")
    if not est:
        return 0.0, 0.0
    round_s = settings.round_seconds
    pre_s = max(0.0, est["seconds_max"] - settings.fob_s - est["rounds_max"] * round_s)
    planned = float(est["seconds_max"])
    steps = doc["steps"]
    done = settings.fob_s if steps["fob"]["status"] in ("done", "skipped") else 0.0
    pre = steps["precondition"]
    if pre["status"] == "done":
        done += pre_s
    elif pre.get("parts"):
        cap = doc["target"].get("capacity_bytes") or 0
        parts = max(1, math.ceil(cap / PRECONDITION_PART_MAX_BYTES)) * settings.precondition_passes
        done += pre_s * min(1.0, len(pre["parts"]) / parts)
    per_phase = {float(p["extra_op_percent"]): p["rounds_max"] for p in est.get("per_phase", [])}
    for phase in doc["phases"]:
        most = per_phase.get(float(phase["extra_op_percent"]), settings.max_rounds)
        if phase["status"] in DONE_PHASE:
            done += most * round_s
        else:
            done += min(len(phase.get("rounds") or ()), most) * round_s
    return min(done, planned), planned


class ProfileProgress:
    """The profile's ``progress`` callback: ``view(line)`` prints a log line; ``view.update
    (step, doc, settings)`` moves the progress after it (``Profile.log`` calls both)."""

    def __init__(self, stream: Any = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.bar = ProgressBar("profile", stream=self.stream, quiet=quiet)

    def __call__(self, line: str) -> None:
        if self.bar.drawn:
            self.stream.write(_CLEAR_LINE)
            self.bar.drawn = False
        self.stream.write(line + "\n")
        self.stream.flush()

    def update(self, step: str, doc: dict[str, Any], settings: ProfileSettings) -> None:
        done, planned = work_seconds(doc, settings)
        if planned <= 0:
            return
        if self.bar.done_before is None:
            # a resumed profile: what is done counts in the percentage, not in the rate
            self.bar.done_before = done
        self.bar(step, done, planned)

    def close(self) -> None:
        self.bar.close()
