"""calibrate's closed-loop queue-depth term (``closed_loop.py``): its closed form against a
hand-computed case, the fit recovering a known unit count, off (and in the predictions only,
its default) leaving the evidence unchanged."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from overprov.calibrate import closed_loop, evidence
from overprov.calibrate import fit as fitmod

FEMU = Path(__file__).resolve().parents[2] / "bench" / "foreign" / "results" / "femu.json"


def _surrogate(t_cmd_us: float, t_page_us: float) -> fitmod.Surrogate:
    return fitmod.Surrogate(native_op=0.1, t_page_us=t_page_us, t_cmd_us=t_cmd_us)


def test_closed_form_against_a_hand_computed_case():
    # 64 units, a write holds one for 200 µs; at QD32 the time per write at WAF 1 is 200/32
    fob_us, iops32 = 200.0 / 32, 1e6 / 8.285  # 8.285 µs per write at QD32 at some WAF
    assert closed_loop.unit_us(64, fob_us, 32) == pytest.approx(200.0)
    # QD4: 8.285 + 200·(1/4 − 1/32) = 52.035 µs; QD128: 8.285 + 200·(1/64 − 1/32) = 5.16 µs
    assert closed_loop.iops_at(iops32, 64, fob_us, 32, 4) == pytest.approx(1e6 / 52.035)
    assert closed_loop.iops_at(iops32, 64, fob_us, 32, 128) == pytest.approx(1e6 / 5.16)
    assert closed_loop.iops_at(iops32, 64, fob_us, 32, 32) == pytest.approx(iops32)
    # 16 units: t_unit = 16·(200/32) = 100 µs; QD128 as QD32 (every unit busy already)
    assert closed_loop.iops_at(iops32, 16, fob_us, 32, 128) == pytest.approx(iops32)
    assert closed_loop.iops_at(iops32, 16, fob_us, 32, 4) == pytest.approx(
        1e6 / (8.285 + 100.0 * (1 / 4 - 1 / 16))
    )
    # the GC link: t_page = t_unit·(1 + read share)/N
    n_gc = closed_loop.units_from_gc(fob_us - 3.0, 3.0, 32)
    assert n_gc == pytest.approx(200.0 * (1 + 60 / 700) / 3.0)


@pytest.mark.parametrize("units", [6.0, 16.0])
def test_fit_recovers_a_unit_count_below_the_queue_depth(units):
    central = _surrogate(t_cmd_us=-1.0, t_page_us=8.0)  # 7 µs per write at WAF 1
    fob_us = central.t_cmd_us + central.t_page_us
    qd4 = closed_loop.iops_at(central.iops(40.0), units, fob_us, 32, 4)
    other = [fitmod.Point(40.0, qd4, 0.05, queue_depth=4)]
    r = closed_loop.fit(central, other, 32)
    step = 2 ** (1 / closed_loop.STEPS_PER_DOUBLING)
    assert units / step <= r.units <= units * step
    assert r.residual_chi2 < 1.0  # within the figure's noise, on the grid of N
    assert r.held_out == []  # one figure alone identifies N: nothing left to predict it from


def test_above_the_queue_depth_the_figure_bounds_n_and_the_gc_link_picks_it():
    # 64 units: a QD4 figure cannot tell 40 from 64 from 200; N_gc = t_unit·(1+r)/t_page
    t_page = 200.0 * (1 + 60 / 700) / 64
    central = _surrogate(t_cmd_us=200.0 / 32 - t_page, t_page_us=t_page)
    fob_us = central.t_cmd_us + central.t_page_us
    qd4 = closed_loop.iops_at(central.iops(40.0), 64, fob_us, 32, 4)
    r = closed_loop.fit(central, [fitmod.Point(40.0, qd4, 0.05, queue_depth=4)], 32)
    assert r.units_allowed is not None
    low, high = r.units_allowed
    assert low <= 32 * 2 ** (1 / 8) and high == closed_loop.MAX_UNITS
    assert r.units == pytest.approx(64, rel=0.05)


def test_femu_recorded_figures_give_its_64_luns_within_a_quarter():
    """FEMU's measured curve (bench/foreign/results/femu.json): QD32 IOPS and WAF at 0 and
    40%, FOB, and the 40% QD4 figure, as calibrate's "IOPS+WAF ... QD4" case fits them."""
    doc = json.loads(FEMU.read_text())
    lv = {(int(r["extra_op_percent"]), r["queue_depth"]): r for r in doc["levels"]}
    points = [
        fitmod.Point(x, lv[(x, 32)]["steady_iops"], 0.05, waf=lv[(x, 32)]["steady_waf"])
        for x in (0, 40)
    ] + [fitmod.Point(0.0, lv[(0, 32)]["fob_iops"], 0.05, fresh=True)]
    central = fitmod.fit(points)
    other = [fitmod.Point(40.0, lv[(40, 4)]["steady_iops"], 0.05, queue_depth=4)]
    r = closed_loop.fit(central, other, 32)
    assert 48 <= r.units <= 80
    for x in (0, 40):  # QD4 and QD128 at both levels, from the QD32 figures' fit
        for qd in (4, 128):
            got = r.iops_at(central.iops(float(x)), qd)
            assert abs(math.log(got / lv[(x, qd)]["steady_iops"])) < 0.15, (x, qd)


