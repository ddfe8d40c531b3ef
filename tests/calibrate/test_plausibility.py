"""A fit that cannot explain its inputs exits 3 with the reason and leaves no twin: each rule of
``calibrate/plausibility.py`` on its own, then the command on the cases that used to exit 0."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import plausibility as pl
from overprov.calibrate.fit import Point
from overprov.calibrate.prediction import PredictedLevel, Prediction
from overprov.cli import main


def _pred(levels=(), **fit):
    """A prediction holding what the rules read: its levels and its fit."""
    base = {"native_op": 0.07, "t_page_us": 8.0, "t_cmd_us": 5.0, "points": [], "twin_check": []}
    return Prediction(
        interval="80%", prediction_source="the twin", workload="uniform random writes",
        workload_flags="", waf_curve=None, levels=list(levels), recommendation=None,
        fit={**base, **fit}, twin="twin.toml", measurement=None,
    )  # fmt: skip


def test_iops_falling_with_op():
    assert pl.iops_fall_with_op([Point(0, 30000, 0.05), Point(20, 10000, 0.05)])
    why = pl.iops_fall_with_op([Point(0, 30000, 0.01), Point(20, 28000, 0.01)])
    assert "30,000 at 0% to 28,000 at 20%" in why
    # within the points' spread, flat (a controller ceiling), rising or a FOB figure: fine
    assert pl.iops_fall_with_op([Point(0, 30000, 0.05), Point(20, 28000, 0.05)]) is None
    assert pl.iops_fall_with_op([Point(0, 30000), Point(20, 30000), Point(40, 31000)]) is None
    assert pl.iops_fall_with_op([Point(0, 90000, fresh=True), Point(20, 25000)]) is None


def test_waf_rising_with_op():
    assert "WAF rises from 1.50 at 0% to 3.00 at 20%" in pl.waf_rises_with_op(
        [Point(0, waf=1.5), Point(20, waf=3.0)]
    )
    assert pl.waf_rises_with_op([Point(0, waf=3.0), Point(20, waf=1.5)]) is None


def test_non_finite():
    assert pl.non_finite(_pred([PredictedLevel(0.0, waf=2.0)])) is None
    why = pl.non_finite(_pred([PredictedLevel(0.0, waf=2.0), PredictedLevel(20.0, waf=math.nan)]))
    assert "levels[1].waf" in why
    assert "fit.t_page_us" in pl.non_finite(_pred(t_page_us=math.inf))


def test_native_op_too_large():
    assert pl.native_op_too_large(_pred(native_op=0.28)) is None
    assert "150%" in pl.native_op_too_large(_pred(native_op=1.5))


def test_fit_error_too_large():
    pred = _pred(points=[{"extra_op_percent": 0, "iops": 30000, "waf": None, "fresh": False}])
    pred.levels = [PredictedLevel(0, surrogate_iops=18000.0)]  # −40%: allowed
    assert pl.fit_error_too_large(pred) is None
    pred.levels = [PredictedLevel(0, surrogate_iops=12000.0)]
    assert "misses its IOPS point at 0% by -60%" in pl.fit_error_too_large(pred)


def test_twin_misses_its_points():
    check = {"extra_op_percent": 20, "measured_iops": 10000, "rel_error": 0.05}
    assert pl.twin_misses_its_points(_pred(twin_check=[check])) is None
    check["rel_error"] = 1.662
    assert "misses its IOPS at 20% by +166%" in pl.twin_misses_its_points(_pred(twin_check=[check]))


def test_twin_check_miss_reads_iops_or_waf():
    """An entry refined to IOPS can still miss its WAF: the reserve reading's guard reads the
    WAF (``waf_only``), the plausibility rule the figure the twin was refined to."""
    ok_iops = {"extra_op_percent": 0, "measured_iops": 200, "rel_error": 0.02,
               "measured_waf": 5.0, "twin_waf": 3.65}  # fmt: skip
    assert pl.twin_check_miss([ok_iops]) is None
    entry, err = pl.twin_check_miss([ok_iops], waf_only=True)
    assert entry is ok_iops and err == pytest.approx(3.65 / 5.0 - 1.0)
    no_waf = {"extra_op_percent": 40, "measured_iops": 900, "rel_error": -0.3}
    assert pl.twin_check_miss([no_waf], waf_only=True) is None
    assert pl.twin_check_miss([no_waf])[1] == -0.3


def test_falling_iops_exit_2_and_write_no_twin(tmp_path, capsys):
    """``--points '0:30000,20:10000'`` used to fit "native OP 150%" with a 166% error, exit 0,
    and write its twin as if it were good; figures typed in are an input: exit 2 (it was 3)."""
    rc = main(["calibrate", "--points", "0:30000,20:10000", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2
    assert "IOPS fall from 30,000 at 0% to 10,000 at 20%" in err and err.count("\n") == 1
    assert not list(tmp_path.glob("twin*.toml")) and not (tmp_path / "prediction.json").exists()


def test_surrogate_misses_its_points():
    from overprov.calibrate.fit import fit

    good = [Point(0, 8500, 0.05), Point(40, 59000, 0.05)]
    assert pl.surrogate_misses_its_points(fit(good), good) is None
    bad = [Point(0, 1000, 0.05), Point(1, 100000, 0.05)]
    assert "misses its IOPS point at 0% by +1464%" in pl.surrogate_misses_its_points(fit(bad), bad)


def test_an_unexplained_fit_exits_3_before_simulating(tmp_path, capsys):
    """``--points 0:1000,1:100000`` fitted native OP 0.1% (WAF 254) and simulated its twin for
    over 200 s (never seen to end); refused now from the fitted model, before any twin."""
    rc = main(["calibrate", "--points", "0:1000,1:100000", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 3 and "misses its IOPS point at 0% by +1464%" in err
    # nothing written but the lock that holds --out for one run (docs/cli.md)
    assert [p.name for p in tmp_path.iterdir()] in ([], [".lock"])


def test_native_op_at_its_bound_exits_3(tmp_path, capsys):
    """WAF 1.01 at 0% and 1.0 at 40% put the native OP at the fit's bound (150%) and used to
    exit 0 with a twin written."""
    rc = main(["calibrate", "--waf-points", "0:1.01,40:1.0", "--extra-op", "0,40",
               "--out", str(tmp_path)])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 3 and "no twin is written" in err and "native OP at 150%" in err
    assert [p.name for p in tmp_path.iterdir()] in ([], [".lock"])


def test_a_refused_prediction_leaves_no_twin(tmp_path, monkeypatch, capsys, femucarry_off):
    """A rule that refuses the prediction after the twin was simulated removes the twin files
    written for it (here the twin's tolerance is set to nothing, so any miss refuses; two WAF
    figures, whose twins' runs are WAF-only and cheap, tests/contract/commands.py: any twin
    misses them by some, and the prediction is refused after its twins were simulated, as one
    from IOPS figures is). femucarry's six flags off: with them these figures are read as a GC
    reserve, whose twins set aside for a miss leave no reading (an error, rc 2, no file)."""
    monkeypatch.setattr(pl, "TWIN_TOLERANCE", 1e-12)
    rc = main(["calibrate", "--waf-points", "0:3,40:1.5", "--extra-op", "0,40",
               "--out", str(tmp_path)])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 3 and "no twin is written" in err and "the twin of the fit misses" in err
    assert not list(tmp_path.glob("twin*.toml")) and not (tmp_path / "prediction.json").exists()


def _flat_block_device(folder):
    """A loop device's measurement (kind "block", one round per level, no write counters):
    steady IOPS flat across 0-40% extra OP, as a sparse file's page cache gives them, and the
    plan's QD4 probe at 40%."""
    from overprov import measurement_file
    from overprov.measurement_file import Level, Measurement

    def level(x, iops, qd=None):
        return Level(
            extra_op_percent=x, steady_iops=iops, iops_rel_sd=0.0, waf=None, p99_latency_us=350.0,
            settled=False, window_rounds=1, drive_writes_before_window=20.0, drive_writes=21.0,
            queue_depth=qd,
        )  # fmt: skip

    m = Measurement(
        target="/dev/loop0", capacity_bytes=32 * 2**20, scale_factor=1.0, bs_bytes=4096, qd=32,
        fob_iops=159_390.0, kind="block", bytes_written=3 * 2**30,
        levels=[level(0.0, 170_000.0), level(20.0, 171_000.0), level(40.0, 170_500.0),
                level(40.0, 150_000.0, qd=4)],
    )  # fmt: skip
    folder.mkdir()
    measurement_file.save(m, folder / measurement_file.NAME)
    return folder


