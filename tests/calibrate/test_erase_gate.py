"""The erase-cost reading at calibrate's plausibility gate (calibrate/erase_reading.py,
``explains``, ``AT_THE_GATE``; OFFERED off by default): figures with FOB whose plain greedy fit
misses them pass when an erase-cost fit explains them. NVMeVirt's drive K
(bench/foreign/results/erasereading/nvmevirt-k.json: erase 4 ms for 128 pages, 31 µs a page
against a 50 µs program) is refused without it (the plain fit misses its 40% IOPS by +61%);
figures whose WAF no greedy curve reaches are refused either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.calibrate import erase_reading, plausibility
from overprov.calibrate import fit as fitmod
from overprov.calibrate.cli import USER_POINT_REL_SD

DRIVE_K = Path(__file__).parents[2] / "bench/foreign/results/erasereading/nvmevirt-k.json"


@pytest.fixture
def offered(monkeypatch):
    monkeypatch.setattr(erase_reading, "OFFERED", True)


def _stored_k(with_waf: bool = True, waf_40: float | None = None) -> list[fitmod.Point]:
    """Drive K's QD32 figures at 0% and 40% (IOPS, WAF when ``with_waf``; the 40% WAF replaced
    by ``waf_40`` if given) and its FOB, with a typed figure's spread (as calibrate reads them)."""
    doc = json.loads(DRIVE_K.read_text())
    at = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    sd = USER_POINT_REL_SD
    pts = []
    for x in (0, 40):
        waf = at[x]["steady_waf"] if x == 0 or waf_40 is None else waf_40
        pts.append(fitmod.Point(x, at[x]["steady_iops"], sd, waf=waf if with_waf else None,
                                waf_rel_sd=sd))  # fmt: skip
    return [*pts, fitmod.Point(0.0, at[0]["fob_iops"], sd, fresh=True)]


def _gate(points: list[fitmod.Point]) -> str | None:
    fob = next(p.iops for p in points if p.fresh)
    return plausibility.fit_misses_its_points(points, fob)


def test_hook_registered_and_on_by_default(monkeypatch) -> None:
    """On by default (bench/foreign/results/erasefloor/RULE.md; off under
    bench/foreign/results/erasecheck/RULE.md); off, K is refused; offered, an erase-cost fit
    explains it."""
    assert plausibility.ERASE_COST_EXPLAINS is erase_reading.explains
    assert erase_reading.OFFERED is True and erase_reading.AT_THE_GATE is True
    monkeypatch.setattr(erase_reading, "OFFERED", False)
    assert not erase_reading.explains(_stored_k())
    monkeypatch.setattr(erase_reading, "OFFERED", True)
    assert erase_reading.explains(_stored_k())


@pytest.mark.parametrize("with_waf", [True, False])
def test_drive_k_refused_off_passes_offered(monkeypatch, with_waf) -> None:
    monkeypatch.setattr(erase_reading, "OFFERED", False)
    pts = _stored_k(with_waf)
    why = _gate(pts)
    assert why is not None and "IOPS point at 40%" in why
    monkeypatch.setattr(erase_reading, "OFFERED", True)
    assert erase_reading.explains(pts)
    assert _gate(pts) is None


def test_sub_flag_off_keeps_the_refusal(offered, monkeypatch) -> None:
    monkeypatch.setattr(erase_reading, "AT_THE_GATE", False)
    assert _gate(_stored_k()) is not None


def test_figures_no_fit_explains_still_refused(offered) -> None:
    """WAF 4.0 at 40% beside 5.1 at 0%: no greedy curve falls so little, plain or erase-cost."""
    pts = _stored_k(waf_40=4.0)
    assert not erase_reading.explains(pts)
    assert _gate(pts) is not None


def test_without_fob_not_explained(offered) -> None:
    pts = [p for p in _stored_k() if not p.fresh]
    assert not erase_reading.explains(pts)
