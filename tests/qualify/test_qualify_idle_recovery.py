"""Host idle recovery (SNIA PTS HIR form): bursts of random writes after host idle time against
continuous writes, on simulated drives (the core's idle time before a round) and on a file with
real fio (a sleep between rounds)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from overprov.errors import ConfigError
from overprov.profile.fio_target import FioTarget
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundSpec
from overprov.qualify import idle_recovery
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import FAIL, INCONCLUSIVE, PASS

SMALL = QualifySettings(round_seconds=10, idle_waits_s=(5.0, 50.0), idle_repeats=2)

GC_ONLY_DRIVE = """\
description = "test drive: MLC SATA timings, no SLC cache, a 1 MiB write buffer"
advertised_bytes = 256_000_000_000
[config.geometry]
page_size_bytes = 4096
pages_per_block = 1024
[config.timing]
enabled = true
{background}
[config.timing.nand]
channels = 8
dies_per_channel = 2
flash_page_bytes = 16384
read_us = 50.0
program_us = 1300.0
erase_us = 3000.0
die_block_bytes = 4194304
[config.timing.buffer]
bytes = 1048576
power_loss_protected = false
"""
"""A drive whose only work in idle time is garbage collection: no SLC cache to fold, and a
write buffer too small to matter. Background GC at the core's default trigger, or turned off
(``background_gc_free_blocks = 0``: the free pool never falls that low)."""


def _drive(tmp_path: Path, name: str, background: str = "") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(GC_ONLY_DRIVE.format(background=background))
    return f"sim:{path}@2GiB"


def _run(spec: str, s: QualifySettings):
    target = SimTarget(spec)
    target.open()
    try:
        figures, method = idle_recovery.measure(target, s)
    finally:
        target.close()
    return idle_recovery.judge(figures, method)


def test_background_gc_recovers_in_idle_time_and_without_it_nothing_does(tmp_path):
    with_gc = _run(_drive(tmp_path, "gc-on"), SMALL)
    without = _run(_drive(tmp_path, "gc-off", "background_gc_free_blocks = 0"), SMALL)
    print(with_gc.finding, without.finding, sep="\n")
    assert with_gc.verdict == PASS and without.verdict == FAIL
    for w in with_gc.figures["waits"]:
        assert w["recovery"] >= idle_recovery.RECOVERY_MIN
        assert len(w["burst_iops"]) == SMALL.idle_repeats
    for w in without.figures["waits"]:
        # the same drive, the same bursts: without background GC idle time changes nothing
        assert abs(w["recovery"]) < 0.03
    assert [w["wait_s"] for w in with_gc.figures["waits"]] == [5.0, 50.0]
    assert with_gc.figures["judged_wait_s"] == 50.0


def test_presets_with_background_gc_recover():
    s = QualifySettings(round_seconds=5, idle_waits_s=(10.0,), idle_repeats=1)
    for preset in ("consumer-tlc-sata", "enterprise-tlc-nvme"):
        v = _run(f"sim:{preset}@2GiB", s)
        print(preset, v.finding)
        assert v.verdict == PASS


def test_the_rule_on_given_figures():
    def figures(recoveries: list[float | None]) -> dict:
        waits = [
            {"wait_s": float(5 * (i + 1)), "baseline_iops": 1000.0,
             "mean_burst_iops": 1000.0 * (1 + (r or 0)), "recovery": r}
            for i, r in enumerate(recoveries)
        ]  # fmt: skip
        return {"waits": waits}

    # judged on the longest wait: an early gain that fades is no recovery
    assert idle_recovery.judge(figures([0.5, 0.02]), "rule").verdict == FAIL
    assert idle_recovery.judge(figures([0.0, 0.10]), "rule").verdict == PASS
    assert idle_recovery.judge(figures([None]), "rule").verdict == INCONCLUSIVE


def test_a_round_refuses_a_negative_idle_time():
    with pytest.raises(ConfigError, match="idle_seconds"):
        RoundSpec("x", "randwrite", 4096, 1, 1, 1 << 20, idle_seconds=-1.0)


class _Recording(FioTarget):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.results = []

    def run(self, spec):
        result = super().run(spec)
        self.results.append(result)
        return result


@pytest.mark.fio
def test_fio_bursts_after_real_idle_time_on_a_file(need_fio, tmp_path):
    s = QualifySettings(
        round_seconds=1, steady_drive_writes=1.0, max_rounds=2, idle_waits_s=(1.5,),
        idle_burst_seconds=1, idle_repeats=2,
    )  # fmt: skip
    target = _Recording(str(tmp_path / "t.img"), tmp_path / "fio", size_bytes=16 << 20)
    target.open()
    try:
        figures, method = idle_recovery.measure(target, s)
    finally:
        target.close()
    by_label = {r.label: r for r in target.results}
    order = [r.label for r in target.results]
    assert order[-3:] == ["idle-w1.5-base", "idle-w1.5-b1", "idle-w1.5-b2"]
    for before, burst in (("idle-w1.5-base", "idle-w1.5-b1"), ("idle-w1.5-b1", "idle-w1.5-b2")):
        # the host really left the file alone between the two fio rounds
        gap = datetime.fromisoformat(by_label[burst].started) - datetime.fromisoformat(
            by_label[before].finished
        )
        assert gap.total_seconds() >= 1.5
    job = (tmp_path / "fio" / "idle-w1.5-b1.fio").read_text()
    assert "after 1.5 s of host idle time" in job and "runtime=1" in job
    (wait,) = figures["waits"]
    assert len(wait["burst_iops"]) == 2 and wait["baseline_iops"] > 0
    assert idle_recovery.judge(figures, method).verdict in (PASS, FAIL)
