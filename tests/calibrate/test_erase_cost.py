"""The erase-cost form (calibrate/erase_cost.py): FOB read as the drive without its erases, a
fitted t_erase ≥ 0 that steady writes pay WAF times and fresh ones not; off by default, and with
it off every fit is the plain one. The drives are made up from the surrogate's own form (drive
B-like: NVMeVirt's drive B fitted with the form, bench/foreign/results/erasecost/DIAGNOSIS.md)."""

from __future__ import annotations

import pytest
from overprov.calibrate import erase_cost, twin
from overprov.calibrate import fit as fitmod

LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)
#: ρ₀, t_page, t_cmd and t_erase (µs) of a drive whose erases cost half its time per page
DRIVE = (0.093, 8.5, -0.9, 4.2)


@pytest.fixture
def form_on(monkeypatch):
    monkeypatch.setattr(erase_cost, "ENABLED", True)


def _made(rho0: float, t_page: float, t_cmd: float, t_erase: float, with_waf: bool):
    """The drive's steady figures at 0% and 40% and its FOB, which pays no erase."""
    s = fitmod.Surrogate(rho0, t_page, t_cmd)
    pts = [fitmod.Point(x, s.iops(x), waf=s.waf(x) if with_waf else None) for x in (0.0, 40.0)]
    fob = 1e6 / (t_cmd + t_page - t_erase)
    return s, [*pts, fitmod.Point(0.0, fob, fresh=True)], fob


def _worst_iops_error(fitted: fitmod.Surrogate, truth: fitmod.Surrogate) -> float:
    return max(abs(fitted.iops(x) / truth.iops(x) - 1) for x in LEVELS)


@pytest.mark.parametrize("with_waf", [True, False])
def test_the_form_reads_the_erase_cost(form_on, with_waf) -> None:
    truth, pts, fob = _made(*DRIVE, with_waf=with_waf)
    s = fitmod.fit(pts, fob_iops=fob)
    assert s.iops(0.0, 1.0) == pytest.approx(fob, rel=1e-6)  # FOB: the drive without erases
    assert _worst_iops_error(s, truth) < 0.04
    if with_waf:  # the line is the drive's: t_erase is FOB's gap below it
        assert s.erase_us_per_page == pytest.approx(DRIVE[3], rel=0.02)
        assert s.t_page_us == pytest.approx(DRIVE[1], rel=0.02)
    else:  # two steady figures: t_cmd held at 0, said so
        assert s.t_cmd_us == 0.0 and s.erase_us_per_page > 0
        assert any("FOB sets the erase time" in f for f in s.fixed)


@pytest.mark.parametrize("with_waf", [True, False])
def test_without_the_form_fob_misleads_the_fit(with_waf) -> None:
    """What the form repairs: FOB read as the line at WAF 1 pulls the fit off the steady
    figures (NVMeVirt's drive B: +53% at 40% from IOPS alone, 20% with WAF)."""
    truth, pts, fob = _made(*DRIVE, with_waf=with_waf)
    s = fitmod.fit(pts, fob_iops=fob)
    assert s.erase_us_per_page == 0.0
    assert _worst_iops_error(s, truth) > 0.10


def test_fob_below_the_line_keeps_the_plain_fit(form_on, monkeypatch) -> None:
    """t_erase ≥ 0: a FOB slower than the line's WAF-1 value is a point of the line, as
    without the form (the same fit to the bit)."""
    _, pts, fob = _made(0.12, 10.0, 1.0, -1.5, with_waf=True)  # FOB 1.5 µs slower
    on = fitmod.fit(pts, fob_iops=fob)
    monkeypatch.setattr(erase_cost, "ENABLED", False)
    off = fitmod.fit(pts, fob_iops=fob)
    assert on.erase_us_per_page == 0.0
    assert on.to_dict() == off.to_dict()


def test_off_by_default_and_the_record_unchanged() -> None:
    assert erase_cost.ENABLED is False
    _, pts, fob = _made(*DRIVE, with_waf=True)
    s = fitmod.fit(pts, fob_iops=fob)
    assert "erase_us_per_page" not in s.to_dict()


