"""Whether a level's prediction depends on the other ``--extra-op`` levels asked for
(bench/results/levelset/DIAGNOSIS.md). A measured target's twin (and ``--from``'s) is swept as
the target was, lowest level first on one drive (``twin.simulate_levels``): a level's figures
are those of the levels asked at and below it, so a level lower down can move them (the
drive's state and the rounds' seeds carry over); a level higher up cannot. Typed figures'
twins (``--points``/``--waf-points``) run each level on its own (``twin_runs``): no level
moves another."""

from __future__ import annotations

from overprov.calibrate import twin as twinmod
from overprov.calibrate import twin_runs

#: test_twin_latency.py's twin (the README's calibration of sim:consumer-tlc-sata@4GiB)
TWIN = twinmod.TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.0697, t_page_us=13.18, t_cmd_us=-1.35,
    uncertainty={}, source="test", buffer_bytes=0,
)  # fmt: skip


def _by_level(m) -> dict[float, tuple[float, float, float]]:
    return {lv.extra_op_percent: (lv.waf, lv.steady_iops, lv.p99_latency_us) for lv in m.levels}


def test_a_swept_twins_level_is_moved_by_the_levels_below_it_only(monkeypatch):
    monkeypatch.setattr(twinmod, "TWIN_SIM_PHYSICAL_BYTES", 2**30)  # a small twin
    alone = _by_level(twinmod.simulate_levels(TWIN, [20.0]))
    with_higher = _by_level(twinmod.simulate_levels(TWIN, [20.0, 40.0]))
    with_lower = _by_level(twinmod.simulate_levels(TWIN, [30.0, 40.0]))
    assert with_higher[20.0] == alone[20.0]  # a level above does not move it: every digit
    # a level below does: 40% after 20% is not 40% after 30% (the drive's history, the seeds)
    waf_after_20, waf_after_30 = with_higher[40.0][0], with_lower[40.0][0]
    assert waf_after_20 != waf_after_30
    assert abs(waf_after_20 / waf_after_30 - 1) < 0.03  # docs/calibrate.md: 1.3% to 2.4%


def test_typed_figures_twin_runs_each_level_on_its_own(monkeypatch):
    monkeypatch.setattr(twinmod, "TWIN_SIM_PHYSICAL_BYTES", 2**30)
    uniform = {"pattern": "uniform"}
    alone = _by_level(twin_runs.simulate_levels(TWIN, [20.0], uniform, timed=False, jobs=1))
    both = _by_level(twin_runs.simulate_levels(TWIN, [0.0, 20.0], uniform, timed=False, jobs=1))
    assert both[20.0] == alone[20.0]
