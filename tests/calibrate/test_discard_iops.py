"""A graded plan's later level's IOPS, read in the transient after its discard, carried to the
reserve reading's WAF there (``calibrate/discard_iops.py``): a synthetic graded measurement."""

import pytest
from overprov.calibrate import discard_iops, discard_transient, gc_onset
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.plan import design, parse_budget
from overprov.measurement_file import Level, Measurement, Round

CAP = 2**30
ONSET = 0.84


def measurement(waf_40: float, onset: float = ONSET) -> Measurement:
    """A graded plan's measurement at 0% and 40% (graded and random rounds, then the QD4
    probe), its 40% level read at ``waf_40`` and 500 IOPS."""
    m = Measurement(target="sim:t", capacity_bytes=CAP, scale_factor=1.0, bs_bytes=4096, qd=32)
    plan = design([0.0, 40.0], parse_budget("2dw"), write_counters=True)
    assert plan.precondition == "graded"
    m.plan = plan.to_dict()
    m.onset_spare_factor, m.onset_source = onset, gc_onset.ONSET_FROM_EMPTY
    dh = CAP // 40
    host = nand = 0
    for label, waf in [("op0-r001", 8.0), ("op0-r002", 8.0), ("op40-g1.01-01", waf_40),
                       ("op40-r001", waf_40), ("op40-qd4-r001", waf_40)]:  # fmt: skip
        host, nand = host + dh, nand + round(waf * dh)
        m.rounds.append(Round(label, 0.0, 100.0, dh, dh / 4096 / 100.0, None, host, nand))
    m.levels = [
        Level(0.0, 130.0, 0.05, 8.0, None, False, 2, 0.0, 0.05),
        Level(40.0, 500.0, 0.02, waf_40, None, False, 2, 0.0, 0.05),
        Level(40.0, 520.0, 0.05, waf_40, None, False, 1, 0.0, 0.025, queue_depth=4),
    ]
    return m


@pytest.fixture
def carry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discard_iops, "CARRY", True)


def reading_waf(onset: float = ONSET) -> float:
    return fitmod.waf_at(fitmod.rho_eff(onset - 1.0, 40.0))


def iops_of(m: Measurement) -> list[float | None]:
    return [p.iops for p in predmod.points_from(m)]


def test_off_by_default_the_figures_as_read() -> None:
    assert discard_iops.CARRY is False
    assert iops_of(measurement(2.2)) == [130.0, 500.0, 520.0]


@pytest.mark.usefixtures("carry")
def test_a_figure_within_the_allowance_is_carried_to_the_reading() -> None:
    waf = reading_waf() * 1.08  # 8% above the reading: inside the 15% allowance
    m = measurement(waf)
    got = iops_of(m)
    # the NAND's write rate kept: IOPS × WAF read = carried IOPS × the reading's WAF
    assert got[1] == pytest.approx(500.0 * waf / reading_waf())
    assert got[0] == 130.0 and got[2] == 520.0  # the first level and the QD4 probe as read
    assert m.levels[1].steady_iops == 500.0  # the measurement keeps the figure read


@pytest.mark.usefixtures("carry")
def test_a_figure_far_above_is_carried_by_the_allowance_only_one_below_not_at_all() -> None:
    far = reading_waf() * 1.4
    assert iops_of(measurement(far))[1] == pytest.approx(
        500.0 * (1.0 + discard_transient.TRANSIENT_ALLOWANCE)
    )
    assert iops_of(measurement(reading_waf() * 0.95))[1] == 500.0


@pytest.mark.usefixtures("carry")
def test_no_reserve_no_carry() -> None:
    """An onset at or above 1 reads nothing over bursts (``level_window.over_bursts``)."""
    assert iops_of(measurement(2.2, onset=1.1)) == [130.0, 500.0, 520.0]