def test_the_raw_spare_reading_reads_it_too(form_on) -> None:
    """With the native spare given (the raw NAND), the same split."""
    truth, pts, fob = _made(*DRIVE, with_waf=True)
    s = fitmod.fit(pts, fob_iops=fob, native_op=DRIVE[0], fit_efficiency=True)
    assert s.erase_us_per_page == pytest.approx(DRIVE[3], rel=0.02)
    assert s.iops(0.0, 1.0) == pytest.approx(fob, rel=1e-6)


def test_gap_and_split() -> None:
    assert erase_cost.gap_us(1.0, 9.0, [6.0, 8.0], [1.0, 1.0]) == pytest.approx(3.0)
    assert erase_cost.gap_us(1.0, 9.0, [], []) == 0.0
    got = erase_cost.split(lambda: (1.0, 9.0), lambda: (0.5, 8.0), [7.0], [1.0])
    assert got == (1.0, 9.0, 3.0)
    assert erase_cost.split(lambda: (1.0, 9.0), lambda: (0.5, 8.0), [11.0], [1.0]) == (
        0.5, 8.0, 0.0,
    )  # fmt: skip
    assert erase_cost.split(None, lambda: (0.5, 8.0), [7.0], [1.0]) == (0.5, 8.0, 0.0)


def _params(t_erase: float) -> twin.TwinParameters:
    rho0, t_page, t_cmd, _ = DRIVE
    return twin.TwinParameters(
        advertised_bytes=2**30, native_op=rho0, t_page_us=t_page, t_cmd_us=t_cmd,
        uncertainty={}, source="test_erase_cost", buffer_bytes=0, erase_us_per_page=t_erase,
    )  # fmt: skip


def test_the_twin_carries_the_erase_time() -> None:
    """The NAND mapping (t_cmd < 0): per unit, program + erase = t_page + t_cmd as before, the
    erase out of the program's; t_erase 0: the drive file as without the form."""
    nand = twin.drive_dict(_params(DRIVE[3]))["config"]["timing"]["nand"]
    per_page = twin.DIES * twin.UNITS_PER_FLASH_PAGE
    units_per_block = twin.DIES * nand["die_block_bytes"] // twin.PAGE_BYTES
    prog_unit = nand["program_us"] / per_page
    erase_unit = nand["erase_us"] / units_per_block
    assert erase_unit == pytest.approx(DRIVE[3], rel=1e-4)
    assert prog_unit + erase_unit == pytest.approx(DRIVE[1] + DRIVE[2], rel=1e-4)
    plain = twin.drive_dict(_params(0.0))
    assert plain["config"]["timing"]["nand"]["erase_us"] == 1.0
    assert "erase_us_per_page" not in plain["notes"]["calibration"]


def test_twin_and_form_agree_fresh_and_steady() -> None:
    """Simulated (a 1 GiB twin, about 0.1 CPU s): the twin's FOB is the form's
    1/(t_cmd + t_page − t_erase), its steady IOPS 1/(t_cmd + WAF·t_page); without the erase
    time its FOB is the line's WAF-1 value, less than half."""
    rho0, t_page, t_cmd, t_erase = DRIVE
    m = twin.simulate_levels(_params(t_erase), [0.0, 40.0])
    assert m.fob_iops == pytest.approx(1e6 / (t_cmd + t_page - t_erase), rel=0.03)
    for lv in m.levels:
        assert lv.steady_iops == pytest.approx(1e6 / (t_cmd + lv.waf * t_page), rel=0.03)
    plain = twin.simulate_levels(_params(0.0), [0.0])
    assert plain.fob_iops == pytest.approx(1e6 / (t_cmd + t_page), rel=0.03)


def test_only_with_waf_leaves_iops_only_fits_plain(form_on, monkeypatch) -> None:
    """``ONLY_WITH_WAF``: from IOPS alone the plain fit (FOB on the line) to the bit; with a WAF
    figure the form."""
    monkeypatch.setattr(erase_cost, "ONLY_WITH_WAF", True)
    _, pts, fob = _made(*DRIVE, with_waf=False)
    only = fitmod.fit(pts, fob_iops=fob)
    monkeypatch.setattr(erase_cost, "ENABLED", False)
    assert only.to_dict() == fitmod.fit(pts, fob_iops=fob).to_dict()
    monkeypatch.setattr(erase_cost, "ENABLED", True)
    _, pts, fob = _made(*DRIVE, with_waf=True)
    assert fitmod.fit(pts, fob_iops=fob).erase_us_per_page == pytest.approx(DRIVE[3], rel=0.02)
