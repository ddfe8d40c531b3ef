"""The two readings of a drive whose raw NAND is known (calibrate/spare_readings.py)."""

from __future__ import annotations

import json
import math

import jsonschema
import pytest
from overprov import sweep
from overprov.calibrate import fit as fitmod
from overprov.calibrate import (
    gc_designs,
    mixture_centre,
    prediction,
    spare_readings,
    workload_curve,
)
from overprov.calibrate import predict as predmod
from overprov.calibrate.twin_runs import simulated_level
from overprov.cli import main
from overprov.errors import ConfigError

RAW_128 = 2**37 / 128e9 - 1  # 128 GB on 128 GiB of NAND


def test_the_efficiency_fit_finds_k_from_one_waf_figure():
    """A WAF figure made by the greedy model at k = 2.5 times the raw spare: the fit finds
    k, and with it the figure at another level (the model's own, not a drive's)."""
    k = 2.5
    waf0 = fitmod.waf_at(k * fitmod.rho_eff(RAW_128, 0.0))
    s = fitmod.fit([fitmod.Point(0.0, None, waf=waf0)], native_op=RAW_128, fit_efficiency=True)
    assert s.spare_efficiency == pytest.approx(k, rel=1e-3)
    assert s.native_op == RAW_128
    assert s.waf(6.25) == pytest.approx(fitmod.waf_at(k * fitmod.rho_eff(RAW_128, 6.25)), rel=1e-3)


def test_without_a_waf_figure_k_stays_1_and_says_so():
    s = fitmod.fit(
        [fitmod.Point(20.0, 25000.0), fitmod.Point(0.0, 90000.0, fresh=True)],
        native_op=0.07,
        fit_efficiency=True,
    )
    assert s.spare_efficiency == 1.0
    assert any("spare_efficiency = 1" in f for f in s.fixed)


@pytest.mark.parametrize("k", [0.5, 1.0, 3.0])
def test_each_level_is_simulated_at_k_times_the_raw_spare(k):
    """The twin file holds k·ρ₀; level x is simulated at the extra OP where the file's spare
    is k·ρ(x). k = 1 is x itself."""
    twin_native = k * RAW_128
    for x in (0.0, 6.25, 20.0, 40.0):
        y = simulated_level(RAW_128, twin_native, x)
        assert y >= 0
        assert fitmod.rho_eff(twin_native, y) == pytest.approx(
            k * fitmod.rho_eff(RAW_128, x), rel=1e-9
        )
        if k == 1.0:
            assert y == pytest.approx(x, abs=1e-9)


