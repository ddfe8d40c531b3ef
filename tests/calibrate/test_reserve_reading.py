"""A measured target's reserve reading (calibrate/reserve_reading.py): with an onset of garbage
collection from empty in its measurement, the GC-reserve reading fitted to it is weighed beside
the target's one reading; without one, nothing changes."""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest
from overprov import engine, presets
from overprov.calibrate import answer, gc_onset, mixture_centre, reserve_reading, twin, twin_runs
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.measurement_file import Level, Measurement
from overprov.prediction_file import PredictedLevel, Prediction
from overprov.profile.sim_target import SimTarget
from test_gc_reserve import reserve_drive_points

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def _measurement(points: list[fitmod.Point], onset: float | None) -> Measurement:
    levels = [
        Level(extra_op_percent=p.extra_op_percent, steady_iops=p.iops, iops_rel_sd=0.01,
              waf=p.waf, p99_latency_us=None, settled=True, window_rounds=4,
              drive_writes_before_window=1.0, drive_writes=2.0)
        for p in points
    ]  # fmt: skip
    return Measurement(
        target="sim:x", capacity_bytes=2**30, scale_factor=1.0, bs_bytes=4096, qd=32,
        levels=levels, kind="sim", onset_spare_factor=onset,
        onset_source=gc_onset.ONSET_FROM_EMPTY if onset is not None else None,
    )  # fmt: skip


def _plan_points(spare_factor: float, floor: float | None) -> list[fitmod.Point]:
    """The plan's figures (0% and 40%) of a drive read the reserve way (floor None: one spare,
    greedy), t_cmd 2 µs, t_page 4 µs."""
    return reserve_drive_points((0.0, 40.0), spare_factor, floor)


def _fig(points: list[fitmod.Point], onset: float | None) -> predmod.PredictionInput:
    return predmod.PredictionInput(points, LEVELS, measurement=_measurement(points, onset))


def test_without_an_onset_the_prediction_is_the_one_readings_itself():
    fig = _fig(_plan_points(0.9, 7.98), None)
    plain = predmod.TwinReading()
    central = fitmod.fit(fig.points)
    assert reserve_reading.offered(fig, plain, central) == {}
    sentinel = object()
    ready = predmod.Prepared(LEVELS, fitmod.waf_at, True, None, True)  # type: ignore[arg-type]
    assert reserve_reading.predict(fig, plain, ready, sentinel) is sentinel  # type: ignore[arg-type]
    # an onset dated after a fill (or a lower bound) is no onset from empty
    m = replace(fig.measurement, onset_spare_factor=0.9, onset_source=gc_onset.ONSET_LOWER_BOUND)
    assert reserve_reading.onset_from_empty(m) is None


def test_the_onset_offers_the_reserve_reading_where_the_floor_is_called_for():
    plain = predmod.TwinReading()
    # a reserve drive: its 0% on the floor; the onset reads its spare factor 0.9
    fig = _fig(_plan_points(0.9, 7.98), 0.9)
    evs = reserve_reading.offered(fig, plain, fitmod.fit(fig.points))
    reserve = [r for r in evs if r.spare == predmod.RESERVE]
    assert reserve and all(r.twin_name.startswith("twin-reserve-") for r in reserve)
    w = reserve_reading.weights(evs)
    assert sum(w[r] for r in reserve) > 0.95
    assert all("onset" in e for e in evs.values())
    # a one-spare greedy drive (spare factor 1.15): no floor called for, no reserve reading
    fig = _fig(_plan_points(1.15, None), 1.15)
    assert list(reserve_reading.offered(fig, plain, fitmod.fit(fig.points))) == [plain]


#: The rule's bounds (bench/foreign/results/gc-onset-plan/RULE.md, condition 1): held-out WAF at
#: 10/20/30% median |error| at most 5%, worst at most 10%.
MEDIAN_BOUND, WORST_BOUND = 0.05, 0.10


def _reserve_drive_measured(budget: str) -> tuple[twin.TwinParameters, Measurement, Prediction]:
    """A simulated drive whose collector holds a GC reserve with a victim floor of 1/8 invalid
    (spare factor 0.88), measured by calibrate's plan for ``budget`` with the onset of garbage
    collection from empty dated, and predicted at 0-40%."""
    rho0, collector = twin.reserve_collector(0.88, 8.0)
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=6.0, t_cmd_us=3.0, uncertainty={},
        source="truth", gc_reserve=collector, buffer_bytes=0,
    )  # fmt: skip
    p = design([0, 40], parse_budget(budget), onset_from_empty=True)
    with SimTarget("sim:reserve-drive@1", drive=twin.drive_dict(truth)) as t:
        m = measure(t, p)
    assert m.onset_source == gc_onset.ONSET_FROM_EMPTY
    assert m.onset_spare_factor == pytest.approx(0.88, abs=0.03)
    fig = predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops, measurement=m,
        advertised_bytes=int(m.capacity_bytes / m.scale_factor), source="test",
        bootstrap_samples=5,
    )  # fmt: skip
    return truth, m, answer.predict(fig)


