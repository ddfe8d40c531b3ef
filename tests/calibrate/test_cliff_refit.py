"""A write series' fit refused, tried once more (``cliff_refit``; with
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliffseries/RULE.md): the SLC
program time's bounds widened for an equivalent twin, the plateau read before a fast twin's
cache ends, the fitted drive's own step looked for at half the threshold."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest
from overprov.calibrate import cliff, cliff_prediction, cliff_refit, validation
from overprov.calibrate import twin as twinmod
from overprov.errors import ConfigError

STORED = Path(__file__).resolve().parents[2] / "bench/results/cliffseries/stored"


def _drive(channels: int, dies_per_channel: int, tlc_factor: float = 1.0) -> dict:
    """Generated drive 1 with its NAND regrouped into ``channels`` × ``dies_per_channel`` dies,
    its TLC program time × ``tlc_factor``, a 4 MiB buffer, and its link and controller out of
    the way (the dies set every rate)."""
    d = copy.deepcopy(validation.drive(1))
    tm = d["config"]["timing"]
    tm["nand"].update(channels=channels, dies_per_channel=dies_per_channel)
    tm["nand"]["program_us"] *= tlc_factor
    tm["buffer"]["bytes"] = 4 * 2**20
    tm["host"]["link_mb_s"] = 50_000.0
    tm["controller"].update(command_us=1.0, data_us_per_4kib=0.0, map_update_us=0.0)
    return d


def _measured(truth: dict, scale: float, seconds: float) -> cliff.Series:
    return cliff.simulate_series(
        truth, scale, qd=32, seconds=seconds, interval_s=2.5, precondition="none"
    )


def test_the_bounds_widen_only_for_a_twin_whose_tlc_program_writes_fast():
    def twin(tlc_us: float | None) -> dict:
        nand = {} if tlc_us is None else {"program_us": tlc_us}
        return {"config": {"timing": {"nand": nand}}}

    assert cliff_refit.slc_range(twin(75.0)) == pytest.approx((2.5, 2000.0))
    assert cliff_refit.slc_range(twin(1500.0)) == pytest.approx((20.0, 5000.0))
    assert cliff_refit.slc_range(twin(600.0)) == pytest.approx(cliff.SLC_PROGRAM_US_RANGE)
    assert cliff_refit.slc_range(twin(None)) == cliff.SLC_PROGRAM_US_RANGE


def test_only_refusals_for_the_plateau_or_the_cliff_are_tried_again():
    plateau = "cliff: fit refused: no SLC program time in (20.0, 2000.0) µs reproduces the plateau"
    assert cliff_refit.refused(ConfigError(plateau))
    assert cliff_refit.refused(
        ConfigError(
            "cliff: fit refused: the fitted drive (1.00 GB, SLC 100 µs) does not "
            "reproduce the measured cliff (...)"
        )  # fmt: skip
    )
    assert not cliff_refit.refused(ConfigError("cliff: the measured series shows no cliff"))
    assert not cliff_refit.refused(
        ConfigError("cliff: fit refused: no TLC program time in 1-4 µs reproduces the level")
    )


def test_an_equivalent_twin_with_one_fast_die_is_fitted_under_the_absolute_bound():
    """The truth's 16 dies program SLC in 180 µs; a twin with one die programming TLC 16 times
    as fast writes TLC about as the truth does but needs an SLC program under 11.25 µs (its
    one channel's transfers add to each program), under the bound of 20."""
    truth = cliff.with_cache(_drive(4, 4), 0.01 * 512e9, 180.0)
    scale = float(validation.scale_for(truth, 4 * 2**30))
    measured = _measured(truth, scale, 110.0)
    twin = _drive(1, 1, 1 / 16)
    with pytest.raises(ConfigError, match="reproduces the plateau"):
        cliff.fit_cache(measured, twin, scale)
    fit = cliff.fit_cache(measured, twin, scale, **cliff_refit.fit_kw(twin))
    assert 2.5 < fit.slc_program_us < 180.0 / 16
    assert fit.cache_bytes == pytest.approx(0.01 * 512e9, rel=0.10)


def test_the_plateau_is_read_before_a_fast_twin_s_own_cache_ends():
    """The truth's 4 dies program SLC in 180 µs; a twin with 16 dies programming TLC 4 times
    as slowly needs SLC programs of 720 µs, but at the bisection's 20 µs it writes 36 times the
    plateau and fills its big cache before the measured cliff: read past there, its fastest
    plateau is its TLC level, under the measured one, and the fit is refused."""
    truth = cliff.with_cache(_drive(2, 2), 0.01 * 512e9, 180.0)
    scale = float(validation.scale_for(truth, 4 * 2**30))
    measured = _measured(truth, scale, 300.0)
    twin = _drive(4, 4, 4.0)
    with pytest.raises(ConfigError, match="reproduces the plateau"):
        cliff.fit_cache(measured, twin, scale)
    fit = cliff.fit_cache(measured, twin, scale, plateau_before_own_end=True)
    assert fit.slc_program_us == pytest.approx(720.0, rel=0.10)
    assert fit.cache_bytes == pytest.approx(0.01 * 512e9, rel=0.10)


def test_a_refused_cliff_is_fitted_again_only_with_the_flag(monkeypatch):
    """Seen drive 268 at 1% (bench/results/cliffseries/DIAGNOSIS.md): the fitted drive steps
    9.8% where the measurement stepped 10.4%, so at the 10% threshold its own cliff is not
    found where it is and the fit is refused; looked for at 5%, the cache is fitted (10 GB)."""
    keep = STORED / "268-0.01"
    doc = json.loads((keep / "cliff.json").read_text())
    drive = tomllib.loads((keep / "twin.toml").read_text())
    scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    fill = float(doc["buffer_fill_bytes"])
    twin, factor = cliff_prediction.cliff_twin(drive, scale, fill)
    s = cliff_prediction.series(doc)

    def fit() -> cliff.CacheFit:
        return cliff_prediction.fit(s, twin, factor, 4096, True, True)

    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", False)
    with pytest.raises(ConfigError, match="does not reproduce the measured cliff"):
        fit()  # the flag off: as before
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    monkeypatch.setattr(cliff_refit, "REFIT_REFUSED", False)
    with pytest.raises(ConfigError, match="does not reproduce the measured cliff"):
        fit()
    monkeypatch.setattr(cliff_refit, "REFIT_REFUSED", True)
    assert fit().cache_bytes == pytest.approx(10e9, rel=0.02)
    tried = cliff_prediction.fit_tried(s, twin, factor, 4096, True, True)
    assert tried[1] and tried[0] == fit()


def test_prediction_json_says_where_the_second_try_made_a_fit(monkeypatch):
    """Seen drive 273 at 3% (bench/results/cliffseries/DIAGNOSIS.md): its twin's one die
    needs an SLC program under the absolute bound, for the fit and for the probe past the
    cliff's candidate twins alike; prediction.json marks both second tries, and without the
    form the fit is refused."""
    keep = STORED / "273-0.03"
    doc = json.loads((keep / "cliff.json").read_text())
    drive = tomllib.loads((keep / "twin.toml").read_text())
    scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    out = cliff_prediction.predict(doc, drive, scale)
    assert out["fit"]["second_try"] == "cliff_refit"
    assert out["read_probes_selection"]["second_try"] == "cliff_refit"
    assert "time_s" in out["purged"]
    monkeypatch.setattr(cliff_refit, "REFIT_REFUSED", False)
    off = cliff_prediction.predict(doc, drive, scale)
    assert off["fit"] is None and "reproduces the plateau" in off["declined"]