@pytest.mark.slow  # eight twins: two spare readings × four uniform GC designs
def test_raw_nand_and_a_waf_figure_give_both_readings(calibrated_once):
    """--physical with --waf-points: both spare readings are made (each with every uniform GC
    design) and each twin reproduces the figure, but one WAF figure cannot tell the spares
    apart (nothing to hold out), so the raw-spare readings take no weight
    (``spare_readings.raw_share``): the prediction is the geometric mean of the effective-spare
    readings, as without the raw NAND, and its interval holds them. (The PNY figure with its
    raw NAND, made once per test run: test_prediction.py reads it too.)"""
    out, printed = calibrated_once("--waf-points", "0:2.85", "--advertised", "128GB",
                                   "--physical", "128GiB", "--extra-op", "0,20")  # fmt: skip
    pred = json.loads(printed)
    jsonschema.validate(pred, prediction.schema())
    assert len(pred["readings"]) == 8 and "readings_set_aside" not in pred
    eff, raw = pred["readings"]["effective_spare"], pred["readings"]["raw_spare"]
    assert raw["fit"]["native_op"] == pytest.approx(RAW_128)
    assert raw["fit"]["spare_efficiency"] > 1  # 2.85 is far below greedy at 7.4% spare
    assert eff["fit"]["spare_efficiency"] == 1.0
    for key, reading in pred["readings"].items():
        (check,) = reading["fit"]["twin_check"]
        assert abs(check["rel_error"]) <= 0.05
        assert reading["weight"] == pytest.approx(0.0 if key.startswith("raw") else 1 / 4)
    assert "raw-spare readings take 0 of the weight" in pred["prediction_source"]
    assert eff["twin"].endswith("twin-greedy.toml") and raw["twin"].endswith("twin-raw-nand.toml")
    # equal weights: twin.toml is the first reading's (greedy, effective spare)
    assert (out / "twin.toml").read_text() == (out / "twin-greedy.toml").read_text()
    for i, row in enumerate(pred["levels"]):
        effs = [r["levels"][i] for k, r in pred["readings"].items() if k.startswith("eff")]
        wafs = [r["waf"] for r in effs]
        # the centre: the equal mixture's median (mixture_centre, on; off: the geometric mean)
        rows = [(r["waf"], r["waf_low"], r["waf_high"]) for r in effs]
        mid = mixture_centre.median(rows, [1] * 4)
        want = mid if mixture_centre.ON else math.prod(wafs) ** (1 / 4)
        assert row["waf"] == pytest.approx(want, rel=1e-9)
        assert row["waf_low"] <= min(wafs) <= max(wafs) <= row["waf_high"]
    at = {r["extra_op_percent"]: r for r in raw["levels"]}
    at_eff = {r["extra_op_percent"]: r for r in eff["levels"]}
    # the readings differ in how extra OP helps: in proportion to the spare (raw) or by adding
    # to a spare already large (effective), so the raw reading falls faster
    assert at[20]["waf"] < at_eff[20]["waf"]


@pytest.mark.slow  # four twins: the raw spare with each uniform GC design
def test_one_iops_figure_and_the_raw_nand_is_the_raw_reading_alone(calibrated_once):
    """One IOPS figure with the raw NAND cannot fix an effective spare beside it: the raw
    spare's readings alone, and twin.toml is the raw-NAND twin. (The 850 Pro's calibration,
    made once per test run: test_calibrate_cli.py reads it too.)"""
    out, printed = calibrated_once("--points", "20:25000", "--advertised", "512000000000",
                                   "--physical", "549755813888", "--extra-op", "20,40")  # fmt: skip
    pred = json.loads(printed)
    assert all(k.startswith("raw_spare") for k in pred["readings"])
    assert "raw spare only" in pred["prediction_source"]
    assert (out / "twin.toml").read_text() == (out / "twin-raw-nand.toml").read_text()


@pytest.mark.timeout(900)  # a sweep of simulations per GC design
@pytest.mark.slow
def test_raw_nand_under_a_skewed_workload_reads_each_gc_design(
    tmp_path, capsys, monkeypatch, waf_curves
):
    """The PNY pair as a user types it (docs/calibrate-validation.md): the raw NAND given and
    JESD219 named. Both spare readings are made with each GC design the simulator has (its own curve
    and twin each); one WAF figure cannot tell the spares apart, so the prediction is the
    geometric mean of the four effective-spare readings (the raw-spare ones take no weight,
    ``spare_readings.raw_share``) and the interval spans them. A design that uses spare space
    better needs a smaller k to meet the same figure.
    (The designs' JESD219 curves are made once per test run, ``waf_curves``: those of
    test_workload_points.py's JESD219 test.)"""
    monkeypatch.setattr(mixture_centre, "ON", False)  # the mean (the median: test_mixture_centre)
    from overprov.calibrate.spare_readings import GC_DESIGNS, reading

    monkeypatch.setattr(workload_curve, "simulate_curve", waf_curves)

    rc = main(["calibrate", "--waf-points", "0:2.85", "--extra-op", "0,6.25",
               "--advertised", "128GB", "--physical", "128GiB", "--workload", "jesd219",
               "--jobs", "2", "--out", str(tmp_path), "--json", "-"])  # fmt: skip
    assert rc == 0
    pred = json.loads(capsys.readouterr().out)
    jsonschema.validate(pred, prediction.schema())
    keys = {reading(s, d, None).key for s in ("effective_spare", "raw_spare") for d in GC_DESIGNS}
    assert set(pred["readings"]) == keys
    wafs = []
    for key, r in pred["readings"].items():
        (check,) = r["fit"]["twin_check"]
        assert abs(check["rel_error"]) <= 0.05
        assert (tmp_path / r["twin"]).is_file() or r["twin"].startswith(str(tmp_path))
        if key.startswith("effective"):
            wafs.append(r["levels"][1]["waf"])
        else:
            assert r["weight"] == 0.0
    row = pred["levels"][1]
    assert row["waf"] == pytest.approx(math.prod(wafs) ** (1 / len(wafs)), rel=1e-9)
    assert row["waf_low"] <= min(wafs) and max(wafs) <= row["waf_high"]
    k = {key: pred["readings"][key]["fit"]["spare_efficiency"] for key in keys if "raw" in key}
    assert k["raw_spare:cost-benefit-zones"] < k["raw_spare"]
    assert k["raw_spare:cost-benefit-zones"] > 1.0  # 2.85 beats every design at the raw spare


