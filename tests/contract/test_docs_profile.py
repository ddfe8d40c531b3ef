"""docs/profile.md's figures and rules that can be computed, against the code: the defaults,
the steady-state limits, the phase precondition's table for a 1 TB drive, the knee's worked
example, fio's slope limit for 60 s rounds, the sizes the page states (precondition parts,
sub-rounds of a simulated round, the scaled drive, the file sample) and the names it gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from overprov import file_guard, results, scaled_drive
from overprov.profile import phase_precondition, precondition, sim_target
from overprov.profile.settings import ProfileSettings

DOC = Path(__file__).resolve().parents[2] / "docs" / "profile.md"


def doc() -> str:
    return " ".join(DOC.read_text(encoding="utf-8").split())


def test_the_defaults_are_the_pages():
    s = ProfileSettings()
    text = doc()
    assert s.extra_op_percents == [0, 10, 20, 30, 40, 50, 60] and "default OP 0..60 %" in text
    assert s.round_seconds == 60 and "60 s (SNIA's habit" in text
    assert s.fob_seconds is None and "(`--fob-seconds`, default one round; 0 skips it)" in text
    assert s.precondition == "seq" and "`--precondition seq` (default)" in text
    assert s.max_rounds == 25 and "5–25 rounds more" in text
    assert s.min_iops_rounds == 3 and "whose first 3 rounds" in text


def test_the_steady_state_limits_are_the_pages():
    c = ProfileSettings().criteria()
    text = doc()
    assert c.window_rounds == 5 and "the last 5 rounds' IOPS" in text
    assert c.max_range_fraction == pytest.approx(0.20) and "≤ 20 % of the window mean" in text
    assert c.max_slope_excursion_fraction == pytest.approx(0.10) and "≤ 10 % of" in text
    assert c.max_decline_fraction == pytest.approx(0.05) and "at most 5 % above" in text
    assert c.max_waf_rise_fraction == pytest.approx(0.05)
    assert "at least 10 rounds" in text


def test_the_phase_precondition_table_for_a_1_tb_drive():
    text = doc()
    stated = re.search(r"it asks ([\d., and]+) drive writes of the span: ([\d., and]+) TB", text)
    assert stated, "the 1 TB example is not found"
    drive_writes = [float(v) for v in re.findall(r"\d+\.\d+", stated[1])]
    tb = [float(v) for v in re.findall(r"\d+\.\d+", stated[2])]
    plan = phase_precondition.plan([0, 10, 20, 30, 40, 50, 60], 10**12, 4096)
    assert [round(p.drive_writes, 2) for p in plan] == drive_writes
    assert [round(p.bytes / 1e12, 2) for p in plan] == pytest.approx(tb, abs=0.005)


def test_the_knee_example():
    text = doc()
    assert "knee at **20 %**" in text
    k = results.knee([(0, 10e3), (10, 28e3), (20, 38e3), (30, 41e3), (40, 42e3)])
    assert k["extra_op_percent"] == 20
    assert k["distance"] == pytest.approx(0.38, abs=0.0051)  # ".38" on the page (0.375)
    assert pytest.approx(0.10) == results.KNEE_MIN_GAIN and "< 10 %, recommend" in text
    assert pytest.approx(0.05) == results.KNEE_MIN_DISTANCE and "below 0.05" in text
    assert results.KNEE_MIN_POINTS == 3 and "fewer than 3 → no knee" in text


def test_fios_slope_limit_for_60_s_rounds():
    assert ProfileSettings(round_seconds=60).fio_ss_slope_percent == pytest.approx(0.169492)
    assert "`iops_slope:0.169492%` for 60 s rounds" in doc()
    assert ProfileSettings(round_seconds=1).fio_ss_slope_percent is None  # "shorter than 2 s"


def test_the_sizes_the_page_states():
    text = doc()
    assert precondition.PRECONDITION_PART_MAX_BYTES == 64 * 2**30 and "at most 64 GiB" in text
    assert precondition.PRECONDITION_BS == 128 * 1024 and "128 KiB sequential" in text
    assert sim_target.SUBROUND_SPAN_DIVISOR == 32 and "at most 1/32 of the span" in text
    assert pytest.approx(0.01) == sim_target.SUBROUND_MIN_S and "at least 10 ms" in text
    assert scaled_drive.DEFAULT_SCALED_PHYSICAL_BYTES == 32 * 2**30
    assert "about 32 GiB of NAND" in text
    assert file_guard.SAMPLE_BLOCKS == 256 and "a sample of 256 blocks" in text
    assert file_guard.FULL_READ_BYTES == 256 * 2**20 and "(up to 256 MiB;" in text


def test_the_names_the_page_gives():
    from overprov.profile import dry_run
    from overprov.profile.runner import Profile
    from overprov.profile.sim_target import SimTarget
    from overprov.profile.targets import RoundResult, RoundSpec

    assert callable(dry_run.sim_drive_iops)
    assert callable(SimTarget.scale_rounds)
    assert "scale_sim_rounds" in Profile.create.__code__.co_varnames
    assert "idle_seconds" in RoundSpec.__dataclass_fields__
    assert RoundResult


def test_the_results_fields_the_page_names_are_in_the_schema():
    """results.json's fields the page names (``phases[].verdict``, ``first_eligible_round``,
    ``status: not_steady``, ...) are properties or values of results.schema.json."""
    import json

    from .test_docs_json import PACKAGE, schema_words

    schema = json.loads((PACKAGE / "schemas" / "results.schema.json").read_text(encoding="utf-8"))
    known = schema_words(schema, set())
    text = doc()
    paths = re.findall(r"`((?:[a-z_]+\[\]\.)+[a-z_]+|(?:settings|target|verdict)\.[a-z_]+)`", text)
    named = {p.replace("[]", "") for path in paths for p in path.split(".")}
    assert {"phases", "verdict", "rounds", "waf", "precondition", "fdp_ranges"} <= named
    named |= {"first_eligible_round", "baseline_mean", "decline_fraction", "decline_ok",
              "waf_rise_fraction", "waf_ok", "written_before_window_bytes",
              "written_before_window_drive_writes", "not_steady", "skipped", "interrupted",
              "failed", "running", "duration_seconds", "error"}  # fmt: skip
    assert all(f"`{n}`" in text or n in text for n in named)
    assert sorted(named - known) == []
