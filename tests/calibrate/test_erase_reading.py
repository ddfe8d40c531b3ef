"""The erase-cost form offered as a reading (calibrate/erase_reading.py, OFFERED, off by
default since bench/foreign/results/erasecheck/RULE.md): an erase-cost twin beside each
spare reading where no plain reading reproduces its fitted figures, weighed by the evidence
with them. NVMeVirt's drive B (bench/foreign/results/nvmevirt/nvmevirt-b.json: an erase dearer
a page than the program) calls for it; a drive whose FOB lies on the steady line, or whose
plain reading reproduces its figures, does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.calibrate import erase_cost, erase_reading, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.cli import USER_POINT_REL_SD

DRIVE_B = Path(__file__).parents[2] / "bench/foreign/results/nvmevirt/nvmevirt-b.json"
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


@pytest.fixture
def offered(monkeypatch):
    monkeypatch.setattr(erase_reading, "OFFERED", True)


def _stored_b(with_waf: bool, rel_sd: float = fitmod.MIN_REL_SD) -> list[fitmod.Point]:
    """Drive B's QD32 figures at 0% and 40% (IOPS, WAF when ``with_waf``) and its FOB, each
    with the relative spread ``rel_sd`` (``cli.USER_POINT_REL_SD`` for typed figures)."""
    doc = json.loads(DRIVE_B.read_text())
    at = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    pts = [
        fitmod.Point(x, at[x]["steady_iops"], rel_sd,
                     waf=at[x]["steady_waf"] if with_waf else None, waf_rel_sd=rel_sd)
        for x in (0, 40)
    ]  # fmt: skip
    return [*pts, fitmod.Point(0.0, at[0]["fob_iops"], rel_sd, fresh=True)]


def _weights(points: list[fitmod.Point]) -> dict[str, float]:
    fig = predmod.PredictionInput(points=points, levels=LEVELS, typed=True)
    evidences, _ = spare_readings.weigh(fig)
    return {r.key: w for r, w in spare_readings.class_weights(evidences).items()}


def _line_drive(fob_above_line: float = 1.0) -> list[fitmod.Point]:
    """A drive of the plain form (greedy curve) at 0% and 40% with WAF; its FOB the line's
    WAF-1 value times ``fob_above_line``."""
    s = fitmod.Surrogate(0.1, 20.0, 2.0)
    pts = [fitmod.Point(x, s.iops(x), waf=s.waf(x)) for x in (0.0, 40.0)]
    return [*pts, fitmod.Point(0.0, s.iops(0.0, 1.0) * fob_above_line, fresh=True)]


def test_on_by_default_and_nothing_offered_off(monkeypatch) -> None:
    """Off by bench/foreign/results/erasecheck/RULE.md, on again (with WITHOUT_FLOOR) by
    bench/foreign/results/erasefloor/RULE.md; off, B has no twin."""
    assert erase_reading.OFFERED is True
    monkeypatch.setattr(erase_reading, "OFFERED", False)
    assert not any(k.endswith(erase_reading.SUFFIX) for k in _weights(_stored_b(True)))


@pytest.mark.parametrize("rel_sd", [fitmod.MIN_REL_SD, USER_POINT_REL_SD])
@pytest.mark.parametrize("with_waf", [True, False])
def test_drive_b_the_erase_reading_carries_the_weight(offered, with_waf, rel_sd) -> None:
    """Every plain reading of B misses its fitted figures (FOB 2.2 times the line); an erase-cost
    twin reproduces them and takes the weight (with a measurement's spread and a typed one's)."""
    w = _weights(_stored_b(with_waf, rel_sd))
    erase = sum(v for k, v in w.items() if k.endswith(erase_reading.SUFFIX))
    assert erase > 0.99
    assert max(w, key=lambda k: w[k]) == "effective_spare:greedy+erase"


def test_fob_on_the_line_offers_no_erase_reading(offered) -> None:
    w = _weights(_line_drive())
    assert not any(k.endswith(erase_reading.SUFFIX) for k in w)


def test_a_plain_reading_that_reproduces_is_not_displaced(offered, monkeypatch) -> None:
    """FOB 3% above the line: the plain greedy reading reproduces its figures within their
    noise, so the form is not called for and the weights are those without it."""
    pts = _line_drive(1.03)
    on = _weights(pts)
    monkeypatch.setattr(erase_reading, "OFFERED", False)
    assert on == _weights(pts)


def test_the_erase_twin_is_named_apart() -> None:
    r = predmod.TwinReading(predmod.EFFECTIVE, "d-choices-4", several=True, erase=True)
    assert r.key == "effective_spare:d-choices-4+erase"
    assert r.twin_name == "twin-erase-d-choices-4.toml"
    assert r != predmod.TwinReading(predmod.EFFECTIVE, "d-choices-4", several=True)


def test_t_erase_counts_as_a_parameter(offered) -> None:
    fig = predmod.PredictionInput(points=_stored_b(True), levels=LEVELS, typed=True)
    evidences, _ = spare_readings.weigh(fig)
    plain = next(e for r, e in evidences.items() if r.key == "effective_spare")
    erase = next(e for r, e in evidences.items() if r.key == "effective_spare:greedy+erase")
    assert erase["n_parameters"] == plain["n_parameters"] + 1


def test_fitting_restores_the_flags() -> None:
    with pytest.raises(RuntimeError), erase_reading.fitting():
        assert erase_cost.ENABLED and not erase_cost.ONLY_WITH_WAF
        raise RuntimeError
    assert erase_cost.ENABLED is False and erase_cost.ONLY_WITH_WAF is False


def test_prediction_json_accepts_the_erase_twins_names() -> None:
    """prediction.schema.json's reading names: an erase-cost twin's key is one of them (the
    first evaluation of bench/foreign/results/erasereading/RULE.md was refused without it)."""
    import re

    schema = json.loads(
        (Path(spare_readings.__file__).parent / "prediction.schema.json").read_text()
    )
    pattern = re.compile(schema["properties"]["readings"]["propertyNames"]["pattern"])
    for design in ("greedy", "d-choices-8"):
        r = predmod.TwinReading(predmod.EFFECTIVE, design, erase=True)
        assert pattern.match(r.key)
    assert not pattern.match("effective_spare+erase")
