"""A level's WAF sd widened by the drift of its own random rounds (``calibrate/waf_drift.py``)."""

import pytest
from overprov.calibrate import predict as predmod
from overprov.calibrate import waf_drift
from overprov.measurement_file import Level, Measurement, Round


def measurement(wafs: list[float], graded: list[float] = ()) -> Measurement:
    """A measurement whose 40% level ran ``graded`` graded rounds then random rounds of these
    WAFs (1 MiB of host writes each), and its level over all of them."""
    m = Measurement(target="sim:t", capacity_bytes=2**30, scale_factor=1.0, bs_bytes=4096, qd=32)
    host = nand = 0
    m.rounds.append(Round("op0-r001", 0.0, 1000.0, 2**20, 1.0, None, host, nand))
    labels = [f"op40-g1.{i + 1:02d}-01" for i in range(len(graded))]
    labels += [f"op40-r{i + 1:03d}" for i in range(len(wafs))]
    for label, w in zip(labels, [*graded, *wafs], strict=True):
        host, nand = host + 2**20, nand + round(w * 2**20)
        m.rounds.append(Round(label, 40.0, 1000.0, 2**20, 1.0, None, host, nand))
    n = len(labels)
    m.levels.append(Level(40.0, 1000.0, 0.01, nand / host, None, True, n, 0.0, n / 1024))
    return m


@pytest.fixture
def flag_on(monkeypatch):
    monkeypatch.setattr(waf_drift, "SD_FROM_DRIFT", True)


def test_a_falling_figure_reads_its_drift_and_the_graded_rounds_are_left_out():
    m = measurement([2.1, 2.1, 2.0, 1.9, 1.9, 1.9], graded=[1.4, 1.6, 1.8])
    d = waf_drift.drift(m, m.levels[0])
    assert d == pytest.approx((1.9 - 2.0667) / 1.9833, rel=1e-3)  # halves' means over the mean


def test_the_sd_is_nominal_with_the_flag_off_and_widened_in_quadrature_with_it_on(monkeypatch):
    m = measurement([2.2, 2.1, 2.0, 1.9])
    assert predmod.points_from(m)[0].waf_rel_sd == waf_drift.NOMINAL_WAF_REL_SD
    monkeypatch.setattr(waf_drift, "SD_FROM_DRIFT", True)
    d = waf_drift.drift(m, m.levels[0])
    assert d < -0.05
    assert predmod.points_from(m)[0].waf_rel_sd == pytest.approx((0.02**2 + d**2) ** 0.5)


def test_a_settled_or_short_window_keeps_the_nominal_sd(flag_on):
    assert waf_drift.waf_rel_sd(*_level(measurement([2.0] * 6))) == pytest.approx(0.02)
    assert waf_drift.drift(*_level(measurement([2.2, 2.0, 1.8]))) is None  # under MIN_ROUNDS
    assert waf_drift.waf_rel_sd(*_level(measurement([2.2, 2.0, 1.8]))) == 0.02


def test_only_a_figure_as_sure_as_the_onset_anchors_the_reserve(flag_on):
    assert waf_drift.anchors_reserve(0.03)
    assert not waf_drift.anchors_reserve(0.05)


def test_with_the_flag_off_every_figure_anchors_the_reserve():
    assert waf_drift.anchors_reserve(0.5)


def _level(m: Measurement) -> tuple[Measurement, Level]:
    return m, m.levels[0]
