"""calibrate's blocking-GC reading: fitted on a drive the core generates with non-preemptive GC
per domain, it recovers the mechanism and the held-out levels, and the evidence prefers it to
the analytic reading there."""

from __future__ import annotations

import pytest
from overprov import engine, presets
from overprov.calibrate import blocking_reading, evidence, gc_blocking
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import twin as twinmod
from overprov.prediction_file import PredictedLevel

TRUE_DOMAINS = 2
TRUE_PROGRAM_US = 1000.0
NATIVE_OP = 0.1


def _truth(extra_op_percent: float, queue_depth: int = 32) -> float:
    """The generated drive's steady IOPS: the mechanism at twice the twin's size, another seed."""
    cfg = gc_blocking.config(
        NATIVE_OP, extra_op_percent, TRUE_DOMAINS, TRUE_PROGRAM_US, queue_depth
    )
    user_bytes = 2 * gc_blocking.USER_PAGES * gc_blocking.PAGE_BYTES
    cfg["geometry"]["advertised_bytes"] = user_bytes
    cfg["geometry"]["physical_bytes"] = int(round(user_bytes * (1 + NATIVE_OP)))
    cfg["run"]["seed"] = 7
    return float(engine.run(cfg)["timed"]["measured"]["iops"])


def test_fit_recovers_the_mechanism_and_the_held_out_level():
    points = [
        fitmod.Point(0.0, _truth(0.0), 0.02),
        fitmod.Point(40.0, _truth(40.0), 0.02),
        fitmod.Point(0.0, gc_blocking.fob_iops(TRUE_PROGRAM_US, 32), 0.02, fresh=True),
    ]
    r = gc_blocking.fit(points, NATIVE_OP, queue_depth=32, jobs=1)
    assert r is not None
    assert r.domains == TRUE_DOMAINS
    assert abs(r.program_us / TRUE_PROGRAM_US - 1) < 0.05
    held_out = gc_blocking.predict(r, [20.0], jobs=1)[20.0][0]
    truth = _truth(20.0)
    assert abs(held_out / truth - 1) < 0.05, (held_out, truth)
    # another queue depth, never fitted
    at_qd4 = gc_blocking.predict(r, [40.0], queue_depth=4, jobs=1)[40.0][0]
    truth4 = _truth(40.0, 4)
    assert abs(at_qd4 / truth4 - 1) < 0.05, (at_qd4, truth4)
    assert truth4 < 0.8 * points[1].iops  # the drive does depend on queue depth
    # the analytic reading cannot reproduce these figures as well: it loses the weight
    analytic = evidence.assess(evidence.ReadingForm(fitmod.waf_at, NATIVE_OP), points, 0.02)
    w = evidence.weights({"analytic": analytic["chi2"], "blocking": r.chi2})
    assert w["blocking"] > 0.9, (analytic["chi2"], r.chi2)


@pytest.mark.parametrize(
    ("planes", "gc_multiplane", "gc"),
    [
        (1, False, {"blocking": "domain", "domains": 3}),
        # two planes whose programs take GC relocations (``timing.gc.multiplane``): a drive file
        # with planes_per_die was refused as an unknown key before the core listed it
        (2, True, {"blocking": "domain", "domains": 3, "multiplane": True}),
    ],
)
def test_the_twin_file_carries_the_mechanism(tmp_path, planes, gc_multiplane, gc):
    """A twin written with the blocking reading's timing is a drive file the core runs with
    non-preemptive GC on the fitted domains, no buffer and the fitted program time."""
    r = gc_blocking.BlockingReading(3, 900.0, 1.0, 32, NATIVE_OP, planes=planes,
                                    gc_multiplane=gc_multiplane)  # fmt: skip
    p = twinmod.TwinParameters(
        advertised_bytes=2**30, native_op=NATIVE_OP, t_page_us=100.0, t_cmd_us=-10.0,
        uncertainty={}, source="test", gc_timing=r.twin_timing(),
    )  # fmt: skip
    path = twinmod.write(tmp_path / "twin.toml", p)
    cfg, _ = presets.preset_config(str(path), "0.25")
    timing = engine.validate(cfg)["config"]["timing"]
    assert timing["gc"] == gc
    assert timing["nand"].get("planes_per_die", 1) == planes
    assert timing["buffer"]["bytes"] == 0
    assert timing["nand"]["program_us"] == 900.0
    assert "non-preemptive GC" in path.read_text()
    assert ("GC relocations in them too" in path.read_text()) == gc_multiplane


