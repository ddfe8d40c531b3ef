"""Typed two-level figures only the gentlest victim choice links, read as a GC reserve with a
victim floor (calibrate/steep_pair.py, ``READ_AS_FLOOR`` off): surrogate-level checks
(milliseconds) on FEMU figures the scoreboard typed
(bench/foreign/results/scoreboard/cases-final.md; bench/foreign/results/femutyped/DIAGNOSIS.md).
``READ_AS_FLOOR`` and femucarry's other five flags are on by default since
bench/foreign/results/femumedian/verdict.md (FEMU 6 × 240 and 33 × 82 met their targets there);
the tests of ``READ_AS_FLOOR`` alone, of the hull and of the warning pin the six off
(``femucarry_off``) and set the flag they are about."""

from __future__ import annotations

import pytest
from overprov.calibrate import (
    cli,
    gc_designs,
    plausibility,
    reserve_hull,
    spare_readings,
    steep_pair,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod


def _points(iops: str, waf: str, fob: float) -> list[fitmod.Point]:
    pts = cli.user_points(iops, waf)
    return [*pts, fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True)]


#: FEMU 6 LUNs × 240 blocks, threshold 68% (byfig5/unseen): the floor holds at 0-10% (WAF 8.00)
FEMU_6LUN = _points("0:3088,40:15710,40:12439@qd4", "0:8.000,40:1.701", 30013)
#: FEMU's first drive (femu.json): the floor gives way before 10%; d-choices-4 links the levels
FEMU_64LUN = _points("0:29883,40:120704,40:19223@qd4", "0:7.998,40:1.492", 160007)
#: MQSim u1024x32-op12 (mqsim-reserve/unseen): only d = 2 links its two levels too, but no reserve
#: reading of a uniform design is called for (bench/foreign/results/steephull/fires.txt)
MQSIM_1024 = _points("0:367,40:1236,40:844@qd4", "0:4.683,40:1.363", 2403)
#: FEMU 33 LUNs × 82 blocks (gatefix): on the floor at 0-30%, refused by the gate today
FEMU_33LUN = _points("0:1084,40:1866", "0:7.996,40:4.636", 8535)


def _fig(points: list[fitmod.Point]) -> predmod.PredictionInput:
    return predmod.PredictionInput(
        list(points), [0.0, 10.0, 20.0, 30.0, 40.0], typed=True, fob_iops=points[-1].iops,
        model_form=uncertainty.model_form_for(points, False),
    )  # fmt: skip


def _cv(points: list[fitmod.Point]) -> float:
    return uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, False))


def test_off_reads_the_figures_as_before(monkeypatch):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    evidences, _ = spare_readings.weigh(_fig(FEMU_6LUN))
    assert {r.spare for r in evidences} == {predmod.EFFECTIVE}
    assert not steep_pair.fires(_fig(FEMU_6LUN).points, _cv(FEMU_6LUN), True)


def test_only_the_gentlest_design_links_the_6lun_figures_not_the_64lun_ones():
    six, sixty_four = _fig(FEMU_6LUN).points, _fig(FEMU_64LUN).points  # the QD4 figure apart
    assert steep_pair.gentlest_alone(six, _cv(FEMU_6LUN))
    assert not steep_pair.gentlest_alone(sixty_four, _cv(FEMU_64LUN))  # d-choices-4 links them


def test_on_the_greedy_reserve_reading_replaces_the_plain_ones_and_holds_the_floor(
    monkeypatch, femucarry_off
):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    evidences, _ = spare_readings.weigh(_fig(FEMU_6LUN))
    assert {r.spare for r in evidences} == {predmod.RESERVE}
    within = spare_readings.class_weights(evidences)
    best = max(within, key=lambda r: within[r])
    assert best.design == "greedy" and within[best] > 0.99
    s = best.reserve.fit(_fig(FEMU_6LUN).points)
    assert s.waf_floor == pytest.approx(8.0, rel=0.01)
    assert s.waf(10.0) == pytest.approx(8.0, rel=0.02)  # the truth: 8.000 (scoreboard)
    assert s.waf(20.0) == pytest.approx(4.479, rel=0.05)  # the truth: 4.479
    assert reserve_hull.hull(evidences) == set()  # no hull: OFFERED is off


