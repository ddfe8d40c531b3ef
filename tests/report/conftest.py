"""Inputs for the report tests, made once per session: real simulations (overprov simulate
--json, untimed and timed), an untimed one with a hand-built ``timed`` section
(report_fixtures.add_timed) and a real fio profile of a small file (overprov profile, which
writes its report itself); the profile of a simulated drive, ``sim_profile``, is in
tests/conftest.py (calibrate's tests read it too), and so are the qualifications of a simulated
drive, ``qualify_sim``, and of a file with real fio, ``qualify_fio`` (the qualify CLI's tests
read them too)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from report_cli import REPO, made_in_process, overprov
from report_fixtures import add_timed

SIM_ARGS = ("--advertised", "1G", "--warmup", "1", "--drive-writes", "2", "--no-progress")


def _simulate(path: Path, *extra: str) -> Path:
    res = made_in_process("simulate", *SIM_ARGS, *extra, "--json", str(path))
    assert res.returncode == 0, res.stderr
    return path


def _need_fio() -> None:
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")


# Each input is made once per test run, shared by parallel workers (made_once, tests/conftest.py).


@pytest.fixture(scope="session")
def sim_json(made_once) -> Path:
    """A greedy sweep of extra OP 0–30% on a 1 GB simulated drive."""
    name = "sim-greedy.json"
    d = made_once("report-sim", lambda d: _simulate(d / name, "--extra-op", "0,10,20,30"))
    return d / name


def report_once(made_once, name: str, *args: str) -> Path:
    """``overprov report ARGS --out FOLDER`` run once per test run (``made_once``): the page
    several tests read (each of them checks its own part of it, the browser test the page as a
    browser shows it); the command's stdout is kept beside it as ``stdout.txt``."""

    def make(d: Path) -> None:
        res = overprov("report", *args, "--out", str(d / "rep"))
        assert res.returncode == 0, res.stderr
        (d / "stdout.txt").write_text(res.stdout)

    return made_once(name, make) / "rep"


@pytest.fixture(scope="session")
def sim_report(sim_json: Path, made_once) -> Path:
    """``overprov report`` of ``sim_json`` with ``--nand tlc``, made once per run."""
    return report_once(made_once, "report-sim-page", str(sim_json), "--nand", "tlc")


@pytest.fixture(scope="session")
def sim_fifo_json(made_once) -> Path:
    name = "sim-fifo.json"
    extra = ("--extra-op", "0,10,20,30", "--policy", "fifo")
    return made_once("report-sim-fifo", lambda d: _simulate(d / name, *extra)) / name


@pytest.fixture(scope="session")
def timed_real_json(made_once) -> Path:
    """A real timed simulation: the consumer TLC preset at 2 GiB of NAND, extra OP 0–30%.
    At 2 GiB instead of its 1/256 scale (4 GiB): 3.0 CPU s against 6.1 as a command, steady
    IOPS 9,413, 23,124, 36,345 and 48,673 against 10,012, 23,682, 36,762 and 49,073, a FOB figure
    at the same three levels, and the same first level meeting 30,000 IOPS (20%) and 40,000
    (30%), the targets its readers recommend for (docs/testing.md, "Round 7")."""

    def make(d: Path) -> None:
        res = made_in_process(
            "simulate",
            "--preset",
            "consumer-tlc-sata",
            "--scale",
            "2GiB",
            "--extra-op",
            "0,10,20,30",
            "--no-progress",
            "--json",
            str(d / "consumer-tlc.json"),
        )
        assert res.returncode == 0, res.stderr

    return made_once("report-timed-real", make) / "consumer-tlc.json"


@pytest.fixture(scope="session")
def timed_json(sim_json: Path, made_once) -> Path:
    def make(d: Path) -> None:
        doc = add_timed(json.loads(sim_json.read_text()))
        (d / "sim-timed.json").write_text(json.dumps(doc))

    return made_once("report-timed", make) / "sim-timed.json"


