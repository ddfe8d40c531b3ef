"""bench/foreign/iops_form_readings.py: the slope of 1/IOPS on WAF, the readings' errors read
from a stored prediction (FEMU drive B's refit, bench/foreign/results/femu-end-to-end/refit/),
and the calibrate command with the evidence flags set. No simulation: stored files only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import iops_form_readings as readings  # noqa: E402

REFIT_B = ROOT / "bench/foreign/results/femu-end-to-end/refit/femu-9lun-448blk-thres88-2500us-on"


@pytest.mark.parametrize("power", [1.0, 1.3])
def test_slope_of_a_power_law(power: float) -> None:
    # 1/IOPS = c · WAF^power: the slope of ln(1/IOPS) on ln(WAF) is the power
    levels = [{"waf": w, "iops": 1.0 / (250e-6 * w**power)} for w in (3.5, 2.3, 1.8, 1.5, 1.3)]
    assert readings.slope(levels, "iops") == pytest.approx(power, rel=1e-9)


def test_slope_needs_three_levels() -> None:
    assert readings.slope([{"waf": 2.0, "iops": 10.0}, {"waf": 1.0, "iops": 20.0}], "iops") is None


def test_stored_refit_of_drive_b_blocking_reading_misses_its_fitted_figures() -> None:
    # the stored refit (made before the by-figure weighing was on): the blocking-GC twin took
    # weight 1 and missed the fitted 0% and 40% QD32 IOPS by -18% and +19%; the analytic twin
    # reproduced them within 1.3%
    pred = json.loads((REFIT_B / "prediction.json").read_text())
    row = readings.mechanism_row(pred)
    assert row["weight"] == pytest.approx(1.0)
    assert row["figures_reproduced"] == {"analytic": 4, "blocking": 2}
    assert (row["dies"], row["domains"]) == (8, 6)
    e = row["errors_at_fitted"]
    assert e["0"]["blocking_gc_iops"] == pytest.approx(-0.184, abs=0.002)
    assert e["40"]["blocking_gc_iops"] == pytest.approx(0.188, abs=0.002)
    assert abs(e["0"]["analytic_iops"]) < 0.005 and abs(e["40"]["analytic_iops"]) < 0.015
    # the closed loop reads the QD4 figure through about 9.5 units (the drive has 9 LUNs)
    assert row["closed_loop_units"] == pytest.approx(9.5, abs=0.1)
    # the blocking twin's 1/IOPS grows faster than WAF; the truth's grows as WAF
    assert row["blocking_slope"] > 1.25
    truth = json.loads(
        REFIT_B.parent.parent.joinpath("femu-9lun-448blk-thres88-2500us.json").read_text()
    )
    curve = [{"waf": lv["steady_waf"], "iops": lv["steady_iops"]} for lv in truth["levels"]]
    assert readings.slope(curve, "iops") == pytest.approx(1.0, abs=0.02)


def test_calibrate_command_sets_the_flags_first() -> None:
    plain = readings.calibrate_cmd(["--from", "x"], None)
    assert plain[1:] == ["-m", "overprov", "calibrate", "--from", "x"]
    cmd = readings.calibrate_cmd(["--from", "x"], "off", "off")
    code = cmd[2]
    assert "evidence.REPRODUCED_BY_FIGURE = False" in code
    assert "evidence.BY_FIGURE_NEEDS_WAF = False" in code
    assert code.index("evidence.") < code.index("main()")
    assert cmd[3:] == ["calibrate", "--from", "x"]
