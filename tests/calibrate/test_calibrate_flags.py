"""Ordinary mistakes on calibrate's flags: a one-line error naming the flag and exit 2 (they
used to hang or exit 70); where calibrate writes when fitting figures or a folder; sizes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.cli import main
from overprov.profile.sim_target import SimTarget

PACKAGE = Path(__file__).resolve().parents[2] / "python"


def test_nan_point_is_refused_at_once():
    """``--points '0:nan,20:200'`` ran for ever."""
    cmd = [sys.executable, "-c", "import sys; from overprov.cli import main; sys.exit(main())"]
    done = subprocess.run(
        [*cmd, "calibrate", "--points", "0:nan,20:200"],
        env={**os.environ, "PYTHONPATH": str(PACKAGE)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert (
        done.stderr.count("\n") == 1
        and "--points: expected a finite number, got 'nan'" in done.stderr
    )


GOOD = ["--points", "0:1000,20:3000"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([*GOOD, "--extra-op", "100"], "--extra-op: must be in [0, 100) %, got '100'"),
        ([*GOOD, "--extra-op", "0,nan"], "--extra-op: expected a percentage like 20 or 20%"),
        (["--points", "0:1e308,20:3000"], "--points: must be in (0, 1e+09], got '1e308'"),
        (["--points", "0:-5,20:3000"], "--points: must be in (0, 1e+09], got '-5' (in '0:-5'"),
        (["--points", "100:5000,20:3000"], "--points: must be in [0, 100) %, got '100'"),
        (["--points", "inf:5000,20:3000"], "--points"),
        ([*GOOD, "--fob-iops", "nan"], "--fob-iops: "),
        ([*GOOD, "--fob-iops", "inf"], "--fob-iops: "),
        ([*GOOD, "--target-iops", "-5"], "--target-iops: must be > 0, got '-5'"),
        (["--waf-points", "0:nan"], "--waf-points: expected a finite number, got 'nan'"),
        (["--waf-points", "0:0.5"], "--waf-points: must be in [1, 10000], got '0.5'"),
        (["--points", "20:25000", "--advertised", "912678912", "--physical", "1000GB"],
         "--advertised: 912,678,912 bytes is below 1 GB (a bare size is bytes"),
        (["--points", "20:25000", "--advertised", "512GB", "--physical", "2TB"],
         "--physical: 2,000,000,000,000 bytes is not a drive's raw NAND"),
        # figures at another queue depth alone: was "calibrate: calibrate: no measured points"
        (["--points", "40:20000@qd4,0:9000@qd4"],
         "overprov calibrate: no figure at the workload's queue depth (QD32) to fit: the 2 "
         "figures at another"),
        (["--points", "20:25000"], "overprov calibrate: one point cannot fix both"),
        # two figures at one level: the later replaced the earlier, then "one point cannot fix"
        (["--points", "0:11000,0:12000"],
         "--points: two figures at the same level 0% (11,000 and 12,000); give one figure"),
        (["--waf-points", "0:3,0%:2.5,20:1.5"], "--waf-points: two figures at the same level 0%"),
        (["--points", "0:9000,40:30000,40:700@qd4,40:760@QD4"],
         "--points: two figures at the same level 40% at QD4 (700 and 760)"),
        # figures typed in are an input (exit 2), not a run that found no answer (3)
        (["--points", "0:30000,20:10000"],
         "--points: the figures cannot be fitted: steady IOPS fall from 30,000 at 0%"),
        (["--waf-points", "0:1.5,20:3"], "--waf-points: the figures cannot be fitted: WAF rises"),
    ],
)  # fmt: skip
def test_mistakes_name_the_flag_and_exit_2(args, said, capsys):
    try:
        rc = main(["calibrate", *args])
    except SystemExit as exc:  # argparse's own refusal of a flag's value
        rc = exc.code
    assert rc == 2
    err = capsys.readouterr().err
    # one error line (argparse's usage lines may stand before it), no traceback
    assert said in err.strip().splitlines()[-1] and "Traceback" not in err, err


@pytest.mark.slow  # a 512 GB twin simulated at two levels
def test_a_bare_advertised_size_is_bytes(calibrated_once):
    """docs/cli.md: a bare size is bytes. ``--advertised 512000000000`` was read as GB (5·10²⁰
    bytes, so any --physical was 'smaller than --advertised'). (The 850 Pro's calibration with
    its sizes in bytes, made once per test run, exit 0: test_calibrate_cli.py reads it too.)"""
    _, printed = calibrated_once("--points", "20:25000", "--advertised", "512000000000",
                                 "--physical", "549755813888", "--extra-op", "20,40")  # fmt: skip
    pred = json.loads(printed)
    at = {r["extra_op_percent"]: r for r in pred["readings"]["raw_spare"]["levels"]}
    assert at[40]["steady_iops"] == pytest.approx(39400, rel=0.03)  # as with 512GB, 512GiB


@pytest.mark.slow  # a twin simulated at one level
def test_points_without_out_write_nothing(one_figure_no_out):
    """``--points`` without --out used to create overprov-calibrate-points/ in the current
    folder; it writes nothing now and says how to keep the result. (Figures whose fit is
    cheap, conftest.py's ONE_FIGURE; what is written does not depend on them. The run is
    made once: test_output_text.py reads its prediction.)"""
    rc, out, err, left = one_figure_no_out
    assert rc == 0
    assert "nothing written: give --out DIR" in err
    assert json.loads(out)["twin"] is None  # no path to a file that is not there
    assert left == []


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A kept measurement of two levels, without the plan's second-queue-depth window: two
    IOPS figures, which leave out the blocking-GC reading's fit (39 twin runs, 5 of the 8 CPU
    seconds of each refit); where calibrate writes does not depend on the figures."""
    out = tmp_path_factory.mktemp("kept")
    with SimTarget("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, design([0, 40], parse_budget(None), second_queue_depth=None))
    measurement_file.save(m, out / "measurement.json")
    return out


def test_from_writes_nothing_into_its_folder(kept, tmp_path, monkeypatch, capsys):
    """``--from DIR`` used to write twin.toml, prediction.json and the chart into DIR. (Each
    refit predicts one level: where it writes does not depend on the levels; 2.5 CPU s a
    refit against 4.0 at 0 and 40%.)"""
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in kept.iterdir())
    assert main(["calibrate", "--from", str(kept), "--extra-op", "40"]) == 0
    assert "nothing written" in capsys.readouterr().err
    assert sorted(p.name for p in kept.iterdir()) == before
    assert list(tmp_path.iterdir()) == []
    # --out DIR, or DIR by another name, is refused before anything is fitted
    link = tmp_path / "link"
    link.symlink_to(kept)
    for out in (kept, link):
        assert main(["calibrate", "--from", str(kept), "--out", str(out)]) == 2
        assert "is the --from folder" in capsys.readouterr().err
    assert sorted(p.name for p in kept.iterdir()) == before
    # another folder takes the refit
    assert main(["calibrate", "--from", str(kept), "--out", str(tmp_path / "refit"),
                 "--extra-op", "40"]) == 0  # fmt: skip
    assert (tmp_path / "refit" / "prediction.json").is_file()