def _link_capped(extra_op_percent: float, fresh: bool = False) -> float:
    """A drive the core generates with the mechanism and a 70 MB/s host link (a ceiling the
    blocking twin has not); ``fresh``: its first 0.3 drive writes from empty (FOB)."""
    cfg = gc_blocking.config(NATIVE_OP, extra_op_percent, 8, TRUE_PROGRAM_US, 32)
    cfg["timing"]["host"]["link_mb_s"] = 70.0
    cfg["run"]["seed"] = 7
    if fresh:
        cfg["precondition"]["kind"] = "none"
        cfg["run"] |= {"warmup_drive_writes": 0.0, "drive_writes": 0.3}
    return float(engine.run(cfg)["timed"]["measured"]["iops"])


def test_a_reading_that_misses_its_fitted_figures_gets_no_weight():
    """On the link-capped drive the blocking twin cannot reproduce FOB and the steady figures
    together (its FOB is die-bound); the analytic reading (native spare fitted) reproduces all
    three, yet its leave-one-out term (t_cmd held at 0 with two figures left) is larger than
    the blocking reading's χ². The reproduction test gives the blocking reading no weight, and
    the weighed IOPS stay at the analytic ones."""
    points = [
        fitmod.Point(0.0, _link_capped(0.0), 0.05),
        fitmod.Point(40.0, _link_capped(40.0), 0.05),
        fitmod.Point(0.0, _link_capped(0.0, fresh=True), 0.05, fresh=True),
    ]
    central = fitmod.fit(points)
    rows = [
        PredictedLevel(
            extra_op_percent=x, steady_iops=central.iops(x),
            steady_iops_low=0.9 * central.iops(x), steady_iops_high=1.1 * central.iops(x),
        )
        for x in (0.0, 40.0)
    ]  # fmt: skip
    params = twinmod.TwinParameters(
        advertised_bytes=2**32, native_op=central.native_op, t_page_us=central.t_page_us,
        t_cmd_us=central.t_cmd_us, uncertainty={}, source="test",
    )  # fmt: skip
    fig = predmod.PredictionInput(points, [0.0, 40.0], jobs=1)
    got = predmod._TwinFigures(rows, "", params)
    mech = blocking_reading.weigh(fig, predmod.TwinReading(), got, fitmod.waf_at, None, qd=32)
    assert mech is not None and mech["weight"] == 0.0, mech["weight"]
    # the weighed IOPS reproduce the fitted figures within their noise
    for row, p in zip(rows, points, strict=False):
        assert abs(row.steady_iops / p.iops - 1) < 0.05, (row, p)
    steady_misses = [abs(e["log_error"]) for e in mech["residuals"] if not e["fresh"]]
    assert min(steady_misses) > 0.1  # misses both fitted steady figures by over 10%
    assert mech["reproduces_fitted_figures"] is False
    form = evidence.ReadingForm(fitmod.waf_at)
    a = evidence.assess(form, points, 0.0)
    assert evidence.reproduces(a["residual_chi2"], a["n_figures"], a["n_parameters"])
    assert a["chi2"] == mech["analytic_chi2"]
    # likelihood alone would have given the blocking reading the weight
    assert evidence.weights({"a": a["chi2"], "b": mech["chi2"]})["b"] > 0.99


def test_a_refined_spare_the_blocking_twin_cannot_run_at_is_said_not_simulated(monkeypatch):
    """A twin refined down to the fit's lower bound of native spare (0.1%): the blocking-GC
    twin at 0% extra OP would have one spare block. The reading is not weighed with it, the
    prediction's source says why, and nothing is simulated."""

    def no_simulation(*args, **kwargs):
        raise AssertionError("the blocking-GC twin was simulated")

    monkeypatch.setattr(gc_blocking, "simulate_runs", no_simulation)
    points = [fitmod.Point(x, v, 0.05) for x, v in ((10.0, 12500.0), (20.0, 25000.0),
                                                   (40.0, 50000.0))]  # fmt: skip
    params = twinmod.TwinParameters(
        advertised_bytes=2**32, native_op=fitmod.RHO_MIN, t_page_us=10.0, t_cmd_us=0.0,
        uncertainty={}, source="test",
    )  # fmt: skip
    rows = [PredictedLevel(x, steady_iops=1000.0, steady_iops_low=900.0, steady_iops_high=1100.0)
            for x in (0.0, 20.0)]  # fmt: skip
    got = predmod._TwinFigures(rows, "the twin", params)
    fig = predmod.PredictionInput(points, [0.0, 20.0], jobs=1)
    assert (
        blocking_reading.weigh(fig, predmod.TwinReading(), got, fitmod.waf_at, None, qd=32) is None
    )
    assert "not weighed with the blocking-GC reading: its twin at 0% extra OP" in got.source
    assert "OP too small to collect garbage" in got.source
    assert rows[0].steady_iops == 1000.0