def test_on_leaves_figures_a_selective_design_links_as_they_were(monkeypatch):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    off, _ = spare_readings.weigh(_fig(FEMU_64LUN))
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    on, _ = spare_readings.weigh(_fig(FEMU_64LUN))
    assert set(on) == set(off)
    assert {r: e["chi2"] for r, e in on.items()} == {r: e["chi2"] for r, e in off.items()}


def test_on_the_gate_passes_figures_on_the_floor_a_reserve_reading_explains(monkeypatch):
    cv = uncertainty.model_form_for(FEMU_33LUN, False)
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    assert plausibility.fit_misses_its_points(FEMU_33LUN, 8535.0, None, cv) is not None
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    assert plausibility.fit_misses_its_points(FEMU_33LUN, 8535.0, None, cv) is None


def test_hull_off_offers_nothing_and_warns_nothing(monkeypatch, femucarry_off):
    # femucarry_off: with READ_AS_FLOOR on the reading as a floor says WARNING_AS_FLOOR (below)
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", False)
    monkeypatch.setattr(steep_pair, "WARN_WHERE_AMBIGUOUS", False)
    fig = _fig(FEMU_6LUN)
    evidences, _ = spare_readings.weigh(fig)
    assert not reserve_hull.beside_where_ambiguous(fig, _cv(FEMU_6LUN))
    assert reserve_hull.hull(evidences) == set()
    assert reserve_hull.ambiguity_warning(fig, evidences) == ""


def test_hull_on_offers_the_reserve_readings_beside_the_plain_ones_and_spans_them(
    monkeypatch, femucarry_off
):
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    fig = _fig(FEMU_6LUN)
    evidences, _ = spare_readings.weigh(fig)
    assert {r.spare for r in evidences} == {predmod.EFFECTIVE, predmod.RESERVE}
    plain = {r for r in evidences if r.spare == predmod.EFFECTIVE}
    assert {r.design for r in plain} == set(gc_designs.UNIFORM_DESIGNS)
    span = reserve_hull.hull(evidences)
    assert any(r.spare == predmod.RESERVE for r in span)  # a floor that reproduces the figures
    assert reserve_hull.ambiguity_warning(fig, evidences) == f"; {steep_pair.WARNING}"
    assert "10% or 20%" in steep_pair.WARNING


def test_hull_on_leaves_figures_a_selective_design_links_as_they_were(monkeypatch):
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    fig = _fig(FEMU_64LUN)
    evidences, _ = spare_readings.weigh(fig)
    assert {r.spare for r in evidences} == {predmod.EFFECTIVE}
    assert reserve_hull.hull(evidences) == set()
    assert reserve_hull.ambiguity_warning(fig, evidences) == ""


def test_hull_on_leaves_the_gate_as_it_was(monkeypatch, femucarry_off):
    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    cv = uncertainty.model_form_for(FEMU_33LUN, False)
    assert plausibility.fit_misses_its_points(FEMU_33LUN, 8535.0, None, cv) is not None