def test_off_is_evidence_assess_unchanged(monkeypatch):
    points = [fitmod.Point(0.0, 126.0, 0.05), fitmod.Point(40.0, 988.0, 0.05),
              fitmod.Point(0.0, 2286.0, 0.05, fresh=True)]  # fmt: skip
    other = [fitmod.Point(40.0, 762.0, 0.05, queue_depth=4)]
    form = evidence.ReadingForm(fitmod.waf_at)
    monkeypatch.setattr(closed_loop, "ENABLED", False)
    got, reading = closed_loop.assess(form, points, 0.1, other, 32)
    assert reading is None
    assert got == evidence.assess(form, points, 0.1, other_qd=other)
    monkeypatch.setattr(closed_loop, "ENABLED", True)
    monkeypatch.setattr(closed_loop, "WEIGH", True)
    on, reading = closed_loop.assess(form, points, 0.1, other, 32)
    assert reading is not None
    assert on["n_parameters"] == got["n_parameters"] + 1
    # the QD4 figure read through N units is reproduced; scored with the QD32 figure it was not
    assert on["residual_chi2"] < got["residual_chi2"]
    # in the predictions only: the evidence (so the weights) as off's, the reading fitted
    monkeypatch.setattr(closed_loop, "WEIGH", False)
    only, fitted = closed_loop.assess(form, points, 0.1, other, 32)
    assert only == got and fitted is not None and fitted.units == reading.units


def test_its_record_is_the_one_the_schema_declares():
    """``fit.gc_mechanism.closed_loop`` was written into prediction.json but not declared in
    its schema (calibrate/prediction.schema.json): every key written is declared, none more."""
    import jsonschema

    schema = json.loads(
        (Path(closed_loop.__file__).parent / "prediction.schema.json").read_text(encoding="utf-8")
    )
    declared = schema["properties"]["fit"]["properties"]["gc_mechanism"]["properties"]
    central = _surrogate(t_cmd_us=-1.0, t_page_us=8.0)
    other = [fitmod.Point(40.0, 20000.0, 0.05, queue_depth=4),
             fitmod.Point(40.0, 60000.0, 0.05, queue_depth=128)]  # fmt: skip
    record = closed_loop.fit(central, other, 32).to_dict()
    jsonschema.validate(record, declared["closed_loop"])
    assert set(record) == set(declared["closed_loop"]["properties"])


def test_probes_at_two_levels_weigh_the_term_and_refute_it_where_gc_blocks(monkeypatch):
    """``WEIGH_FROM_LEVELS``: QD4 figures at two levels put the term in the evidence, one
    figure does not. Under a closed loop 1/IOPS(QD4) − 1/IOPS(QD32) is one figure at every
    level: figures the form makes at 0 and 40% are reproduced; MQSim's recorded ones
    (bench/foreign/results/mqsim.json: −11 µs at 0%, +301 µs at 40%) cannot be by any N."""
    monkeypatch.setattr(closed_loop, "ENABLED", True)
    monkeypatch.setattr(closed_loop, "WEIGH", False)
    monkeypatch.setattr(closed_loop, "WEIGH_FROM_LEVELS", 2)
    central = _surrogate(t_cmd_us=-1.0, t_page_us=8.0)
    fob_us = central.t_cmd_us + central.t_page_us
    loop = [fitmod.Point(x, closed_loop.iops_at(central.iops(x), 16, fob_us, 32, 4), 0.05,
                         queue_depth=4) for x in (0.0, 40.0)]  # fmt: skip
    assert not closed_loop.weighs(loop[1:]) and closed_loop.weighs(loop)
    assert closed_loop.fit(central, loop, 32).residual_chi2 < 1.0
    blocking = [fitmod.Point(0.0, 1e6 / (1e6 / central.iops(0.0) - 10.9), 0.05, queue_depth=4),
                fitmod.Point(40.0, 1e6 / (1e6 / central.iops(40.0) + 300.8), 0.05,
                             queue_depth=4)]  # fmt: skip
    r = closed_loop.fit(central, blocking, 32)
    assert r.residual_chi2 > 10.0 and r.held_out_chi2 > r.residual_chi2
    points = [fitmod.Point(0.0, 126.0, 0.05, 8.29, 0.05), fitmod.Point(40.0, 988.0, 0.05, 1.43)]
    form = evidence.ReadingForm(fitmod.waf_at)
    one, _ = closed_loop.assess(form, points, 0.1, blocking[1:], 32)
    two, _ = closed_loop.assess(form, points, 0.1, blocking, 32)
    assert one == evidence.assess(form, points, 0.1, other_qd=blocking[1:])  # as WEIGH False
    assert two["n_parameters"] == one["n_parameters"] + 1


def test_the_note_names_the_fits_own_queue_depth():
    text = closed_loop.note(1, True, 16, False)
    assert "its QD16 one" in text and "QD32" not in text
    assert "through N parallel units" in closed_loop.note(2, True, 32, True)
