"""``overprov calibrate`` end to end: a simulated drive, --from its folder, --points."""

from __future__ import annotations

import json

import jsonschema
import pytest
from overprov import sweep
from overprov.calibrate import prediction
from overprov.calibrate import twin as twinmod
from overprov.cli import main
from overprov.profile.sim_target import SimTarget


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    out = tmp_path_factory.mktemp("cal")
    rc = main(["calibrate", "sim:older-mlc-sata@1GiB", "--out", str(out),
               "--extra-op", "0,10,20,30,40", "--target-iops", "20000"])  # fmt: skip
    assert rc == 0
    return out


@pytest.mark.slow  # the module's calibration of a simulated drive
def test_writes_a_valid_prediction_and_a_usable_twin(calibrated):
    pred = json.loads((calibrated / "prediction.json").read_text())
    jsonschema.validate(pred, prediction.schema())
    assert pred["schema"] == "overprov.calibrate/1"
    # five IOPS levels under uniform writes: the blocking-GC reading is made and validated
    # with the rest (the JSON contract tests fit two figures, which leave it out)
    assert pred["fit"]["gc_mechanism"]["weight"] >= 0
    rows = pred["levels"]
    assert [r["extra_op_percent"] for r in rows] == [0, 10, 20, 30, 40]
    iops = [r["steady_iops"] for r in rows]
    assert iops == sorted(iops)  # more spare space, more IOPS
    for r in rows:
        assert r["steady_iops_low"] <= r["steady_iops"] <= r["steady_iops_high"]
        assert r["p99_latency_us"] > 0  # the twin's window's (test_twin_latency.py)
        assert "p99_latency_us_low" not in r  # no latency window any more
    assert twinmod.P99_SOURCE in pred["prediction_source"]
    assert "write_buffer" in pred["fit"]  # write_buffer.py's reading (test_write_buffer.py)
    m = pred["measurement"]
    assert m["drive_writes"] == pytest.approx(m["bytes_written"] / m["capacity_bytes"])
    # a scaled drive's I/O time is reported for the full-size drive
    assert m["io_seconds"] > m["io_seconds"] * m["scale_factor"]
    # the twin reproduces what was measured within 5%
    assert pred["fit"]["twin_check"]
    assert all(abs(c["rel_error"]) <= 0.05 for c in pred["fit"]["twin_check"])
    rec = pred["recommendation"]
    assert rec["target_iops"] == 20000
    first = next(r["extra_op_percent"] for r in rows if r["steady_iops"] >= 20000)
    assert rec["extra_op_percent"] == first
    # the twin is a drive file the simulator takes
    with SimTarget(f"sim:{calibrated / 'twin.toml'}@1GiB") as t:
        assert t.capacity_bytes > 0
    assert (calibrated / "prediction.png").stat().st_size > 0


@pytest.mark.slow  # the module's calibration of a simulated drive
def test_native_op_found_from_outside(calibrated):
    """The preset's spare space is never shown to the fit; the fit finds it from IOPS and WAF
    alone. At 1 GiB the drive has 256 blocks of which 17 are spare (7.37%, 256 GB on 256 GiB);
    the GC reserve (2 blocks) and the open host and GC frontiers (2) hold up to 4 of them, so
    the spare space garbage collection can use lies between 12.5 and 17 blocks."""
    pred = json.loads((calibrated / "prediction.json").read_text())
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        geo = json.loads(t._sim.report_json())["geometry"]
    per_block = geo["pages_per_block"] / geo["user_pages"]
    lowest = (geo["blocks"] - 4) * per_block - 1
    assert lowest - 0.005 <= pred["fit"]["native_op"] <= geo["rho"] + 0.005


@pytest.mark.slow  # the module's calibration of a simulated drive
def test_from_folder_refits_the_same_measurement(calibrated, tmp_path, capsys):
    rc = main(["calibrate", "--from", str(calibrated), "--out", str(tmp_path),
               "--extra-op", "0,10,20,30,40", "--json", "-"])  # fmt: skip
    assert rc == 0
    again = json.loads(capsys.readouterr().out)
    first = json.loads((calibrated / "prediction.json").read_text())
    assert again["fit"]["points"] == first["fit"]["points"]
    for a, b in zip(again["levels"], first["levels"], strict=True):
        assert a["steady_iops"] == pytest.approx(b["steady_iops"], rel=1e-9)


