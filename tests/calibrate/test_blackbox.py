"""Calibrate sees a drive only through the Target protocol: a wrapper that hides the drive file
and its configuration gives the same measurement and the same prediction."""

from __future__ import annotations

import json
from typing import Any

import pytest
from overprov.calibrate import answer, validation
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure, write_counters
from overprov.calibrate.plan import design, parse_budget
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundResult, RoundSpec, Target

#: Three levels and 5 bootstrap samples (5 levels and 20 before: 8.9 CPU s a calibration,
#: 8.0 now): the property is that both sides agree, whatever they measure and predict.
LEVELS = [0.0, 20.0, 40.0]


class HiddenDrive:
    """Only the Target protocol and the SMART-like write counters, nothing else: no config,
    no preset, no path. Attribute access to anything else fails."""

    __slots__ = ("_t", "spec", "kind", "capacity_bytes", "member_names")

    def __init__(self, inner: SimTarget) -> None:
        self._t = inner
        self.spec = "hidden"
        self.kind = inner.kind  # "sim": rounds may be timed in fractions of a second
        self.capacity_bytes = inner.capacity_bytes
        self.member_names = ["hidden"]

    def open(self, *, resuming: bool = False) -> None:
        self._t.open(resuming=resuming)

    def close(self) -> None:
        self._t.close()

    def identity(self) -> dict[str, Any]:
        return {"kind": self.kind, "capacity_bytes": self.capacity_bytes, "members": [{}]}

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        return None

    def software(self) -> dict[str, str]:
        return {}

    def purge(self) -> str:
        return self._t.purge()

    def discard_tail(self, start_bytes: int) -> str:
        return self._t.discard_tail(start_bytes)

    def run(self, spec: RoundSpec) -> RoundResult:
        return self._t.run(spec)

    def write_counters(self) -> dict[str, int]:
        return self._t.write_counters()


def _measured(target: Target) -> tuple[dict[str, Any], predmod.PredictionInput]:
    """calibrate's measurement of ``target`` (its QD32 levels as figures) and the one input
    its prediction is made from: the prediction sees these figures, never the target."""
    target.open()
    try:
        # the random plan: drive 3's 256 MiB buffer is 29% of 1 GiB, the graded plan's limit
        plan = design(
            LEVELS, parse_budget("6dw"), write_counters=write_counters(target) is not None
        )
        m = measure(target, plan)
    finally:
        target.close()
    fig = predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops,
        advertised_bytes=10**12, bootstrap_samples=5,
    )  # fmt: skip
    return {"levels": m.levels, "bytes_written": m.bytes_written, "fob_iops": m.fob_iops}, fig


@pytest.mark.slow
def test_hidden_drive_gives_the_same_prediction(tmp_path):
    """The hidden drive's measurement equals the drive's own, figure for figure, so the
    prediction made from it is the one the drive's own gives: the prediction is made from
    the figures alone (``PredictionInput``, no target, no measurement object in it), so it is
    made once here, from the hidden drive's figures (a second one, from equal figures, repeated
    it at 5 CPU s: docs/testing.md, "Round 8")."""
    path = validation.write_drive(3, tmp_path)
    spec = f"sim:{path}@{validation.scale_for(validation.drive(3), 2**30)}"
    hidden = HiddenDrive(SimTarget(spec))
    assert isinstance(hidden, Target)
    with pytest.raises(AttributeError):
        hidden.config  # noqa: B018 - the configuration is not reachable
    seen, seen_fig = _measured(hidden)
    direct, direct_fig = _measured(SimTarget(spec))
    assert seen == direct
    assert seen_fig == direct_fig and seen_fig.points
    assert seen_fig.measurement is None  # the prediction cannot reach the target through it
    pred = answer.predict(seen_fig).document(tmp_path / "hidden")
    # the prediction is of these figures (predict.py writes each point's fields)
    assert json.dumps(pred["fit"]["points"]) == json.dumps([p.__dict__ for p in seen_fig.points])
    assert [lv["extra_op_percent"] for lv in pred["levels"]] == LEVELS
    assert all(lv["steady_iops"] > 0 and lv["waf"] >= 1.0 for lv in pred["levels"])