def test_target_out_holding_a_calibration_is_not_overwritten(kept, capsys):
    before = (kept / "measurement.json").read_bytes()
    assert main(["calibrate", "sim:consumer-tlc-sata@1GiB", "--out", str(kept)]) == 2
    err = capsys.readouterr().err
    assert "already holds a calibration" in err and f"--resume {kept}" in err
    assert (kept / "measurement.json").read_bytes() == before


@pytest.mark.parametrize("held", ["prediction.json", "measurement.json"])
def test_figures_out_holding_a_calibration_is_not_overwritten(held, tmp_path, capsys):
    """``--points ... --out DIR`` replaced DIR's twin.toml and prediction.json, exit 0, and left
    an earlier measurement.json beside a fit from typed figures."""
    (tmp_path / held).write_text("{}")
    assert main(["calibrate", *GOOD, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"--out: {tmp_path} already holds a calibration ({held})" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [held]
    assert (tmp_path / held).read_text() == "{}"


def test_from_out_holding_a_calibration_is_not_overwritten(kept, tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    (other / "prediction.json").write_text("{}")
    assert main(["calibrate", "--from", str(kept), "--out", str(other)]) == 2
    assert "already holds a calibration (prediction.json)" in capsys.readouterr().err
    assert (other / "prediction.json").read_text() == "{}"
