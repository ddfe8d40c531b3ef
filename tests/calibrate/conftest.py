"""Fixtures of the calibrate tests: the corpus bench (bench/corpus_bench.py) and its log reader
(bench/corpus_steady_window.py) as modules;
``waf_curves``, the workload's simulated WAF curves, and ``one_figure_no_out``, a
calibration written nowhere, each made once per test run. (``calibrated_once``, a
calibration of typed figures made once per run, is in tests/conftest.py: a report test reads
one too.)"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from overprov.calibrate import workload_curve

ROOT = Path(__file__).resolve().parents[2]
#: The library's own, whatever a test has put in its place since.
SIMULATE_CURVE = workload_curve.simulate_curve


def bench_module(name: str):
    """A script of bench/ imported as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def bench():
    return bench_module("corpus_bench")


@pytest.fixture(scope="module")
def steady_window():
    """bench/corpus_steady_window.py: a level's figure from a published measurement log."""
    return bench_module("corpus_steady_window")


@pytest.fixture(scope="session")
def waf_curves(made_once):
    """``workload_curve.simulate_curve`` made once per test run for each workload, GC design
    and number of processes (``made_once``, shared by the parallel workers): the calibrations
    under a skewed workload (JESD219) simulate one curve per GC design, 16 simulations each,
    the same curves in every test that names that workload. The first caller simulates it with
    the real function; the others read its figures back (exact: JSON keeps a float's digits).
    A test routes calibrate's curves through it with
    ``monkeypatch.setattr(workload_curve, "simulate_curve", waf_curves)``."""

    def curve(
        workload: dict[str, Any],
        *,
        jobs: int | None = None,
        progress: bool = False,
        ftl: dict[str, Any] | None = None,
    ) -> workload_curve.SimulatedCurve:
        key = json.dumps({"workload": workload, "ftl": ftl, "jobs": jobs}, sort_keys=True)
        name = "waf-curve-" + hashlib.sha256(key.encode()).hexdigest()[:16]

        def make(folder: Path) -> None:
            made = SIMULATE_CURVE(workload, jobs=jobs, progress=progress, ftl=ftl)
            doc = {"key": key, "rho": list(made.rhos), "waf": list(made.wafs)}
            (folder / "curve.json").write_text(json.dumps(doc), encoding="utf-8")

        doc = json.loads((made_once(name, make) / "curve.json").read_text(encoding="utf-8"))
        assert doc["key"] == key
        return workload_curve.SimulatedCurve(
            dict(workload), tuple(doc["rho"]), tuple(doc["waf"]), dict(ftl) if ftl else None
        )

    return curve


#: One IOPS figure with a FOB figure, one level: a cheap fit (3.3 CPU s against 6.8 for
#: 0:11000,40:32000 at two levels) that leaves one reading.
ONE_FIGURE = ("--points", "20:25000", "--fob-iops", "90000", "--extra-op", "20")


@pytest.fixture(scope="session")
def one_figure_no_out(made_once) -> tuple[int, str, str, list[str]]:
    """``overprov calibrate ONE_FIGURE --json -`` without --out, run once per test run
    (``made_once``) in an empty working folder: (exit status, stdout, stderr, what the
    working folder holds afterwards). Read by the test that it writes nothing and by the one
    that its single reading is not called a mean."""
    from overprov.cli import main

    def make(folder: Path) -> None:
        cwd = folder / "cwd"
        cwd.mkdir()
        printed, said = io.StringIO(), io.StringIO()
        quiet = contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said)
        with contextlib.chdir(cwd), quiet[0], quiet[1]:
            rc = main(["calibrate", *ONE_FIGURE, "--json", "-"])
        doc = {"rc": rc, "out": printed.getvalue(), "err": said.getvalue(),
               "left": sorted(p.name for p in cwd.iterdir())}  # fmt: skip
        (folder / "run.json").write_text(json.dumps(doc), encoding="utf-8")

    doc = json.loads((made_once("one-figure-no-out", make) / "run.json").read_text("utf-8"))
    return doc["rc"], doc["out"], doc["err"], doc["left"]


#: femucarry's six reserve flags, on together since bench/foreign/results/femumedian/verdict.md
FEMUCARRY_SIX = (
    ("steep_pair", "READ_AS_FLOOR"),
    ("reserve_held_out", "SAME_FORM_ONLY"),
    ("reserve_held_out", "WAF_TERMS_TOO"),
    ("reserve_plateau", "ON"),
    ("reserve_hull", "FLOOR_NEEDS_SELECTIVE"),
    ("reserve_hull", "NONE_LINKS"),
)


@pytest.fixture
def femucarry_off(monkeypatch):
    """The six flags pinned off, as before femumedian's verdict: for a test of a flag or a
    reading as it acts without them (a test sets the ones it is about after this)."""
    import importlib

    for module, name in FEMUCARRY_SIX:
        monkeypatch.setattr(importlib.import_module(f"overprov.calibrate.{module}"), name, False)
