"""The metadata factor (calibrate/metadata_factor.py): on by default with paced_journal.ON
(bench/foreign/results/dhara10/verdict.md), off pinned where a test shows its old default;
``--fob-waf`` validated;
with the flag on every WAF figure fitted ÷ m and every WAF given × m, m = 1 or no figure leaving
the answer byte-identical (bench/foreign/results/metafactor/RULE.md, clauses 3 and 4); the
measured FOB segment's WAF recorded in measurement.json (1 exactly on a generated drive)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import metadata_factor as mf
from overprov.calibrate import paced_journal
from overprov.calibrate import plan as planmod
from overprov.calibrate.measure import measure
from overprov.cli import main
from overprov.profile.sim_target import SimTarget

WAF_POINTS = {0: 5.3367, 40: 1.5427}  # Dhara A's figures (newftl2/dhara-a.json), any would do
M = 1.0666
SMALL_DRIVE = Path(__file__).resolve().parents[1] / "emulate" / "small-drive.toml"


def answer(capsys, figures: dict[int, float], *more: str) -> dict:
    text = ",".join(f"{x}:{w!r}" for x, w in figures.items())
    rc = main(["calibrate", "--json", "-", "--jobs", "1", "--no-progress", "--extra-op",
               "0,20,40", "--waf-points", text, *more])  # fmt: skip
    assert rc == 0
    return json.loads(capsys.readouterr().out)


def test_on_by_default_off_says_not_applied_and_the_guard_is_the_models_range(monkeypatch):
    assert mf.ENABLED is True and paced_journal.ON is True  # bench/foreign/results/dhara10/
    monkeypatch.setattr(mf, "ENABLED", False)
    assert (mf.M_MIN, mf.M_MAX) == (1.0, 1.5)
    assert mf.read(None, "--fob-waf") == mf.Factor()
    off = mf.read(M, "--fob-waf")
    assert off.m == 1.0 and "not applied" in off.note


def test_read_with_the_flag_on(monkeypatch):
    monkeypatch.setattr(mf, "ENABLED", True)
    assert mf.read(M, "--fob-waf").m == M
    assert mf.read(1.0, "--fob-waf") == mf.Factor()  # m = 1: nothing said, nothing done
    for outside in (0.8, 1.51, 3.0):  # a write buffer, a cache's transient: ignored, said
        f = mf.read(outside, "the measured FOB segment")
        assert f.m == 1.0 and "ignored" in f.note and "measured FOB segment" in f.note
    assert mf.figure(1.2, None) == (1.2, "--fob-waf")
    assert mf.figure(None, None) == (None, "the measured FOB segment")


@pytest.mark.parametrize("bad", ["0.9", "abc", "nan"])
def test_a_fob_waf_below_1_or_not_a_number_is_refused_naming_the_option(capsys, bad):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "--waf-points", "0:5,40:1.5", "--fob-waf", bad])
    assert exc.value.code == 2
    assert "--fob-waf" in capsys.readouterr().err


def test_m_1_or_no_figure_gives_todays_answer_byte_for_byte(capsys, monkeypatch):
    monkeypatch.setattr(mf, "ENABLED", False)
    today = answer(capsys, WAF_POINTS)
    monkeypatch.setattr(mf, "ENABLED", True)
    assert answer(capsys, WAF_POINTS) == today
    assert answer(capsys, WAF_POINTS, "--fob-waf", "1") == today


def test_on_the_spare_is_fitted_to_waf_over_m_and_every_waf_given_times_m(capsys, monkeypatch):
    monkeypatch.setattr(paced_journal, "ON", False)  # the factor alone (metafactor's candidate)
    divided = answer(capsys, {x: w / M for x, w in WAF_POINTS.items()})
    monkeypatch.setattr(mf, "ENABLED", True)
    got = answer(capsys, WAF_POINTS, "--fob-waf", str(M))
    assert got["fit"]["metadata_factor"] == M
    assert "metadata factor 1.067" in got["prediction_source"]
    assert [p["waf"] for p in got["fit"]["points"]] == pytest.approx(list(WAF_POINTS.values()))
    for mine, base in zip(got["levels"], divided["levels"], strict=True):
        for key in ("waf", "waf_low", "waf_high"):
            assert mine[key] == pytest.approx(M * base[key], rel=1e-12)
    for name, r in got["readings"].items():
        assert r["levels"][0]["waf"] == pytest.approx(
            M * divided["readings"][name]["levels"][0]["waf"], rel=1e-12
        )


def test_off_a_typed_figure_is_said_not_applied_and_nothing_else_moves(capsys, monkeypatch):
    monkeypatch.setattr(mf, "ENABLED", False)
    today = answer(capsys, WAF_POINTS)
    typed = answer(capsys, WAF_POINTS, "--fob-waf", str(M))
    assert typed["prediction_source"] == today["prediction_source"] + mf.read(M, "--fob-waf").note
    assert typed["levels"] == today["levels"] and typed["fit"] == today["fit"]


def test_a_generated_drives_measured_fob_waf_is_1_and_changes_nothing(monkeypatch, tmp_path):
    drive = tomllib.loads(SMALL_DRIVE.read_text())
    plan = planmod.design([0.0, 40.0], planmod.parse_budget("2dw"))
    with SimTarget("sim:small-drive@1", drive=drive) as t:
        m = measure(t, plan)
    assert m.counters and m.fob_waf == 1.0  # the core programs no page of its own
    path = tmp_path / measurement_file.NAME
    measurement_file.save(m, path)
    assert json.loads(path.read_text())["fob_waf"] == 1.0
    assert measurement_file.load(path).fob_waf == 1.0
    assert mf.read(*mf.figure(None, m)) == mf.Factor()  # off: a measured figure is not said
    monkeypatch.setattr(mf, "ENABLED", True)
    assert mf.read(*mf.figure(None, m)) == mf.Factor()  # m = 1: points and answer untouched


def test_without_counters_the_figure_is_not_written(tmp_path):
    m = measurement_file.Measurement("t", 1 << 30, 1.0, 4096, 32)
    assert "fob_waf" not in m.to_dict()
    m.fob_waf = 1.07
    assert m.to_dict()["fob_waf"] == 1.07


def test_a_figure_under_the_factor_is_read_as_one_not_below(monkeypatch):
    """``divide`` with the flag on: a WAF figure below m (1.05 at 40% with m = 1.0666) becomes
    1, which the fit accepts, not 0.98, which it refuses; figures above m are divided."""
    from overprov.calibrate.fit import Point

    monkeypatch.setattr(mf, "ENABLED", True)
    factor = mf.read(1.0666, mf.TYPED)
    assert factor.applies
    pts = [Point(0.0, None, waf=8.0, waf_rel_sd=0.05), Point(40.0, None, waf=1.05, waf_rel_sd=0.05)]
    got = mf.divide(pts, factor)
    assert got[0].waf == pytest.approx(8.0 / 1.0666)
    assert got[1].waf == 1.0


def test_a_measured_fob_waf_is_noted_not_applied():
    """The factor's rule judged typed figures only: a measured FOB WAF in range is noted and
    left out (a coarse NAND counter over 2% of a drive write can be several percent off),
    where the same figure typed is applied."""
    measured = mf.read(1.0661, "the measured FOB segment")
    assert measured.m == 1.0 and not measured.applies
    assert "not applied" in measured.note and mf.TYPED in measured.note
    typed = mf.read(1.0661, mf.TYPED)
    assert typed.m == 1.0661 and typed.applies