@pytest.mark.slow  # a 512 GB twin simulated at two levels
def test_points_850_pro_fit_20_predict_40(calibrated_once):
    """Samsung 850 Pro 512 GB (512 GiB of NAND): 25,000 IOPS at 20% extra OP is fitted,
    50,000 at 40% is held out. The prediction (about 39,400) misses a 15% target:
    greedy GC at 7.37% native OP gives a WAF ratio of 1.57 between the two levels, the drive
    gains 2.0x; docs/calibrate-validation.md records the figure and why. This test pins that figure.
    (The calibration is made once per test run: test_spare_readings.py reads it too.)"""
    _, printed = calibrated_once("--points", "20:25000", "--advertised", "512000000000",
                                 "--physical", "549755813888", "--extra-op", "20,40")  # fmt: skip
    pred = json.loads(printed)
    at = {r["extra_op_percent"]: r for r in pred["readings"]["raw_spare"]["levels"]}
    assert at[20]["steady_iops"] == pytest.approx(25000, rel=0.05)  # the fitted point
    assert at[40]["steady_iops"] == pytest.approx(39400, rel=0.03)  # held out: 50,000
    # one IOPS figure cannot tell the GC designs apart: the interval spans their readings
    row = pred["levels"][1]
    assert row["steady_iops_low"] <= at[40]["steady_iops"] <= row["steady_iops_high"]


@pytest.mark.slow  # four twins, one per uniform GC design
def test_waf_points_pny_fit_128gb_predict_120gb(calibrated_once):
    """PNY 128 GB (0% extra) WAF 2.85 is fitted; the 120 GB model (8 of 128 GB unused,
    6.25%) with WAF 1.87 is held out. Recorded in docs/calibrate-validation.md with its error. (The
    calibration is made once per test run: test_prediction.py reads it too.)"""
    _, printed = calibrated_once("--waf-points", "0:2.85", "--extra-op", "0,6.25")
    pred = json.loads(printed)
    at = {r["extra_op_percent"]: r for r in pred["readings"]["effective_spare"]["levels"]}
    assert at[0]["waf"] == pytest.approx(2.85, rel=0.01)
    assert at[6.25]["steady_iops"] is None  # no IOPS were given, none are predicted
    # held out: 1.87 measured; the greedy uniform-random model says 2.29 (+22%, documented)
    assert at[6.25]["waf"] == pytest.approx(2.29, rel=0.02)
    # the d-choices readings (equal weights: one figure) fall more slowly: the mean is higher
    assert pred["levels"][1]["waf"] > at[6.25]["waf"]


def test_sources_are_exclusive(tmp_path, capsys):
    assert main(["calibrate", "--points", "0:1000,20:3000", "--from", str(tmp_path)]) == 2
    assert "exactly one" in capsys.readouterr().err
    assert main(["calibrate", "--points", "1000"]) == 2
    assert "OP:VALUE" in capsys.readouterr().err


@pytest.mark.timeout(900)  # minutes on a loaded machine
@pytest.mark.slow
def test_from_a_profile_folder(sim_profile, tmp_path, capsys):
    """--from reads a profile's results.json: its steady phases are the points (the profile of
    a simulated drive made once per run, tests/conftest.py). One level to predict: the points
    are all its phases whatever --extra-op asks (10.6 CPU s at 0,20,40, 8.5 at 20)."""
    prof = sim_profile
    doc = json.loads((prof / "results.json").read_text())
    capsys.readouterr()
    assert main(["calibrate", "--from", str(prof), "--out", str(tmp_path / "cal"),
                 "--extra-op", "20", "--json", "-"]) == 0  # fmt: skip
    pred = json.loads(capsys.readouterr().out)
    fitted = {p["extra_op_percent"]: p["iops"] for p in pred["fit"]["points"]}
    assert fitted == {ph["extra_op_percent"]: ph["steady_iops"] for ph in doc["phases"]}
    assert pred["measurement"] is None  # nothing measured by calibrate itself
    jsonschema.validate(pred, prediction.schema())


def test_a_level_no_twin_can_be_simulated_at_stops_before_simulating(tmp_path, capsys, monkeypatch):
    """Figures that fit every reading a native spare of 0.1-0.3%: no reading's blocking-GC
    twin can collect garbage at 0% extra OP. calibrate says so in one line naming the reading,
    the level and why (exit 2), before any simulation, and writes nothing."""

    def no_simulation(*args, **kwargs):
        raise AssertionError("a twin was simulated before the configs were checked")

    monkeypatch.setattr(sweep, "run_points", no_simulation)
    rc = main(["calibrate", "--points", "10:12500,20:25000,40:50000", "--extra-op", "0,20",
               "--jobs", "1", "--out", str(tmp_path / "out")])  # fmt: skip
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert err.startswith("overprov calibrate: reading effective_spare: its blocking-GC twin at 0%")
    assert "OP too small to collect garbage" in err
    assert err.endswith("leave that level out of --extra-op")
    assert not (tmp_path / "out" / prediction.NAME).exists()
