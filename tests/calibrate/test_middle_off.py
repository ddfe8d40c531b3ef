"""``--middle-level off`` (the default) leaves plans and measurements as they were before the
third level existed (calibrate/middle_level.py): 30 plan designs and a whole measurement of a
1 GiB simulated drive, to every digit, against tests/data/middle_off/golden.json (written by
the package at b1bb6e52, main before the midlevel merge; its make.py says how)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from overprov.calibrate import middle_level
from overprov.calibrate import plan as planmod
from overprov.calibrate.measure import measure
from overprov.profile.sim_target import SimTarget

DATA = Path(__file__).resolve().parents[1] / "data" / "middle_off"
_spec = importlib.util.spec_from_file_location("middle_off_make", DATA / "make.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads((DATA / "golden.json").read_text())


def _same(got: dict) -> dict:
    return json.loads(json.dumps(got))  # as the golden file holds it


def test_thirty_plans_off_are_those_before_it(golden):
    """``plan.design`` and ``middle_level.design`` not asked give the plans b1bb6e52 gave."""

    def off(levels, budget, write_counters):
        return middle_level.design(levels, budget, write_counters=write_counters, middle=False)

    assert len(golden["designs"]) == 30
    assert _same(make.designs(planmod.design, planmod.Budget)) == golden["designs"]
    assert _same(make.designs(off, planmod.Budget)) == golden["designs"]


def test_a_measurement_off_is_the_one_before_it(golden):
    """A whole measurement with the decision passed as calibrate passes it off (and none) is
    b1bb6e52's to every digit: rounds, levels, drive writes. One key is new since: the FOB
    segment's measured WAF, ``fob_waf`` (a record added by calibrate/metadata_factor.py's merge;
    the rounds it is computed from are compared), checked here to be the counters' FOB WAF."""
    plan = middle_level.design([0.0, 10.0, 20.0, 30.0, 40.0], planmod.Budget(), middle=False)
    for decide in (lambda p, m: middle_level.decide(p, m, False), None):
        with SimTarget(make.DRIVE) as t:
            m = measure(t, plan, middle=decide)
        got = _same(make.measured(m))
        assert got.pop("fob_waf") >= 1.0
        assert got == golden["measurement"]
