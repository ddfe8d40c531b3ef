"""The profile pipeline's rules (skips, stop at target, resume, recommendation) on a scripted
target: a test double that follows the Target protocol and returns figures we choose, so each
rule is checked exactly and fast. Real fio runs are in test_profile_e2e_*.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from overprov import results as res
from overprov.errors import ConfigError
from overprov.profile.runner import Profile
from overprov.profile.settings import ProfileSettings
from overprov.profile.targets import Figures, RoundResult, RoundSpec, Target, now_iso

CAPACITY = 100 * 2**20


class ScriptedTarget:
    """Returns ``iops_of(op_percent, round_number)`` for each phase round."""

    kind = "sim"

    def __init__(
        self,
        iops_of: Callable[[float, int], float],
        interrupt_at: str | None = None,
        serial: str = "S1",
    ) -> None:
        self.spec = "scripted"
        self.capacity_bytes = CAPACITY
        self.member_names = ["scripted0"]
        self.iops_of = iops_of
        self.interrupt_at = interrupt_at
        self.serial = serial
        self.labels: list[str] = []
        self.discards: list[int] = []
        self.opened = False

    def open(self, *, resuming: bool = False) -> None:
        self.opened = True

    def close(self) -> None:
        self.opened = False

    def identity(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": "sim",
            "capacity_bytes": CAPACITY,
            "members": [
                {
                    "name": "scripted0",
                    "path": "scripted0",
                    "kind": "sim",
                    "size_bytes": CAPACITY,
                    "serial": self.serial,
                }
            ],
        }

    def same_as(self, stored: dict[str, Any]) -> str | None:
        old = stored["members"][0].get("serial")
        return None if old == self.serial else f"serial {self.serial} != {old}"

    def software(self) -> dict[str, str]:
        return {"scripted": "1"}

    def purge(self) -> str:
        self.discards.append(0)
        return "purged"

    def discard_tail(self, start_bytes: int) -> str:
        self.discards.append(start_bytes)
        return f"discarded from {start_bytes}"

    def run(self, spec: RoundSpec) -> RoundResult:
        assert self.opened
        if spec.label == self.interrupt_at:
            raise KeyboardInterrupt
        self.labels.append(spec.label)
        if spec.label.startswith("op"):
            op = 100.0 * (1 - spec.span_bytes / CAPACITY)
            n = int(spec.label.rsplit("-r", 1)[1])
            iops = float(self.iops_of(round(op), n))
        else:
            iops = 50_000.0
        seconds = spec.seconds or 1
        lat = {
            "mean": 1e6 * spec.qd / iops,
            "max": 9e3,
            "p50": 100.0,
            "p90": 200.0,
            "p99": 500.0,
            "p99_9": 800.0,
            "p99_99": 900.0,
        }
        fig = Figures(
            name="scripted0",
            iops=iops,
            bytes_written=int(iops * seconds * spec.bs_bytes),
            duration_s=float(seconds),
            latency_us=lat,
            iops_series=[iops] * seconds,
        )
        combined = Figures(**{**fig.to_dict(), "name": "combined"})
        return RoundResult(spec.label, now_iso(), now_iso(), combined, [fig])


def settings(**kw: Any) -> ProfileSettings:
    # pipeline rules only: no phase precondition, SNIA window alone (plateau rules: below)
    base = dict(
        extra_op_percents=[0, 10, 20, 30, 40],
        round_seconds=2,
        max_rounds=8,
        fob_seconds=1,
        min_phase_drive_writes=0.0,
        steady_max_decline_fraction=None,
    )
    base.update(kw)
    return ProfileSettings(**base)


def run_profile(tmp_path: Path, target: ScriptedTarget, **kw: Any) -> dict[str, Any]:
    p = Profile.create("scripted", settings(**kw), tmp_path / "out", target_factory=lambda: target)
    return p.run()


def test_a_scripted_target_satisfies_the_protocol():
    assert isinstance(ScriptedTarget(lambda op, n: 1.0), Target)


def test_steady_phases_and_the_target_recommendation(tmp_path):
    t = ScriptedTarget(lambda op, n: 1_000 + 100 * op)
    doc = run_profile(tmp_path, t, target_iops=2_500)
    res.validate(doc)
    assert doc["status"] == "complete"
    assert [p["status"] for p in doc["phases"]] == ["steady"] * 5
    assert [len(p["rounds"]) for p in doc["phases"]] == [5] * 5  # steady at the first window
    assert [p["steady_iops"] for p in doc["phases"]] == [1_000, 2_000, 3_000, 4_000, 5_000]
    rec = doc["recommendation"]
    assert rec["method"] == "target" and rec["extra_op_percent"] == 20
    # each phase discarded the tail beyond its span: (1 − X)·C rounded to a block
    assert t.discards[1:] == [CAPACITY - CAPACITY * op // 100 for op in (0, 10, 20, 30, 40)]
    csv = (tmp_path / "out" / "phase-op20.csv").read_text().splitlines()
    assert len(csv) == 1 + 5


def test_stop_at_target_skips_the_remaining_phases(tmp_path):
    t = ScriptedTarget(lambda op, n: 1_000 + 100 * op)
    doc = run_profile(tmp_path, t, target_iops=2_500, stop_at_target=True)
    status = [p["status"] for p in doc["phases"]]
    assert status == ["steady", "steady", "steady", "skipped", "skipped"]
    assert doc["phases"][3]["skip_reason"].startswith("--stop-at-target: OP 20% already meets")
    assert not any(label.startswith(("op30", "op40")) for label in t.labels)
    assert doc["recommendation"]["extra_op_percent"] == 20


def test_min_iops_ends_a_slow_phase_after_its_first_rounds(tmp_path):
    t = ScriptedTarget(lambda op, n: 500 if op == 0 else 5_000)
    doc = run_profile(tmp_path, t, extra_op_percents=[0, 10], min_iops=800)
    first, second = doc["phases"]
    assert first["status"] == "skipped" and first["skipped"]
    assert len(first["rounds"]) == 3
    assert first["skip_reason"] == "--min-iops: the first 3 rounds averaged 500 IOPS, below 800"
    assert second["status"] == "steady"


def test_not_steady_after_max_rounds_is_said_plainly(tmp_path):
    t = ScriptedTarget(lambda op, n: 10_000 if n % 2 else 14_000)
    doc = run_profile(tmp_path, t, extra_op_percents=[0])
    p = doc["phases"][0]
    assert p["status"] == "not_steady" and not p["steady"] and p["steady_iops"] is None
    assert len(p["rounds"]) == 8
    assert p["verdict"]["gave_up"]
    assert p["verdict"]["reason"].startswith("not steady after 8 rounds")
    log = (tmp_path / "out" / "profile.log").read_text()
    assert "NOT STEADY" in log
    assert doc["recommendation"]["extra_op_percent"] is None


def test_knee_recommendation_without_a_target(tmp_path):
    curve = {0: 10_000, 10: 28_000, 20: 38_000, 30: 41_000, 40: 42_000}
    doc = run_profile(tmp_path, ScriptedTarget(lambda op, n: curve[op]))
    rec = doc["recommendation"]
    assert (
        rec["method"] == "knee" and rec["extra_op_percent"] == 20 and rec["steady_iops"] == 38_000
    )


def test_resume_after_an_interrupt_keeps_finished_phases_and_rounds(tmp_path):
    iops = lambda op, n: 1_000 + 100 * op  # noqa: E731
    first = ScriptedTarget(iops, interrupt_at="op10-r003")
    out = tmp_path / "out"
    p = Profile.create("scripted", settings(), out, target_factory=lambda: first)
    with pytest.raises(KeyboardInterrupt):
        p.run()
    stored = res.load_results(out / "results.json")
    assert stored["status"] == "interrupted"
    assert stored["phases"][0]["status"] == "steady"
    assert [r["label"] for r in stored["phases"][1]["rounds"]] == ["op10-r001", "op10-r002"]
    kept_rounds = stored["phases"][0]["rounds"]

    second = ScriptedTarget(iops)
    doc = Profile.resume(out, target_factory=lambda: second).run()
    assert doc["status"] == "complete"
    # nothing before the interrupted round ran again
    assert second.labels[0] == "op10-r003"
    assert not any(label.startswith(("fob", "pre-", "op00")) for label in second.labels)
    assert doc["phases"][0]["rounds"] == kept_rounds
    assert [r["index"] for r in doc["phases"][1]["rounds"]] == [1, 2, 3, 4, 5]
    assert [run["resumed"] for run in doc["runs"]] == [False, True]
    # a completed profile resumes to nothing
    third = ScriptedTarget(iops)
    Profile.resume(out, target_factory=lambda: third).run()
    assert third.labels == []


def test_resume_refuses_a_different_target(tmp_path):
    iops = lambda op, n: 1_000.0  # noqa: E731
    out = tmp_path / "out"
    first = ScriptedTarget(iops, interrupt_at="op00-r001")
    with pytest.raises(KeyboardInterrupt):
        Profile.create("scripted", settings(), out, target_factory=lambda: first).run()
    other = ScriptedTarget(iops, serial="S2")
    with pytest.raises(ConfigError, match="not the target of"):
        Profile.resume(out, target_factory=lambda: other).run()
    assert other.labels == []


def test_an_existing_profile_folder_is_not_overwritten(tmp_path):
    run_profile(tmp_path, ScriptedTarget(lambda op, n: 1_000.0), extra_op_percents=[0])
    with pytest.raises(ConfigError, match="--resume"):
        Profile.create("scripted", settings(), tmp_path / "out")