def test_hull_on_the_real_cli_prints_the_warning_on_typed_femu_figures(tmp_path, capsys,
                                                                        monkeypatch):  # fmt: skip
    """FEMU 6 LUNs × 240 blocks' typed figures (the scoreboard's command, only the fitted
    levels asked for to keep it short; ≈ 7 CPU s): calibrate answers and prints the warning
    (the scoreboard's run of the same figures at 0-40%:
    bench/foreign/results/steephull/on/FEMU--byfig5_unseen--femu-6lun-240blk-thres68.json)."""
    from overprov.cli import main

    monkeypatch.setattr(steep_pair, "HULL_WHERE_AMBIGUOUS", True)
    rc = main(["calibrate", "--points", "0:3088,40:15710,40:12439@qd4", "--waf-points",
               "0:8.000,40:1.701", "--fob-iops", "30013", "--extra-op", "0,40", "--jobs", "1",
               "--out", str(tmp_path)])  # fmt: skip
    assert rc == 0
    out = " ".join(capsys.readouterr().out.split())  # the summary wraps long lines
    assert "cannot tell a GC reserve's victim floor from a gentle victim choice" in out
    assert "a WAF figure at 10% or 20% extra OP would tell them apart" in out


def test_without_the_six_the_answer_warns_where_a_floor_and_d2_both_read_the_two_levels(
    femucarry_off,
):
    """steep_pair.WARN_WHERE_AMBIGUOUS (on): a message only, where gentlest_alone fires and a
    reserve reading is called for: FEMU 6 × 240 yes; FEMU's first drive (d = 4 links it) and
    MQSim u1024x32-op12 (no reserve reading called for) no."""
    assert steep_pair.WARN_WHERE_AMBIGUOUS and not steep_pair.HULL_WHERE_AMBIGUOUS
    for points, warned in ((FEMU_6LUN, True), (FEMU_64LUN, False), (MQSIM_1024, False)):
        fig = _fig(points)
        evidences, _ = spare_readings.weigh(fig)
        assert not any(r.spare == predmod.RESERVE for r in evidences)  # the figures' readings
        expected = f"; {steep_pair.WARNING_ALONE}" if warned else ""
        assert reserve_hull.ambiguity_warning(fig, evidences) == expected


def test_by_default_6lun_is_read_as_a_floor_and_the_answer_says_so():
    """femucarry's six flags on: FEMU 6 × 240's figures are read as a GC reserve by the three
    selective designs, alike (its WAF worst 50.3% → 7.6%: bench/foreign/results/femumedian/
    verdict.md, C3), and the answer says the figures were read as a floor and what a gentle
    victim choice would give instead (steep_pair.WARNING_AS_FLOOR)."""
    fig = _fig(FEMU_6LUN)
    evidences, _ = spare_readings.weigh(fig)
    within = spare_readings.class_weights(evidences)
    assert {r.spare for r in within} == {predmod.RESERVE}
    assert {r.design for r in within} == set(steep_pair.SELECTIVE_DESIGNS)
    assert max(within.values()) - min(within.values()) < 0.01
    assert reserve_hull.ambiguity_warning(fig, evidences) == f"; {steep_pair.WARNING_AS_FLOOR}"


def test_without_the_six_the_real_cli_prints_the_warning_and_the_same_figures(
    tmp_path, capsys, monkeypatch, femucarry_off
):
    """FEMU 6 LUNs × 240 blocks' typed figures with the six off (≈ 7 CPU s): the warning is
    printed and the figures are those with it off (the message changes no figure)."""
    import json

    from overprov.cli import main

    args = ["calibrate", "--points", "0:3088,40:15710,40:12439@qd4", "--waf-points",
            "0:8.000,40:1.701", "--fob-iops", "30013", "--extra-op", "0,40", "--jobs", "1",
            "--json", "-"]  # fmt: skip
    assert main([*args, "--out", str(tmp_path / "on")]) == 0
    on = json.loads(capsys.readouterr().out)
    assert "would tell them apart" in on["prediction_source"]
    assert "half too low" in on["prediction_source"]
    monkeypatch.setattr(steep_pair, "WARN_WHERE_AMBIGUOUS", False)
    assert main([*args, "--out", str(tmp_path / "off")]) == 0
    off = json.loads(capsys.readouterr().out)
    assert "would tell them apart" not in off["prediction_source"]
    assert on["levels"] == off["levels"]
