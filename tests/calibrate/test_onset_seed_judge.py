"""bench/onset_default_bench.py's judgement over simulator seeds
(bench/foreign/results/onset-default4/RULE.md, and FEMU's over the harness's seeds,
bench/foreign/results/onset-default5/RULE.md): an arm's figure is allowed the base arm's own
spread over the seeds, and no less than 2 points, above the base arm's median; and the drives
with a GC reserve the second rule added."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from overprov.profile.sim_target import SimTarget

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    """bench/onset_default_bench.py as a module."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    return importlib.import_module("onset_default_bench")


@pytest.fixture(scope="module")
def judge():
    """bench/onset_default_bench.py's ``judge_over_seeds``."""
    return _bench().judge_over_seeds


def _run(drive_writes: float = 1.99, refused: bool = False) -> dict[str, Any]:
    return {
        "drive_writes": drive_writes,
        "refused": ["a check"] if refused else [],
        "levels_measured": [[0.0, None], [40.0, None], [40.0, 4]],
    }


def _records(base: list[float], arm: list[float], **arm_run: Any) -> list[dict[str, Any]]:
    """One drive at seeds 1-3: |error| of iops@0 per seed in each arm (waf@0 equal, 1%)."""
    return [
        {
            "drive": "d",
            "seed": seed,
            "base": _run(),
            "carry": _run(**arm_run),
            "errors": {
                "base": {"iops@0": b / 100, "waf@0": 0.01},
                "carry": {"iops@0": -a / 100, "waf@0": 0.01},
            },
        }
        for seed, b, a in zip((1, 2, 3), base, arm, strict=True)
    ]


def test_a_figure_is_allowed_the_base_arms_spread_over_its_seeds(judge):
    # base median 5, spread 10: an arm's median 14 (9 above) is inside, 16 (11 above) is not
    inside = judge(_records([0.0, 5.0, 10.0], [14.0, 14.0, 14.0]))
    assert "3 (d)" not in inside[-1] and "iops@0" not in inside[0], inside
    worse = judge(_records([0.0, 5.0, 10.0], [16.0, 16.0, 16.0]))
    assert "fails 3 (d)" in worse[-1] and "'iops@0': (5.0, 16.0, 10.0)" in worse[0], worse
    # a base arm steady over its seeds still allows 2 points, and no more
    assert "3 (d)" not in judge(_records([5.0, 5.0, 5.0], [6.9, 6.9, 6.9]))[-1]
    assert "fails 3 (d)" in judge(_records([5.0, 5.0, 5.0], [7.5, 7.5, 7.5]))[-1]


def test_the_overall_median_may_rise_by_0_3_points(judge):
    # over 6 figures: base median (1 + 1) / 2 = 1, the arm's (1 + 1.2) / 2 = 1.1 and 1.5
    assert judge(_records([1.0, 1.0, 1.0], [1.2, 1.2, 1.2]))[-1].endswith("1-4 hold")
    assert judge(_records([1.0, 1.0, 1.0], [2.0, 2.0, 2.0]))[-1].endswith("fails 4")


def test_a_lost_calibration_or_level_fails_the_arm(judge):
    same = [1.0, 1.0, 1.0]
    assert "fails 1 (d)" in judge(_records(same, same, refused=True))[-1]
    assert "fails 2 (d)" in judge(_records(same, same, drive_writes=2.01))[-1]


def _femu_case(label: str, iops_error: float, refused: bool = False) -> dict[str, Any]:
    """One ``femu_end_to_end.py verdict`` case of drive f, its 0% IOPS error as given."""
    case: dict[str, Any] = {"drive": "f", "onset_from_empty": label, "drive_writes": 1.99,
                            "passes": {"cost": True}}  # fmt: skip
    if refused:
        return case | {"refused": "a check"}
    return case | {"levels": [{"extra_op_percent": 0.0, "iops_error": iops_error,
                               "waf_error": 0.01}]}  # fmt: skip


def test_femu_cases_are_judged_over_the_harness_seeds_as_the_simulated_drives_are():
    """``judge_femu`` (bench/foreign/results/onset-default5/RULE.md): cases labelled
    ``ARM@SEED``, each figure allowed base's spread over the seeds, 2 points at least."""
    bench = _bench()

    def cases(base: list[float], arm: list[float], refused: bool = False) -> dict[str, Any]:
        seeds = (1, 2, 3)
        return {"cases": [_femu_case(f"base@{s}", b / 100)
                          for s, b in zip(seeds, base, strict=True)]
                + [_femu_case(f"flag@{s}", -a / 100, refused and s == 2)
                   for s, a in zip(seeds, arm, strict=True)]}  # fmt: skip

    (inside,) = bench.judge_femu(cases([0.0, 5.0, 10.0], [14.0, 14.0, 14.0]))
    assert inside.startswith("flag f (seeds [1, 2, 3])") and inside.endswith("1-3 hold"), inside
    (worse,) = bench.judge_femu(cases([0.0, 5.0, 10.0], [16.0, 16.0, 16.0]))
    assert "'iops@0': (5.0, 16.0, 10.0)" in worse and worse.endswith("fails 3"), worse
    (lost,) = bench.judge_femu(cases([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], refused=True))
    assert "lost at seeds [2]" in lost and lost.endswith("fails 1"), lost


def test_a_reserve_drive_without_a_floor_holds_its_reserve_and_no_floor_keys():
    """``reserve_drive``'s two kinds, checked by the core (no simulation): with a floor the
    collector of ``twin.reserve_collector``; without, the reserve held and every victim taken."""
    bench = _bench()
    floor = bench.reserve_drive("reserve-0.86-7-5.5-2.8")["config"]["ftl"]
    assert floor["gc_victim_min_invalid_fraction"] > 0 and floor["gc_forced_free_blocks"] == 2
    d = bench.reserve_drive("nofloor-0.22-0.12-5-2.5")
    ftl = d["config"]["ftl"]
    assert "gc_victim_min_invalid_fraction" not in ftl and "gc_forced_free_blocks" not in ftl
    assert d["physical_bytes"] == round(2**31 * 1.22)
    assert ftl["gc_free_blocks"] == 2 + round(0.12 * 2**31 / (4096 * 512))
    with SimTarget("sim:nofloor@1", drive=d) as t:  # the core checks its config on opening
        assert t.capacity_bytes == 2**31
    with pytest.raises(SystemExit):
        bench.reserve_drive("nofloor-0.1-0.2-5-2.5")  # a reserve above the native spare