def _typed(spec: str, levels: list[float], fob: float | None = None) -> predmod.PredictionInput:
    """Typed IOPS figures "OP:IOPS,..." (and a FOB figure), as --points/--fob-iops give them."""
    pts = [
        fitmod.Point(float(x), float(v), 0.05) for x, v in (p.split(":") for p in spec.split(","))
    ]
    if fob is not None:
        pts.append(fitmod.Point(0.0, fob, 0.05, fresh=True))
    return predmod.PredictionInput(
        pts, levels, typed=True, fob_iops=fob, advertised_bytes=512 * 10**9, jobs=1,
        bootstrap_samples=10,
    )  # fmt: skip


def test_a_twin_that_cannot_collect_garbage_stops_the_run_before_any_simulation(monkeypatch):
    """Figures that give every reading a native spare of 0.1-0.3%: the blocking-GC twin at
    0% extra OP has too few spare blocks to collect garbage. Every
    reading's configs are checked at every level first, so calibrate stops with one line
    naming the reading, the level and the core's reason, and simulates nothing."""

    def no_simulation(*args, **kwargs):
        raise AssertionError("a twin was simulated before the configs were checked")

    monkeypatch.setattr(sweep, "run_points", no_simulation)
    fig = _typed("10:12500,20:25000,40:50000", [0.0, 20.0])
    with pytest.raises(ConfigError) as got:
        spare_readings.read_all(fig, {d: gc_designs.curve(d) for d in gc_designs.UNIFORM_DESIGNS})
    msg = str(got.value)
    assert "\n" not in msg
    assert msg.startswith("reading effective_spare")
    assert "at 0% extra OP cannot be simulated" in msg
    assert "OP too small to collect garbage" in msg
    assert msg.endswith(
        "no reading of the figures can be simulated at 0% extra OP: leave that "
        "level out of --extra-op"
    )


def test_each_reading_s_twins_are_checked_at_every_level():
    """The reviewer's figures (20:25000, 40:50000, FOB 90000): the d-choices-2 reading fits
    its native spare at the lower bound and its blocking-GC twin cannot run at 0% extra OP,
    while the greedy reading's twins all pass; at 20% extra OP the d-choices-2 twins pass."""
    curve = gc_designs.curve("d-choices-2")
    d2 = spare_readings.reading(predmod.EFFECTIVE, "d-choices-2", None, several=True)
    with pytest.raises(predmod.TwinConfigError) as got:
        predmod.prepare(_typed("20:25000,40:50000", [0.0, 20.0], 90000.0), d2, curve)
    assert got.value.reading_key == "effective_spare:d-choices-2"
    assert got.value.extra_op_percent == 0.0
    assert "blocking-GC twin" in got.value.reason
    assert "OP too small to collect garbage" in got.value.reason
    ok = predmod.prepare(_typed("20:25000,40:50000", [20.0, 40.0], 90000.0), d2, curve)
    assert ok.fitted.twin.native_op == pytest.approx(fitmod.RHO_MIN, rel=1e-3)
    greedy = spare_readings.reading(predmod.EFFECTIVE, "greedy", None, several=True)
    fig = _typed("20:25000,40:50000", [0.0, 20.0], 90000.0)
    assert predmod.prepare(fig, greedy, gc_designs.curve("greedy")).levels == [0.0, 20.0]