def _held_out_waf_errors(truth: twin.TwinParameters, pred: Prediction) -> list[float]:
    got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
    true = twin_runs.simulate_levels(truth, [10.0, 20.0, 30.0], {"pattern": "uniform"},
                                     timed=False, jobs=1)  # fmt: skip
    print({lv.extra_op_percent: (got[lv.extra_op_percent], lv.waf) for lv in true.levels})
    return [abs(got[lv.extra_op_percent] / lv.waf - 1) for lv in true.levels]


@pytest.mark.slow
def test_a_reserve_drive_measured_with_the_onset_step_is_predicted_within_the_rules_bounds(
    tmp_path,
):
    """Through the real pipeline: a simulated drive whose collector holds a GC reserve with a
    victim floor (the core's ``[ftl]`` keys), measured by calibrate's plan with the onset step
    forced on, predicted at 0–40%; the WAF at 10–30% (levels not measured) against the drive's
    own simulation there."""
    truth, m, pred = _reserve_drive_measured("5dw")
    weights = {r.key: r.weight for r in pred.readings or []}
    print(weights, pred.prediction_source)
    assert sum(w for k, w in weights.items() if k.startswith(predmod.RESERVE)) > 0.5
    assert pred.twins["twin.toml"].gc_reserve is not None
    assert all(lv.waf_high > lv.waf_low for lv in pred.levels)  # the foreign model-form error
    # written: twin.toml a copy of the reserve twin, which a scaled simulation opens with its
    # reserve and floor; prediction.json checked against its schema on the way
    pred.write(tmp_path)
    assert (tmp_path / "twin-reserve-greedy.toml").exists()
    cfg, _ = presets.preset_config(str(tmp_path / "twin.toml"), "1GiB")
    engine.check(cfg)
    assert cfg["ftl"]["gc_victim_min_invalid_fraction"] == 1 / 8
    assert cfg["ftl"]["gc_free_blocks"] > 10 * cfg["ftl"]["gc_forced_free_blocks"]
    errors = _held_out_waf_errors(truth, pred)
    assert statistics.median(errors) <= MEDIAN_BOUND and max(errors) <= WORST_BOUND, errors


#: The held-out WAF errors' spread (max − min, as fractions) over the simulator's seeds 1-3 of
#: the default-graded-plan test below, nothing else changed
#: (bench/foreign/results/onset-default5/reserve-test-seeds.txt: 10% −1.43 / −1.45 / +1.68%,
#: 20% +9.94 / +5.18 / +10.10%, 30% +2.73 / +1.16 / +2.95%).
SEED_SPREAD = {10.0: 0.0168 + 0.0145, 20.0: 0.1010 - 0.0518, 30.0: 0.0295 - 0.0116}


@pytest.mark.slow
def test_a_reserve_drive_measured_by_the_default_graded_plan_is_predicted_within_the_bounds():
    """The same drive under the default budget (2 drive writes: the graded plan, its onset from
    empty dated inside the graded fill): its collector collects in bursts, so each level reads
    over all it wrote (``level_window.over_bursts``; bench/results/floor-graded/RULE.md) and the
    WAF at 10-30% holds the same median bound; each figure's worst bound is 10% plus its own
    spread over the simulator's seeds 1-3 (:data:`SEED_SPREAD`: 3.13, 4.92 and 1.79 points at
    10, 20 and 30%), as bench/foreign/results/rescurve/RULE.md set it before any run. The 20%
    figure moves most: there the drive's spare ratio is about 0.10, where the greedy curve's
    d ln WAF / d ln spare is −9.6, and the twin's reserve follows the plan's 40% WAF figure,
    which reads 0.8-1.6% above the drive's steady WAF depending on the seed (seed 3 failed the
    10% bound with nothing changed; docs/calibrate-validation.md, "The reserve reading's curve
    between its floor and 40%"). This test runs seed 1."""
    truth, m, pred = _reserve_drive_measured("2dw")
    assert m.plan is not None and m.plan["precondition"] == "graded" and m.drive_writes <= 2.0
    first, later = m.levels[0], m.levels[1]
    assert first.window_rounds > m.plan["window_rounds"]  # read over more than its window
    assert later.drive_writes > 0.4  # its graded rounds (its freed 0.4) counted
    errors = _held_out_waf_errors(truth, pred)
    worst = [WORST_BOUND + SEED_SPREAD[x] for x in (10.0, 20.0, 30.0)]
    assert statistics.median(errors) <= MEDIAN_BOUND, errors
    assert all(e <= bound for e, bound in zip(errors, worst, strict=True)), (errors, worst)


def _fake_prediction(name: str, waf: float) -> Prediction:
    levels = [PredictedLevel(x, steady_iops=1e4, waf=waf) for x in LEVELS]
    return Prediction(
        interval="", prediction_source="", workload="", workload_flags="", waf_curve=None,
        levels=levels, recommendation=None, fit={"native_op": 0.1, "spare_efficiency": 1.0},
        twin=name, measurement=None, twins={name: object()},
    )  # fmt: skip


