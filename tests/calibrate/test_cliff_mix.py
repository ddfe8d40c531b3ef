"""The mix from purged capped at a measured command ceiling, and a rise's plateau read on its
faster side (``cliff_mix``; with ``cliff_prediction.PROBES_IN_PREDICTION`` only:
bench/results/cliffmix/RULE.md)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from overprov.calibrate import cliff, cliff_mix, cliff_prediction, read_slot, validation


def _cfg() -> tuple[dict, dict, float]:
    drive = validation.drive(201)
    scale = float(validation.scale_for(drive, 2**30))
    cfg = cliff._config(  # noqa: SLF001
        drive, scale, qd=8, read_percent=0, seconds=1.0, interval_s=1.0, precondition="none"
    )
    return cfg, drive, scale


def _rate(events: list) -> float:
    """Commands a second over the run (its last completion)."""
    return len(events) / (max(e[0] for e in events) / 1e9)


def test_every_command_a_slot_read_too_passes_the_gate():
    """Reads of pages never written holding a short slot book nothing in the core: the mix runs
    past the drive's own ceiling. With the gate every command waits its turn, so the mix runs at
    most at the gate's rate; without it the run is as before, event for event."""
    cfg, _, _ = _cfg()
    kw = {"qd": 8, "read_percent": 70, "end_ns": 10**12, "requests": 3000, "seed": 3,
          "unwritten_slot_ns": 1_000}  # fmt: skip
    free, _ = read_slot.request_loop(cfg, **kw)
    same, _ = read_slot.request_loop(cfg, **kw, command_gap_ns=None)
    assert same == free
    ceiling = _rate(free) / 2
    gated, _ = read_slot.request_loop(cfg, **kw, command_gap_ns=round(1e9 / ceiling))
    assert len(gated) == len(free)
    assert _rate(gated) <= ceiling * 1.001
    assert _rate(gated) == pytest.approx(ceiling, rel=0.02)  # the gate binds: the slots are short
    # the wait at the gate counts in a command's queue time
    assert sum(e[2] for e in gated) > sum(e[2] for e in free)


def test_the_slot_series_takes_the_ceiling():
    _, drive, scale = _cfg()
    kw = {"qd": 8, "read_percent": 70, "seconds": 0.4 / scale, "interval_s": 0.1 / scale,
          "read_slot_us": 5.0, "unwritten_read_us": 1.0}  # fmt: skip
    free = cliff.read_slot_series(drive, scale, **kw)
    ceiling = min(free.iops) / 2
    capped = cliff.read_slot_series(drive, scale, **kw, command_ceiling_iops=ceiling)
    assert max(capped.iops) <= ceiling * 1.01
    assert cliff.read_slot_series(drive, scale, **kw, command_ceiling_iops=None) == free


def test_the_ceiling_is_the_faster_of_the_plateau_and_the_trimmed_reads():
    # 245 at 1% (seen): its QD32 writes die-bound at 45,691 IOPS, its trimmed reads at QD8 in
    # 59.57 µs: 134,295 commands a second, its 550 MB/s link's 134,277
    assert cliff_mix.command_ceiling_iops(45_691.0, 8, 59.57) == pytest.approx(8e6 / 59.57)
    assert cliff_mix.command_ceiling_iops(150_000.0, 8, 59.57) == 150_000.0
    assert cliff_mix.command_ceiling_iops(None, 8, 100.0) == pytest.approx(80_000.0)
    # no probe of trimmed space: no ceiling (a die-bound plateau says nothing of the link)
    assert cliff_mix.command_ceiling_iops(45_691.0, 8, None) is None


def test_a_rise_is_lifted_to_its_faster_side():
    """247 at 1% (bench/results/clifflift/verdict.md): 49,935 → 56,753 IOPS, a rise; the lift
    at the level before put the ceiling under the level after."""
    rise = SimpleNamespace(iops_before=49_935.0, iops_after=56_753.0)
    drop = SimpleNamespace(iops_before=56_753.0, iops_after=40_000.0)
    assert cliff_mix.plateau_iops(rise, rise_faster_side=True) == 56_753.0
    assert cliff_mix.plateau_iops(rise, rise_faster_side=False) == 49_935.0
    assert cliff_mix.plateau_iops(drop, rise_faster_side=True) == 56_753.0
    assert cliff_mix.plateau_iops(None, rise_faster_side=True) is None
    twin = {"config": {"timing": {"controller": {"contexts": 1, "command_us": 20.0}}}}
    lifted = cliff_prediction.lift_ceiling(twin, 56_753.0, only_under=True)
    assert cliff_prediction.controller_ceiling_iops(lifted) > 56_753.0


def test_the_forms_act_only_with_the_probes_flag(monkeypatch):
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", False)
    assert cliff.READ_SLOT_US is None  # the default prediction holds no slot: no gate either