def test_a_measured_target_s_one_reading_goes_on_without_its_blocking_gc_twin(monkeypatch):
    """A measured target's figures (not typed: one reading, nothing to stand in for it) that
    fit 0.1-0.3% of native spare: the blocking-GC twin at 0% extra OP cannot collect garbage.
    Checked as typed figures are, calibrate stopped after the whole measurement (exit 2);
    the one reading is prepared without that twin, which ``blocking_reading.weigh`` then leaves out
    with its reason. Nothing is simulated here."""

    def no_simulation(*args, **kwargs):
        raise AssertionError("a twin was simulated while preparing")

    monkeypatch.setattr(sweep, "run_points", no_simulation)
    pts = [fitmod.Point(x, v, 0.05) for x, v in ((10.0, 12500.0), (20.0, 25000.0), (40.0, 50000.0))]
    fig = predmod.PredictionInput(pts, [0.0, 20.0], advertised_bytes=2**30, jobs=1)
    reading = predmod.TwinReading()
    with pytest.raises(predmod.TwinConfigError) as got:
        predmod.prepare(fig, reading)
    assert "blocking-GC twin at 0% extra OP" in got.value.reason
    ready = predmod.prepare(fig, reading, blocking_optional=True)
    assert ready.levels == [0.0, 20.0] and ready.has_iops
    assert ready.fitted.twin.native_op < 0.005


@pytest.mark.slow  # the greedy and d-choices-8 readings' twins, simulated
def test_readings_whose_twin_cannot_run_are_set_aside_and_the_rest_predict(tmp_path, capsys):
    """20:25000, 40:50000 and FOB 90000 at 0% extra OP: the d-choices-2 and -4 readings fit
    0.1% and 0.22% of native spare and their blocking-GC twins cannot collect garbage there;
    they are set aside with that reason (said in prediction_source and the summary, with the
    weight they held and that the figures are the optimistic side's) and the level is
    predicted from the greedy and d-choices-8 readings."""
    rc = main(["calibrate", "--points", "20:25000,40:50000", "--fob-iops", "90000",
               "--advertised", "512GB", "--extra-op", "0", "--jobs", "1",
               "--out", str(tmp_path), "--json", "-"])  # fmt: skip
    assert rc == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    jsonschema.validate(doc, prediction.schema())
    assert [r["extra_op_percent"] for r in doc["levels"]] == [0]
    assert doc["levels"][0]["steady_iops"] > 0
    assert set(doc["readings"]) == {"effective_spare", "effective_spare:d-choices-8"}
    aside = doc["readings_set_aside"]
    assert set(aside) == {"effective_spare:d-choices-2", "effective_spare:d-choices-4"}
    for r in aside.values():
        assert r["reason"].startswith("its blocking-GC twin at 0% extra OP cannot be simulated")
    assert "OP too small to collect garbage" in aside["effective_spare:d-choices-2"]["reason"]
    source = doc["prediction_source"]
    assert "2 whose twin the simulator cannot run at a level asked for" in source
    assert "of the weight and fitted less native spare than any reading kept" in source
    assert "without 0% in --extra-op they would be simulated too" in source
    assert "reading effective_spare:d-choices-2 set aside: its blocking-GC twin" in captured.err