def test_combined_twins_are_named_apart_and_a_reading_the_core_rejects_is_set_aside(monkeypatch):
    """The combination's plumbing, without simulating (``predict.read`` and ``prepare``
    stubbed): the target's own twin becomes twin-greedy.toml, twin.toml the heaviest reading's
    copy; a reserve design whose twin the core rejects is set aside with the core's reason."""
    monkeypatch.setattr(mixture_centre, "ON", False)  # the mean (the median: test_mixture_centre)
    fig = _fig(_plan_points(0.9, 7.98), 0.9)
    plain = predmod.TwinReading()
    evs = reserve_reading.offered(fig, plain, fitmod.fit(fig.points))
    reserve = [r for r in evs if r.spare == predmod.RESERVE]
    assert len(reserve) >= 2
    rejected = reserve[1]
    w = {r: 0.0 for r in evs} | {reserve[0]: 0.6, plain: 0.3, rejected: 0.1}
    monkeypatch.setattr(reserve_reading, "weights", lambda _: w)

    def prepare(fig, r, curve):
        if r == rejected:
            raise predmod.TwinConfigError(r.key, 40.0, "twin", "the core says no", 0.1)
        return None

    monkeypatch.setattr(predmod, "prepare", prepare)
    monkeypatch.setattr(predmod, "read", lambda fig, r, c, ready: _fake_prediction(r.twin_name, 8))
    ready = predmod.Prepared(LEVELS, fitmod.waf_at, True, None, True)  # type: ignore[arg-type]
    ready.fitted = type("F", (), {"central": fitmod.fit(fig.points)})()  # type: ignore[assignment]
    pred = reserve_reading.predict(fig, plain, ready, _fake_prediction(predmod.TWIN, 4))
    assert [r.key for r in pred.readings] == [reserve[0].key, plain.key]
    assert pred.twin == predmod.TWIN
    assert set(pred.twins) == {predmod.TWIN, reserve[0].twin_name, "twin-greedy.toml"}
    assert pred.twins[predmod.TWIN] is pred.twins[reserve[0].twin_name]
    aside = {a.key: a.reason for a in pred.readings_set_aside}
    assert "the core says no" in aside[rejected.key]
    # the WAF: the weighted geometric mean of the two kept, 8 at 0.6 and 4 at 0.3
    assert pred.levels[0].waf == pytest.approx(8 ** (2 / 3) * 4 ** (1 / 3))


def test_a_reserve_twin_that_misses_its_measured_waf_is_set_aside(monkeypatch):
    """A reserve reading the evidence favours, whose twin reproduces its IOPS but misses a
    measured WAF figure by more than ``plausibility.TWIN_TOLERANCE``, is set aside and the
    prediction is the target's one reading's (``predict.read`` and ``prepare`` stubbed). The
    twin's figures are the 15 MB drive's (tests/calibrate/test_onset_small_drive.py): 3.65 at
    0% for 5.00 measured, where the reading took all the weight and the prediction read 3.65."""
    fig = _fig(_plan_points(0.9, 7.98), 0.9)
    plain = predmod.TwinReading()
    evs = reserve_reading.offered(fig, plain, fitmod.fit(fig.points))
    reserve = [r for r in evs if r.spare == predmod.RESERVE]
    monkeypatch.setattr(reserve_reading, "weights", lambda _: {r: 0.0 for r in evs} | {
        reserve[0]: 1.0})  # fmt: skip
    monkeypatch.setattr(predmod, "prepare", lambda fig, r, curve: None)

    def read(fig, r, curve, ready, twin_waf_at_0=3.65):
        pred = _fake_prediction(r.twin_name, twin_waf_at_0)
        pred.fit["twin_check"] = [
            {"extra_op_percent": 0.0, "measured_iops": 331.4, "twin_iops": 337.0,
             "rel_error": 0.017, "measured_waf": 5.00, "twin_waf": twin_waf_at_0},
            {"extra_op_percent": 40.0, "measured_iops": 1168.2, "twin_iops": 1202.2,
             "rel_error": 0.029, "measured_waf": 1.417, "twin_waf": 1.377},
        ]  # fmt: skip
        return pred

    monkeypatch.setattr(predmod, "read", read)
    ready = predmod.Prepared(LEVELS, fitmod.waf_at, True, None, True)  # type: ignore[arg-type]
    ready.fitted = type("F", (), {"central": fitmod.fit(fig.points)})()  # type: ignore[assignment]
    plain_prediction = _fake_prediction(predmod.TWIN, 5.01)
    pred = reserve_reading.predict(fig, plain, ready, plain_prediction)
    assert pred is plain_prediction and pred.levels[0].waf == 5.01
    assert "set aside: its twin misses the measured WAF at 0% extra OP by -27%" in (
        pred.prediction_source
    )
    # within the tolerance (−8%) the same reading is kept and takes the prediction
    monkeypatch.setattr(predmod, "read", lambda *a: read(*a, twin_waf_at_0=4.6))
    pred = reserve_reading.predict(fig, plain, ready, _fake_prediction(predmod.TWIN, 5.01))
    assert [r.key for r in pred.readings] == [reserve[0].key]
    assert pred.levels[0].waf == pytest.approx(4.6)
