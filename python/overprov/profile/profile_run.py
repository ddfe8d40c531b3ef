"""What a step of the profile (``precondition.py``, ``phase.py``) needs of the run it belongs
to: its settings and results document, its log, its saves and its rounds. ``runner.Profile``
is the one implementation; the protocol keeps the steps below the runner (no import cycle).
"""

from __future__ import annotations

from typing import Any, Protocol

from overprov.profile.settings import ProfileSettings
from overprov.profile.targets import RoundResult, RoundSpec, Target


class ProfileRun(Protocol):
    settings: ProfileSettings
    doc: dict[str, Any]

    def log(self, step: str, message: str) -> None: ...

    def save(self) -> None: ...

    def begin_step(self, name: str) -> dict[str, Any]: ...

    def end_step(self, name: str, detail: str, status: str = "done") -> None: ...

    def run_round(self, target: Target, spec: RoundSpec) -> RoundResult: ...

    def skip_phase(self, phase: dict[str, Any], reason: str) -> None: ...

    def write_phase_csv(self, phase: dict[str, Any]) -> None: ...