def test_no_garbage_collection_seen():
    """Flat IOPS figures put the native spare at the fit's lower bound (WAF 254 at 0%) with
    a collection that costs next to nothing: refused, naming the figures. Figures whose fit
    sits at the bound with garbage collection carrying the time (the 850 Pro's 20%/40% pair,
    t_cmd held at 0), near it (0.24%), a drive's usual fit, or a WAF figure: not this rule."""
    from overprov.calibrate.fit import RHO_MIN, fit

    flat = [Point(0, 170000, 0.05), Point(20, 171000, 0.05), Point(40, 170500, 0.05)]
    central = fit(flat)
    assert central.native_op == pytest.approx(RHO_MIN, rel=1e-4)
    why = pl.no_garbage_collection_seen(central, flat)
    assert why.startswith("steady IOPS of 170,000 at 0%, 171,000 at 20%, 170,500 at 40% extra OP")
    assert "lower bound (0.1%, WAF 254 at 0% extra OP)" in why
    assert "0.026 µs per write against 5.86 µs per command" in why
    assert pl.surrogate_misses_its_points(central, flat) == why
    pair = [Point(20, 25000, 0.05), Point(40, 50000, 0.05)]
    assert fit(pair).native_op == pytest.approx(RHO_MIN, rel=1e-4)  # at the bound, kept
    for kept in (
        pair,
        [Point(10, 12500, 0.05), Point(20, 25000, 0.05), Point(40, 50000, 0.05)],
        [Point(0, 8500, 0.05), Point(40, 59000, 0.05)],
        [*flat[:2], Point(40, 170500, 0.05, waf=1.4)],
    ):
        assert pl.no_garbage_collection_seen(fit(kept), kept) is None, kept


