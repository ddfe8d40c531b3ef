"""The erase-cost twins offered where the reading of the design the WAF figures imply fails
(calibrate/erase_reading.py, WHEN_IMPLIED_FAILS under OFFERED, on by
bench/foreign/results/erasegreedy/RULE-2.md, off by bench/foreign/results/erasecheck/RULE.md):
NVMeVirt drive N
(bench/foreign/results/erasegate/nvmevirt-n.json; bench/foreign/results/nvmen/DIAGNOSIS.md)
has a greedy-shaped WAF, its plain greedy reading misses its 40% IOPS, and d-choices-4
reproduces by trading WAF for IOPS: only with the sub-flag are the twins offered. A drive whose
greedy reading reproduces (NVMeVirt A, a generated greedy drive), or figures without WAF (N's
IOPS alone), are read as without it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.calibrate import erase_reading, evidence, gc_designs, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.cli import USER_POINT_REL_SD

RESULTS = Path(__file__).parents[2] / "bench/foreign/results"
DRIVE_N = RESULTS / "erasegate/nvmevirt-n.json"
DRIVE_A = RESULTS / "nvmevirt/nvmevirt-a.json"
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
CURVES = {d: gc_designs.curve(d) or fitmod.waf_at for d in gc_designs.UNIFORM_DESIGNS}


def _stored(path: Path) -> list[fitmod.Point]:
    """The plan case's QD32 figures with WAF: IOPS and WAF at 0% and 40%, and FOB (typed
    spread)."""
    doc = json.loads(path.read_text())
    at = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    sd = USER_POINT_REL_SD
    pts = [
        fitmod.Point(x, at[x]["steady_iops"], sd, waf=at[x]["steady_waf"], waf_rel_sd=sd)
        for x in (0, 40)
    ]
    return [*pts, fitmod.Point(0.0, at[0]["fob_iops"], sd, fresh=True)]


def _evidences(points: list[fitmod.Point]) -> dict[predmod.TwinReading, dict]:
    fig = predmod.PredictionInput(points=points, levels=LEVELS, typed=True)
    return spare_readings.weigh(fig)[0]


def _weights(points: list[fitmod.Point]) -> dict[str, float]:
    w = spare_readings.class_weights(_evidences(points))
    return {r.key: v for r, v in w.items()}


def _erase_share(w: dict[str, float]) -> float:
    return sum(v for k, v in w.items() if k.endswith(erase_reading.SUFFIX))


@pytest.fixture
def offered(monkeypatch):
    monkeypatch.setattr(erase_reading, "OFFERED", True)


def test_on_by_default() -> None:
    """Adopted by bench/foreign/results/erasegreedy/RULE-2.md, off by
    bench/foreign/results/erasecheck/RULE.md (harm from OFFERED at a 2% spread), on again with
    WITHOUT_FLOOR by bench/foreign/results/erasefloor/RULE.md."""
    assert erase_reading.OFFERED is True and erase_reading.WHEN_IMPLIED_FAILS is True


def test_drive_n_needs_the_sub_flag(offered, monkeypatch) -> None:
    """N: a plain reading (d-choices-4) reproduces, so OFFERED alone offers nothing; with the
    sub-flag the greedy reading's failure offers the twins and greedy+erase takes the weight.
    Without the twins the WAF figures put the weight on greedy (evidence.WAF_WEIGHTS, on);
    weighed on all their figures, on d-choices-4."""
    pts = _stored(DRIVE_N)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", False)
    without = _weights(pts)
    assert _erase_share(without) == 0.0
    assert max(without, key=lambda k: without[k]) == "effective_spare"
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", False)
    plain = _weights(pts)
    assert max(plain, key=lambda k: plain[k]) == "effective_spare:d-choices-4"
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", True)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", True)
    w = _weights(pts)
    assert _erase_share(w) > 0.99
    assert max(w, key=lambda k: w[k]) == "effective_spare:greedy+erase"


def test_drive_n_wafs_imply_greedy() -> None:
    assert erase_reading.implied_design(CURVES, _stored(DRIVE_N)) == "greedy"


def _line_drive(design: str, fob_above_line: float = 1.03) -> list[fitmod.Point]:
    """A drive of the plain form with ``design``'s WAF curve, figures at 0% and 40% with WAF;
    its FOB ``fob_above_line`` times the line's WAF-1 value."""
    s = fitmod.Surrogate(0.1, 20.0, 2.0, curve=CURVES[design])
    pts = [fitmod.Point(x, s.iops(x), waf=s.waf(x)) for x in (0.0, 40.0)]
    return [*pts, fitmod.Point(0.0, s.iops(0.0, 1.0) * fob_above_line, fresh=True)]


@pytest.mark.parametrize("design", ["greedy", "d-choices-4", "d-choices-2"])
def test_the_implied_design_is_the_curve_of_the_wafs(design) -> None:
    assert erase_reading.implied_design(CURVES, _line_drive(design)) == design


def test_without_two_waf_levels_no_design_is_implied() -> None:
    pts = [p for p in _line_drive("d-choices-2") if p.extra_op_percent == 0.0]
    assert erase_reading.implied_design(CURVES, pts) is None
    assert erase_reading.implied_design(CURVES, _without_waf(_line_drive("greedy"))) is None


def _without_waf(points: list[fitmod.Point]) -> list[fitmod.Point]:
    return [fitmod.Point(p.extra_op_percent, p.iops, p.iops_rel_sd, fresh=p.fresh) for p in points]


def test_n_without_its_wafs_reads_as_without_the_sub_flag(offered, monkeypatch) -> None:
    """N's IOPS figures alone imply no design: a plain reading reproduces them, so the sub-flag
    offers nothing (bench/foreign/results/erasegreedy/verdict.md: read as greedy, the twins
    were offered there and two IOPS-only cases of J and N were harmed)."""
    pts = _without_waf(_stored(DRIVE_N))
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", False)
    without = _evidences(pts)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", True)
    assert _evidences(pts) == without
    assert not any(r.erase for r in without)


@pytest.mark.parametrize("points", [_stored(DRIVE_A), _line_drive("greedy")], ids=["A", "gen"])
def test_a_greedy_reading_that_reproduces_reads_as_without(offered, monkeypatch, points) -> None:
    """NVMeVirt A and a generated greedy drive: the greedy reading reproduces, no erase twin is
    offered, and every reading's evidence (all read_all weighs and simulates from) is the one
    without the sub-flag and the one without the form, to the bit."""
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", True)
    on = _evidences(points)
    assert not any(r.erase for r in on)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", False)
    assert on == _evidences(points)
    monkeypatch.setattr(erase_reading, "OFFERED", False)
    assert on == _evidences(points)
