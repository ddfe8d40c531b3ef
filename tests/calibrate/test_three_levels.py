"""Typed figures at three levels where a GC reserve holds or the curve bends between them
(calibrate/three_levels.py, ``ON`` on since bench/foreign/results/level3/verdict.md): the
reserve reading offered and the gate passed with three levels with WAF, the middle IOPS left to
the FOB's line where the ends are bent, and two-level answers unchanged to the byte with the
flag on. Figures: seen truths typed as bench/foreign/results/midlevel/typed.py types them
(bench/foreign/results/level3/DIAGNOSIS.md)."""

from __future__ import annotations

import json

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import plausibility, reserve_hull, three_levels
from overprov.calibrate.cli import USER_POINT_REL_SD
from overprov.cli import main

SD = USER_POINT_REL_SD
assert reserve_hull.explains  # imported: it registers the gate's hook (plausibility.py)


def typed(iops: dict[int, float], waf: dict[int, float], fob: float) -> list[fitmod.Point]:
    """Typed figures as ``calibrate --points/--waf-points/--fob-iops`` reads them."""
    levels = sorted(set(iops) | set(waf))
    pts = [fitmod.Point(float(x), iops.get(x), SD, waf.get(x), SD) for x in levels]
    return [*pts, fitmod.Point(0.0, fob, SD, fresh=True)]


#: FEMU 6 LUNs x 240 blocks (byfig5's unseen truth): the floor (WAF 8) holds through 10%
FEMU6 = typed({0: 3088, 20: 5605, 40: 15710}, {0: 8.000, 20: 4.479, 40: 1.701}, 30013)
#: MQSim u768x32 (mqsim-retry's unseen truth): 0% deep (WAF 19.3) and 1.8 times the FOB's line
MQ768 = typed({0: 103, 20: 527, 40: 1175}, {0: 19.320, 20: 2.491, 40: 1.444}, 2285)


@pytest.fixture
def on(monkeypatch):
    monkeypatch.setattr(three_levels, "ON", True)


def two_levels(points: list[fitmod.Point]) -> list[fitmod.Point]:
    return [p for p in points if p.extra_op_percent != 20.0]


def test_on_by_default_its_rule_met():
    assert three_levels.ON


def test_reads_reserve_with_three_levels_each_with_waf(on):
    assert three_levels.reads_reserve(FEMU6)
    assert not three_levels.reads_reserve(two_levels(FEMU6))
    no_waf_at_20 = [fitmod.Point(20.0, 5605.0, SD) if p.extra_op_percent == 20 else p
                    for p in FEMU6]  # fmt: skip
    assert not three_levels.reads_reserve(no_waf_at_20)


def test_the_gate_passes_three_levels_a_reserve_reading_explains(monkeypatch):
    monkeypatch.setattr(three_levels, "ON", False)
    why = plausibility.fit_misses_its_points(FEMU6, 30013.0)
    assert why is not None and "IOPS point at 20%" in why  # off: refused on the plain fit
    monkeypatch.setattr(three_levels, "ON", True)
    assert plausibility.fit_misses_its_points(FEMU6, 30013.0, typed=True) is None  # the CLI's
    measured = plausibility.fit_misses_its_points(FEMU6, 30013.0, None, None)  # typed: False
    assert measured == why  # the rule judged typed figures: a measurement's gate as before


def test_middle_iops_on_the_line_left_to_it(on):
    misses = three_levels.on_line(MQ768, 2285.0)
    assert misses is not None and abs(misses[20.0]) < three_levels.LINE_TOLERANCE
    kept, left = three_levels.leave_to_line(MQ768, 2285.0)
    assert left == (20.0,)
    at_20 = next(p for p in kept if p.extra_op_percent == 20.0)
    assert at_20.iops is None and at_20.waf == 2.491
    assert "20%" in three_levels.left_source(MQ768, 2285.0, left)


def test_nothing_left_off_the_line_nor_where_the_ends_are_not_bent(on, monkeypatch):
    off_line = [fitmod.Point(20.0, 527.0 * 1.3, SD, 2.491, SD) if p.extra_op_percent == 20
                else p for p in MQ768]  # fmt: skip
    assert three_levels.leave_to_line(off_line, 2285.0) == (off_line, ())
    assert three_levels.leave_to_line(FEMU6, 30013.0) == (FEMU6, ())  # WAF 8: not deep
    assert three_levels.leave_to_line(two_levels(MQ768), 2285.0)[1] == ()
    monkeypatch.setattr(three_levels, "ON", False)
    assert three_levels.leave_to_line(MQ768, 2285.0) == (MQ768, ())


def _answer(tmp_path, name: str, argv: list[str]) -> dict:
    out = tmp_path / name
    assert main(["calibrate", *argv, "--jobs", "1", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    doc.pop("created", None)
    return doc


#: FEMU 6 x 240's WAF typed at 0% and 40% (read as a reserve: steep_pair.READ_AS_FLOOR), asked
#: at 0, 20 and 40% (WAF figures alone: no twin refined, about 2 CPU s a run)
TWO_LEVEL = ["--waf-points", "0:8.000,40:1.701", "--extra-op", "0,20,40"]


def test_two_level_answer_byte_identical_with_the_flag_on(tmp_path, monkeypatch):
    monkeypatch.setattr(three_levels, "ON", False)
    off = _answer(tmp_path, "off.json", TWO_LEVEL)
    assert "gc_reserve" in off["readings"]  # the two-level reserve path, untouched by the flag
    monkeypatch.setattr(three_levels, "ON", True)
    assert json.dumps(_answer(tmp_path, "on.json", TWO_LEVEL), sort_keys=True) == json.dumps(
        off, sort_keys=True
    )