def test_a_flat_curve_exits_3_before_any_twin_is_simulated(tmp_path, monkeypatch, capsys):
    """A loop device's flat IOPS curve (``--from`` its measurement) fitted a native spare at
    the lower bound, then refined a twin at WAF 254 four times (about 300 CPU s) before the
    twin's 78% miss refused it; typed as ``--points`` it stopped on its blocking-GC twin at
    0% (exit 2: "leave that level out of --extra-op", though 0% was a figure's level). Both
    are refused now from the fitted model, with no twin simulated."""
    from overprov import sweep
    from overprov.calibrate import twin as twinmod

    simulated = []

    def no_simulation(*args, **kwargs):
        simulated.append(args)
        raise AssertionError("a twin was simulated")

    monkeypatch.setattr(sweep, "run_points", no_simulation)
    monkeypatch.setattr(twinmod, "simulate_levels", no_simulation)
    src = _flat_block_device(tmp_path / "src")
    for args in (["--from", str(src)], ["--points", "0:170000,20:171000,40:170500"]):
        out = tmp_path / args[0].strip("-")
        rc = main(["calibrate", *args, "--out", str(out)])
        err = capsys.readouterr().err
        assert rc == 3 and err.count("\n") == 1, err
        assert "no twin is written: steady IOPS of 170,000 at 0%, 171,000 at 20%" in err
        assert "show no garbage collection to fit" in err
        assert not list(out.glob("twin*.toml")) and not (out / "prediction.json").exists()
    assert simulated == []
