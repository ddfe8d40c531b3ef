"""A resumed profile phase said again that its rounds were host-bound: the notice
(``emulate.host_share.HostBoundNotice``) is said once per phase, but a resumed run made a new
one that knew nothing of the rounds kept in results.json, so profile.log held the message
twice for one phase. On the scripted target of test_profile_runner.py, with the emulated
drive's counters replaced by a host share of 90% for every round."""

from __future__ import annotations

import pytest
from overprov.profile import phase
from overprov.profile.runner import Profile
from test_profile_runner import ScriptedTarget, settings

SAID = "the host held 90% of its requests' time"


@pytest.fixture
def host_bound_rounds(monkeypatch):
    monkeypatch.setattr(phase.host_share, "emulated_device", lambda target: "emulated0")
    monkeypatch.setattr(phase.counters, "read", lambda device: None)
    monkeypatch.setattr(phase.host_share, "round_share", lambda *args: 0.9)


def said(log: str, label: str) -> int:
    return sum(1 for line in log.splitlines() if f"  {label}: " in line and SAID in line)


def test_a_resumed_phase_says_it_was_host_bound_once(host_bound_rounds, tmp_path):
    iops = lambda op, n: 1_000 + 100 * op  # noqa: E731
    out = tmp_path / "out"
    kw = {"extra_op_percents": [0, 10]}
    first = ScriptedTarget(iops, interrupt_at="op10-r003")
    with pytest.raises(KeyboardInterrupt):
        Profile.create("scripted", settings(**kw), out, target_factory=lambda: first).run()
    log = (out / "profile.log").read_text()
    assert said(log, "op10") == 1  # for op10-r001, before the interrupt
    second = ScriptedTarget(iops)
    doc = Profile.resume(out, target_factory=lambda: second).run()
    assert doc["status"] == "complete" and second.labels[0] == "op10-r003"
    log = (out / "profile.log").read_text()
    assert said(log, "op00") == 1
    assert said(log, "op10") == 1
    assert all(r["host_share"] == 0.9 for p in doc["phases"] for r in p["rounds"])