@pytest.fixture(scope="session")
def trace_replay(made_once) -> Path:
    """``overprov simulate --trace`` of the fio iolog sample (tests/data/traces), timed, on a
    32 MiB drive it does not fit (it folds), one warm-up pass and three measured, at two
    levels, with ``--out``: the folder (simulate.json, report.html), the CLI's stdout beside
    it as ``stdout.txt``; made once per run (test_report_trace.py, the browser test)."""
    from overprov import cli

    def make(d: Path) -> None:
        argv = [
            "simulate", "--trace", str(REPO / "tests" / "data" / "traces" / "fio-randrw.iolog"),
            "--user-pages", "8192", "--pages-per-block", "64", "--timed", "--rho", "0.07,0.28",
            "--trace-repeat", "3", "--trace-warmup-passes", "1", "--no-progress", "--jobs", "1",
            "--out", str(d / "trace"),
        ]  # fmt: skip
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert cli.main(argv) == 0
        (d / "stdout.txt").write_text(buf.getvalue())

    return made_once("report-trace-replay", make) / "trace"


@pytest.fixture(scope="session")
def trace_plan_folder(made_once) -> Path:
    """``overprov plan --trace`` of the fio iolog sample on the consumer TLC preset at 1 GiB,
    four levels, two measured passes, a DWPD and an IOPS target (plan.json), and ``overprov
    report`` of it (rep/, rep.json); made once per run (test_report_plan.py, the browser
    test)."""
    from overprov import cli

    def make(d: Path) -> None:
        trace = REPO / "tests" / "data" / "traces" / "fio-randrw.iolog"
        for argv in (
            ["plan", "--trace", str(trace), "--preset", "consumer-tlc-sata", "--scale", "1GiB",
             "--extra-op", "0,10,20,30", "--trace-repeat", "2", "--target-dwpd", "0.7",
             "--target-iops", "12000", "--json", str(d / "plan.json")],
            ["report", str(d / "plan.json"), "--out", str(d / "rep"), "--json",
             str(d / "rep.json")],
        ):  # fmt: skip
            with contextlib.redirect_stdout(io.StringIO()):
                assert cli.main(argv) == 0

    return made_once("report-trace-plan", make)


@pytest.fixture(scope="session")
def fio_profile(made_once) -> Path:
    """A real profile of a 16 MiB file: two OP levels, 2 s rounds, at most 10 rounds each.
    The profile CLI writes report.html into the folder at its end."""
    _need_fio()

    def make(d: Path) -> None:
        out = d / "prof"
        res = overprov(
            "profile",
            str(d / "drive.img"),
            "--size",
            "16MiB",
            "--extra-op",
            "0,25",
            "--round-seconds",
            "2",
            "--max-rounds",
            "10",
            "--fob-seconds",
            "0",
            "--target-iops",
            "1000",
            "--out",
            str(out),
        )
        # 5 rounds of 2 s on a file rarely reach steady state: exit 3, "ran without the answer"
        assert res.returncode in (0, 3), res.stderr[-3000:]
        assert f"report: {out / 'report.html'}" in res.stdout, res.stdout + res.stderr

    return made_once("report-fio-profile", make) / "prof"


@pytest.fixture(scope="session")
def waf_calibration(made_once) -> Path:
    """A calibration fitted to two WAF points (no drive written): WAF at 0–40% with its band.
    In-process (``cli.main``), as the other inputs here that are not about the command line: a
    child would import matplotlib again for prediction.png (about 1.5 CPU s)."""
    from overprov import cli

    def make(d: Path) -> None:
        argv = ["calibrate", "--waf-points", "0:7.63,40:1.37", "--extra-op", "0,10,20,30,40",
                "--out", str(d / "cal")]  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli.main(argv) == 0
        assert (d / "cal" / "prediction.json").is_file()  # what its readers read

    return made_once("report-waf-calibration", make) / "cal"


@pytest.fixture(scope="session")
def waf_calibration_report(waf_calibration: Path, made_once) -> Path:
    """``overprov report`` of ``waf_calibration``, made once per run."""
    return report_once(made_once, "report-waf-calibration-page", str(waf_calibration))
